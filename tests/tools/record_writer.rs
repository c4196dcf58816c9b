//! One record file, one writer, and never half a game, through the `veletas` binary: a
//! second referee on a record refuses at once naming the first one's pid, or waits with
//! `--wait` and resumes; a write that fails (here a file size limit) leaves the record
//! ending in its last complete game; `view` and `ratings` skip, with a warning, a last
//! game cut short and games recorded twice. See docs/reliability.md.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use veletas_tools::referee::parse_records;

use crate::support::veletas_in;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// The arguments of a match of `games` games on 7x7 into `g.txt` between two named fake
/// engines; engine 2 thinks `delay` seconds on its first move of each game.
fn match_args(games: &str, delay: &str) -> Vec<String> {
    let one = format!("'{FAKE}' --seed 1 --name alpha");
    let two = format!("'{FAKE}' --seed 2 --name beta --slow-at 1 --delay {delay}");
    ["match", "--engine", &one, "--engine", &two, "--games", games, "--size", "7", "--movetime", "30"]
        .into_iter()
        .chain(["--record", "g.txt", "-q"])
        .map(String::from)
        .collect()
}

fn rounds(dir: &Path) -> Vec<String> {
    let games = parse_records(&fs::read_to_string(dir.join("g.txt")).unwrap()).unwrap();
    games.iter().map(|g| g.tag("Round").unwrap_or("").to_string()).collect()
}

/// Whether `pid` holds a lock in /proc/locks (the first referee has opened its record).
fn holds_a_lock(pid: u32) -> bool {
    let locks = fs::read_to_string("/proc/locks").unwrap_or_default();
    locks.lines().any(|line| line.split_whitespace().nth(4) == Some(&pid.to_string()))
}

#[test]
fn a_second_referee_refuses_naming_the_first_or_waits_and_resumes() {
    let dir = scratch!("lock");
    let first = Command::new(VELETAS)
        .current_dir(&dir)
        .args(match_args("2", "2"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = first.id();
    let mut polls = 0;
    while !holds_a_lock(pid) {
        polls += 1;
        assert!(polls < 3000, "the first referee never locked its record");
        std::thread::sleep(Duration::from_millis(10));
    }
    let refused = veletas_in(&dir, &match_args("2", "0"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("another referee (pid {pid}) is writing")), "{stderr}");
    assert!(stderr.contains("--wait"), "{stderr}");
    // Waiting, it resumes from the first referee's games and plays only the rest.
    let mut args = match_args("4", "0");
    args.push("--wait".into());
    let waited = veletas_in(&dir, &args);
    assert!(waited.status.success(), "{}", String::from_utf8_lossy(&waited.stderr));
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(rounds(&dir), ["1", "2", "3", "4"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_write_leaves_the_record_ending_in_a_complete_game() {
    let dir = scratch!("full");
    // A file size limit of 4 blocks (2 or 4 KiB) stands for a full disk: the write that
    // crosses it fails part way through a game: EFBIG, since the referee ignores SIGXFSZ
    // (the shell leaves its default action, which would kill the referee).
    let args: Vec<String> = match_args("40", "0").iter().map(|a| format!("'{}'", a.replace('\'', "'\\''"))).collect();
    let script = format!("ulimit -f 4; exec '{VELETAS}' {}", args.join(" "));
    let output = Command::new("sh").current_dir(&dir).args(["-c", &script]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("the file ends with the last complete game"), "{stderr}");
    let played = rounds(&dir).len();
    assert!((1..40).contains(&played), "{played} games");
    let view = veletas_in(&dir, &["view", "g.txt", "-o", "g.html"]);
    assert!(view.status.success() && view.stderr.is_empty(), "{}", String::from_utf8_lossy(&view.stderr));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn readers_skip_a_cut_short_last_game_and_games_recorded_twice() {
    let dir = scratch!("readers");
    let output = veletas_in(&dir, &match_args("4", "0"));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let whole = fs::read_to_string(dir.join("g.txt")).unwrap();
    // A last game cut short, as a full disk left it before the referee cut back.
    let first_game_end = whole.find("\n\n[").unwrap() + 2;
    fs::write(dir.join("cut.txt"), format!("{whole}{}", &whole[..first_game_end / 2])).unwrap();
    // Every game twice, as two referees on one record wrote it before the lock.
    fs::write(dir.join("twice.txt"), format!("{whole}{whole}")).unwrap();
    for (file, warning) in [("cut.txt", "cut.txt:"), ("twice.txt", "4 games recorded twice")] {
        let ratings = veletas_in(&dir, &["ratings", file]);
        let (stdout, stderr) = (String::from_utf8_lossy(&ratings.stdout), String::from_utf8_lossy(&ratings.stderr));
        assert!(ratings.status.success(), "{file}: {stderr}");
        assert!(stdout.contains("from 4 games"), "{file}: {stdout}");
        assert!(stderr.starts_with("warning: ") && stderr.contains(warning), "{file}: {stderr}");
        let view = veletas_in(&dir, &["view", file, "-o", "v.html"]);
        let stderr = String::from_utf8_lossy(&view.stderr);
        assert!(view.status.success(), "{file}: {stderr}");
        assert!(stderr.starts_with("warning: ") && stderr.contains(warning), "{file}: {stderr}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn ratings_count_a_tournament_played_twice_once() {
    let dir = scratch!("twice");
    let engines: Vec<String> =
        ["a", "b", "c"].iter().enumerate().map(|(i, name)| format!("{name}='{FAKE}' --seed {i}")).collect();
    for record in ["t1.txt", "t2.txt"] {
        let mut args: Vec<String> = vec!["tournament".into()];
        for engine in &engines {
            args.extend(["--engine".into(), engine.clone()]);
        }
        args.extend(["--games-per-pair", "2", "--size", "7", "-q", "--record", record].map(String::from));
        let output = veletas_in(&dir, &args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    // The same event, tournament fingerprint and game ids: the second file adds nothing.
    let ratings = veletas_in(&dir, &["ratings", "t1.txt", "t2.txt"]);
    let (stdout, stderr) = (String::from_utf8_lossy(&ratings.stdout), String::from_utf8_lossy(&ratings.stderr));
    assert!(ratings.status.success(), "{stderr}");
    assert!(stdout.contains("from 6 games"), "{stdout}");
    assert!(stdout.contains("6 games recorded twice skipped"), "{stdout}");
    assert!(stderr.contains("t2.txt: 6 games recorded twice (the same game id): skipped"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}
