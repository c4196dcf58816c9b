//! Void games (issue 25, item 10): a game that ends by a failure before either engine has
//! moved counts for no one, through the binary with the fake engine. Two broken engines no
//! longer give every game to White (Black is asked first); the record says `*`, resume
//! does not play the game again, `ratings` skips it with a note, and a knockout of engines
//! that never move plays no tie-breaks.

use std::path::Path;
use std::process::Output;

use crate::support;
use veletas_tools::referee::parse_records;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn a_match(record: &Path, one: &str, two: &str) -> Output {
    let one = format!("a={FAKE} --seed 1 {one}");
    let two = format!("b={FAKE} --seed 2 {two}");
    let record = record.to_str().unwrap();
    support::veletas(&["match", "--engine", &one, "--engine", &two, "-n", "4", "--size", "7", "--record", record, "-q"])
}

#[test]
fn games_no_engine_moved_in_are_void_recorded_and_not_played_again() {
    let dir = scratch!("match");
    let record = dir.join("g.txt");
    // Both engines answer '?' to their first genmove of every game.
    let out = a_match(&record, "--refuse-at 1", "--refuse-at 1");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("0 of 4 games, and 4 void (genmove error 4: no engine moved; not counted)"), "{stdout}");
    assert!(stdout.contains("Score of a vs b: 0 - 0"), "{stdout}");
    assert!(stdout.contains("Black won 0, White won 0"), "{stdout}");
    let games = parse_records(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for game in &games {
        assert!(game.is_void(), "{game}");
        assert_eq!((game.result, game.tag("Result")), (None, Some("*")));
        assert_eq!(game.tag("Termination"), Some("genmove error"));
        assert!(game.tag("Reason").is_some_and(|r| r.starts_with("black: ") && r.ends_with("void")), "{game}");
    }
    // Resumed: the void games were played; none is played again.
    let out = a_match(&record, "--refuse-at 1", "--refuse-at 1");
    let (stdout2, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("found 4 recorded games; they are not played again"), "{stderr}");
    assert_eq!(stdout2, stdout);
    assert_eq!(parse_records(&std::fs::read_to_string(&record).unwrap()).unwrap(), games);
    // Nothing to rate: one line, no table.
    let out = support::veletas(&["ratings", record.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("no decided games between two engines (4 skipped)"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_engine_loses_where_the_other_moved_and_voids_the_rest() {
    let dir = scratch!("one-broken");
    let record = dir.join("g.txt");
    // b crashes at its first genmove: as White (games 1, 3) after a moved, as Black (2, 4) at once.
    let out = a_match(&record, "", "--crash-at 1");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("2 of 4 games, and 2 void (crash 2: no engine moved; not counted)"), "{stdout}");
    assert!(stdout.contains("Score of a vs b: 2 - 0"), "{stdout}");
    assert!(stdout.contains("Endings: crash 2"), "{stdout}");
    assert!(stdout.contains("Pairs: 0 [LL 0, WL 0, WW 0]"), "{stdout}");
    let games = parse_records(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let void: Vec<bool> = games.iter().map(|g| g.is_void()).collect();
    assert_eq!(void.iter().filter(|&&v| v).count(), 2);
    for game in &games {
        assert_eq!(game.is_void(), game.tag("BlackEngine") == Some("2"), "{game}");
    }
    let out = support::veletas(&["ratings", record.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("2 void games (no engine moved) skipped"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_knockout_of_engines_that_never_move_plays_no_tie_breaks() {
    let dir = scratch!("knockout");
    let (a, b) = (format!("a={FAKE} --seed 1 --hang-at 1"), format!("b={FAKE} --seed 2 --hang-at 1"));
    let out = support::veletas(&[
        "tournament",
        "--engine",
        &a,
        "--engine",
        &b,
        "--format",
        "knockout",
        "--size",
        "7",
        "--movetime",
        "0.05",
        "--margin",
        "0.05",
        "-q",
        "--record",
        dir.join("t.txt").to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains(": 0 of 2 games played, and 2 void\n"), "{stdout}");
    assert!(
        stdout.contains("a 0-0 b: a goes through (2 void) (no game decided: the higher seed goes through)"),
        "{stdout}"
    );
    assert!(stdout.contains("Void games: 2 (time forfeit 2): no engine moved; not counted"), "{stdout}");
    assert!(stdout.contains("No games: nothing to rate."), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_set_up_failure_is_a_forfeit_unless_both_engines_fail() {
    let dir = scratch!("set-up");
    let record = dir.join("g.txt");
    // Both refuse `clear_board`: the referee sets up the second even after the first failed.
    let out = a_match(&record, "--refuse clear_board", "--refuse clear_board");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("0 of 4 games, and 4 void (rejected command 4"), "{stdout}");
    let games = parse_records(&std::fs::read_to_string(&record).unwrap()).unwrap();
    for game in &games {
        let reason = game.tag("Reason").unwrap_or("");
        assert!(game.is_void(), "{game}");
        assert!(reason.starts_with("black: ") && reason.contains("; white: "), "{reason}");
        assert!(reason.ends_with("neither engine could be set up: void"), "{reason}");
    }
    // Only b refuses: whichever colour it has, a was set up, so b forfeits every game.
    let record = dir.join("h.txt");
    let out = a_match(&record, "", "--refuse clear_board");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("4 of 4 games\n"), "{stdout}");
    assert!(stdout.contains("Score of a vs b: 4 - 0"), "{stdout}");
    assert!(stdout.contains("Endings: rejected command 4"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
