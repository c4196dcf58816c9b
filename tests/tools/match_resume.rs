//! `match` resume as strict as the tournament's (issue 44, point 5): a record made under
//! another time control is refused (it would mix two controls in one summary), and so is
//! a record holding games past `--games` (the summary would count fewer games than
//! `ratings` rates).

use std::path::Path;
use std::process::Output;

use crate::support::veletas_in;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn a_match(dir: &Path, extra: &[&str]) -> Output {
    let (a, b) = (format!("a={FAKE} --seed 1"), format!("b={FAKE} --seed 2"));
    let args = ["match", "--engine", &a, "--engine", &b, "--size", "7", "--record", "g.txt", "-q"];
    veletas_in(dir, &[&args[..], extra].concat())
}

/// A refusal in one line holding `what` (after the line counting the recorded games), the
/// record left as it was.
fn assert_refused(dir: &Path, out: &Output, what: &str, record: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.ends_with("they are not played again")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains(what), "{what}: {stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("g.txt")).unwrap(), record);
}

#[test]
fn a_match_resumed_under_another_time_control_is_refused() {
    let dir = scratch!("time-control");
    let out = a_match(&dir, &["--games", "2", "--movetime", "0.5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let record = std::fs::read_to_string(dir.join("g.txt")).unwrap();
    let out = a_match(&dir, &["--games", "4", "--movetime", "0.25"]);
    assert_refused(
        &dir,
        &out,
        "g.txt: holds games of a different match (game 1 of the file: round 1: the record was made with time control \
         'movetime 0.5', this run has 'movetime 0.25'); use --overwrite or another --record",
        &record,
    );
    let out = a_match(&dir, &["--games", "4", "--movetime", "0.5", "--time-odds", "2"]);
    assert_refused(&dir, &out, "this run has 'movetime 0.5; engine 1 x2'", &record);
    // The same control resumes.
    let out = a_match(&dir, &["--games", "4", "--movetime", "0.5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_with_games_past_the_games_asked_for_is_refused() {
    let dir = scratch!("games");
    let out = a_match(&dir, &["--games", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let record = std::fs::read_to_string(dir.join("g.txt")).unwrap();
    let out = a_match(&dir, &["--games", "2"]);
    assert_refused(
        &dir,
        &out,
        "g.txt: holds 6 games past --games 2 (rounds up to 8): give --games 8 or more to count them, or use \
         --overwrite or another --record",
        &record,
    );
    let out = a_match(&dir, &["--games", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("found 8 recorded games"));
    let _ = std::fs::remove_dir_all(&dir);
}
