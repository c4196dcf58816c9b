//! The referee against real processes: the fake engine (`src/bin/veletas-fake-engine.rs`,
//! located through Cargo's `CARGO_BIN_EXE_veletas-fake-engine`) plays random moves
//! and misbehaves on request.

use std::path::{Path, PathBuf};

use veletas::cli::MatchArgs;
use veletas_tools::referee::{MatchSummary, RefereeError, Termination, parse_records, run_match};

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn fake(flags: &str) -> String {
    format!("'{FAKE}' {flags}")
}

fn run(args: &[&str]) -> Result<MatchSummary, RefereeError> {
    MatchArgs::parse_from(args).unwrap().plan().and_then(|plan| run_match(&plan))
}

fn read_games(path: &Path) -> Vec<veletas_tools::referee::GameRecord> {
    parse_records(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_short_match_between_random_movers_on_7x7() {
    let dir = scratch!("short");
    let record = dir.join("games.txt");
    let (one, two) = (fake("--seed 1 --name alpha"), fake("--seed 2 --name beta"));
    let summary = run(&[
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "6",
        "--size",
        "7",
        "--concurrency",
        "2",
        "--seed",
        "5",
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
    assert_eq!(summary.games, 6);
    assert_eq!(summary.score.wins + summary.score.losses, 6);
    assert_eq!(summary.pentanomial.pairs(), 3);
    assert_eq!(summary.terminations, vec![(Termination::Normal, 6)]);
    assert_eq!(summary.disagreements, 0);
    // Each name carries its command line's arguments.
    assert_eq!(summary.names, ["alpha 0.1 (--seed 1 --name alpha)", "beta 0.1 (--seed 2 --name beta)"]);

    let games = read_games(&record);
    assert_eq!(games.len(), 6);
    let mut rounds: Vec<&str> = games.iter().map(|g| g.tag("Round").unwrap()).collect();
    rounds.sort();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);
    for g in &games {
        let end = g.position_after(None).unwrap();
        assert_eq!(end.winner(), g.winner(), "{g}");
        assert_eq!(g.tag("Size"), Some("7"));
        assert_eq!(g.tag("TimeControl"), Some("movetime 1"));
        assert_eq!(g.tag("FinalScoreBlack"), Some(veletas_rules::record::result_token(g.result)));
        let black = if g.tag("BlackEngine") == Some("1") { &summary.names[0] } else { &summary.names[1] };
        assert_eq!(g.tag("Black"), Some(black.as_str()));
        // Writing the parsed game again gives the same game back.
        assert_eq!(parse_records(&g.to_string()).unwrap(), vec![g.clone()]);
    }
    // Each opening is played twice with colours swapped.
    let opening = |round: &str| games.iter().find(|g| g.tag("Round") == Some(round)).unwrap().tag("Opening").unwrap();
    assert_eq!(opening("1"), opening("2"));
    assert_ne!(opening("1"), opening("3"));
    let log = std::fs::read_to_string(dir.join("games.txt.engines.log")).unwrap();
    assert!(log.contains("fake engine 'alpha' starting"), "{log}");
}

/// Engine 2 misbehaves at its first genmove of every game. In game 1 it plays White and
/// engine 1 has moved: it loses, with `want` as the recorded termination. In game 2 it plays
/// Black and fails before any engine has moved: the game is void (counted for no one,
/// recorded with `*`), unless it resigned or played an illegal move, decisions about a
/// move that lose as well.
fn misbehaviour(name: &str, flags: &str, want: Termination) {
    let dir = scratch!(name);
    let record = dir.join("games.txt");
    let (good, bad) = (fake("--seed 1"), fake(&format!("--seed 2 {flags}")));
    let summary = run(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--games",
        "2",
        "--size",
        "7",
        "--movetime",
        "0.2",
        "--margin",
        "0.1",
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
    let void = want.voids_before_a_move();
    let (counted, voided) = if void { (1, vec![(want, 1)]) } else { (2, vec![]) };
    assert_eq!((summary.score.wins, summary.score.losses), (counted, 0), "{name}: {summary}");
    assert_eq!(summary.terminations, vec![(want, counted)], "{name}");
    assert_eq!(summary.void, voided, "{name}");
    assert_eq!(summary.games, counted, "{name}");
    assert_eq!(summary.pentanomial.pairs(), u64::from(!void), "{name}: a pair with a void game is not complete");
    let games = read_games(&record);
    assert_eq!(games.len(), 2, "{name}");
    for g in &games {
        assert_eq!(g.tag("Termination"), Some(want.as_str()), "{name}");
        assert!(g.tag("Reason").is_some_and(|r| !r.is_empty()), "{name}: {g}");
        // The recorded moves replay, up to the adjudicated position.
        let end = g.position_after(None).unwrap();
        assert_eq!(end.winner(), None, "{name}");
        let engine2_black = g.tag("BlackEngine") == Some("2");
        assert_eq!(g.is_void(), void && engine2_black, "{name}: {g}");
        if g.is_void() {
            assert_eq!((g.result, g.tag("Result")), (None, Some("*")), "{name}: {g}");
            assert!(g.tag("Reason").is_some_and(|r| r.ends_with("no engine had moved: void")), "{name}: {g}");
        }
    }
}

#[test]
fn an_illegal_move_loses() {
    misbehaviour("illegal", "--illegal-at 1", Termination::IllegalMove);
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    misbehaviour("crash", "--crash-at 1", Termination::Crash);
}

#[test]
fn a_hung_engine_loses_on_time_and_is_killed() {
    misbehaviour("hang", "--hang-at 1", Termination::TimeForfeit);
}

#[test]
fn an_answer_slower_than_the_clock_loses_on_time() {
    misbehaviour("slow", "--slow-at 1 --delay 1", Termination::TimeForfeit);
}

#[test]
fn junk_before_a_reply_is_a_malformed_reply() {
    misbehaviour("junk", "--junk-at 1", Termination::MalformedReply);
}

#[test]
fn a_reply_that_is_no_move_is_a_malformed_reply() {
    misbehaviour("malformed", "--malformed-at 1", Termination::MalformedReply);
}

#[test]
fn an_error_reply_to_genmove_loses() {
    misbehaviour("refuse", "--refuse-at 1", Termination::GenmoveError);
}

#[test]
fn resigning_loses() {
    misbehaviour("resign", "--resign-at 1", Termination::Resignation);
}

#[test]
fn final_score_disagreements_are_flagged() {
    let dir = scratch!("score");
    let record = dir.join("games.txt");
    let summary = run(&[
        "--engine",
        &fake("--seed 1"),
        "--engine",
        &fake("--seed 2 --wrong-score"),
        "--games",
        "2",
        "--size",
        "7",
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
    assert_eq!(summary.terminations, vec![(Termination::Normal, 2)]);
    assert_eq!(summary.disagreements, 2);
    assert!(read_games(&record).iter().all(|g| g.tag("Disagreement").is_some()));
}

#[test]
fn clocks_with_increment_and_byoyomi_are_announced_and_kept() {
    for clock in [&["--clock", "5+0.1"][..], &["--clock", "1", "--byoyomi", "1/3"], &["--byoyomi", "0.5/1"]] {
        let mut args = vec!["--engine", "", "--engine", "", "--games", "2", "--size", "9", "--quiet"];
        let (one, two) = (fake("--seed 3"), fake("--seed 4"));
        (args[1], args[3]) = (&one, &two);
        args.extend_from_slice(clock);
        let summary = run(&args).unwrap();
        assert_eq!(summary.terminations, vec![(Termination::Normal, 2)], "{clock:?}");
    }
    // Too slow for a Fischer clock: the third move takes a second with 0.3 s + 2 x 0.05 s left.
    let (one, two) = (fake("--seed 3"), fake("--seed 4 --slow-at 3 --delay 1"));
    let summary =
        run(&["--engine", &one, "--engine", &two, "--games", "2", "--size", "10", "--clock", "0.3+0.05", "--quiet"])
            .unwrap();
    assert_eq!(summary.terminations, vec![(Termination::TimeForfeit, 2)]);
}

#[test]
fn records_under_a_clock_carry_the_time_each_side_used() {
    let dir = scratch!("time-used");
    let record = dir.join("games.txt");
    let rec = record.to_str().unwrap();
    // Engine 2 sleeps 0.3 s before its second genmove of each game.
    let (one, two) = (fake("--seed 3"), fake("--seed 4 --slow-at 2 --delay 0.3"));
    let args = ["--engine", &one, "--engine", &two, "--games", "2", "--size", "7", "--record", rec, "--quiet"];
    let summary = run(&[&args[..], &["--clock", "5+0.1"]].concat()).unwrap();
    assert_eq!(summary.terminations, vec![(Termination::Normal, 2)]);
    for game in read_games(&record) {
        let used = |tag: &str| game.tag(tag).and_then(|t| t.parse::<f64>().ok()).expect("a time used");
        let slow = if game.tag("BlackEngine") == Some("2") { "TimeUsedBlack" } else { "TimeUsedWhite" };
        assert!(used(slow) >= 0.3, "{:?}", game.tag(slow));
        assert!(used("TimeUsedBlack") >= 0.0 && used("TimeUsedWhite") >= 0.0);
    }
    // Per-move time: no clock to use a share of, no tags.
    let summary = run(&[&args[..], &["--movetime", "5", "--overwrite"]].concat()).unwrap();
    assert_eq!(summary.games, 2);
    assert!(read_games(&record).iter().all(|g| g.tag("TimeUsedBlack").is_none()));
}

#[test]
fn resuming_plays_only_the_missing_games() {
    let dir = scratch!("resume");
    let record = dir.join("games.txt");
    let rec = record.to_str().unwrap();
    let (one, two) = (fake("--seed 1"), fake("--seed 2"));
    let base = ["--engine", &one, "--engine", &two, "--size", "7", "--record", rec, "--quiet"];
    let with = |extra: &[&'static str]| -> Vec<&str> { base.iter().copied().chain(extra.iter().copied()).collect() };

    assert_eq!(run(&with(&["--games", "2", "--seed", "9"])).unwrap().games, 2);
    let first = std::fs::read_to_string(&record).unwrap();
    let summary = run(&with(&["--games", "4", "--seed", "9"])).unwrap();
    assert_eq!(summary.games, 4);
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.starts_with(&first), "finished games are kept as they were");
    let games = parse_records(&text).unwrap();
    let rounds: Vec<&str> = games.iter().map(|g| g.tag("Round").unwrap()).collect();
    assert_eq!(rounds, ["1", "2", "3", "4"], "only the missing games are played");

    // Nothing left to play: the summary still counts the recorded games.
    assert_eq!(run(&with(&["--games", "4", "--seed", "9"])).unwrap().games, 4);
    assert_eq!(read_games(&record).len(), 4);

    // An interrupted write leaves an incomplete game: it is dropped and played again.
    let cut = text.len() - 30;
    std::fs::write(&record, &text[..cut]).unwrap();
    assert_eq!(run(&with(&["--games", "4", "--seed", "9"])).unwrap().games, 4);
    assert_eq!(read_games(&record).len(), 4);

    // A record of another match (other openings) is refused, not mixed in.
    let other = with(&["--games", "4", "--seed", "10"]);
    assert!(matches!(run(&other), Err(RefereeError::Record { .. })));
    // ... unless asked to start over.
    let fresh: Vec<&str> = other.into_iter().chain(["--overwrite"]).collect();
    assert_eq!(run(&fresh).unwrap().games, 4);
    assert_eq!(read_games(&record).len(), 4);
}

#[test]
fn an_sprt_stops_the_match_when_it_decides() {
    let (one, two) = (fake("--seed 1"), fake("--seed 2 --illegal-at 1"));
    let summary =
        run(&["--engine", &one, "--engine", &two, "--games", "200", "--size", "7", "--sprt", "0,50", "--quiet"])
            .unwrap();
    assert!(summary.games < 200, "{summary}");
    assert!(summary.sprt_decided());
    assert_eq!(summary.sprt.unwrap().decision, veletas_tools::stats::SprtDecision::AcceptH1);
}

#[test]
fn openings_come_from_a_file() {
    let dir = scratch!("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nd4 b2,f6\n\n7/7/7/3s3/7/7/7 w b2,f6 d4-d6/d5  # a position\n").unwrap();
    let record = dir.join("games.txt");
    let summary = run(&[
        "--engine",
        &fake("--seed 1"),
        "--engine",
        &fake("--seed 2"),
        "--games",
        "6",
        "--openings",
        file.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
    assert_eq!(summary.games, 6);
    for g in read_games(&record) {
        let round: usize = g.tag("Round").unwrap().parse().unwrap();
        let (opening, start) = match (round - 1) / 2 % 2 {
            0 => ("d4 b2,f6", None),
            _ => ("7/7/7/3s3/7/7/7 w b2,f6 d4-d6/d5", Some("7/7/7/3s3/7/7/7 w")),
        };
        assert_eq!(g.tag("Opening"), Some(opening));
        assert_eq!(g.tag("Start"), start);
        assert_eq!(g.tag("Size"), Some("7"));
        assert!(g.position_after(None).unwrap().winner().is_some());
    }
}

#[test]
fn bad_options_and_missing_engines_are_errors() {
    let missing = run(&["--engine", "/nonexistent/engine", "--engine", "/nonexistent/engine"]);
    assert!(matches!(missing, Err(RefereeError::Engine { .. })), "{missing:?}");
    let once = run(&["--engine", &fake("")]);
    assert!(matches!(once, Err(RefereeError::Usage(_))));
    let quote = run(&["--engine", "'unterminated", "--engine", &fake("")]);
    assert!(matches!(quote, Err(RefereeError::Usage(_))));
    assert!(MatchArgs::parse_from(["--engine", "a", "--engine", "b", "--movetime", "x"]).is_err());
    assert!(MatchArgs::parse_from(["--engine", "a", "--engine", "b", "--sprt", "5,0"]).is_err());
    let both = run(&["--engine", "a", "--engine", "b", "--movetime", "1", "--clock", "5"]);
    assert!(matches!(both, Err(RefereeError::Usage(_))));
    let args = MatchArgs::parse_from([
        "--engine",
        "a b",
        "--engine",
        "c",
        "--games",
        "8",
        "--size",
        "9",
        "--tc",
        "10+0.1",
        "--margin",
        "0.5",
        "-j",
        "3",
        "--seed",
        "4",
        "--record",
        "r.txt",
        "--sprt",
        "-5,5,0.1,0.1",
        "--engine-log",
        "e.log",
    ])
    .unwrap();
    assert_eq!(args.engines, ["a b", "c"]);
    assert_eq!((args.games, args.common.size, args.common.concurrency, args.common.seed), (8, Some(9), 3, 4));
    assert_eq!(args.common.clock.map(|c| (c.main, c.increment)), Some((10.0, 0.1)));
    assert_eq!(args.common.sprt.map(|s| (s.elo0, s.elo1)), Some((-5.0, 5.0)));
}

#[test]
fn time_odds_give_engine_one_a_longer_clock() {
    // Engine 1 takes 0.45 s over its second move. With 0.3 s per move and the 0.1 s margin that
    // loses on time; with time odds 2 (0.6 s) it does not, and engine 2 keeps the plain clock.
    let dir = scratch!("odds");
    let record = dir.join("games.txt");
    let slow = fake("--seed 3 --slow-at 2 --delay 0.45");
    let quick = fake("--seed 4");
    let base = ["--engine", &slow, "--engine", &quick, "--games", "2", "--size", "7", "--movetime", "0.3", "--quiet"];
    let even = run(&base).unwrap();
    assert_eq!(even.terminations, vec![(Termination::TimeForfeit, 2)]);
    let mut odds = base.to_vec();
    odds.extend(["--time-odds", "2", "--record", record.to_str().unwrap()]);
    let summary = run(&odds).unwrap();
    assert_eq!(summary.terminations, vec![(Termination::Normal, 2)]);
    for game in read_games(&record) {
        assert_eq!(game.tag("TimeControl"), Some("movetime 0.3; engine 1 x2"));
    }
    assert!(MatchArgs::parse_from(["--engine", "a", "--engine", "b", "--time-odds", "0"]).is_err());
}

#[test]
fn engines_named_on_the_command_line_keep_their_names_in_records() {
    let dir = scratch!("named");
    let record = dir.join("games.txt");
    let (one, two) = (format!("strong={}", fake("--seed 1")), format!("weak={}", fake("--seed 2")));
    let summary = run(&[
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "2",
        "--size",
        "7",
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
    assert_eq!(summary.names, ["strong".to_string(), "weak".to_string()]);
    let games = read_games(&record);
    assert_eq!((games[0].tag("Black"), games[0].tag("White")), (Some("strong"), Some("weak")));
    let same = format!("weak={}", fake("--seed 3"));
    let err = run(&["--engine", &two, "--engine", &same, "--size", "7"]).unwrap_err();
    assert!(err.to_string().contains("two engines are named 'weak'"), "{err}");
}

#[test]
fn records_that_are_no_regular_file_are_refused_in_one_line() {
    let dir = scratch!("special-record");
    let fifo = dir.join("fifo");
    let fifo_made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    let one = fake("--seed 1");
    let mut cases = vec![(dir.clone(), "a directory"), (PathBuf::from("/dev/zero"), "a character device")];
    if fifo_made {
        cases.push((fifo, "a FIFO"));
    }
    for (path, kind) in cases {
        let rec = path.to_str().unwrap();
        for extra in [&["--resume"][..], &[], &["--overwrite"]] {
            let mut args = vec!["--engine", &one, "--engine", &one, "--size", "7", "--games", "2", "--record", rec];
            args.extend_from_slice(extra);
            args.push("--quiet");
            let err = run(&args).unwrap_err();
            assert!(matches!(err, RefereeError::Record { .. }), "{rec} {extra:?}: {err}");
            let message = err.to_string();
            assert!(message.ends_with(&format!("not a regular file ({kind})")), "{message}");
            assert_eq!(message.lines().count(), 1, "{message}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
