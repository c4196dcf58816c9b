//! Records through the binary: results checked, not trusted (the replay decides; `view`,
//! `ratings` and the engine's `loadgame` warn about a claim the moves contradict, naming
//! the game, and `ratings` does not count it silently), and the per-turn annotations that
//! `match` writes, which every reader takes and which read and write back byte for byte.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use veletas_rules::Color;
use veletas_rules::record::{parse_records, result_token};

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

fn run(args: &[&str]) -> Output {
    Command::new(VELETAS).args(args).output().unwrap()
}

/// Two 7x7 games between random players, as `veletas match` records them.
fn played(dir: &Path) -> PathBuf {
    let record = dir.join("games.txt");
    let engine = |seed: &str| format!("{VELETAS} --player random --seed {seed}");
    let output = run(&[
        "match",
        "--engine",
        &format!("a={}", engine("1")),
        "--engine",
        &format!("b={}", engine("2")),
        "--games",
        "2",
        "--size",
        "7",
        "--movetime",
        "0.2",
        "--record",
        record.to_str().unwrap(),
        "-q",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    record
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn match_records_carry_each_engine_turns_time_and_read_back_byte_for_byte() {
    let dir = scratch!("annotations");
    let record = played(&dir);
    let text = std::fs::read_to_string(&record).unwrap();
    let games = parse_records(&text).unwrap();
    assert_eq!(games.len(), 2);
    for game in &games {
        // The opening's turns (from the built-in book) were chosen by no engine: no time.
        let opening = game.opening().unwrap().split_whitespace().count();
        for turn in 0..game.moves().len() {
            let time = game.annotation(turn).time;
            assert_eq!(time.is_some(), turn >= opening, "turn {turn} of {game}");
            assert!(time.is_none_or(|t| t.as_secs_f64() < 1.0), "a random move takes less than a second");
        }
        assert!(game.annotation(0).evaluation.is_none(), "genmove reports no win rate");
    }
    let written: String = games.iter().map(ToString::to_string).collect();
    assert_eq!(written, text, "read and written again, byte for byte");
    // Every reader takes them.
    let ratings = run(&["ratings", record.to_str().unwrap()]);
    assert!(ratings.status.success() && stderr(&ratings).is_empty(), "{}", stderr(&ratings));
    let html = dir.join("games.html");
    let view = run(&["view", record.to_str().unwrap(), "-o", html.to_str().unwrap()]);
    assert!(view.status.success() && stderr(&view).is_empty(), "{}", stderr(&view));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of `record` with game 1's result token and tag turned to the loser, game 2
/// given a `Result` tag that contradicts its token, and a third game (two turns, no win
/// on the board) claimed as a normal win: the three kinds of claims replay contradicts.
fn tampered(dir: &Path, record: &Path) -> (PathBuf, [Color; 2]) {
    let mut games = parse_records(&std::fs::read_to_string(record).unwrap()).unwrap();
    let winners = [0, 1].map(|i| games[i].winner().unwrap());
    games[0].set_result(Some(!winners[0]));
    let other = result_token(Some(!winners[1]));
    games[1].set_tag("Result", other);
    let mut text: String = games.iter().map(ToString::to_string).collect();
    text.push_str("[Event \"veletas match\"]\n[Black \"a\"]\n[White \"b\"]\n[Size \"7\"]\n[Termination \"normal\"]\n\n1. d4 b2,f6 B+\n\n");
    let path = dir.join("tampered.txt");
    std::fs::write(&path, text).unwrap();
    (path, winners)
}

#[test]
fn ratings_count_what_the_replay_decides_and_warn_about_each_contradicted_claim() {
    let dir = scratch!("ratings");
    let record = played(&dir);
    let (path, winners) = tampered(&dir, &record);
    let output = run(&["ratings", path.to_str().unwrap(), "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let warnings = stderr(&output);
    let name = path.display().to_string();
    let lines: Vec<&str> = warnings.lines().collect();
    assert_eq!(lines.len(), 3, "{warnings}");
    assert!(lines[0].starts_with(&format!("warning: {name}: game 1 (round 1), ")), "{warnings}");
    assert!(lines[0].contains(&format!("counted as {}", result_token(Some(winners[0])))), "{warnings}");
    assert!(lines[1].starts_with(&format!("warning: {name}: game 2 (round 2), ")), "{warnings}");
    assert!(lines[1].contains("the moves end in a win for"), "{warnings}");
    assert!(lines[2].contains("game 3, a vs b: the record says B+ by a normal end"), "{warnings}");
    assert!(lines[2].ends_with("not counted"), "{warnings}");
    // Games 1 and 2 count as their moves decided them; game 3 not at all.
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let games: f64 = json["engines"].as_array().unwrap().iter().map(|e| e["games"].as_f64().unwrap()).sum();
    assert_eq!(games, 4.0, "two games, two engines each: {json}");
    let notes = json["notes"].to_string();
    assert!(notes.contains("1 games whose result their record contradicts skipped"), "{notes}");
    let untouched = run(&["ratings", record.to_str().unwrap(), "--format", "json"]);
    let expected: serde_json::Value = serde_json::from_slice(&untouched.stdout).unwrap();
    assert_eq!(json["engines"], expected["engines"], "the same standings as the untouched record");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn view_and_loadgame_warn_about_a_result_the_moves_contradict() {
    let dir = scratch!("view");
    let record = played(&dir);
    let (path, winners) = tampered(&dir, &record);
    let html = dir.join("games.html");
    let output = run(&["view", path.to_str().unwrap(), "-o", html.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output).lines().count(), 3, "{}", stderr(&output));
    assert!(stderr(&output).contains("game 1 (round 1), "), "{}", stderr(&output));
    // The page shows the result the moves decide.
    let page = std::fs::read_to_string(&html).unwrap();
    let first_game = page.split("\"games\":[").nth(1).unwrap().lines().nth(1).unwrap();
    assert!(first_game.contains(&format!("\"{}\"", result_token(Some(winners[0])))), "{first_game}");

    let mut engine =
        Command::new(VELETAS).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let commands = format!("loadgame {} 2 1\nloadgame {} 2 1\nquit\n", path.display(), record.display());
    engine.stdin.take().unwrap().write_all(commands.as_bytes()).unwrap();
    let output = engine.wait_with_output().unwrap();
    let replies = String::from_utf8_lossy(&output.stdout).into_owned();
    let lines: Vec<&str> = replies.lines().filter(|l| !l.is_empty()).collect();
    assert!(lines.len() == 3 && lines.iter().all(|l| l.starts_with('=')), "the replies stay the protocol's: {replies}");
    let log = stderr(&output);
    assert_eq!(log.lines().count(), 1, "one warning, for the tampered file only: {log}");
    assert!(log.contains("game 1 (round 1), a vs b") || log.contains("game 1 (round 1), b vs a"), "{log}");
    assert!(log.contains("the moves end in a win for"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
