//! The names of a field of engines, for screen and records alike: the names given are
//! kept, an automatic name carries its command line's arguments (one name, one command
//! line, across runs too), and what is still equal is numbered.

use crate::referee::engine::EngineCommand;

/// Makes names unique by numbering repeats: `x #1`, `x #2`, ... Names marked `fixed`
/// (given by the user, already unique among themselves) are kept; only the others are
/// numbered, avoiding every name in use.
pub fn unique_names(names: &[String], fixed: &[bool]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let clashes = names.iter().enumerate().filter(|&(j, n)| j != i && n == name).count();
        if fixed.get(i).copied().unwrap_or(false) || clashes == 0 {
            out.push(name.clone());
            continue;
        }
        let mut k = 1;
        let taken = |candidate: &String, out: &[String]| {
            out.contains(candidate)
                || names
                    .iter()
                    .enumerate()
                    .any(|(j, n)| n == candidate && (j > i || fixed.get(j).copied().unwrap_or(false)))
        };
        let mut candidate = format!("{name} #{k}");
        while taken(&candidate, &out) {
            k += 1;
            candidate = format!("{name} #{k}");
        }
        out.push(candidate);
    }
    out
}

/// The most characters of an engine's command-line words an automatic name shows: past
/// it the words are cut and a fingerprint of them all keeps the name unique to them.
pub const MAX_NAME_WORDS: usize = 60;

/// The names of the field for screen and records alike: the names given are kept, and an
/// automatic name (the engine's `name` and `version` replies) carries its command line's
/// arguments in parentheses (`veletas 0.2.0 (--seed 1 --playouts 100)`), so that one name
/// stands for one command line across runs too (`ratings` pools games by name), and its
/// program word when engines answering the same differ by program
/// (`veletas 0.2.0 (./new/veletas)`). Words past [`MAX_NAME_WORDS`] characters are cut,
/// with a fingerprint of them all. What is still equal after that (the same command line
/// twice) is numbered by [`unique_names`].
pub fn distinct_names(names: &[String], fixed: &[bool], commands: &[&EngineCommand]) -> Vec<String> {
    let is_fixed = |i: usize| fixed.get(i).copied().unwrap_or(false);
    let program = |i: usize| commands.get(i).map(|c| c.program.as_str());
    let mut out: Vec<String> = names.to_vec();
    for (i, name) in names.iter().enumerate() {
        let Some(command) = commands.get(i).filter(|_| !is_fixed(i)) else { continue };
        let other_program =
            (0..names.len()).any(|j| j != i && !is_fixed(j) && names[j] == *name && program(j) != program(i));
        let words: Vec<&str> = other_program
            .then_some(command.program.as_str())
            .into_iter()
            .chain(command.args.iter().map(String::as_str))
            .collect();
        if !words.is_empty() {
            out[i] = format!("{name} ({})", shown_words(&words.join(" ")));
        }
    }
    unique_names(&out, fixed)
}

/// Command-line words as a name shows them: at most [`MAX_NAME_WORDS`] characters, control
/// and bidirectional characters as spaces (as in the engine's own name); past it the cut is marked and followed by a fingerprint of the
/// whole text (FNV-1a, 32 bits), so that two long command lines with the same start still
/// give two names.
fn shown_words(text: &str) -> String {
    use std::hash::Hasher as _;
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() || veletas_rules::is_bidirectional_control(c) { ' ' } else { c })
        .collect();
    if clean.chars().count() <= MAX_NAME_WORDS {
        return clean;
    }
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(text.as_bytes());
    let hash = hasher.finish();
    let start: String = clean.chars().take(MAX_NAME_WORDS).collect();
    format!("{}... {:08x}", start.trim_end(), (hash ^ (hash >> 32)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_names_get_numbers() {
        let names: Vec<String> = ["v 1", "u", "v 1", "v 1 #2"].iter().map(|s| s.to_string()).collect();
        assert_eq!(unique_names(&names, &[false; 4]), ["v 1 #1", "u", "v 1 #3", "v 1 #2"]);
        let names: Vec<String> = ["a", "a", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(unique_names(&names, &[true, false, false]), ["a", "a #1", "b"]);
    }

    #[test]
    fn automatic_names_carry_their_whole_command_line() {
        let parse = |t: &str| EngineCommand::parse(t).unwrap();
        let commands =
            [parse("veletas --seed 1"), parse("veletas --seed 2"), parse("other"), parse("veletas --seed 2")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let names: Vec<String> = ["v 1", "v 1", "o", "v 1"].iter().map(|s| s.to_string()).collect();
        let got = distinct_names(&names[..2], &[false, false], &refs[..2]);
        assert_eq!(got, ["v 1 (--seed 1)", "v 1 (--seed 2)"]);
        let got = distinct_names(&names, &[false; 4], &refs);
        assert_eq!(got, ["v 1 (--seed 1)", "v 1 (--seed 2) #1", "o", "v 1 (--seed 2) #2"]);
        // The words two engines share are shown too: `--seed 1 --playouts 100` is not the
        // `--seed 1` of another run.
        let commands = [parse("veletas --seed 1 --playouts 100"), parse("veletas --seed 2 --playouts 100")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let got = distinct_names(&names[..2], &[false, false], &refs);
        assert_eq!(got, ["v 1 (--seed 1 --playouts 100)", "v 1 (--seed 2 --playouts 100)"]);
        // Alone in its field, an engine still carries its arguments; no arguments, no parentheses.
        let commands = [parse("veletas --playouts 500"), parse("other")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let got = distinct_names(&names[1..3], &[false, false], &refs);
        assert_eq!(got, ["v 1 (--playouts 500)", "o"]);
        let commands = [parse("./old/veletas"), parse("./new/veletas --player uct")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let got = distinct_names(&names[..2], &[false, false], &refs);
        assert_eq!(got, ["v 1 (./old/veletas)", "v 1 (./new/veletas --player uct)"]);
        let got = distinct_names(&names[..2], &[true, false], &refs);
        assert_eq!(got, ["v 1", "v 1 (--player uct)"]);
    }

    #[test]
    fn long_command_lines_are_cut_and_told_apart_by_a_fingerprint() {
        let long = |last: &str| EngineCommand::parse(&format!("veletas {} {last}", "--x 1 ".repeat(20))).unwrap();
        let commands = [long("--seed 1"), long("--seed 2")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let names: Vec<String> = vec!["v 1".into(), "v 1".into()];
        let got = distinct_names(&names, &[false, false], &refs);
        assert_ne!(got[0], got[1]);
        for name in &got {
            assert!(name.starts_with("v 1 (--x 1 --x 1") && name.contains("... "), "{name}");
            assert!(name.chars().count() < MAX_NAME_WORDS + 20, "{name}");
        }
        assert_eq!(got, distinct_names(&names, &[false, false], &refs), "the same every run");
    }
}
