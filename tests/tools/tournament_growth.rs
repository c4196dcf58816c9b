//! Growing a tournament through the binary: the same `--record` with more rounds or more
//! games per pair keeps the games played and plays the rest, the grown file is the games
//! of the bigger tournament played at once; a change that would move recorded games is
//! refused in one line naming the setting, its old and new values, and the file is left
//! as it was.

use std::path::Path;

use crate::support::veletas;
use veletas::record::GameRecord;
use veletas::referee::parse_records;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn engine(name: &str, seed: u32) -> String {
    format!("{name}='{FAKE}' --name {name} --seed {seed}")
}

/// Runs a tournament of `engines` (each `--engine`) with `extra` options, quietly.
fn tournament(engines: &[String], extra: &[&str]) -> (bool, String, String) {
    let mut args = vec!["tournament", "-q", "--size", "7"];
    for e in engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend(extra);
    let out = veletas(&args);
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn games(path: &Path) -> Vec<GameRecord> {
    parse_records(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Where a game is in the schedule, whatever run played it: its id, round, players and
/// opening (not its moves: the fake engine's moves depend on the games its process played
/// before).
fn keys(path: &Path) -> Vec<Vec<String>> {
    let mut keys: Vec<Vec<String>> = games(path)
        .iter()
        .map(|g| {
            ["Game", "Round", "Black", "White", "Opening"].iter().map(|t| g.tag(t).unwrap_or("").to_string()).collect()
        })
        .collect();
    keys.sort_by_key(|k| k[0].parse::<usize>().unwrap_or(usize::MAX));
    keys
}

#[test]
fn more_rounds_and_more_games_per_pair_keep_the_games_played_and_play_the_rest() {
    let dir = scratch!("grow");
    let field = [engine("a", 1), engine("b", 2), engine("c", 3)];
    let (grown, whole) = (dir.join("grown.txt"), dir.join("whole.txt"));
    let (g, w) = (grown.to_str().unwrap(), whole.to_str().unwrap());
    // 3 pairs x 2 games, then x 4 games (one round), then 2 rounds of 4.
    let (ok, _, stderr) = tournament(&field, &["--record", g]);
    assert!(ok, "{stderr}");
    assert_eq!(games(&grown).len(), 6);
    let first = std::fs::read_to_string(&grown).unwrap();
    let (ok, stdout, stderr) = tournament(&field, &["--games-per-pair", "4", "--record", g]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("found 6 recorded games"), "{stderr}");
    assert!(stdout.contains("12 of 12 games played"), "{stdout}");
    assert!(std::fs::read_to_string(&grown).unwrap().starts_with(&first), "the games played stay as they were");
    let (ok, stdout, stderr) = tournament(&field, &["--games-per-pair", "4", "--rounds", "2", "--record", g]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("24 of 24 games played"), "{stdout}");
    // The grown file holds the games of the bigger tournament played at once, and keeps
    // the fingerprint it started with (one tournament for `veletas ratings`).
    let (ok, _, stderr) = tournament(&field, &["--games-per-pair", "4", "--rounds", "2", "--record", w]);
    assert!(ok, "{stderr}");
    assert_eq!(keys(&grown), keys(&whole));
    let fingerprints: std::collections::HashSet<String> =
        games(&grown).iter().map(|g| g.tag("Tournament").unwrap().to_string()).collect();
    assert_eq!(fingerprints.len(), 1, "{fingerprints:?}");
    let ratings = veletas(&["ratings", g]);
    assert!(ratings.status.success(), "{}", String::from_utf8_lossy(&ratings.stderr));
    // Resuming the grown tournament again plays nothing.
    let before = std::fs::read_to_string(&grown).unwrap();
    let (ok, stdout, stderr) = tournament(&field, &["--games-per-pair", "4", "--rounds", "2", "--record", g]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("24 of 24 games played"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&grown).unwrap(), before);
}

#[test]
fn a_change_that_moves_recorded_games_is_refused_naming_the_setting() {
    let dir = scratch!("refuse");
    let field = [engine("a", 1), engine("b", 2), engine("c", 3)];
    let record = dir.join("t.txt");
    let r = record.to_str().unwrap();
    let (ok, _, stderr) = tournament(&field, &["--rounds", "2", "--record", r]);
    assert!(ok, "{stderr}");
    let before = std::fs::read_to_string(&record).unwrap();
    let four = [field.to_vec(), vec![engine("d", 4)]].concat();
    let refusals: [(&[String], &[&str], &str); 6] = [
        (&field, &["--rounds", "2", "--games-per-pair", "4"], "--games-per-pair 2, this run has --games-per-pair 4"),
        (&field, &["--rounds", "1"], "--rounds 2, this run has --rounds 1"),
        (&four, &["--rounds", "2"], "the record was made with 3 engines, this run has 4 engines"),
        (&field, &["--rounds", "2", "--format", "gauntlet"], "--format round-robin, this run has --format gauntlet"),
        (&field, &["--rounds", "2", "--seed", "9"], "openings 'random seed 1', this run has openings 'random seed 9'"),
        (&field, &["--rounds", "2", "--movetime", "0.5"], "time control"),
    ];
    for (engines, extra, needle) in refusals {
        let (ok, stdout, stderr) = tournament(engines, &[extra, &["--record", r]].concat());
        assert!(!ok, "{extra:?}: {stdout}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
        let errors = stderr.lines().filter(|l| !l.contains("recorded games; they are not played again"));
        assert_eq!(errors.count(), 1, "{stderr}");
        assert_eq!(std::fs::read_to_string(&record).unwrap(), before, "{extra:?}");
    }
    // Another board size is named as such.
    let mut args = vec!["tournament", "-q", "--size", "9", "--rounds", "2", "--record", r];
    field.iter().for_each(|e| args.extend(["--engine", e.as_str()]));
    let out = veletas(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the record was made with --size 7, this run has --size 9"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
}
