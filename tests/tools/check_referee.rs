//! `match` and `tournament` through the binary: every engine must answer
//! `protocol_version` and `name` before the first game, `--check` runs the required checks
//! of `veletas check` first, and unnamed engines carry the same distinct names on screen
//! and in the records.

use crate::support::veletas;
use std::process::Output;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The values of tag `tag` in a record file, in order.
fn tags(path: &std::path::Path, tag: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let games = veletas_tools::referee::parse_records(&text).unwrap();
    games.iter().map(|g| g.tag(tag).unwrap_or_default().to_string()).collect()
}

/// A refusal: exit 1 (found while running), one line on stderr saying `what`, and no
/// game in the record file.
fn assert_refused(output: &Output, what: &[&str], record: &std::path::Path) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{err}\n{}", stdout(output));
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in what {
        assert!(err.contains(w), "{w}: {err}");
    }
    assert!(tags(record, "Round").is_empty(), "no game is counted");
}

#[test]
fn unnamed_engines_carry_their_command_lines_on_screen_and_in_records() {
    let dir = scratch!("names");
    let record = dir.join("g.txt");
    let (one, two) = (format!("{VELETAS} --seed 1 --playouts 20"), format!("{VELETAS} --seed 2 --playouts 20"));
    let output = veletas(&[
        "match",
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "4",
        "--size",
        "7",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let screen = stdout(&output);
    // The words both share too: one name, one command line, across runs as well.
    let (a, b) = ("veletas 0.2.0 (--seed 1 --playouts 20)", "veletas 0.2.0 (--seed 2 --playouts 20)");
    assert!(screen.contains(&format!("{a} (black) vs {b} (white)")), "{screen}");
    let mut names = tags(&record, "Black");
    names.extend(tags(&record, "White"));
    names.sort();
    names.dedup();
    assert_eq!(names, [a, b]);
    let ratings = veletas(&["ratings", record.to_str().unwrap()]);
    assert!(ratings.status.success(), "{}", stderr(&ratings));
    assert!(stdout(&ratings).contains(a), "{}", stdout(&ratings));
    // Run again, the match is complete: no engine starts, and the summary names them as before.
    let again = veletas(&[
        "match",
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "4",
        "--size",
        "7",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains(&format!("Match: {a} (engine 1) vs {b} (engine 2), 4 of 4 games")),
        "{}",
        stdout(&again)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tournament_of_unnamed_engines_records_the_names_it_shows() {
    let dir = scratch!("tournament-names");
    let record = dir.join("t.txt");
    let engines = [format!("{FAKE} --seed 1"), format!("{FAKE} --seed 2"), format!("{FAKE} --seed 3")];
    let mut args = vec!["tournament", "--size", "7", "--record", record.to_str().unwrap()];
    engines.iter().for_each(|e| args.extend(["--engine", e.as_str()]));
    let output = veletas(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut names = tags(&record, "Black");
    names.sort();
    names.dedup();
    assert_eq!(names, ["fake 0.1 (--seed 1)", "fake 0.1 (--seed 2)", "fake 0.1 (--seed 3)"]);
    for name in &names {
        assert!(stdout(&output).contains(name.as_str()), "{}", stdout(&output));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_that_cannot_answer_protocol_version_or_name_are_refused_before_any_game() {
    let dir = scratch!("startup");
    let record = dir.join("g.txt");
    let path = record.to_str().unwrap();
    let good = format!("{FAKE} --seed 1");
    for (engine, what) in [
        ("a=cat".to_string(), "protocol_version"),
        (format!("{FAKE} --refuse name"), "'name' was refused"),
        (format!("{FAKE} --refuse protocol_version"), "'protocol_version' was refused"),
    ] {
        let output = veletas(&["match", "--engine", &good, "--engine", &engine, "--size", "7", "--record", path]);
        assert_refused(&output, &["veletas match: ", "is refused: at start-up", what], &record);
        let output = veletas(&[
            "tournament",
            "--engine",
            &good,
            "--engine",
            &engine,
            "--engine",
            &good,
            "--size",
            "7",
            "--record",
            path,
        ]);
        assert_refused(&output, &["veletas tournament: ", "is refused: at start-up", what], &record);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_refuses_a_broken_engine_and_lets_good_ones_play() {
    let dir = scratch!("check");
    let record = dir.join("g.txt");
    let path = record.to_str().unwrap();
    let good = format!("good={FAKE} --seed 1");
    let broken = format!("liar={FAKE} --seed 2 --wrong-score");
    let output =
        veletas(&["match", "--check", "--engine", &good, "--engine", &broken, "--size", "7", "--record", path]);
    assert_refused(&output, &["--check: check final-score fail", "--wrong-score"], &record);
    let output =
        veletas(&["tournament", "--check", "--engine", &good, "--engine", &broken, "--size", "7", "--record", path]);
    assert_refused(&output, &["--check: check final-score fail"], &record);
    // Without --check the liar plays, and its disagreements are only noted.
    let output = veletas(&["match", "--engine", &good, "--engine", &broken, "--size", "7", "--record", path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(tags(&record, "Round").len(), 2);
    std::fs::remove_file(&record).unwrap();
    let other = format!("other={FAKE} --seed 3");
    let output = veletas(&["match", "--check", "--engine", &good, "--engine", &other, "--size", "7", "--record", path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(tags(&record, "Round").len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_lets_an_engine_that_plays_but_is_not_strict_play() {
    let dir = scratch!("check-lax");
    let record = dir.join("g.txt");
    let path = record.to_str().unwrap();
    let good = format!("good={FAKE} --seed 1");
    // Written elsewhere: no komi, no undo, bad clock numbers and a nameless known_command accepted.
    let lax = format!("lax={FAKE} --seed 2 --lack komi --lack undo --lax");
    let output = veletas(&["match", "--check", "--engine", &good, "--engine", &lax, "--size", "7", "--record", path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(tags(&record, "Round").len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
