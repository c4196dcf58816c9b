//! Trained weights are used without rebuilding (issue 28, point 6): `--eval FILE` reads a
//! weights file of `veletas train-eval -o FILE` at start, the protocol's `eval FILE` at any
//! time (a refused one changes nothing, `eval learned` brings the built-in weights back);
//! train-eval refuses to pool board sizes into one model.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{self, VELETAS as BIN, engine};

/// The replies of a 7x7 session of genmoves, with `eval` as --eval.
fn session(eval: &str) -> Output {
    let mut input = String::from("boardsize 7\nclear_board\n");
    for n in 0..16 {
        input.push_str(if n % 2 == 0 { "genmove b\n" } else { "genmove w\n" });
    }
    support::session(&mut engine(&["--seed", "1", "--playouts", "150", "--eval", eval]), input.as_bytes())
}

fn weights() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/data/eval-weights.txt")).unwrap()
}

#[test]
fn a_weights_file_is_the_learned_evaluation_without_rebuilding() {
    let dir = scratch!("weights");
    let same = dir.join("same.txt");
    std::fs::write(&same, weights()).unwrap();
    let other = dir.join("negated.txt");
    std::fs::write(&other, negated_weights()).unwrap();
    let builtin = session("learned");
    assert!(builtin.status.success());
    let from_file = session(same.to_str().unwrap());
    assert!(from_file.status.success(), "{}", String::from_utf8_lossy(&from_file.stderr));
    assert_eq!(from_file.stdout, builtin.stdout, "the built-in weights read from a file play otherwise");
    let changed = session(other.to_str().unwrap());
    assert!(changed.status.success(), "{}", String::from_utf8_lossy(&changed.stderr));
    assert_ne!(changed.stdout, builtin.stdout, "other weights made no difference: the file was not used");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_weights_file_is_one_line_and_a_failure() {
    let dir = scratch!("bad");
    let missing = dir.join("missing.txt");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "bias 1\n").unwrap();
    for (path, what) in
        [(&missing, "not hand, learned, net or a readable weights file"), (&bad, "no classic weight for")]
    {
        let out = session(path.to_str().unwrap());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!out.status.success() && out.stdout.is_empty(), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("--eval {}: ", path.display())) && stderr.contains(what), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_eval_refuses_to_pool_board_sizes() {
    let dir = scratch!("sizes");
    let ten = dir.join("ten.txt");
    let out = Command::new(BIN)
        .args(["match", "--engine", "veletas --player random --seed 1", "--engine", "veletas --player random --seed 2"])
        .args(["-n", "2", "--size", "10", "-q", "--record"])
        .arg(&ten)
        .env("PATH", format!("{}:{}", Path::new(BIN).parent().unwrap().display(), std::env::var("PATH").unwrap()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let seven = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/example-game.txt");
    let out = Command::new(BIN).arg("train-eval").arg(&seven).arg(&ten).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("a 10x10 game, but") && stderr.contains("began with 7x7 games"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The replies of `veletas --seed 1 --playouts 150` to `input`, each without its final
/// empty line.
/// The replies of a session of the engine started with the learned evaluation (the weights
/// these tests load are the learned one's; the default evaluation, the value network on top
/// of it, is tested in value_net.rs).
fn protocol(input: &str) -> Vec<String> {
    let out =
        support::session(&mut engine(&["--seed", "1", "--playouts", "150", "--eval", "learned"]), input.as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_terminator("\n\n").map(str::to_string).collect()
}

/// A 7x7 game's setup, then `genmove`s for both sides.
fn genmoves() -> String {
    let mut input = String::from("boardsize 7\nclear_board\n");
    for n in 0..12 {
        input.push_str(if n % 2 == 0 { "genmove b\n" } else { "genmove w\n" });
    }
    input
}

/// The built-in weights, each negated: a model that plays otherwise.
fn negated_weights() -> String {
    weights()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            // `NAME WEIGHT` or `FAMILY NAME WEIGHT`: the weight is the last word.
            let (name, w) = l.rsplit_once(' ').unwrap();
            format!("{name} {}\n", -w.trim().parse::<f64>().unwrap())
        })
        .collect()
}

#[test]
fn the_eval_command_loads_weights_reports_them_and_goes_back_to_the_built_in_ones() {
    let dir = scratch!("command");
    let file = dir.join("negated.txt");
    std::fs::write(&file, negated_weights()).unwrap();
    let path = file.to_str().unwrap();
    let input = format!("eval\neval {path}\neval\neval learned\neval\neval hand\neval\n");
    let expected = ["= learned", "= ", &format!("= learned {path}"), "= ", "= learned", "= ", "= hand"];
    assert_eq!(protocol(&input), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_eval_changes_nothing_and_says_why() {
    let dir = scratch!("refused");
    let negated = dir.join("negated.txt");
    std::fs::write(&negated, negated_weights()).unwrap();
    let extra = dir.join("extra.txt");
    std::fs::write(&extra, format!("{}speed 1\n", weights())).unwrap();
    let short = dir.join("short.txt");
    std::fs::write(&short, "bias 1\n").unwrap();
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "bias one\n").unwrap();
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, b"bias \xff\n").unwrap();
    let big = dir.join("big.txt");
    std::fs::File::create(&big).unwrap().set_len(16 * 1024 * 1024 + 1).unwrap();
    let policy = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/data/policy-weights.txt");
    let missing = dir.join("missing.txt");
    let refused = [
        (missing.clone(), "No such file or directory"),
        (dir.clone(), "not a regular file (a directory)"),
        (big, "larger than the limit of 16777216 bytes"),
        (binary, "not UTF-8 text"),
        (extra, "unknown feature 'speed': not one of the 16 features"),
        (policy, "unknown feature 'stay'"),
        (short, "no classic weight for 'hand_logit'"),
        (junk, "bad weight 'one'"),
    ];
    let mut bad_loads = String::new();
    for (path, _) in &refused {
        bad_loads.push_str(&format!("eval {}\n", path.display()));
    }
    // The built-in weights, then a file's: each refused load leaves the model in force.
    for first in [String::new(), format!("eval {}\n", negated.display())] {
        let plain = protocol(&format!("{first}{}eval\n", genmoves()));
        let replies = protocol(&format!("{first}{bad_loads}{}eval\n", genmoves()));
        let skip = usize::from(!first.is_empty());
        // The path is quoted up to 40 characters, as `loadgame` quotes it.
        for (reply, (path, why)) in replies[skip..].iter().zip(&refused) {
            let shown: String = path.display().to_string().chars().take(40).collect();
            assert!(reply.starts_with(&format!("? cannot load weights: {shown}")), "{reply}");
            assert!(reply.contains(why), "{path:?}: {reply}");
        }
        assert_eq!(replies[skip + refused.len()..], plain[skip..], "a refused eval changed the play");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_built_in_weights_loaded_by_eval_play_as_the_built_in_learned_evaluation() {
    let dir = scratch!("builtin");
    let same = dir.join("same.txt");
    std::fs::write(&same, weights()).unwrap();
    let default = protocol(&genmoves());
    let loaded = protocol(&format!("eval {}\n{}", same.display(), genmoves()));
    assert_eq!(loaded[0], "= ");
    assert_eq!(loaded[1..], default[..], "the built-in weights read from a file play otherwise");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_weights_loaded_by_eval_change_the_analysis() {
    let dir = scratch!("analysis");
    let negated = dir.join("negated.txt");
    std::fs::write(&negated, negated_weights()).unwrap();
    let game = "boardsize 7\nplay b d4\nplay w c7,e1\ngenmove_analyze b\n";
    // The winrate of the move chosen (the first `info` entry).
    let winrate = |replies: &[String]| -> String {
        let info = replies.last().unwrap().lines().nth(1).unwrap().to_string();
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "winrate").unwrap();
        words[at + 1].to_string()
    };
    let builtin = winrate(&protocol(game));
    let again = winrate(&protocol(&format!("eval {}\neval learned\n{game}", negated.display())));
    let other = winrate(&protocol(&format!("eval {}\n{game}", negated.display())));
    assert_eq!(again, builtin, "eval learned did not bring the built-in weights back");
    assert_ne!(other, builtin, "other weights gave the same analysis: they were not used");
    let _ = std::fs::remove_dir_all(&dir);
}
