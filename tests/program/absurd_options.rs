//! Absurd numbers are refused, not allocated or overflowed (issue 25, item 7): every
//! count, time, rating and bound on the command line is range-checked when the options
//! are read, with one line on stderr and exit 2, before an engine is started or a byte is
//! allocated for a schedule.

use crate::support::refusal;

/// Engines that would fail if they were ever started: a refusal must come first.
const ENGINES: [&str; 4] = ["--engine", "a=/nonexistent/engine-a", "--engine", "b=/nonexistent/engine-b"];

fn with_engines<'a>(sub: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![sub];
    args.extend(ENGINES);
    args.extend(extra);
    args
}

#[test]
fn absurd_game_counts_are_refused_in_one_line_before_any_engine_starts() {
    for (sub, extra, needle) in [
        ("match", &["--games", "18446744073709551615"][..], "more than 1000000 games"),
        ("match", &["--games", "99999999999999999999999"], "more than 1000000 games"),
        ("match", &["--games", "1000000000"], "more than 1000000 games"),
        ("match", &["--games", "2.5"], "not a whole number"),
        ("match", &["-j", "1000000"], "from 1 to 256"),
        ("match", &["-j", "0"], "from 1 to 256"),
        ("tournament", &["--rounds", "100000000"], "more than 1000000 games"),
        ("tournament", &["--games-per-pair", "18446744073709551614"], "more than 1000000 games"),
        // Each count allowed, their product not.
        ("tournament", &["--games-per-pair", "1000000", "--rounds", "2"], "more than 1000000 games"),
        ("tournament", &["--rounds", "1000000", "--games-per-pair", "4"], "more than 1000000 games"),
        (
            "tournament",
            &["--format", "knockout", "--engine", "c=/nonexistent/c", "--games-per-pair", "600000"],
            "more than 1000000 games",
        ),
    ] {
        let line = refusal(&with_engines(sub, extra));
        assert!(line.contains(needle), "{sub} {extra:?}: {line}");
    }
}

/// The largest counts allowed are played lazily: the referee's memory does not grow with the
/// number of games (it took 216 MB for a match, 232 MB for a tournament, before the first
/// game, when the runner held the schedule and a label per game). The peak is read once the
/// first game is recorded, while the games run.
#[test]
fn a_million_game_match_or_tournament_runs_in_bounded_memory() {
    let dir = scratch!("million");
    let fake = env!("CARGO_BIN_EXE_veletas-fake-engine");
    let (a, b) = (format!("a={fake}"), format!("b={fake}"));
    let children: Vec<_> = [&["match", "--games", "1000000"][..], &["tournament", "--rounds", "500000"]]
        .into_iter()
        .map(|counts| {
            let record = dir.join(format!("{}.txt", counts[0]));
            let child = std::process::Command::new(env!("CARGO_BIN_EXE_veletas"))
                .args(counts)
                .args(["--engine", &a, "--engine", &b, "--size", "7", "-q", "--record"])
                .arg(&record)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("veletas runs");
            (counts[0], child, record)
        })
        .collect();
    for (sub, child, record) in children {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::fs::metadata(&record).map_or(true, |m| m.len() == 0) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        // The peak resident size so far.
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).expect("the referee runs");
        let peak_kb: u64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status");
        let pid = libc::pid_t::try_from(child.id()).expect("a pid");
        // SAFETY: `pid` is this test's own child, not yet waited for.
        unsafe { libc::kill(pid, libc::SIGINT) };
        let out = child.wait_with_output().expect("the referee ends");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("of 1000000 games"), "{sub}: {stdout}");
        assert!(std::fs::metadata(&record).is_ok_and(|m| m.len() > 0), "{sub}: no game recorded in 60 s");
        assert!(peak_kb < 64 * 1024, "{sub}: peak resident size {peak_kb} kB");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn absurd_times_ratings_and_bounds_are_refused_in_one_line() {
    for (args, needle) in [
        (with_engines("match", &["--movetime", "1e300"]), "from 0 to 1000000"),
        (with_engines("match", &["--clock", "1e300+1"]), "from 0 to 1000000"),
        (with_engines("match", &["--margin", "inf"]), "from 0 to 1000000"),
        (with_engines("match", &["--command-timeout", "1e20"]), "from 0 to 1000000"),
        (with_engines("match", &["--sprt", "0,1e308"]), "from -1000 to 1000"),
        (with_engines("match", &["--sprt", "-inf,5"]), "from -1000 to 1000"),
        (with_engines("tournament", &["--anchor", "a=1e300"]), "from -100000 to 100000"),
        (vec!["ratings", "games.txt", "--anchor", "a=1e300"], "from -100000 to 100000"),
        (vec!["ratings", "games.txt", "--anchor", "a=NaN"], "from -100000 to 100000"),
        (vec!["--movetime", "1e-10"], "from 0.001 to 86400"),
        (vec!["--movetime", "1e300"], "from 0.001 to 86400"),
        (vec!["bench", "--playouts", "10000001"], "--playouts"),
        (vec!["bench", "--warmup", "4000000000"], "--warmup"),
        (vec!["train-eval", "games.txt", "--l2", "1e300"], "from 0 to 1e6"),
        (vec!["train-eval", "games.txt", "--l2=-1"], "from 0 to 1e6"),
    ] {
        let line = refusal(&args);
        assert!(line.contains(needle), "{args:?}: {line}");
    }
}

/// Bad inputs found after the options are parsed (a positions file or weights file that does
/// not parse, a position that is not one, a `--compare` binary that does not exist) exit 2
/// with one line, as clap's own refusals do, not 1 as a failure of the run.
#[test]
fn bad_input_files_and_positions_exit_2_like_bad_options() {
    let dir = scratch!("inputs");
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "this is not a bench line nor weights\n").unwrap();
    let junk = junk.to_str().unwrap();
    let missing = dir.join("missing");
    let missing = missing.to_str().unwrap();
    for (args, needle) in [
        (vec!["bench", "--file", junk], "veletas bench: "),
        (vec!["bench", "--file", missing], "veletas bench: "),
        (vec!["bench", "--compare", missing], "veletas bench: "),
        (vec!["--eval", junk], "veletas: --eval"),
        (vec!["--eval", missing], "veletas: --eval"),
        (vec!["perft", "1", "not/a/position"], "veletas perft: invalid position"),
    ] {
        let line = refusal(&args);
        assert!(line.starts_with(needle), "{args:?}: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
