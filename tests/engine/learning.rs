//! The learned-evaluation pipeline end to end: self-play data from
//! `scripts/selfplay-data.sh`, `veletas train-eval` on it, the weights file it writes, and
//! an engine playing with `--eval learned`.

use std::path::{Path, PathBuf};
use std::process::Command;

use veletas::search::eval::EvalModel;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("veletas-learning-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn selfplay(record: &Path, games: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/selfplay-data.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(["-n", games, "-p", "60", "-s", "7", "-j", "2", "-o"])
        .arg(record)
        .env("VELETAS", VELETAS)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn self_play_data_trains_weights_that_the_engine_plays_with() {
    let dir = scratch("pipeline");
    let record = dir.join("sp.txt");
    selfplay(&record, "40");
    let weights = dir.join("weights.txt");
    let out = Command::new(VELETAS).arg("train-eval").arg(&record).arg("-o").arg(&weights).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with("40 games (0 skipped)"), "{report}");
    for needle in ["hand-written evaluation", "learned evaluation", "hand_logit"] {
        assert!(report.contains(needle), "{needle}: {report}");
    }
    let model = EvalModel::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    assert!(model.weights.iter().all(|w| w.is_finite()));
    // The engine with the built-in learned weights plays a whole game through the protocol.
    let session = "boardsize 7\nclear_board\n".to_string() + &"genmove b\ngenmove w\n".repeat(40) + "final_score\n";
    let mut child = Command::new(VELETAS)
        .args(["--eval", "learned", "--playouts", "200", "--seed", "3"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(session.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("= B+") || text.contains("= W+"), "{text}");
}

#[test]
fn train_eval_errors_are_one_line() {
    let dir = scratch("errors");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "[Size \"7\"]\n1. d4 d4 B+\n").unwrap();
    for (args, needle) in [
        (vec![dir.to_str().unwrap().to_string()], "not a regular file"),
        (vec![bad.to_str().unwrap().to_string()], "bad.txt"),
        (vec!["/nonexistent/games.txt".to_string()], "/nonexistent/games.txt"),
    ] {
        let out = Command::new(VELETAS).arg("train-eval").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle) && err.trim().lines().count() == 1, "{args:?}: {err}");
    }
    let out = Command::new(VELETAS).arg("train-eval").output().unwrap();
    assert!(!out.status.success());
}
