//! Options before a subcommand (issue 28, point 1), through the program: an option means the
//! same wherever the command line accepts it, or it is refused with one line naming where it
//! belongs; never silently ignored.

use crate::support::{refusal, veletas};

/// The program's stdout, after checking that it succeeded.
fn stdout_of(args: &[&str]) -> String {
    let out = veletas(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

const ENGINES: [&str; 4] = ["--engine", "a=veletas --seed 1", "--engine", "b=veletas --seed 2"];

#[test]
fn match_and_tournament_refuse_the_engine_options_before_them() {
    for (before, option) in [
        (&["--size", "7"][..], "--size"),
        (&["--movetime", "0.1"], "--movetime"),
        (&["--rules", "modern"], "--rules"),
        (&["--seed", "5"], "--seed"),
        (&["--no-corners"], "--no-corners"),
    ] {
        for sub in ["match", "tournament"] {
            let mut args = before.to_vec();
            args.push(sub);
            args.extend(ENGINES);
            if sub == "tournament" {
                args.push("--dry-run");
            }
            let line = refusal(&args);
            assert!(line.starts_with(&format!("veletas: {option} before `{sub}`")), "{line}");
            assert!(line.contains(&format!("veletas {sub} {option} ...")), "{line}");
        }
    }
}

#[test]
fn options_no_subcommand_has_are_refused_naming_the_engine() {
    let line = refusal(&["--player", "random", "render", "7/7/7/7/7/7/7 b"]);
    assert!(line.contains("--player is an option of the engine") && line.contains("render has no --player"), "{line}");
    let line = refusal(&["--ponder", "ratings", "games.txt"]);
    assert!(line.contains("ratings has no --ponder"), "{line}");
}

#[test]
fn perft_takes_its_board_options_before_or_after_it() {
    let default = stdout_of(&["perft", "1"]);
    for size in ["7", "9"] {
        let before = stdout_of(&["--size", size, "perft", "1"]);
        let after = stdout_of(&["perft", "1", "--size", size]);
        assert_eq!(before, after, "size {size}");
        assert_ne!(before, default, "size {size} counted the 10x10 board");
    }
    let modern_before = stdout_of(&["--rules", "modern", "--no-corners", "--size", "7", "perft", "2"]);
    let modern_after = stdout_of(&["perft", "2", "--rules", "modern", "--no-corners", "--size", "7"]);
    let mixed = stdout_of(&["--rules", "modern", "perft", "2", "--no-corners", "--size", "7"]);
    assert_eq!(modern_before, modern_after);
    assert_eq!(modern_before, mixed);
    assert_ne!(modern_before, stdout_of(&["perft", "2", "--size", "7"]));
}

#[test]
fn an_option_given_before_and_after_is_refused() {
    let line = refusal(&["--size", "7", "perft", "1", "--size", "9"]);
    assert!(line.contains("--size given both before and after `perft`"), "{line}");
    let line = refusal(&["--seed", "1", "bench", "--seed", "2", "--runs", "1"]);
    assert!(line.contains("--seed given both before and after `bench`"), "{line}");
}

#[test]
fn perft_and_bench_name_their_own_options_of_the_same_name() {
    let line = refusal(&["--threads", "2", "perft", "1"]);
    assert!(line.contains("give perft's own --threads after it (veletas perft --threads ...)"), "{line}");
    let line = refusal(&["--playouts", "10", "bench"]);
    assert!(line.contains("give bench's own --playouts after it"), "{line}");
}

#[test]
fn match_counts_its_engines_in_words() {
    let line = refusal(&["match", "--engine", "veletas"]);
    assert!(line.contains("give --engine exactly twice, not once"), "{line}");
    let line = refusal(&["match", "--engine", "a", "--engine", "b", "--engine", "c"]);
    assert!(line.contains("not 3 times"), "{line}");
}

#[test]
fn match_refuses_an_odd_number_of_games_as_the_tournament_does() {
    for games in ["3", "0"] {
        let line = refusal(&["match", "--engine", "a", "--engine", "b", "-n", games]);
        assert!(line.contains("--games must be even and positive (games come in pairs"), "{line}");
        assert!(line.ends_with(&format!("not {games}")), "{line}");
    }
}
