//! One runner, one option set (issues 21 and 27): `match` and `tournament` take the same
//! field options (`--engines`, `--each`, `--option`, `restart=`, `init=`, `--dry-run`),
//! `--sprt` works on a two-engine tournament, and the logs (`--rating-interval`,
//! `--log-protocol`, the engine log's names, SIGINT with the resume command, the resumed
//! games counted). Everything through the binary, with the fake engine.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use crate::support::veletas_in;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn games_in(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    veletas_tools::referee::parse_records(&text).unwrap().len()
}

fn pids(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap_or_default().lines().count()
}

#[test]
fn match_dry_run_lists_the_games_from_an_engines_file_without_starting_them() {
    let dir = scratch!("dry");
    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"a\"\ncommand = \"/no/such/engine\"\n\n[[engine]]\nname = \"b\"\ncommand = \"/no/such/other\"\n",
    )
    .unwrap();
    let out = veletas_in(&dir, &["match", "--engines", "engines.toml", "--games", "4", "--size", "7", "--dry-run"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "4 games");
    assert!(lines[1].starts_with("game 1/4: a (black) vs b (white), opening "), "{stdout}");
    assert!(lines[2].starts_with("game 2/4: b (black) vs a (white), opening "), "{stdout}");
    // A pair shares its opening.
    let opening = |line: &str| line.split(", opening ").nth(1).unwrap().to_string();
    assert_eq!(opening(lines[1]), opening(lines[2]));
    assert_ne!(opening(lines[2]), opening(lines[3]));
    assert_eq!(lines.len(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_each_restart_on_starts_a_fresh_process_every_game() {
    let dir = scratch!("restart");
    for (restart, expected) in [("restart=off", 2), ("restart=on", 8)] {
        let pid_file = dir.join(format!("{restart}.pids"));
        let engine = |name: &str| format!("{name}={FAKE} --pid-file {}", pid_file.display());
        let (a, b) = (engine("a"), engine("b"));
        let args = ["match", "--engine", &a, "--engine", &b, "--games", "4", "--size", "7", "-q", "--each", restart];
        let out = veletas_in(&dir, &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Without restarts each engine runs once (the process asked for its name plays on).
        assert_eq!(pids(&pid_file), expected, "{restart}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_option_init_is_sent_to_one_engine_and_a_refusal_loses_its_games() {
    let dir = scratch!("init");
    let a = format!("a={VELETAS} --player random --seed 1");
    let b = format!("b={VELETAS} --player random --seed 2");
    let args = [
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--option",
        "a:init=no_such_command",
        "--games",
        "4",
        "--size",
        "7",
        "-q",
        "--record",
        "g.txt",
    ];
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Score of a vs b: 0 - 4"), "{stdout}");
    assert!(stdout.contains("Endings: rejected command 4"), "{stdout}");
    // --option names an engine that exists.
    let out = veletas_in(&dir, &["match", "--engine", &a, "--engine", &b, "--option", "c:init=x", "--size", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no engine is named 'c'"), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_named_by_its_replies_carries_its_arguments_and_is_addressed_by_its_position() {
    let dir = scratch!("positions");
    // Engine 2 answers the same name as engine 1, with its whole command line after it;
    // `2:` reaches it, as its name cannot be given before the engines answer.
    let (a, b) = (format!("a={FAKE}"), format!("{FAKE} --seed 2 --name a2"));
    let args = [
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--option",
        "2:init=no_such_command",
        "--games",
        "2",
        "--size",
        "7",
        "-q",
        "--record",
        "g.txt",
    ];
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let b_name = "a2 0.1 (--seed 2 --name a2)";
    assert!(stdout.contains(&format!("Score of a vs {b_name}: 2 - 0")), "{stdout}");
    assert!(stdout.contains("Endings: rejected command 2"), "{stdout}");
    let record = std::fs::read_to_string(dir.join("g.txt")).unwrap();
    assert!(record.contains(&format!("\"{b_name}\"")), "{record}");
    let out = veletas_in(&dir, &["match", "--engine", &a, "--engine", &b, "--option", "3:init=x", "--size", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("or its position, 1 to 2"), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_stops_a_two_engine_tournament_and_needs_two_engines() {
    let dir = scratch!("sprt");
    let strong = format!("strong={FAKE}");
    let weak = format!("weak={FAKE} --resign-at 1");
    let args = [
        "tournament",
        "--engine",
        &strong,
        "--engine",
        &weak,
        "--games-per-pair",
        "200",
        "--size",
        "7",
        "-q",
        "--sprt",
        "0,10",
    ];
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("SPRT elo0 0 elo1 10 alpha 0.05 beta 0.05: LLR"), "{stdout}");
    assert!(stdout.contains(": H1 accepted"), "{stdout}");
    let played: usize = stdout
        .lines()
        .next()
        .and_then(|l| l.split(": ").nth(1))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    // Every game won by the first engine: the SPRT decides after 14 won pairs, and with one
    // worker no game starts after the result that decides.
    assert_eq!(played, 28, "{stdout}");
    let third = format!("third={FAKE}");
    let out = veletas_in(&dir, &[&args[..], &["--engine", &third]].concat());
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--sprt tests the first engine against the second: it needs exactly two engines, not 3"));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_rating_interval_prints_standings_without_a_terminal() {
    let dir = scratch!("interval");
    let engines: Vec<String> = ["a", "b", "c"].iter().map(|n| format!("{n}={FAKE}")).collect();
    let mut args = vec!["tournament", "--size", "7", "-q", "--rating-interval", "2"];
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for n in [2, 4, 6] {
        assert!(stdout.contains(&format!("Standings after {n} of 6 games:\nRatings of ")), "{stdout}");
    }
    assert!(stdout.contains("Standings after 6 of 6 games:\nRatings of 3 engines from 6 games"), "{stdout}");
    let out =
        veletas_in(&dir, &["match", "--engine", &engines[0], "--engine", &engines[1], "--size", "7", "--games", "4"]);
    let plain = text(&out.stdout);
    let out = veletas_in(
        &dir,
        &[
            "match",
            "--engine",
            &engines[0],
            "--engine",
            &engines[1],
            "--size",
            "7",
            "--games",
            "4",
            "--rating-interval",
            "2",
        ],
    );
    let stdout = text(&out.stdout);
    let standings: Vec<&str> = stdout.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(standings.len(), 2, "{stdout}");
    assert!(standings[0].starts_with("[2/4] a ") && standings[1].starts_with("[4/4] a "), "{stdout}");
    let out =
        veletas_in(&dir, &["tournament", "--engine", &engines[0], "--engine", &engines[1], "--rating-interval", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // Nothing else changes.
    let without: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('[')).collect();
    assert_eq!(without, plain.lines().collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_protocol_log_and_the_engine_log_name_every_line() {
    let dir = scratch!("logs");
    let (a, b) = (format!("a={FAKE}"), format!("b={FAKE}"));
    let args =
        ["match", "--engine", &a, "--engine", &b, "--size", "7", "-q", "--record", "g.txt", "--log-protocol", "p.log"];
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(dir.join("p.log")).unwrap();
    for line in log.lines() {
        let words: Vec<&str> = line.splitn(6, ' ').collect();
        let time = words[0].as_bytes();
        assert!(time.len() == 12 && time[2] == b':' && time[8] == b'.', "{line}");
        assert_eq!(words[1], "game", "{line}");
        assert!(["-", "1", "2"].contains(&words[2]), "{line}");
        assert!(["a", "b"].contains(&words[3]), "{line}");
        assert!([">", "<"].contains(&words[4]), "{line}");
    }
    for expected in ["game - a > 1 protocol_version", "game 1 a > ", "game 2 b < =", "genmove b"] {
        assert!(log.contains(expected), "no '{expected}' in\n{log}");
    }
    let engines = std::fs::read_to_string(dir.join("g.txt.engines.log")).unwrap();
    assert!(engines.lines().count() >= 2, "{engines}");
    // `[NAME game N pid P] text`: at -j above 1 several games' engines write at once.
    for line in engines.lines() {
        let label = line.strip_prefix('[').and_then(|l| l.split_once("] ")).map_or("", |(label, _)| label);
        let words: Vec<&str> = label.split(' ').collect();
        assert!(words.len() == 5 && ["a", "b"].contains(&words[0]), "{line}");
        assert!(words[1] == "game" && ["-", "1", "2"].contains(&words[2]), "{line}");
        assert!(words[3] == "pid" && words[4].parse::<u32>().is_ok_and(|p| p > 1), "{line}");
    }
    assert!(engines.contains(" fake engine 'fake' starting"), "{engines}");
    // The protocol log is an output: it cannot be the record file.
    let out =
        veletas_in(&dir, &["match", "--engine", &a, "--engine", &b, "--record", "g.txt", "--log-protocol", "g.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_debug_log_names_the_engine_of_every_command_and_reply() {
    let (a, b) = (format!("a={FAKE}"), format!("b={FAKE}"));
    let out = Command::new(VELETAS)
        .args(["match", "--engine", &a, "--engine", &b, "--size", "7", "-n", "2", "-q"])
        .env("RUST_LOG", "veletas_tools::referee::engine=debug")
        .output()
        .unwrap();
    let log = text(&out.stderr);
    assert!(out.status.success(), "{log}");
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("veletas_tools::referee::engine]")).collect();
    let named = |name: &str, arrow: &str| {
        lines.iter().any(|l| l.contains(&format!("] engine {name} (pid ")) && l.contains(&format!(") {arrow} ")))
    };
    assert!(named("a", "<-") && named("a", "->") && named("b", "<-") && named("b", "->"), "{log}");
    assert!(lines.iter().all(|l| l.contains("] engine a (pid ") || l.contains("] engine b (pid ")), "{log}");
}

/// Starts `args` and sends the referee one SIGINT once `pid_file` names `engines`
/// processes; returns its output.
fn interrupt(dir: &Path, args: &[&str], pid_file: &Path, engines: usize) -> Output {
    let child: Child = Command::new(VELETAS)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut polls = 0;
    while pids(pid_file) < engines {
        polls += 1;
        assert!(polls < 3000, "the engines did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) of our own child, not yet reaped.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    child.wait_with_output().unwrap()
}

#[test]
fn sigint_stops_a_match_after_its_running_game_and_says_how_to_resume() {
    let dir = scratch!("sigint-match");
    let pid_file = dir.join("pids");
    let a = format!("a={FAKE} --slow-at 1 --delay 0.5 --pid-file {}", pid_file.display());
    let b = format!("b={FAKE}");
    let base = ["match", "--engine", &a, "--engine", &b, "--size", "7", "--record", "g.txt", "-q"];
    let out = veletas_in(&dir, &[&base[..], &["--games", "2"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let _ = std::fs::remove_file(&pid_file);
    let args = [&base[..], &["--games", "8"]].concat();
    let out = interrupt(&dir, &args, &pid_file, 1);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("g.txt: found 2 recorded games; they are not played again"), "{stderr}");
    assert!(stderr.contains("veletas: stopping: no new game starts"), "{stderr}");
    let played = games_in(&dir.join("g.txt"));
    assert!((2..8).contains(&played), "{played} games");
    assert!(stderr.contains(&format!("interrupted: {played} of 8 games played; to resume, run the same command:")));
    assert!(stderr.contains("match --engine 'a=") && stderr.contains(" --games 8"), "{stderr}");
    // The summary of the games so far is printed as at the end.
    let stdout = text(&out.stdout);
    assert!(stdout.contains(&format!("{played} of 8 games")), "{stdout}");
    // The same command resumes and finishes.
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(&format!("found {played} recorded games")), "{}", text(&out.stderr));
    assert_eq!(games_in(&dir.join("g.txt")), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigint_stops_a_tournament_with_its_standings_so_far() {
    let dir = scratch!("sigint-tournament");
    let pid_file = dir.join("pids");
    let a = format!("a={FAKE} --slow-at 1 --delay 0.5 --pid-file {}", pid_file.display());
    let (b, c) = (format!("b={FAKE}"), format!("c={FAKE}"));
    let args = [
        "tournament",
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        &c,
        "--size",
        "7",
        "--games-per-pair",
        "4",
        "--record",
        "t.txt",
        "-q",
    ];
    let out = interrupt(&dir, &args, &pid_file, 1);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let played = games_in(&dir.join("t.txt"));
    assert!(played < 12, "{played}");
    assert!(stderr.contains(&format!("interrupted: {played} of 12 games played; to resume")), "{stderr}");
    assert!(text(&out.stdout).contains(&format!(": {played} of 12 games played")), "{}", text(&out.stdout));
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&dir.join("t.txt")), 12);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a tournament's records say of each game, by id: who played which colour, the moves
/// and the result (with `restart=on` a game's moves depend on nothing that came before).
fn game_keys(path: &Path) -> Vec<(String, String, String, Vec<String>, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut keys: Vec<_> = veletas_tools::referee::parse_records(&text)
        .unwrap()
        .iter()
        .map(|g| {
            let tag = |t: &str| g.tag(t).unwrap_or_default().to_string();
            (
                tag("Game"),
                tag("Black"),
                tag("White"),
                g.moves().iter().map(ToString::to_string).collect(),
                tag("Result"),
            )
        })
        .collect();
    keys.sort();
    keys
}

#[test]
fn an_interrupted_knockout_resumes_to_the_games_and_champion_of_an_uninterrupted_one() {
    let dir = scratch!("sigint-knockout");
    let pid_file = dir.join("pids");
    let a = format!("a={FAKE} --seed 1 --slow-at 1 --delay 0.3 --pid-file {}", pid_file.display());
    let (b, c, d) = (format!("b={FAKE} --seed 2"), format!("c={FAKE} --seed 3"), format!("d={FAKE} --seed 4"));
    let args = |record: &'static str| {
        let mut args = vec!["tournament", "--format", "knockout", "--size", "7", "--each", "restart=on", "-q"];
        for engine in [&a, &b, &c, &d] {
            args.extend(["--engine", engine.as_str()]);
        }
        args.extend(["--record", record]);
        args.into_iter().map(str::to_string).collect::<Vec<String>>()
    };
    let whole_args = args("whole.txt");
    let whole = veletas_in(&dir, &whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let _ = std::fs::remove_file(&pid_file);
    let cut_args = args("cut.txt");
    let cut_args: Vec<&str> = cut_args.iter().map(String::as_str).collect();
    let out = interrupt(&dir, &cut_args, &pid_file, 1);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let (played, all) = (games_in(&dir.join("cut.txt")), games_in(&dir.join("whole.txt")));
    assert!(played < all, "{played} of {all}");
    assert!(stderr.contains("to resume, run the same command"), "{stderr}");
    let out = veletas_in(&dir, &cut_args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(game_keys(&dir.join("cut.txt")), game_keys(&dir.join("whole.txt")));
    // The same matches, winners and champion (the lines after the fingerprint's).
    let summary = |bytes: &[u8]| text(bytes).lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(summary(&out.stdout), summary(&whole.stdout));
    assert!(text(&whole.stdout).contains("Champion: "), "{}", text(&whole.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_live_page_of_an_interrupted_tournament_says_so_with_its_standings() {
    let dir = scratch!("sigint-live");
    let pid_file = dir.join("pids");
    let a = format!("a={FAKE} --slow-at 1 --delay 0.5 --pid-file {}", pid_file.display());
    let (b, c) = (format!("b={FAKE}"), format!("c={FAKE}"));
    let args = [
        "tournament",
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        &c,
        "--size",
        "7",
        "--games-per-pair",
        "4",
        "--record",
        "t.txt",
        "--live",
        "live.html",
        "-q",
    ];
    let out = interrupt(&dir, &args, &pid_file, 1);
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let played = games_in(&dir.join("t.txt"));
    let page = std::fs::read_to_string(dir.join("live.html")).unwrap();
    assert!(page.contains(&format!("interrupted: {played} of 12 games played; the same command resumes")), "{page}");
    assert!(page.contains(r#"data-finished="true""#) && !page.contains("http-equiv=\"refresh\""), "no more reloads");
    assert!(page.contains(r#"id="report""#), "the standings so far");
    // Resumed to the end, the page is that of a finished tournament.
    let out = veletas_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("live.html")).unwrap();
    assert!(page.contains("12 of 12 games played") && !page.contains("interrupted"), "{page}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn more_games_at_once_than_cores_warns_once_and_plays_on() {
    let dir = scratch!("cores");
    let (a, b) = (format!("a={FAKE} --seed 1"), format!("b={FAKE} --seed 2"));
    // 256, the most -j takes, is more than any machine the tests run on has cores.
    for (command, games) in [("match", "--games"), ("tournament", "--games-per-pair")] {
        let out =
            veletas_in(&dir, &[command, "--engine", &a, "--engine", &b, "--size", "7", games, "4", "-j", "256", "-q"]);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{command}: {stderr}");
        let warnings =
            stderr.lines().filter(|l| l.contains("plays more games at once than this machine has cores")).count();
        assert_eq!(warnings, 1, "{command}: {stderr}");
        assert!(stderr.contains("-j 256 plays more games at once"), "{command}: {stderr}");
    }
}

#[test]
fn quiet_keeps_the_progress_line_on_a_terminal_and_no_progress_removes_it() {
    let dir = scratch!("progress");
    for (flags, shown) in [("-q", true), ("-q --no-progress", false), ("--no-progress", false)] {
        let command =
            format!("'{VELETAS}' match --engine 'a={FAKE}' --engine 'b={FAKE}' --size 7 --games 2 {flags} 2>&1");
        // `script` (util-linux) runs the referee on a terminal of its own: the progress line is
        // drawn only there, each time after clearing the line (`\r\x1b[K`).
        let out = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .current_dir(&dir)
            .output()
            .expect("script runs a command on a terminal");
        let screen = text(&out.stdout);
        assert!(out.status.success(), "{flags}: {screen}");
        assert!(screen.contains("Score of a vs b: "), "{flags}: {screen}");
        assert_eq!(screen.contains("\x1b[K"), shown, "{flags}: {screen:?}");
        assert_eq!(screen.contains("game 1/2: "), !flags.contains("-q"), "{flags}: {screen}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
