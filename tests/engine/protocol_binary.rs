//! The real `veletas` binary over pipes: a short session, exit codes, logs on stderr
//! only, and the `perft` and `bench` subcommands.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::{VELETAS as BIN, engine, session};

fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    session(engine(args).env("RUST_LOG", "debug"), input)
}

#[test]
fn a_session_over_pipes_ends_cleanly_at_end_of_input() {
    let out = run_with_input(
        &["--seed", "1", "--playouts", "200"],
        b"1 boardsize 7\r\n# comment\n\n2 genmove b\n3 position\nfrob\n4 known_command\tplay",
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    // The search chooses Black's shooter square; the rest of the session is fixed.
    let mv = stdout.strip_prefix("=1 \n\n=2 ").and_then(|rest| rest.split('\n').next()).unwrap_or_default();
    let square: veletas_rules::Square = mv.parse().unwrap_or_else(|_| panic!("not a square: {stdout:?}"));
    let mut position = veletas_rules::Position::new(veletas_rules::Variant::from_size(7).unwrap());
    position.play(veletas_rules::Move::Setup(square.bitboard())).unwrap();
    let expected = format!("=1 \n\n=2 {mv}\n\n=3 {position}\n\n? unknown command\n\n=4 true\n\n");
    assert_eq!(stdout, expected);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("<< 2 genmove b"), "commands are logged at debug: {stderr}");
    assert!(stderr.contains(&format!(">> =2 {mv}")), "replies are logged at debug: {stderr}");
    assert!(stderr.contains(&format!("search: black plays {mv}")), "search summaries are logged: {stderr}");
    assert!(stderr.contains("session ended by end of input"), "{stderr}");
    assert!(!stdout.contains("<<") && !stdout.contains("session"));
}

#[test]
fn quit_ends_the_engine_while_input_stays_open() {
    let mut child = Command::new(BIN)
        .args(["--size", "9", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"rules\nquit\nname\n").unwrap();
    stdin.flush().unwrap();
    // stdin stays open: only quit can end the engine. Guard against a hang.
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the engine did not exit after quit");
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    assert_eq!(status.code(), Some(0));
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "= 9x9, 5 shooters (black places 2, white 3), 3 claims win; rules classic\n\n= \n\n"
    );
}

#[test]
fn no_input_at_all_exits_zero() {
    let out = run_with_input(&[], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn perft_subcommand() {
    let out = Command::new(BIN).args(["perft", "2", "7/7/2s4/7/4s2/1s5/7", "b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "940718\n");
    let out = Command::new(BIN).args(["--size", "9", "perft", "1"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "2968\n");
    let out = Command::new(BIN).args(["perft", "--divide", "2", "7/7/2s4/7/4s2/1s5/7 b"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1034 + 1);
    assert_eq!(stdout.lines().last(), Some("940718"));
    assert!(stdout.lines().next().is_some_and(|l| l.split(' ').count() == 2));
    let out = Command::new(BIN).args(["perft", "--threads", "2", "2", "7/7/2s4/7/4s2/1s5/7 b"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "940718\n");
    let out =
        Command::new(BIN).args(["perft", "--threads", "2", "--divide", "2", "7/7/2s4/7/4s2/1s5/7 b"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().last(), Some("940718"));
    let out = Command::new(BIN).args(["perft", "--threads", "0", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(BIN).args(["perft", "1", "7/7/7", "b"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stderr).unwrap().contains("invalid position"));
    // Each malformed string gets its specific reason, one line, and a failure code.
    for (args, reason) in [
        (&["garbage"][..], "1 rank: the board must be 7x7, 9x9 or 10x10"),
        (&["7/7/7/7/7/7/7"], "the side to move ('b' or 'w') is missing after the ranks"),
        (&["7/7/7/7/7/7/7", "b", "frob"], "unknown word 'frob' after the side to move"),
    ] {
        let out = Command::new(BIN).arg("perft").arg("1").args(args).output().unwrap();
        assert_ne!(out.status.code(), Some(0));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn bench_subcommand_on_a_small_file() {
    let dir = std::env::temp_dir().join(format!("veletas-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bench.txt");
    std::fs::write(&file, "# tiny\n1 7/7/2s4/7/4s2/1s5/7 b\n").unwrap();
    let out = Command::new(BIN)
        .args(["bench", "--playouts", "3", "--search-iterations", "500", "--runs", "2", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("2 runs after 1 warm-up; search with --eval net;"), "{stdout}");
    for figure in ["perft", "playouts cheap", "playouts uniform", "search 1 thread", "search 2 threads"] {
        assert!(stdout.lines().any(|l| l.starts_with(figure) && l.ends_with('%')), "{figure}: {stdout}");
    }
    assert!(stdout.contains("nodes/s") && stdout.contains("iterations/s"), "{stdout}");
}

#[test]
fn help_explains_with_examples_and_bad_flags_fail() {
    for args in [&["--help"][..], &["perft", "--help"], &["bench", "--help"]] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert!(String::from_utf8(out.stdout).unwrap().contains("Example"), "{args:?}");
    }
    let out = Command::new(BIN).args(["--size", "8"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("7, 9 or 10"));
}

/// The numbers after `time ` and `(budget ` in a search summary line.
fn reported_times(line: &str) -> (f64, f64) {
    let after = |key: &str| -> f64 {
        let rest = &line[line.find(key).unwrap_or_else(|| panic!("no '{key}' in {line}")) + key.len()..];
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    (after(" time "), after("(budget "))
}

#[test]
fn genmove_under_one_second_byo_yomi_budgets_within_the_period() {
    // time_settings 0 1 1: one second per move. Two threads, setups and a play turn.
    let out =
        run_with_input(&["--seed", "2", "--threads", "2"], b"time_settings 0 1 1\ngenmove b\ngenmove w\ngenmove b\n");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 4, "{stdout}");
    assert!(replies[1..].iter().all(|r| r.starts_with("= ") && r.len() > 2), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let summaries: Vec<&str> = stderr.lines().filter(|l| l.contains("search: ")).collect();
    assert_eq!(summaries.len(), 3, "{stderr}");
    for line in summaries {
        // The engine's own account: the budget keeps the 80 ms margin. (How long the search
        // really took depends on the machine's load, so it is not asserted here.)
        let (time, budget) = reported_times(line);
        assert!(budget <= 1.0 - 0.08 + 1e-3, "{line}");
        assert!(time > 0.0, "{line}");
    }
}

#[test]
fn every_player_is_reachable_from_the_command_line() {
    for player in ["random", "greedy", "uct", "veletas"] {
        let out = run_with_input(
            &["--size", "7", "--seed", "1", "--player", player, "--playouts", "100"],
            b"player\ngenmove b\ngenmove w\ngenmove b\n",
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.starts_with(&format!("= {player}\n\n")), "{stdout}");
        assert_eq!(stdout.matches("\n\n").count(), 4, "{stdout}");
        assert!(!stdout.contains('?'), "{stdout}");
    }
    let out = Command::new(BIN).args(["--player", "chess"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("unknown player 'chess'"));
}

#[test]
fn claimed_block_flags_need_the_modern_rules() {
    let out = run_with_input(&["--size", "7", "--rules", "modern", "--claimed-block"], b"rules\nposition\n");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("; rules modern, claimed-block\n"), "{stdout}");
    assert!(stdout.contains("= 7/7/7/7/7/7/7 b modern claimed-block\n"), "{stdout}");
    for args in [&["--claimed-block"][..], &["match", "--engine", "x", "--engine", "y", "--claimed-block"]] {
        let out = Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("--claimed-block: claimed-block is an option of the modern rules only"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
    }
    let out = Command::new(BIN).args(["perft", "1", "7/7/5w1/3s3/7/2b4/s1B4 b modern claimed-block"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "607\n");
}
