//! [`Standings`] as text (aligned tables), CSV and JSON.
//!
//! - Text: the standings (rank, name, rating, 95% error, games, score, results as Black
//!   and as White), the crosstable, the LOS matrix, optionally the head-to-head Elo of
//!   every pair, then the notes.
//! - CSV: exactly the header `rank,name,rating,error,games,score` and one line per
//!   engine, best first; rating and error in whole Elo, score in percent with one
//!   decimal; fields quoted as RFC 4180 asks (names may hold commas and quotes).
//! - JSON: one object holding everything the text shows, the typed structs of
//!   [`super::json`] written by serde_json.

use std::fmt::Write as _;

use super::{HeadToHead, Standings};

/// An output format of the standings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StandingsFormat {
    /// Aligned tables for people.
    #[default]
    Text,
    /// `rank,name,rating,error,games,score`, one line per engine.
    Csv,
    /// One JSON object.
    Json,
}

/// A whole number of Elo with its sign (`+12`, `-3`, `0`); `+inf`/`-inf` when infinite.
pub(crate) fn signed(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf".into() } else { "-inf".into() };
    }
    let rounded = x.round() as i64;
    if rounded > 0 { format!("+{rounded}") } else { rounded.to_string() }
}

/// A whole number without the `-0` that formatting `-0.4` would give.
pub(crate) fn whole(x: f64) -> String {
    (x.round() as i64).to_string()
}

/// One decimal, halves rounded away from zero (31.25 gives 31.3, not the 31.2 that
/// formatting's round-half-to-even would print).
pub(crate) fn tenths(x: f64) -> String {
    format!("{:.1}", (x * 10.0).round() / 10.0)
}

/// Aligns `rows` of cells into lines: numbers to the right, the columns in `left` (names)
/// to the left.
fn table(rows: &[Vec<String>], left: &[usize]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = widths[c] - cell.chars().count();
            if left.contains(&c) {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            } else {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Names printed on one line: control characters become spaces.
fn printable(name: &str) -> String {
    name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

fn head_to_head_line(s: &Standings, pair: &HeadToHead) -> Vec<String> {
    let i = &pair.interval;
    vec![
        printable(&s.engines[pair.first].name),
        printable(&s.engines[pair.second].name),
        format!("{}-{}", pair.score.wins, pair.score.losses),
        format!("{}%", tenths(pair.score.fraction().unwrap_or(0.0) * 100.0)),
        signed(i.elo),
        format!("[{}, {}]", signed(i.lower), signed(i.upper)),
        format!("{:.1}%", 100.0 * pair.los()),
    ]
}

impl Standings {
    /// The standings in `format`; `head_to_head` adds every pair's own Elo (text, JSON).
    pub fn render(&self, format: StandingsFormat, head_to_head: bool) -> String {
        match format {
            StandingsFormat::Text => self.text(head_to_head),
            StandingsFormat::Csv => self.csv(),
            StandingsFormat::Json => self.json(head_to_head),
        }
    }

    /// Aligned tables: standings, crosstable, LOS matrix, optionally head to head, notes.
    pub fn text(&self, head_to_head: bool) -> String {
        let out = self.ranking_text();
        self.other_tables(head_to_head, out)
    }

    /// The heading and the table of ranks, ratings and scores alone (the first part of
    /// [`Standings::text`]).
    pub fn ranking_text(&self) -> String {
        let mut out = String::new();
        let base = match &self.anchor {
            Some((name, rating)) => format!("{} anchored at {}", printable(name), signed(*rating)),
            None => "mean 0".to_string(),
        };
        let _ = writeln!(
            out,
            "Ratings of {} engines from {} games (logistic Elo, {base}; error: 95% interval)\n",
            self.engines.len(),
            self.games
        );
        let mut rows = vec![
            ["rank", "name", "rating", "error", "games", "score", "as Black", "as White"].map(String::from).to_vec(),
        ];
        for e in &self.engines {
            rows.push(vec![
                e.rank.to_string(),
                printable(&e.name),
                format!("{}{}", e.mark.symbol(), signed(e.rating)),
                whole(e.error),
                e.games().to_string(),
                format!("{}%", tenths(e.score_percent())),
                format!("{}/{}", e.as_black.wins, e.as_black.games()),
                format!("{}/{}", e.as_white.wins, e.as_white.games()),
            ]);
        }
        out.push_str(&table(&rows, &[1]));
        out
    }

    fn other_tables(&self, head_to_head: bool, mut out: String) -> String {
        let numbers: Vec<String> = (1..=self.engines.len()).map(|r| r.to_string()).collect();
        let header = |title: &str| [vec![String::new(), title.to_string()], numbers.clone()].concat();
        out.push_str("\nCrosstable (wins-losses of the row's engine against the column's)\n\n");
        let mut rows = vec![header("name")];
        for (i, e) in self.engines.iter().enumerate() {
            let mut row = vec![e.rank.to_string(), printable(&e.name)];
            row.extend(self.crosstable[i].iter().enumerate().map(|(j, score)| match (i == j, score.games()) {
                (true, _) => ".".to_string(),
                (false, 0) => "-".to_string(),
                _ => format!("{}-{}", score.wins, score.losses),
            }));
            rows.push(row);
        }
        out.push_str(&table(&rows, &[1]));

        out.push_str(
            "\nLikelihood of superiority (%, the row's engine is stronger than the column's; from the model)\n\n",
        );
        let mut rows = vec![header("name")];
        for (i, e) in self.engines.iter().enumerate() {
            let mut row = vec![e.rank.to_string(), printable(&e.name)];
            row.extend(
                self.los[i]
                    .iter()
                    .enumerate()
                    .map(|(j, p)| if i == j { ".".to_string() } else { format!("{:.0}", p * 100.0) }),
            );
            rows.push(row);
        }
        out.push_str(&table(&rows, &[1]));

        if head_to_head {
            out.push_str(
                "\nHead to head (each pair's games alone: Elo of the first over the second, 95% interval, LOS as \
                 veletas match gives it)\n\n",
            );
            let header = ["first", "second", "result", "score", "Elo", "interval", "LOS"];
            let mut rows = vec![header.map(String::from).to_vec()];
            let pairs = self.head_to_head();
            rows.extend(pairs.iter().map(|pair| head_to_head_line(self, pair)));
            out.push_str(&table(&rows, &[0, 1]));
            if pairs.iter().any(|pair| pair.interval.adjusted) {
                let _ = writeln!(out, "{}", super::ADJUSTED_NOTE);
            }
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for note in &self.notes {
                let _ = writeln!(out, "Note: {note}");
            }
        }
        out
    }

    /// `rank,name,rating,error,games,score` and one line per engine, best first.
    pub fn csv(&self) -> String {
        let mut out = String::from("rank,name,rating,error,games,score\n");
        for e in &self.engines {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{}",
                e.rank,
                csv_field(&e.name),
                whole(e.rating),
                whole(e.error),
                e.games(),
                tenths(e.score_percent())
            );
        }
        out
    }

    /// One JSON object: games, anchor, engines (best first), crosstable and LOS (rows
    /// and columns in the engines' order), head to head when asked, notes: the typed
    /// [`super::json::RatingsJson`], serialized by serde_json.
    pub fn json(&self, head_to_head: bool) -> String {
        // Serializing these structs cannot fail (string keys, numbers, strings).
        super::json::RatingsJson::of(self, head_to_head)
            .text()
            .unwrap_or_else(|e| format!("{{\"error\": \"{}\"}}\n", e.to_string().replace(['"', '\\'], " ")))
    }
}

/// A CSV field: control characters become spaces (a line break included), and the field
/// is quoted (inner quotes doubled) when it holds a comma or a quote, as RFC 4180 asks.
pub fn csv_field(text: &str) -> String {
    // Control characters (escapes, line breaks) never reach a spreadsheet or a terminal.
    let text = printable(text);
    if text.contains([',', '"']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("plain name"), "plain name");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("red\x1b[31m\nname"), "red [31m name");
    }

    #[test]
    fn numbers_never_print_minus_zero() {
        assert_eq!(whole(-0.4), "0");
        assert_eq!(signed(-0.4), "0");
        assert_eq!(signed(12.6), "+13");
        let json = |x: f64| serde_json::to_string(&super::super::json::tenths_value(x)).unwrap();
        assert_eq!(json(-0.01), "0.0");
        assert_eq!(json(86.25), "86.3");
        assert_eq!(json(80.0), "80.0");
        assert_eq!(json(f64::INFINITY), "null");
        assert_eq!((tenths(31.25), tenths(68.75), tenths(50.0)), ("31.3".into(), "68.8".into(), "50.0".into()));
    }
}
