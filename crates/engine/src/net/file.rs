//! The text of the network files, which the value network ([`super::NetWeights`]) and the
//! policy network ([`super::policy_net::PolicyNetWeights`]) share: `#` comments, the
//! format line, a `layers` line, the `base` lines (the linear model the network
//! corrects), then the weights, one part per line: `NAME NUMBERS` for a part given on one
//! line, `NAME INDEX NUMBERS` for each row of a part given row by row.
//!
//! Reading is strict: every part and row once, every number finite and within its part's
//! bound, the right count on each line; anything else is an error naming the line.

use std::fmt::Write as _;

use super::NetFileError;

/// A part of the weights to write: its name, values per line, whether it is written row
/// by row (`NAME INDEX ...`) or on one line.
pub(crate) struct Written<'a> {
    pub(crate) name: &'static str,
    pub(crate) width: usize,
    pub(crate) rows: bool,
    pub(crate) values: &'a [f32],
}

/// A part of the weights to read into `values`, with the bound of its numbers.
pub(crate) struct Part<'a> {
    pub(crate) name: &'static str,
    pub(crate) width: usize,
    pub(crate) rows: bool,
    pub(crate) values: &'a mut [f32],
    pub(crate) bound: f32,
}

/// The file's text: `comments` (each a `# ` line), `format`, `layers`, the `base` lines (a
/// linear model's file, its comments left out) and the parts in order.
pub(crate) fn to_text(comments: &[String], format: &str, layers: &str, base: &str, parts: &[Written<'_>]) -> String {
    let mut out = String::new();
    for c in comments {
        let _ = writeln!(out, "# {c}");
    }
    let _ = writeln!(out, "{format}\n{layers}");
    for line in base.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let _ = writeln!(out, "base {line}");
    }
    let numbers = |out: &mut String, values: &[f32]| {
        for v in values {
            // Shortest text that reads back as the same f32.
            let _ = write!(out, " {v:?}");
        }
        out.push('\n');
    };
    for part in parts {
        if part.rows {
            for (i, row) in part.values.chunks_exact(part.width).enumerate() {
                let _ = write!(out, "{} {i}", part.name);
                numbers(&mut out, row);
            }
        } else {
            out.push_str(part.name);
            numbers(&mut out, part.values);
        }
    }
    out
}

/// A file read up to its `layers` line.
pub(crate) struct Head<'a> {
    /// The `layers` line's number.
    pub(crate) line: usize,
    /// Its numbers; `None` when the line is no `layers` line.
    pub(crate) sizes: Option<Vec<usize>>,
    body: Vec<(usize, &'a str)>,
}

/// Reads `text` up to its `layers` line: the first line that is not a comment must be
/// `format`.
pub(crate) fn read_head<'a>(text: &'a str, format: &str) -> Result<Head<'a>, NetFileError> {
    let mut lines =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    match lines.next() {
        Some((_, l)) if l == format => {}
        _ => return Err(NetFileError::Format),
    }
    let (line, layers) = lines.next().ok_or_else(|| NetFileError::Missing("layers".into()))?;
    let sizes =
        layers.strip_prefix("layers ").map(|rest| rest.split_whitespace().map(|w| w.parse().unwrap_or(0)).collect());
    Ok(Head { line, sizes, body: lines.collect() })
}

impl Head<'_> {
    /// Reads the rest of the file into `parts`; returns the `base` lines, without the word
    /// `base`.
    pub(crate) fn read_parts(&self, parts: &mut [Part<'_>]) -> Result<String, NetFileError> {
        let bad = |line: usize, what: String| NetFileError::Line { line, what };
        let mut seen: Vec<Vec<bool>> =
            parts.iter().map(|p| vec![false; if p.rows { p.values.len() / p.width.max(1) } else { 1 }]).collect();
        let mut base = String::new();
        for &(line, text) in &self.body {
            let mut words = text.split_whitespace();
            let head = words.next().unwrap_or_default();
            if head == "base" {
                base.push_str(text["base".len()..].trim());
                base.push('\n');
                continue;
            }
            let Some(p) = parts.iter().position(|p| p.name == head) else {
                return Err(bad(line, expected(parts)));
            };
            let part = &mut parts[p];
            let seen = &mut seen[p];
            let row = if part.rows {
                let limit = seen.len();
                let i = words.next().and_then(|w| w.parse::<usize>().ok()).filter(|&i| i < limit);
                let i = i.ok_or_else(|| bad(line, format!("'{head}' needs an index below {limit}")))?;
                if std::mem::replace(&mut seen[i], true) {
                    return Err(bad(line, format!("'{head} {i}' given twice")));
                }
                i
            } else {
                if std::mem::replace(&mut seen[0], true) {
                    return Err(bad(line, format!("'{head}' given twice")));
                }
                0
            };
            let bound = part.bound;
            let target = &mut part.values[row * part.width..(row + 1) * part.width];
            let mut n = 0;
            for word in words {
                let value = word.parse::<f32>().ok().filter(|v| v.is_finite() && v.abs() <= bound);
                let Some(value) = value else {
                    return Err(bad(line, format!("'{head}': a number from -{bound} to {bound} expected")));
                };
                if let Some(slot) = target.get_mut(n) {
                    *slot = value;
                }
                n += 1;
            }
            if n != target.len() {
                return Err(bad(line, format!("'{head}' has {n} numbers, not {}", target.len())));
            }
        }
        // The parts on one line first, then the rows, each in the parts' order.
        for rows in [false, true] {
            for (part, seen) in parts.iter().zip(&seen).filter(|(p, _)| p.rows == rows) {
                if let Some(i) = seen.iter().position(|s| !s) {
                    let name = if rows { format!("{} {i}", part.name) } else { part.name.to_string() };
                    return Err(NetFileError::Missing(name));
                }
            }
        }
        Ok(base)
    }
}

/// `expected base, A, B or C`: the words a line may start with.
fn expected(parts: &[Part<'_>]) -> String {
    let names: Vec<&str> = parts.iter().map(|p| p.name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("expected base, {} or {last}", rest.join(", ")),
        Some((last, _)) => format!("expected base or {last}"),
        None => "expected base".to_string(),
    }
}
