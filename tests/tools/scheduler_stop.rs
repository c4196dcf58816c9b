//! A job stopped by its scheduler (issue 44, point 3): Slurm's time limit, scancel and
//! systemd send SIGTERM to every process of the job, the engines included, and `timeout`
//! delivers its SIGINT twice (to the referee, then to its group). The referee knows it is
//! stopping: the games whose engines die then are not counted as crash forfeits but left
//! out of the record and played again on resume, and the summary and the command that
//! resumes are printed all the same.

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::support::veletas_in;
use veletas_tools::referee::parse_records;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The pids the engines noted in `pids`.
fn pids(path: &Path) -> Vec<libc::pid_t> {
    fs::read_to_string(path).unwrap_or_default().lines().filter_map(|l| l.trim().parse().ok()).collect()
}

/// A 2-game 7x7 match at `movetime` of the fake engine with `a_options` (as `a`) against a
/// plain one (`b`), both noting their pids in `pid_file`; recorded in g.txt, its protocol in
/// p.log.
fn match_args(a_options: &str, pid_file: &Path, movetime: &str) -> Vec<String> {
    let note = format!("--pid-file {}", pid_file.display());
    let (a, b) = (format!("a={FAKE} {a_options} {note}"), format!("b={FAKE} {note}"));
    let args = ["match", "--engine", &a, "--engine", &b, "--size", "7", "--games", "2", "--movetime", movetime];
    let outputs = ["--record", "g.txt", "--log-protocol", "p.log"];
    args.iter().chain(&outputs).map(|s| s.to_string()).collect()
}

/// Starts the referee with `args` in `dir`, in a process group of its own (as a job's
/// processes are, apart from the test), and waits until its first game runs: both engines
/// noted their pids and the protocol log holds a `genmove` (the polling is bounded, not timed).
fn start_job(dir: &Path, args: &[&str], pid_file: &Path) -> Child {
    let child = Command::new(VELETAS)
        .args(args)
        .current_dir(dir)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut polls = 0;
    while pids(pid_file).len() < 2 || !fs::read_to_string(dir.join("p.log")).unwrap_or_default().contains(" genmove ") {
        polls += 1;
        assert!(polls < 3000, "the first game did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// The record's games: (Round, Termination).
fn games(path: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(path).unwrap_or_default();
    let games = parse_records(&text).unwrap();
    games.iter().map(|g| (g.tag("Round").unwrap_or("").into(), g.tag("Termination").unwrap_or("").into())).collect()
}

/// Exit 130, the summary on stdout, the command that resumes on `stderr`.
fn assert_interrupted(out: &Output, stderr: &str, games: usize) {
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("{games} of 2 games")), "the summary: {stdout}");
    assert!(
        stderr.contains(&format!("interrupted: {games} of 2 games played; to resume, run the same command:")),
        "{stderr}"
    );
}

#[test]
fn a_scheduler_sigterm_to_every_process_voids_the_running_game_and_resume_plays_it() {
    let dir = scratch!("sigterm");
    let pid_file = dir.join("pids");
    // Engine a takes 3 s over its second move: the game is running when the job is stopped.
    let mut args = match_args("--slow-at 2 --delay 3", &pid_file, "10");
    args.push("-q".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let child = start_job(&dir, &args, &pid_file);
    // SIGTERM to every process of the job, the engines first (each leads its own group).
    for pid in pids(&pid_file) {
        // SAFETY: kill(2) of processes this test started (through the referee).
        unsafe { libc::kill(-pid, libc::SIGTERM) };
    }
    // SAFETY: kill(2) of the referee's own group, which holds it alone.
    unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_interrupted(&out, &stderr, 0);
    assert!(stderr.contains("veletas match: game 1/2 not counted: an engine failed while the referee was stopping ("));
    assert!(stderr.contains("it is played again on resume"), "{stderr}");
    assert_eq!(games(&dir.join("g.txt")), Vec::<(String, String)>::new(), "no crash forfeit is recorded");
    // The same command resumes and plays both games, to their end.
    let _ = fs::remove_file(&pid_file);
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let played = games(&dir.join("g.txt"));
    assert_eq!(played.iter().map(|(round, _)| round.as_str()).collect::<Vec<_>>(), ["1", "2"]);
    assert!(played.iter().all(|(_, termination)| termination == "normal"), "{played:?}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn sigint_delivered_twice_ends_the_engines_and_still_prints_the_summary_and_the_resume_line() {
    let dir = scratch!("sigint-twice");
    let pid_file = dir.join("pids");
    // Engine a hangs at its first move, on a clock of 10 minutes.
    let args = match_args("--hang-at 1 --child", &pid_file, "600");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child = start_job(&dir, &args, &pid_file);
    // Its stderr read as it comes, to see the first signal taken before the second is sent
    // (two signals pending at once are one).
    let (noted, note) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if line.contains("veletas: stopping: ") {
                let _ = noted.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    // As `timeout` does: to the referee, then to its group.
    let pid = child.id() as libc::pid_t;
    // SAFETY: kill(2) of the referee this test started.
    unsafe { libc::kill(pid, libc::SIGINT) };
    note.recv_timeout(Duration::from_secs(60)).expect("the first signal is taken");
    // SAFETY: kill(2) of the referee's own group, which holds it alone.
    unsafe { libc::kill(-pid, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stderr = reader.join().unwrap();
    assert_interrupted(&out, &stderr, 0);
    assert!(stderr.contains("veletas: stopping now: every engine is ended"), "{stderr}");
    assert!(stderr.contains("veletas match: game 1/2 not counted"), "{stderr}");
    assert_eq!(games(&dir.join("g.txt")), Vec::<(String, String)>::new());
    for pid in pids(&pid_file) {
        let mut polls = 0;
        while fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| text(&c).contains("veletas-fake-engine")) {
            polls += 1;
            assert!(polls < 100, "engine {pid} outlived the referee");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let _ = fs::remove_dir_all(&dir);
}
