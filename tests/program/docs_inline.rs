//! The commands the documents write inline in their prose (code spans such as
//! `` `veletas ratings big.txt --format csv` ``) name options that exist and give them values
//! the command line takes (issue 28, point 2). `docs_examples.rs` runs the fenced blocks;
//! this checks every other code span of README.md, protocol.md and docs/*.md whose text
//! starts with `veletas `, against the program's own parser ([`Cli::try_parse_checked`]),
//! without running anything.
//!
//! A span is split as a shell splits words (the `shlex` crate), then read as a synopsis:
//!
//! * a word `...` elides the rest of the command line (dropped with what follows it); a word
//!   ending in `...` (`FILE...`) is one such word;
//! * `[` and `]` around words mark optional parts, which are given (the brackets dropped);
//! * a word of upper-case letters and digits (`FILE`, `N`, or `'O'` for a position) is a
//!   placeholder, replaced by a value of [`PLACEHOLDERS`]; one missing from that table fails
//!   the test (add it there);
//! * a word `a|b|c` is a choice: the command line is checked with each alternative.
//!
//! An engine command line nested in a command line, as the value of an option or an
//! argument (`--engine 'veletas --seed 1'`, `--engine a=veletas --playouts 300` quoted,
//! `--engine='...'`; an engine name and its `=` are dropped as the referee drops them), is
//! split again and checked the same way when its first word is `veletas`: a typo inside an
//! engine's options fails the test too.
//!
//! A span may be an excerpt of a command rather than a whole one: the options a subcommand
//! requires and the span leaves out are the reader's (`veletas ratings --head-to-head`), and
//! a last option without its value names the option (`veletas match --clock`). Everything
//! else must parse: an unknown option or subcommand, a value refused, an option misplaced
//! before a subcommand fails the test.
//!
//! Skipped, and counted as such: the spans that quote the program's output rather than a
//! command, recognised by their second word: one ending in `:` is the start of a message
//! (`veletas ratings: ...`), a version (`veletas 0.2.0 (--seed 1)`) is an engine's name as
//! the referee shows it.
//!
//! The test prints how many spans it parsed (those giving options or arguments, and those
//! only naming a subcommand, such as `veletas match`) and how many it skipped.

use crate::docs_examples::documents;
use std::fmt::Write as _;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use veletas::cli::{Cli, CliError};
use veletas_tools::referee::words::split_engine_name;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The value each placeholder stands for.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("FILE", "games.txt"),
    ("FILES", "games.txt"),
    ("F", "positions.txt"),
    ("WEIGHTS", "weights.txt"),
    ("OLD", "old/veletas"),
    ("N", "2"),
    ("L", "0.001"),
    // speed.md's named positions.
    ("O", "7/7/2s4/7/4s2/1s5/7 b"),
    ("P", "7/7/2s4/7/4s2/1s5/7 b"),
];

/// The code spans of a markdown text outside its fenced blocks, each with the number of the
/// line it starts on. A span opens with a run of backticks and closes with the next run of
/// the same length in the same paragraph (it may cross a line end, read as a space); a run
/// without its match is literal text.
fn code_spans(markdown: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut fenced = false;
    // The paragraphs outside the fences: their first line's number, their lines.
    let mut paragraphs: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut open = false;
    for (n, line) in markdown.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            open = false;
        } else if fenced || line.trim().is_empty() {
            open = false;
        } else if open {
            paragraphs.last_mut().unwrap().1.push(line);
        } else {
            paragraphs.push((n + 1, vec![line]));
            open = true;
        }
    }
    for (first, lines) in paragraphs {
        let text = lines.join("\n");
        let mut rest = text.as_str();
        let mut consumed = 0;
        while let Some(at) = rest.find('`') {
            let run = rest[at..].len() - rest[at..].trim_start_matches('`').len();
            let after = &rest[at + run..];
            let close = backtick_runs(after).find(|&(_, length)| length == run).map(|(i, _)| i);
            let line = first + text[..consumed + at].matches('\n').count();
            match close {
                Some(end) => {
                    spans.push((line, after[..end].replace('\n', " ").trim().to_string()));
                    consumed += at + run + end + run;
                    rest = &after[end + run..];
                }
                None => {
                    consumed += at + run;
                    rest = after;
                }
            }
        }
    }
    spans
}

/// The runs of backticks of `text`: where each starts, and its length.
fn backtick_runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        at += text[at..].find('`')?;
        let length = text[at..].len() - text[at..].trim_start_matches('`').len();
        at += length;
        Some((at - length, length))
    })
}

/// Whether a span quotes the program's output rather than a command (see the module doc).
fn is_output(words: &[String]) -> bool {
    words.get(1).is_some_and(|w| {
        w.ends_with(':') || (w.split('.').count() == 3 && w.split('.').all(|p| p.parse::<u32>().is_ok()))
    })
}

/// The command lines a synopsis stands for (see the module doc), or why it cannot be read.
fn command_lines(words: &[String]) -> Result<Vec<Vec<String>>, String> {
    let mut lines = vec![Vec::new()];
    for word in words {
        if word == "..." {
            break;
        }
        let word = word.trim_start_matches('[').trim_end_matches(']');
        let word = word.strip_suffix("...").unwrap_or(word);
        let placeholder = word.starts_with(|c: char| c.is_ascii_uppercase())
            && word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        let choices: Vec<&str> = if placeholder {
            let value = PLACEHOLDERS.iter().find(|(name, _)| *name == word).map(|(_, v)| *v);
            vec![value.ok_or(format!("placeholder {word} is not in PLACEHOLDERS"))?]
        } else if word.len() > 1 && word.contains('|') {
            word.split('|').collect()
        } else {
            vec![word]
        };
        lines = lines
            .iter()
            .flat_map(|line| {
                choices.iter().map(move |choice| line.iter().cloned().chain([choice.to_string()]).collect())
            })
            .collect();
    }
    Ok(lines)
}

/// Why the command line `args` (the program's name first) is not one the program takes, if
/// it is not (see the module doc for the excerpts allowed).
fn refusal(args: &[String]) -> Option<String> {
    let error = match Cli::try_parse_checked(args) {
        Ok(_) => return None,
        Err(CliError::Misplaced(message)) => return Some(message),
        Err(CliError::Clap(error)) => error,
    };
    let value_left_out = error.kind() == ErrorKind::InvalidValue
        && matches!(error.get(ContextKind::InvalidValue), Some(ContextValue::String(v)) if v.is_empty())
        && args.last().is_some_and(|a| a.starts_with('-'));
    match error.kind() {
        ErrorKind::MissingRequiredArgument | ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => None,
        _ if value_left_out => None,
        _ => Some(error.to_string().lines().next().unwrap_or_default().to_string()),
    }
}

/// The `veletas` command lines nested in the command line `args` (the program's name
/// first): each argument, or an option's value after `--option=`, that is one once an engine
/// name and its `=` are dropped, split as shell words (see the module doc).
fn nested_lines(args: &[String]) -> Vec<Vec<String>> {
    args.iter()
        .skip(1)
        .filter_map(|arg| {
            let value = match arg.split_once('=') {
                Some((option, value)) if option.starts_with("--") => value,
                _ => arg.as_str(),
            };
            let words = shlex::split(split_engine_name(value).1)?;
            (words.len() > 1 && words[0] == "veletas").then_some(words)
        })
        .collect()
}

/// Checks the command line `args` and the engine command lines nested in it, writing each
/// refusal to `failures` with `at` (the place and the span); returns the number of nested
/// engine command lines it met.
fn check_line(args: &[String], at: &str, failures: &mut String) -> usize {
    if let Some(why) = refusal(args) {
        let _ = writeln!(failures, "{at} ({}): {why}", args.join(" "));
    }
    let mut engines = 0;
    for nested in nested_lines(args) {
        engines += 1;
        match command_lines(&nested) {
            Err(why) => {
                let _ = writeln!(failures, "{at} (engine `{}`): {why}", nested.join(" "));
            }
            Ok(lines) => {
                for line in lines {
                    engines += check_line(&line, at, failures);
                }
            }
        }
    }
    engines
}

/// What the check of inline commands met.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Counts {
    /// Spans parsed that give options or arguments.
    commands: usize,
    /// Spans parsed that only name a subcommand (`veletas match`).
    names: usize,
    /// Spans skipped as the program's output.
    skipped: usize,
    /// Engine command lines nested in the spans parsed (`--engine 'veletas ...'`).
    engines: usize,
}

/// Checks the inline commands of `markdown` (named `place` in messages): what it met, the
/// failures written to `failures`.
fn check_markdown(place: &str, markdown: &str, failures: &mut String) -> Counts {
    let mut counts = Counts::default();
    for (line, span) in code_spans(markdown) {
        if !span.starts_with("veletas ") {
            continue;
        }
        let Some(words) = shlex::split(&span) else {
            let _ = writeln!(failures, "{place}:{line}: `{span}`: not shell words (an unclosed quote?)");
            continue;
        };
        if is_output(&words) {
            counts.skipped += 1;
            continue;
        }
        if words.len() > 2 {
            counts.commands += 1;
        } else {
            counts.names += 1;
        }
        match command_lines(&words) {
            Err(why) => {
                let _ = writeln!(failures, "{place}:{line}: `{span}`: {why}");
            }
            Ok(lines) => {
                for args in lines {
                    counts.engines += check_line(&args, &format!("{place}:{line}: `{span}`"), failures);
                }
            }
        }
    }
    counts
}

#[test]
fn the_inline_commands_of_the_documents_parse() {
    let mut failures = String::new();
    let mut total = Counts::default();
    for path in documents() {
        let place = path.strip_prefix(ROOT).unwrap().display().to_string();
        let counts = check_markdown(&place, &std::fs::read_to_string(&path).unwrap(), &mut failures);
        total.commands += counts.commands;
        total.names += counts.names;
        total.skipped += counts.skipped;
        total.engines += counts.engines;
    }
    eprintln!(
        "inline documented commands parsed: {} with options or arguments ({} engine command lines \
         nested in them), {} naming a subcommand (skipped as the program's output: {})",
        total.commands, total.engines, total.names, total.skipped
    );
    assert!(total.commands > 0, "no inline command found: is the span reader broken?");
    assert!(total.engines > 0, "no nested engine command line found: is nested_lines broken?");
    assert!(failures.is_empty(), "inline commands of the documents that the program does not take:\n\n{failures}");
}

#[test]
fn an_unknown_option_or_a_refused_value_fails_the_check() {
    for span in [
        "`veletas ratings g.txt --fromat csv`",
        "`veletas match --sprt 0,10 --no-such-option`",
        "`veletas perft --threads 0 2`",
        "`veletas --size 9 match --engine a --engine b`",
        "`veletas nosuchcommand`",
        "`veletas ratings FILE --anchor X`",
        "`veletas match --engine 'veletas --sede 1' --engine veletas`",
        "`veletas match --engine 'a=veletas --playout 3' --engine b=veletas`",
        "`veletas tournament --engine='veletas --threads 0' --engine veletas`",
        "`veletas match --engine \"veletas --player 'uct --x'\" --engine veletas`",
    ] {
        let mut failures = String::new();
        assert_eq!(check_markdown("t.md", &format!("see {span} here\n"), &mut failures).skipped, 0, "{span}");
        assert!(!failures.is_empty(), "{span} was not refused");
    }
}

#[test]
fn synopses_and_excerpts_are_read_as_documented() {
    for span in [
        "`veletas ratings FILE... [--format text|csv|json]`",
        "`veletas match --clock`",
        "`veletas bench --compare ...`",
        "`veletas ratings --head-to-head`",
        "`veletas perft 3 'P'`",
        "`veletas match\n--games 4`",
        "`veletas match --engine 'a=veletas --seed 1 --playouts N' --engine='veletas --eval hand'`",
    ] {
        let mut failures = String::new();
        let counts = check_markdown("t.md", &format!("see {span} here\n"), &mut failures);
        assert_eq!(counts.commands + counts.names, 1, "{span}");
        assert_eq!(counts.engines, usize::from(span.contains("--engine")) * 2, "{span}");
        assert_eq!(counts.skipped, 0, "{span}");
        assert!(failures.is_empty(), "{failures}");
    }
    let mut failures = String::new();
    let text =
        "`veletas ratings: error` and `veletas 0.2.0 (--seed 1)`; ``veletas `x` y``\n\n```\n`veletas nope`\n```\n";
    assert_eq!(check_markdown("t.md", text, &mut failures), Counts { commands: 1, names: 0, skipped: 2, engines: 0 });
    assert!(failures.contains("t.md:1: `veletas `x` y`"), "{failures}");
    let spans = code_spans("a `b\nc` d\n\n`e` `\n");
    assert_eq!(spans, vec![(1, "b c".to_string()), (4, "e".to_string())]);
}
