//! The names of a field of engines, for screen and records alike: the names given are
//! kept, equal replies are told apart by their command lines, and what is still equal is
//! numbered.

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

/// The names of the field for screen and records alike: the names given are kept, and
/// engines that answered the same `name` and `version` are told apart by the words of
/// their command lines that differ, in parentheses (`veletas 0.2.0 (--seed 1)`), an
/// option's value together with the option. What is still equal after that is numbered
/// by [`unique_names`].
pub fn distinct_names(names: &[String], fixed: &[bool], commands: &[&EngineCommand]) -> Vec<String> {
    let is_fixed = |i: usize| fixed.get(i).copied().unwrap_or(false);
    let words = |i: usize| -> Vec<&str> {
        commands.get(i).map_or(Vec::new(), |c| {
            std::iter::once(c.program.as_str()).chain(c.args.iter().map(String::as_str)).collect()
        })
    };
    let mut out: Vec<String> = names.to_vec();
    for (i, name) in names.iter().enumerate() {
        if is_fixed(i) {
            continue;
        }
        let rivals: Vec<usize> = (0..names.len()).filter(|&j| j != i && !is_fixed(j) && names[j] == *name).collect();
        if rivals.is_empty() {
            continue;
        }
        let mine = words(i);
        let others: Vec<Vec<&str>> = rivals.iter().map(|&j| words(j)).collect();
        let differs = |k: usize| others.iter().any(|o| o.get(k) != mine.get(k));
        let mut keep = vec![false; mine.len()];
        for k in 0..mine.len() {
            if differs(k) {
                keep[k] = true;
                // A value keeps its option: `--seed 1`, not `1`.
                if k > 0 && mine[k - 1].starts_with('-') && !mine[k].starts_with('-') {
                    keep[k - 1] = true;
                }
            }
        }
        let shown: Vec<&str> = mine.iter().zip(&keep).filter(|&(_, &k)| k).map(|(w, _)| *w).collect();
        if !shown.is_empty() {
            out[i] = format!("{name} ({})", shown.join(" "));
        }
    }
    unique_names(&out, fixed)
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
    fn equal_names_are_told_apart_by_their_command_lines() {
        let parse = |t: &str| EngineCommand::parse(t).unwrap();
        let commands =
            [parse("veletas --seed 1"), parse("veletas --seed 2"), parse("other"), parse("veletas --seed 2")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let names: Vec<String> = ["v 1", "v 1", "o", "v 1"].iter().map(|s| s.to_string()).collect();
        let got = distinct_names(&names[..2], &[false, false], &refs[..2]);
        assert_eq!(got, ["v 1 (--seed 1)", "v 1 (--seed 2)"]);
        let got = distinct_names(&names, &[false; 4], &refs);
        assert_eq!(got, ["v 1 (--seed 1)", "v 1 (--seed 2) #1", "o", "v 1 (--seed 2) #2"]);
        let commands = [parse("./old/veletas"), parse("./new/veletas --player uct")];
        let refs: Vec<&EngineCommand> = commands.iter().collect();
        let got = distinct_names(&names[..2], &[false, false], &refs);
        assert_eq!(got, ["v 1 (./old/veletas)", "v 1 (./new/veletas --player uct)"]);
        let got = distinct_names(&names[..2], &[true, false], &refs);
        assert_eq!(got, ["v 1", "v 1 #1"]);
    }
}
