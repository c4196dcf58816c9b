//! Hostile engines against the `veletas` binary: an engine that floods its output,
//! answers with a huge reply, stops reading its input, or leaves children behind is
//! adjudicated, the referee's memory stays bounded (its peak resident size as the kernel
//! reports it to `wait4`, never a time), the record stays readable, and no engine process
//! outlives the match, even after SIGINT. See docs/reliability.md.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// The most the referee may take (peak resident size, engines included as `wait4`
/// reports it): the engines' output may cost it about 6 MiB each (docs/match.md).
const PEAK_LIMIT_KB: i64 = 96 * 1024;

/// A hang guard, not a measurement: a run that has not ended by then is killed and fails.
const HANG_GUARD: Duration = Duration::from_secs(300);

/// How a referee run ended.
struct Ended {
    /// The exit code, or `None` when a signal ended it.
    code: Option<i32>,
    /// The signal that ended it, if any.
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    /// The peak resident size in KiB of the referee and the processes it waited for.
    peak_kb: i64,
}

/// Waits for `child` with `wait4`, killing it if it outlives [`HANG_GUARD`].
fn wait_for(mut child: Child) -> Ended {
    let pid = child.id() as libc::pid_t;
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap_or_default());
    let err_reader = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap_or_default());
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let hung = Arc::new(AtomicBool::new(false));
    let guard = {
        let hung = Arc::clone(&hung);
        std::thread::spawn(move || {
            if done_rx.recv_timeout(HANG_GUARD).is_err() {
                hung.store(true, Ordering::SeqCst);
                // SAFETY: kill(2) of our own child, not yet reaped.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        })
    };
    let mut status = 0;
    // SAFETY: a zeroed rusage filled in by wait4(2) for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4(2) on our own child, with valid pointers.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    let _ = done_tx.send(());
    guard.join().unwrap();
    assert!(!hung.load(Ordering::SeqCst), "the referee hung and was killed");
    std::mem::forget(child);
    let exited = libc::WIFEXITED(status);
    Ended {
        code: exited.then(|| libc::WEXITSTATUS(status)),
        signal: (!exited && libc::WIFSIGNALED(status)).then(|| libc::WTERMSIG(status)),
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        peak_kb: usage.ru_maxrss,
    }
}

fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new(VELETAS)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Plays `games` games on 7x7 between `one` and `two` (fake engine flags) into
/// `g.txt`, every engine noting its pids in `pids.txt`.
fn hostile_match(dir: &Path, one: &str, two: &str, games: &str, extra: &[&str]) -> Ended {
    let pids = dir.join("pids.txt");
    let one = format!("'{FAKE}' {one} --pid-file '{}'", pids.display());
    let two = format!("'{FAKE}' {two} --pid-file '{}'", pids.display());
    let mut args = vec!["match", "--engine", &one, "--engine", &two, "--games", games, "--size", "7"];
    args.extend_from_slice(&["--record", "g.txt"]);
    args.extend_from_slice(extra);
    wait_for(start(dir, &args))
}

/// The pids noted in `pids.txt` whose process still runs the fake engine (a zombie has
/// no command line, so a dead child not yet reaped by its new parent does not count).
fn engines_alive(dir: &Path) -> Vec<u32> {
    let text = fs::read_to_string(dir.join("pids.txt")).unwrap_or_default();
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(!pids.is_empty(), "no engine noted its pid");
    let alive = || -> Vec<u32> {
        pids.iter()
            .copied()
            .filter(|pid| {
                let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                String::from_utf8_lossy(&cmdline).contains("veletas-fake-engine")
            })
            .collect()
    };
    // SIGKILL is delivered asynchronously: on a loaded machine a killed process may still
    // be listed for a moment after the referee exits. Those still there after 10 s were
    // not killed.
    for _ in 0..100 {
        let now = alive();
        if now.is_empty() {
            return now;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    alive()
}

/// The record's games' Termination and Reason tags.
fn endings(dir: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(dir.join("g.txt")).unwrap();
    let games = veletas_tools::referee::parse_records(&text).unwrap();
    games
        .iter()
        .map(|g| (g.tag("Termination").unwrap_or("").to_string(), g.tag("Reason").unwrap_or("").to_string()))
        .collect()
}

#[test]
fn a_flood_while_the_other_engine_thinks_is_adjudicated_with_memory_bounded() {
    let dir = scratch!("flood");
    let ended = hostile_match(&dir, "--flood-after 1", "--slow-at 1 --delay 1", "2", &["--movetime", "5"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.len(), 2);
    // Each game the flooder loses: by the cap when the other engine thought long enough
    // (its first genmove, a second), else by the first line that is not a reply.
    assert!(endings.iter().all(|(termination, _)| termination == "malformed reply"), "{endings:?}");
    assert!(endings.iter().any(|(_, reason)| reason.contains("bytes of output not asked for")), "{endings:?}");
    assert!(ended.peak_kb < PEAK_LIMIT_KB, "peak {} KiB", ended.peak_kb);
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn an_engine_flooding_its_stderr_fills_its_log_up_to_the_cap_and_its_games_go_on() {
    let dir = scratch!("stderr-flood");
    // The other engine thinks 2 s a game: time for the flood to reach the cap (it took
    // well under a second at 215 MB/s from the fake engine).
    let ended = hostile_match(&dir, "--stderr-flood", "--slow-at 1 --delay 2", "2", &["--movetime", "5"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.len(), 2);
    assert!(endings.iter().all(|(termination, _)| termination != "time forfeit"), "{endings:?}");
    let path = dir.join("g.txt.engines.log");
    let size = fs::metadata(&path).unwrap().len();
    let cap = veletas_tools::referee::traffic::ENGINE_LOG_CAP;
    // Each engine's lines up to the cap, then the lines that say so and count.
    assert!(size <= cap + 64 * 1024, "{size} bytes");
    assert!(size > cap - 64 * 1024, "{size} bytes");
    // Read a line at a time: this process's memory is the peak of the referees it starts
    // (wait4 counts a child's peak from the fork), which other tests measure.
    let log = std::io::BufReader::new(fs::File::open(&path).unwrap());
    let noted: Vec<String> =
        std::io::BufRead::lines(log).map_while(Result::ok).filter(|l| !l.contains("eeeeeeeeee")).collect();
    assert!(noted.iter().any(|l| l.contains("reached the cap of 16 MiB of this log for the run")), "{noted:?}");
    assert!(noted.iter().any(|l| l.contains("lines of this engine process not written")), "{noted:?}");
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn a_full_disk_for_the_engine_log_costs_its_lines_and_no_game() {
    let dir = scratch!("stderr-full");
    // /dev/full fails every write (ENOSPC): the engine's stderr is still read, so the
    // engine, which writes a line before each answer, never blocks.
    let ended = hostile_match(&dir, "--stderr-flood", "", "2", &["--movetime", "5", "--engine-log", "/dev/full"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.len(), 2);
    assert!(endings.iter().all(|(termination, _)| termination != "time forfeit"), "{endings:?}");
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn a_reply_trickled_a_byte_at_a_time_loses_on_time_and_is_killed() {
    let dir = scratch!("trickle");
    // A slow-loris reply: never complete, never too long; the deadline is on the whole reply.
    let ended = hostile_match(&dir, "", "--trickle-at 1", "2", &["--movetime", "0.3", "--margin", "0.2"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.len(), 2);
    for (termination, reason) in &endings {
        assert_eq!(termination, "time forfeit", "{reason}");
        assert!(reason.contains("no move within 0.3 s + 0.2 s margin; killed"), "{reason}");
    }
    // Engine 2 as White lost; as Black (asked first, before any move) the game is void.
    assert!(ended.stdout.contains("1 of 2 games, and 1 void (time forfeit 1"), "{}", ended.stdout);
    assert!(ended.peak_kb < PEAK_LIMIT_KB, "peak {} KiB", ended.peak_kb);
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn a_reply_of_bytes_that_are_no_text_is_malformed_and_reaches_no_record_or_screen() {
    let dir = scratch!("garbage");
    let ended = hostile_match(&dir, "", "--garbage-at 1", "2", &["--movetime", "5"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.len(), 2);
    for (termination, reason) in &endings {
        assert_eq!(termination, "malformed reply", "{reason}");
    }
    let record = fs::read_to_string(dir.join("g.txt")).expect("the record is UTF-8 text");
    assert!(!record.chars().any(|c| c.is_control() && c != '\n'), "control characters in the record: {record:?}");
    for text in [&ended.stdout, &ended.stderr] {
        assert!(!text.contains(['\u{1b}', '\u{7}', '\0', '\r']), "raw escapes on screen: {text:?}");
    }
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn a_huge_reply_is_malformed_with_memory_bounded() {
    let dir = scratch!("huge");
    let ended = hostile_match(&dir, "--huge-reply-at 1", "", "2", &["--movetime", "5"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    for (termination, reason) in endings(&dir) {
        assert_eq!(termination, "malformed reply", "{reason}");
        assert!(reason.contains("a reply longer than 1048576 bytes"), "{reason}");
    }
    assert!(ended.peak_kb < PEAK_LIMIT_KB, "peak {} KiB", ended.peak_kb);
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn an_engine_that_stops_reading_loses_on_time_and_the_match_goes_on() {
    let dir = scratch!("deaf");
    // Its answers given in advance keep it in the games until the referee's writes fill
    // its one-page pipe: within 60 games.
    let extra = ["--movetime", "1", "--command-timeout", "1", "-q"];
    let ended = hostile_match(&dir, "--deaf-at 1", "", "60", &extra);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.len(), 60);
    let stalled = endings.iter().filter(|(_, reason)| reason.contains("stopped reading its input"));
    assert!(stalled.clone().count() >= 1, "{endings:?}");
    assert!(stalled.clone().all(|(termination, _)| termination == "timeout"));
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn an_engine_behind_a_wrapper_dies_with_its_children() {
    let dir = scratch!("wrapper");
    let pids = dir.join("pids.txt");
    // A shell that runs the engine as its child (not exec), which starts a child too.
    let wrapped = format!("sh -c '\"$0\" --hang-at 2 --child --pid-file \"$1\"; true' '{FAKE}' '{}'", pids.display());
    let two = format!("'{FAKE}' --pid-file '{}'", pids.display());
    let args = ["match", "--engine", &wrapped, "--engine", &two, "--games", "2", "--size", "7"];
    let ended = wait_for(start(&dir, &[&args[..], &["--movetime", "0.2", "--record", "g.txt"]].concat()));
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let endings = endings(&dir);
    assert_eq!(endings.iter().filter(|(t, _)| t == "time forfeit").count(), 2, "{endings:?}");
    let noted = fs::read_to_string(&pids).unwrap().lines().count();
    assert!(noted >= 5, "two wrapped engines and their children, and the other engine: {noted}");
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

#[test]
fn sigint_ends_every_engine_and_its_children() {
    let dir = scratch!("sigint");
    let pids = dir.join("pids.txt");
    let one = format!("'{FAKE}' --hang-at 1 --child --pid-file '{}'", pids.display());
    let two = format!("'{FAKE}' --child --pid-file '{}'", pids.display());
    let args = ["match", "--engine", &one, "--engine", &two, "--games", "2", "--size", "7", "--movetime", "600"];
    let child = start(&dir, &[&args[..], &["--record", "g.txt", "--log-protocol", "p.log"]].concat());
    // Both engines and both children have started once four pids are noted, and the game
    // (not the start-up) runs once the first genmove is sent; the polling is bounded by
    // the hang guard, not timed.
    let mut polls = 0;
    while fs::read_to_string(&pids).unwrap_or_default().lines().count() < 4
        || !fs::read_to_string(dir.join("p.log")).unwrap_or_default().contains(" genmove ")
    {
        polls += 1;
        assert!(polls < 3000, "the engines did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The first SIGINT only stops new games (engine one hangs in its game), a second one
    // ends every engine, a third one the referee: signal until the referee has exited (a
    // zombie until reaped).
    let pid = child.id() as libc::pid_t;
    let signaller = std::thread::spawn(move || {
        for _ in 0..100 {
            let state = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            if state.is_empty() || state.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')) {
                return;
            }
            // SAFETY: kill(2) of our own child, not yet reaped (it is reaped only once a zombie).
            unsafe { libc::kill(pid, libc::SIGINT) };
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let ended = wait_for(child);
    signaller.join().unwrap();
    // Ended by the second signal (with its summary) or by the third.
    assert!(ended.signal == Some(libc::SIGINT) || ended.code == Some(130), "{} {}", ended.stdout, ended.stderr);
    assert_eq!(engines_alive(&dir), Vec::<u32>::new());
}

/// Kills the processes `engines_alive` found, so that a failing test leaves none behind.
fn kill_left(pids: &[u32]) {
    for &pid in pids {
        // SAFETY: kill(2) of a process this test's engines started (a stray sleeper).
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
}

#[test]
fn a_process_an_engine_started_in_a_session_of_its_own_ends_with_the_match() {
    let dir = scratch!("setsid-match");
    // Engine one hangs in each game (killed on time), engine two plays on: both leave a
    // `setsid` child each time they start, out of their process groups.
    let extra = ["--movetime", "0.2"];
    let ended = hostile_match(&dir, "--hang-at 2 --setsid-child", "--setsid-child", "2", &extra);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let noted = fs::read_to_string(dir.join("pids.txt")).unwrap().lines().count();
    assert!(noted >= 4, "two engines and their setsid children at least: {noted}");
    let left = engines_alive(&dir);
    kill_left(&left);
    assert_eq!(left, Vec::<u32>::new());
}

#[test]
fn a_process_an_engine_started_in_a_session_of_its_own_ends_with_the_check() {
    let dir = scratch!("setsid-check");
    let pids = dir.join("pids.txt");
    let engine = format!("'{FAKE}' --setsid-child --pid-file '{}'", pids.display());
    let ended = wait_for(start(&dir, &["check", &engine, "--size", "7"]));
    assert!(ended.code.is_some(), "{}", ended.stderr);
    let left = engines_alive(&dir);
    kill_left(&left);
    assert_eq!(left, Vec::<u32>::new());
}

/// The games of the record `g.txt`, which must parse as a whole.
fn record_games(dir: &Path) -> Vec<veletas_tools::referee::GameRecord> {
    veletas_tools::referee::parse_records(&fs::read_to_string(dir.join("g.txt")).unwrap()).unwrap()
}

/// The files of foreign bytes the referee set aside beside `g.txt`.
fn foreign_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with("g.txt.foreign"))
        .collect();
    names.sort();
    names
}

#[test]
fn an_engine_writing_to_a_relative_record_path_writes_in_its_own_directory() {
    let dir = scratch!("forge-relative");
    let ended = hostile_match(&dir, "--forge-record g.txt", "--forge-record g.txt", "2", &["--movetime", "0.05"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let games = record_games(&dir);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.tag("Event") != Some("forged")));
    assert_eq!(foreign_files(&dir), Vec::<String>::new(), "{}", ended.stderr);
    assert!(!ended.stderr.contains("did not write"), "{}", ended.stderr);
}

#[test]
fn bytes_an_engine_appends_to_the_record_are_moved_aside_and_the_record_goes_on() {
    let dir = scratch!("forge");
    let record = dir.join("g.txt");
    let forger = format!("--forge-record '{}'", record.display());
    let ended = hostile_match(&dir, &forger, "", "2", &["--movetime", "0.05"]);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    // The record holds the referee's two games only, and reads whole.
    let games = record_games(&dir);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.tag("Event") != Some("forged")));
    // What the engine wrote before each game was appended went aside, each time named
    // in one line.
    assert_eq!(foreign_files(&dir), ["g.txt.foreign-1", "g.txt.foreign-2"], "{}", ended.stderr);
    let aside = fs::read_to_string(dir.join("g.txt.foreign-1")).unwrap();
    assert!(aside.starts_with("[Event \"forged\"]") && aside.ends_with("this line is no record\n"), "{aside}");
    let moved: Vec<&str> = ended.stderr.lines().filter(|l| l.contains("did not write")).collect();
    assert_eq!(moved.len(), 2, "{}", ended.stderr);
    assert!(moved[0].contains("g.txt.foreign-1"), "{}", moved[0]);
    // The readers take the record as the referee wrote it.
    let ratings = Command::new(VELETAS).current_dir(&dir).args(["ratings", "g.txt"]).output().unwrap();
    assert!(ratings.status.success(), "{}", String::from_utf8_lossy(&ratings.stderr));
    assert!(!String::from_utf8_lossy(&ratings.stdout).contains("forger"));
    let view = Command::new(VELETAS).current_dir(&dir).args(["view", "g.txt", "-o", "g.html"]).output().unwrap();
    assert!(view.status.success(), "{}", String::from_utf8_lossy(&view.stderr));
}
