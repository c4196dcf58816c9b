//! Trained weights are used without rebuilding (issue 28, point 6): `--eval FILE` reads a
//! weights file of `veletas train-eval -o FILE` at start; train-eval refuses to pool board
//! sizes into one model.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_veletas");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("veletas-eval-file-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The replies of a 7x7 session of genmoves, with `eval` as --eval.
fn session(eval: &str) -> Output {
    let mut input = String::from("boardsize 7\nclear_board\n");
    for n in 0..16 {
        input.push_str(if n % 2 == 0 { "genmove b\n" } else { "genmove w\n" });
    }
    let mut child = Command::new(BIN)
        .args(["--seed", "1", "--playouts", "150", "--eval", eval])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // A refused --eval ends the engine before it reads: a closed pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn weights() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/data/eval-weights.txt")).unwrap()
}

#[test]
fn a_weights_file_is_the_learned_evaluation_without_rebuilding() {
    let dir = temp_dir("weights");
    let same = dir.join("same.txt");
    std::fs::write(&same, weights()).unwrap();
    let negated: String = weights()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (name, w) = l.split_once(' ').unwrap();
            format!("{name} {}\n", -w.trim().parse::<f64>().unwrap())
        })
        .collect();
    let other = dir.join("negated.txt");
    std::fs::write(&other, negated).unwrap();
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
    let dir = temp_dir("bad");
    let missing = dir.join("missing.txt");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "bias 1\n").unwrap();
    for (path, what) in [(&missing, "not hand, learned or a readable weights file"), (&bad, "no weight for")] {
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
    let dir = temp_dir("sizes");
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
