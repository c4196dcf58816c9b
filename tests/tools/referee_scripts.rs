//! The scripts in `scripts/`: each has a usage line and runs with tiny numbers of games.
//!
//! The runs need `veletas match` (wired in main.rs) and the engine protocol; they use
//! the binary Cargo built for the tests through `VELETAS`.

use std::path::Path;
use std::process::{Command, Output};

const SCRIPTS: [&str; 4] = ["selfplay.sh", "gauntlet.sh", "sprt.sh", "pipe-example.sh"];

fn script(name: &str, args: &[&str]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name);
    Command::new("bash").arg(path).args(args).env("VELETAS", env!("CARGO_BIN_EXE_veletas")).output().expect("bash runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn every_script_parses_and_prints_its_usage_line() {
    for name in SCRIPTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name);
        let syntax = Command::new("bash").arg("-n").arg(&path).status().expect("bash runs");
        assert!(syntax.success(), "{name} has a syntax error");
        let help = script(name, &["-h"]);
        let usage = String::from_utf8_lossy(&help.stderr);
        assert!(
            help.status.success() && usage.starts_with(&format!("usage: [VELETAS=BINARY] scripts/{name}")),
            "{name}: {usage}"
        );
        let bad = script(name, &["-Z"]);
        assert_eq!(bad.status.code(), Some(2), "{name} accepts a bad option");
    }
}

#[test]
fn selfplay_plays_a_tiny_match() {
    let out = script(
        "selfplay.sh",
        &["-a", "--seed 1", "-b", "--seed 2 --player greedy", "-n", "2", "-s", "7", "-t", "0.05", "-j", "1"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).contains("Score of"), "{}", stdout(&out));
}

#[test]
fn gauntlet_plays_each_opponent() {
    let out = script("gauntlet.sh", &["-a", "--seed 1", "-n", "2", "-s", "7", "-t", "0.05", "-j", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert_eq!(text.matches("Score of").count(), 6, "three matches, three result lines: {text}");
}

#[test]
fn sprt_runs_to_its_game_limit() {
    let veletas = env!("CARGO_BIN_EXE_veletas");
    let (candidate, base) =
        (format!("{veletas} --seed 1 --player random"), format!("{veletas} --seed 2 --player random"));
    let out = script("sprt.sh", &["-n", "4", "-s", "7", "-j", "1", "-e", "0,10", &candidate, &base]);
    // Four random games decide nothing: exit status 3.
    assert_eq!(out.status.code(), Some(3), "{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).contains("SPRT"), "{}", stdout(&out));
}

#[test]
fn pipe_example_plays_a_game() {
    let out = script("pipe-example.sh", &["7"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("result after") && (text.contains("B+") || text.contains("W+")), "{text}");
}
