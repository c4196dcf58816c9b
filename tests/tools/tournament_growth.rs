//! Growing a tournament through the binary: the same `--record` with more rounds or more
//! games per pair keeps the games played and plays the rest, the grown file is the games
//! of the bigger tournament played at once; more engines (round robin, gauntlet) keep the
//! games played and play the new pairs' games; a change that would move recorded games is
//! refused in one line naming the setting, its old and new values, and the file is left
//! as it was.

use std::path::Path;

use crate::support::veletas;
use veletas_rules::record::GameRecord;
use veletas_tools::referee::parse_records;

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
    let reordered = [engine("b", 2), engine("a", 1), engine("c", 3), engine("d", 4)];
    let refusals: [(&[String], &[&str], &str); 7] = [
        (&field, &["--rounds", "2", "--games-per-pair", "4"], "--games-per-pair 2, this run has --games-per-pair 4"),
        (&field, &["--rounds", "1"], "--rounds 2, this run has --rounds 1"),
        (&reordered, &["--rounds", "2"], "engine 1 of the record is 'a', this run's engine 1 is 'b'"),
        (&field[..2], &["--rounds", "2"], "the record was made with 3 engines, this run has 2 engines"),
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

/// How many games each pair of engines (by name) has in `path`.
fn per_pair(path: &Path) -> std::collections::BTreeMap<(String, String), usize> {
    let mut count = std::collections::BTreeMap::new();
    for game in games(path) {
        let (black, white) = (game.tag("Black").unwrap().to_string(), game.tag("White").unwrap().to_string());
        *count.entry((black.clone().min(white.clone()), black.max(white))).or_default() += 1;
    }
    count
}

#[test]
fn a_round_robin_grows_by_an_engine_keeping_the_games_played() {
    let dir = scratch!("grow-field");
    let three = [engine("a", 1), engine("b", 2), engine("c", 3)];
    let four = [three.to_vec(), vec![engine("d", 4)]].concat();
    let five = [four.clone(), vec![engine("e", 5)]].concat();
    let record = dir.join("t.txt");
    let r = record.to_str().unwrap();
    let (ok, _, stderr) = tournament(&three, &["--record", r]);
    assert!(ok, "{stderr}");
    let first = std::fs::read_to_string(&record).unwrap();
    // The dry run shows the grown schedule: the recorded games, then the new pairs'.
    let (ok, dry, stderr) = tournament(&four, &["--record", r, "--dry-run"]);
    assert!(ok, "{stderr}");
    assert!(dry.starts_with("12 of 12 games\n"), "{dry}");
    let added: Vec<&str> = dry.lines().skip(7).collect();
    assert!(added.iter().all(|line| line.contains("d (")), "{dry}");
    let (ok, stdout, stderr) = tournament(&four, &["--record", r]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("found 6 recorded games"), "{stderr}");
    assert!(
        stderr.contains("the record was made with 3 engines, this run has 4 engines: the 6 games recorded keep their places; 6 more to play"),
        "{stderr}"
    );
    assert!(stdout.contains("12 of 12 games played"), "{stdout}");
    assert!(stdout.contains("Ratings of 4 engines from 12 games"), "{stdout}");
    // The 6 games played are kept as they were, not played again: 6 more in the file.
    let grown = std::fs::read_to_string(&record).unwrap();
    assert!(grown.starts_with(&first));
    assert_eq!(games(&record).len(), 12);
    assert_eq!(per_pair(&record).len(), 6);
    assert!(per_pair(&record).values().all(|&n| n == 2), "{:?}", per_pair(&record));
    let tags: Vec<String> = games(&record).iter().map(|g| g.tag("Schedule").unwrap().to_string()).collect();
    assert!(
        tags[6..].iter().all(|t| t.starts_with("round-robin; engines 3+1; games-per-pair 2; rounds 1;")),
        "{tags:?}"
    );
    let fingerprints: std::collections::HashSet<String> =
        games(&record).iter().map(|g| g.tag("Tournament").unwrap().to_string()).collect();
    assert_eq!(fingerprints.len(), 1, "one tournament for veletas ratings: {fingerprints:?}");
    // Resumed again, it plays nothing; grown again, only the fifth engine's pairs.
    let (ok, stdout, stderr) = tournament(&four, &["--record", r]);
    assert!(ok && stdout.contains("12 of 12 games played"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), grown);
    let (ok, stdout, stderr) = tournament(&five, &["--record", r]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("20 of 20 games played"), "{stdout}");
    assert!(std::fs::read_to_string(&record).unwrap().starts_with(&grown));
    assert_eq!(per_pair(&record).len(), 10);
    assert!(per_pair(&record).values().all(|&n| n == 2), "{:?}", per_pair(&record));
    let ratings = veletas(&["ratings", r]);
    assert!(ratings.status.success(), "{}", String::from_utf8_lossy(&ratings.stderr));
    assert!(String::from_utf8_lossy(&ratings.stdout).contains("Ratings of 5 engines from 20 games"));
}

#[test]
fn a_field_grown_with_more_rounds_plays_the_new_rounds_and_pairs_and_shards_agree() {
    let dir = scratch!("grow-rounds");
    let three = [engine("a", 1), engine("b", 2), engine("c", 3)];
    let four = [three.to_vec(), vec![engine("d", 4)]].concat();
    let record = dir.join("t.txt");
    let r = record.to_str().unwrap();
    let (ok, _, stderr) = tournament(&three, &["--record", r]);
    assert!(ok, "{stderr}");
    // The shards of the grown schedule's dry run make up the whole one.
    let (ok, whole, _) = tournament(&four, &["--record", r, "--rounds", "2", "--dry-run"]);
    assert!(ok && whole.starts_with("24 of 24 games\n"), "{whole}");
    let mut shards: Vec<String> = (1..=3)
        .flat_map(|k| {
            let (_, out, _) =
                tournament(&four, &["--record", r, "--rounds", "2", "--dry-run", "--shard", &format!("{k}/3")]);
            out.lines().skip(1).map(str::to_string).collect::<Vec<_>>()
        })
        .collect();
    shards.sort_by_key(|line| line.split(' ').nth(1).and_then(|n| n.parse::<usize>().ok()));
    assert_eq!(shards, whole.lines().skip(1).collect::<Vec<_>>());
    let (ok, stdout, stderr) = tournament(&four, &["--record", r, "--rounds", "2"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("24 of 24 games played"), "{stdout}");
    assert!(per_pair(&record).values().all(|&n| n == 4), "{:?}", per_pair(&record));
    // Once grown, more rounds would move the newcomer's games: refused, the file as it was.
    let before = std::fs::read_to_string(&record).unwrap();
    let (ok, _, stderr) = tournament(&four, &["--record", r, "--rounds", "3"]);
    assert!(!ok);
    assert!(stderr.contains("the record was made with --rounds 2, this run has --rounds 3"), "{stderr}");
    assert!(stderr.contains("keep the counts the record was made with"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
}

#[test]
fn a_gauntlet_grows_and_a_knockout_does_not() {
    let dir = scratch!("grow-formats");
    let three = [engine("a", 1), engine("b", 2), engine("c", 3)];
    let four = [three.to_vec(), vec![engine("d", 4)]].concat();
    let (gauntlet, knockout) = (dir.join("g.txt"), dir.join("k.txt"));
    let (g, k) = (gauntlet.to_str().unwrap(), knockout.to_str().unwrap());
    let (ok, _, stderr) = tournament(&three, &["--format", "gauntlet", "--record", g]);
    assert!(ok, "{stderr}");
    let first = std::fs::read_to_string(&gauntlet).unwrap();
    let (ok, stdout, stderr) = tournament(&four, &["--format", "gauntlet", "--record", g]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("the 4 games recorded keep their places; 2 more to play"), "{stderr}");
    assert!(stdout.contains("6 of 6 games played"), "{stdout}");
    assert!(std::fs::read_to_string(&gauntlet).unwrap().starts_with(&first));
    let pairs = per_pair(&gauntlet);
    assert_eq!(pairs.keys().map(|(x, y)| format!("{x}{y}")).collect::<Vec<_>>(), ["ab", "ac", "ad"]);
    assert!(pairs.values().all(|&n| n == 2), "{pairs:?}");
    // A knockout's bracket depends on the field: refused, the file as it was.
    let (ok, _, stderr) = tournament(&three, &["--format", "knockout", "--record", k]);
    assert!(ok, "{stderr}");
    let before = std::fs::read_to_string(&knockout).unwrap();
    let (ok, _, stderr) = tournament(&four, &["--format", "knockout", "--record", k]);
    assert!(!ok);
    assert!(
        stderr.contains("the record was made with 3 engines, this run has 4 engines: a knockout's matches cannot grow"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&knockout).unwrap(), before);
    // Nor does a record of another format become a knockout.
    let (ok, _, stderr) = tournament(&four, &["--format", "knockout", "--record", g]);
    assert!(!ok);
    assert!(stderr.contains("no recorded game has a place in another format"), "{stderr}");
}
