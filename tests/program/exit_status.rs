//! The exit status tells the two kinds of error apart (issue 43, item 3): 2 when the
//! command line cannot work (clap's refusals, a bad option value, options that contradict),
//! 1 when the command failed while it ran (an engine that cannot start, an output that
//! cannot be written, weights a training command cannot write, a fit that fails), each with
//! one line on stderr.

use crate::support::{refusal, veletas};

/// Asserts a failure at run time: exit 1, nothing on stdout, one line on stderr starting
/// `veletas COMMAND: ` and holding `what`.
fn assert_failed(args: &[&str], what: &str) {
    let out = veletas(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with(&format!("veletas {}: ", args[0])) && stderr.contains(what), "{args:?}: {stderr}");
}

#[test]
fn an_engine_that_cannot_start_exits_1_in_one_line() {
    let dir = scratch!("engine");
    let missing = dir.join("no-such-engine").display().to_string();
    let ours = format!("{} --player random", env!("CARGO_BIN_EXE_veletas"));
    for command in ["match", "tournament"] {
        let args = [command, "--engine", &ours, "--engine", &missing, "--size", "7", "-q"];
        assert_failed(&args, &format!("cannot start {missing}"));
    }
    assert_failed(&["book", "--engine", &missing, "--candidates", "2"], &missing);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_that_cannot_be_written_exits_1_in_one_line() {
    let dir = scratch!("output");
    let unwritable = dir.join("no-such-dir").join("out.svg").display().to_string();
    assert_failed(&["render", "7/7/7/7/7/7/7 b", "-o", &unwritable], &format!("{unwritable}: cannot write"));
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/example-game.txt");
    let games = games.to_str().unwrap();
    assert_failed(&["view", games, "-o", &unwritable], &unwritable);
    let rated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/random-player-20-games.txt");
    assert_failed(&["ratings", rated.to_str().unwrap(), "-o", &unwritable], &unwritable);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_option_exits_2_in_one_line() {
    // clap's refusals, a value a parser refuses, and options that do not go together.
    let line = refusal(&["match", "--engine", "a", "--engine", "b", "--movetime", "x"]);
    assert!(line.contains("'x' is not a number of seconds"), "{line}");
    let line = refusal(&["match", "--engine", "a", "--engine", "b", "--games", "3"]);
    assert!(line.contains("3"), "{line}");
    let line = refusal(&["match", "--engine", "a", "--engine", "b", "--engine", "c"]);
    assert!(line.starts_with("veletas match: "), "{line}");
    let line = refusal(&["render", "7/7/7 b"]);
    assert!(line.starts_with("veletas render: invalid position"), "{line}");
    let line = refusal(&["book", "--engine", "'unclosed"]);
    assert!(line.starts_with("veletas book: --engine: "), "{line}");
}

#[test]
fn a_refusal_of_the_command_line_parser_is_one_line_with_its_tip_and_escaped() {
    // clap's own refusals (an unknown argument with its tip, a bad value, a missing
    // subcommand argument) lose the usage and --help lines clap puts on lines of their own.
    for (args, parts) in [
        (
            &["--movtime", "1"][..],
            &["error: unexpected argument '--movtime' found", "tip: a similar argument exists: '--movetime'"][..],
        ),
        (&["match", "--games", "many"][..], &["error: invalid value 'many' for '--games"][..]),
        (&["match", "--engine"][..], &["error: a value is required for '--engine"][..]),
    ] {
        let out = veletas(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("Usage:") && !stderr.contains("For more information"), "{args:?}: {stderr}");
        for part in parts {
            assert!(stderr.contains(part), "{args:?}: {stderr}");
        }
    }
    // An argument with an escape sequence and a line break is shown inert.
    let out = veletas(&["--mov\u{1b}[31m\nx"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(!stderr.contains('\u{1b}') && stderr.contains("\\u{1b}[31m\\nx"), "{stderr}");
    // --help and --version are still clap's, on stdout.
    for flag in ["--help", "--version"] {
        let out = veletas(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert!(!out.stdout.is_empty() && out.stderr.is_empty(), "{flag}");
    }
}

#[test]
fn a_training_command_exits_2_for_what_it_reads_and_1_for_weights_it_cannot_write() {
    let dir = scratch!("train");
    let unwritable = dir.join("no-such-dir").join("weights.txt").display().to_string();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/random-player-20-games.txt");
    let games = games.to_str().unwrap();
    for command in ["train-eval", "train-net"] {
        assert_failed(&[command, games, "-o", &unwritable], &format!("{unwritable}: cannot write"));
    }
    let missing = dir.join("missing.txt").display().to_string();
    let line = refusal(&["train-eval", &missing]);
    assert!(line.starts_with("veletas train-eval: ") && line.contains(&missing), "{line}");
    let line = refusal(&["train-net", games, "--base", &missing]);
    assert!(line.starts_with(&format!("veletas train-net: --base {missing}: ")), "{line}");
    let line = refusal(&["train-policy", games, "-o", games]);
    assert!(line.starts_with("veletas train-policy: -o "), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fit_that_fails_while_it_runs_exits_1_and_writes_nothing() {
    // Games all won by White: the bias of the fit runs off towards minus infinity, so
    // Newton's method never reaches a minimum (the games are readable, the fit fails).
    let dir = scratch!("fit");
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/random-player-20-games.txt");
    let text = std::fs::read_to_string(games).unwrap();
    let white_wins: String = text
        .split("[Event ")
        .filter(|game| game.contains("[Result \"W+\"]"))
        .map(|game| format!("[Event {game}"))
        .collect();
    assert!(white_wins.matches("[Event ").count() >= 2, "the fixture has games White won");
    let one_sided = dir.join("white-wins.txt");
    std::fs::write(&one_sided, white_wins).unwrap();
    let weights = dir.join("weights.txt");
    let args = ["train-eval", one_sided.to_str().unwrap(), "-o", weights.to_str().unwrap()];
    assert_failed(&args, "the fit did not converge");
    assert!(!weights.exists(), "a failed fit wrote weights");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_to_resume_that_does_not_exist_is_a_file_named_to_be_read_and_exits_2() {
    // The README's table: a file named to be read that cannot be read (a record to resume)
    // is the command line's fault, found before any engine starts.
    let dir = scratch!("resume");
    let missing = dir.join("missing.txt").display().to_string();
    for command in ["match", "tournament"] {
        let line = refusal(&[command, "--engine", "a", "--engine", "b", "--record", &missing, "--resume"]);
        assert!(line.starts_with(&format!("veletas {command}: --resume: {missing} does not exist")), "{line}");
    }
    assert!(!std::path::Path::new(&missing).exists());
    let _ = std::fs::remove_dir_all(&dir);
}
