//! Self-play data for the move policy: `veletas tournament --record-steps` asks engines that
//! list `genmove_analyze_steps` for their moves with it and records each turn's first steps
//! (`steps=d4-d6:30,-:12` in the turn's annotation); `veletas train-policy` fits the policy to
//! such records and writes weights that `veletas --policy FILE` loads. Tiny budgets: 7x7,
//! 40 playouts a move, 2 games.

use std::path::Path;

use crate::support::{veletas, veletas_in};
use veletas_rules::record::GameRecord;
use veletas_rules::{Color, Move};
use veletas_tools::referee::parse_records;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const PLAYOUTS: u64 = 40;

/// Plays a 2-game 7x7 self-play tournament into `record` (with `extra` options).
fn self_play(record: &Path, one: &str, two: &str, extra: &[&str]) -> Vec<GameRecord> {
    let mut args = vec![
        "tournament",
        "--engine",
        one,
        "--engine",
        two,
        "--size",
        "7",
        "--movetime",
        "60",
        "-q",
        "--record",
        record.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = veletas(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    parse_records(&std::fs::read_to_string(record).unwrap()).unwrap()
}

fn ours(seed: u32) -> String {
    format!("{VELETAS} --seed {seed} --playouts {PLAYOUTS}")
}

#[test]
fn a_tournament_with_record_steps_records_the_first_steps_of_every_searched_turn() {
    let dir = scratch!("steps");
    let record = dir.join("sp.txt");
    let games = self_play(&record, &format!("a={}", ours(1)), &format!("b={}", ours(2)), &["--record-steps"]);
    assert_eq!(games.len(), 2);
    let mut stepped = 0;
    for game in &games {
        let mut position = game.start_position().unwrap();
        // The k-th search of an engine has its own playouts and what its tree kept.
        let mut searches = [0u64; 2];
        for (turn, text) in game.moves().iter().enumerate() {
            let mv = position.parse_move(text.as_str()).unwrap();
            let annotation = game.annotation(turn);
            let side = position.side_to_move().index();
            if let Some(evaluation) = annotation.evaluation {
                searches[side] += 1;
                let steps = annotation.first_steps.clone().unwrap_or_else(|| panic!("turn {turn}: {game}"));
                stepped += 1;
                let total = steps.total();
                assert!(total >= evaluation.visits && total <= PLAYOUTS * searches[side], "turn {turn}: {game}");
                if searches[side] == 1 {
                    // An engine's first search of a game starts from an empty tree: the steps
                    // hold exactly its playouts.
                    assert_eq!(total, PLAYOUTS, "turn {turn}: {game}");
                }
                let Move::Turn(played) = mv else { panic!("{mv}") };
                let mut last = u64::MAX;
                for &(step, visits) in steps.entries() {
                    assert!(visits <= last, "most visited first: {game}");
                    last = visits;
                    if let Some((from, to)) = step {
                        assert!(position.shooters().contains(from) && position.shooter_reach(from).contains(to));
                    }
                }
                // The turn played went through its first step.
                let of_played = steps.entries().iter().find(|(s, _)| *s == played.shooter_move()).unwrap();
                assert!(of_played.1 >= evaluation.visits, "turn {turn}: {game}");
            } else {
                assert!(annotation.first_steps.is_none(), "no search, no steps: turn {turn}");
            }
            position.play(mv).unwrap();
        }
    }
    assert!(stepped >= 10, "{stepped} turns with first steps");
    // The records read back and print the same (the annotation round-trips).
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains(" steps="), "{text}");
    let again: String = games.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    assert_eq!(parse_records(&again).unwrap(), games);
}

#[test]
fn without_the_option_or_the_command_no_steps_are_recorded_and_nothing_fails() {
    let dir = scratch!("without");
    let plain = self_play(&dir.join("plain.txt"), &format!("a={}", ours(1)), &format!("b={}", ours(2)), &[]);
    let fake = format!("fake={FAKE} --seed 3");
    let mixed = self_play(&dir.join("mixed.txt"), &fake, &format!("b={}", ours(2)), &["--record-steps"]);
    for game in &plain {
        assert!((0..game.moves().len()).all(|t| game.annotation(t).first_steps.is_none()), "{game}");
        assert!(game.to_string().contains("%/") && !game.to_string().contains("steps="), "{game}");
    }
    for game in &mixed {
        assert!(game.winner().is_some(), "{game}");
        let mut position = game.start_position().unwrap();
        let fake_color = if game.tag("Black") == Some("fake") { Color::Black } else { Color::White };
        let mut ours_stepped = 0;
        for (turn, text) in game.moves().iter().enumerate() {
            let steps = game.annotation(turn).first_steps;
            if position.side_to_move() == fake_color {
                assert!(steps.is_none(), "the fake engine lists no genmove_analyze_steps: {game}");
            } else {
                ours_stepped += usize::from(steps.is_some());
            }
            position.play(position.parse_move(text.as_str()).unwrap()).unwrap();
        }
        assert!(ours_stepped > 0, "{game}");
    }
}

#[test]
fn train_policy_fits_the_recorded_steps_and_the_engine_loads_the_weights() {
    let dir = scratch!("train");
    let record = dir.join("sp.txt");
    self_play(&record, &format!("a={}", ours(1)), &format!("b={}", ours(2)), &["--record-steps"]);
    let out = veletas_in(&dir, &["train-policy", "sp.txt", "--holdout", "2", "-o", "p.txt"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("2 games (2 with first steps), "), "{stdout}");
    assert!(stdout.contains("\nclassic ") && stdout.contains("weights written to p.txt"), "{stdout}");
    let weights = std::fs::read_to_string(dir.join("p.txt")).unwrap();
    assert!(weights.contains("veletas train-policy sp.txt --holdout 2") && weights.contains("\nclassic stay "));
    assert!(!dir.join("p.txt.tmp").exists());
    // The engine plays with them, from the command line and the protocol.
    let session = |args: &[&str], input: &str| {
        let mut child = std::process::Command::new(VELETAS)
            .current_dir(&dir)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let moves = "boardsize 7\nplayouts 30\nplay b d4\nplay w c7,e1\ngenmove b\n";
    let out = session(&["--seed", "1", "--policy", "p.txt"], &format!("policy\n{moves}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.starts_with("= p.txt\n\n"), "{text}");
    assert!(!text.contains('?'), "{text}");
    let out = session(&["--seed", "1"], "policy\npolicy p.txt\npolicy\npolicy builtin\npolicy\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "= builtin\n\n= \n\n= p.txt\n\n= \n\n= builtin\n\n");
    // A corrupted file is refused in one line, and the weights in force stay.
    let mut broken = weights.clone();
    broken.push_str("classic stay 1\n");
    std::fs::write(dir.join("bad.txt"), &broken).unwrap();
    let out = veletas_in(&dir, &["--policy", "bad.txt"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--policy bad.txt: policy weights line") && stderr.contains("'stay' given twice"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    let out = session(&["--seed", "1", "--policy", "p.txt"], "policy bad.txt\npolicy eval.txt\npolicy\n");
    let text = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    assert!(replies[0].starts_with("? cannot load weights: bad.txt: policy weights line"), "{text}");
    assert!(replies[1].starts_with("? cannot load weights: eval.txt: "), "{text}");
    assert_eq!(replies[2], "= p.txt");
}

#[test]
fn train_policy_refuses_records_without_first_steps() {
    let dir = scratch!("refuse");
    self_play(&dir.join("plain.txt"), &format!("a={}", ours(1)), &format!("b={}", ours(2)), &[]);
    let out = veletas_in(&dir, &["train-policy", "plain.txt", "-o", "p.txt"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no first steps in the 2 games read") && stderr.contains("--record-steps"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(!dir.join("p.txt").exists());
    let out = veletas_in(&dir, &["train-policy", "missing.txt"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn train_policy_skips_and_counts_a_turn_whose_steps_are_not_legal_there() {
    let dir = scratch!("skip");
    let record = dir.join("sp.txt");
    self_play(&record, &format!("a={}", ours(1)), &format!("b={}", ours(2)), &["--record-steps"]);
    let text = std::fs::read_to_string(&record).unwrap();
    // A well-formed annotation whose step is off the 7x7 board: read, but no sample.
    let bad = text.replacen(" steps=", " steps=j10-j9:5,", 1);
    assert_ne!(bad, text);
    std::fs::write(&record, bad).unwrap();
    let out = veletas_in(&dir, &["train-policy", "sp.txt", "--holdout", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().next().unwrap().contains("(1 skipped)"), "{stdout}");
}
