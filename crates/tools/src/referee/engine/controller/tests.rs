//! The controller's operations against scripted engines, and the reading of the notes a
//! move comes with.

use super::*;
use crate::referee::clock::TimeControl;
use crate::referee::engine::EngineCommand;
use veletas_rules::{Rules, Variant};

/// A scripted engine that notes every command it gets in `log` and answers each with an
/// empty success, but for the `case` arms of `arms` (over `$cmd`; `$id` is the id).
fn scripted(log: &std::path::Path, arms: &str) -> EngineClient {
    let script = format!(
        r#"while read id cmd rest; do echo "$cmd $rest" >> {}; case "$cmd" in {arms} *) printf "=%s\n\n" "$id";; esac; done"#,
        log.display()
    );
    EngineClient::new(EngineCommand::parse(&format!("sh -c '{script}'")).unwrap(), None)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("veletas-controller-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn commands(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log).unwrap_or_default().lines().map(|l| l.trim().to_string()).collect()
}

const TIMEOUT: Duration = Duration::from_secs(5);

#[test]
fn the_listed_commands_say_how_moves_are_asked() {
    let none = Capabilities::from_list("genmove\nplay");
    assert_eq!((none.analyzes(), none.ask(true)), (false, Ask::Plain));
    let analyzes = Capabilities::from_list("genmove\n genmove_analyze \nplay");
    assert_eq!((analyzes.ask(false), analyzes.ask(true)), (Ask::Analyze, Ask::Analyze));
    let steps = Capabilities::from_list("genmove_analyze\ngenmove_analyze_steps");
    assert_eq!((steps.ask(false), steps.ask(true)), (Ask::Analyze, Ask::Steps));
}

#[test]
fn each_fault_is_the_termination_and_reason_a_record_gives_it() {
    let no_reply = |failure| Fault::NoReply { command: "clear_board".into(), failure, timeout: TIMEOUT };
    let cases = [
        (Fault::NotStarted("no such file".into()), Termination::Crash, "could not be started: no such file"),
        (
            Fault::Refused { command: "boardsize 7".into(), text: "no".into() },
            Termination::RejectedCommand,
            "'boardsize 7' was refused: no",
        ),
        (no_reply(Failure::Timeout), Termination::Timeout, "no reply to 'clear_board' within 5.000 s"),
        (no_reply(Failure::Exited("end".into())), Termination::Crash, "ended during 'clear_board': end"),
        (no_reply(Failure::Malformed("junk".into())), Termination::MalformedReply, "to 'clear_board': junk"),
        (
            no_reply(Failure::NotReading),
            Termination::Timeout,
            "'clear_board' not taken within 5.000 s: the engine stopped reading its input",
        ),
        (Fault::MoveRefused("no".into()), Termination::GenmoveError, "'?' to genmove: no"),
        (
            Fault::MoveTimeout { allowed: 0.5, margin: 1.0 },
            Termination::TimeForfeit,
            "no move within 0.5 s + 1 s margin; killed",
        ),
    ];
    for (fault, termination, reason) in cases {
        assert_eq!((fault.termination(), fault.to_string()), (termination, reason.to_string()));
    }
}

#[test]
fn a_command_in_a_fault_is_cut_and_its_control_and_bidirectional_characters_escaped() {
    // The commands sent hold the user's options: a long value, an escape or an override in
    // one must not make the message long or rewrite the terminal.
    let command = format!("option hash \u{1b}[2J\u{202e}{}", "9".repeat(100_000));
    let refused = Fault::Refused { command: command.clone(), text: "no".into() };
    let no_reply = Fault::NoReply { command, failure: Failure::Timeout, timeout: TIMEOUT };
    for fault in [refused, no_reply] {
        let text = fault.to_string();
        assert!(text.contains("'option hash \\u{1b}[2J\\u{202e}999"), "{text}");
        assert!(text.contains("999...'") && text.chars().count() < 200, "{text}");
        assert!(!text.contains(['\u{1b}', '\u{202e}']), "{text}");
    }
}

#[test]
fn an_engine_is_set_up_once_then_sent_only_the_moves_it_has_not_seen() {
    let log = scratch("catch-up");
    let mut engine = scripted(&log, "");
    engine.start(TIMEOUT).unwrap();
    let variant = Variant::from_size(7).unwrap();
    let setup = Setup::new(variant, Rules::CLASSIC, None, Some(TimeControl::MoveTime(1.0)));
    let mut game = Game::new(variant);
    let moves: Vec<Move> = ["d4", "b2,f6"].iter().map(|m| game.position().parse_move(m).unwrap()).collect();
    game.play(moves[0]).unwrap();
    engine.catch_up(&setup, &game, TIMEOUT).unwrap();
    game.play(moves[1]).unwrap();
    engine.catch_up(&setup, &game, TIMEOUT).unwrap();
    let set_up = ["boardsize 7", "clear_board", "time_settings 0 1 1"];
    let mut want: Vec<String> = ["list_commands"].iter().chain(&set_up).map(|c| c.to_string()).collect();
    want.extend(["play black d4".to_string(), "play white b2,f6".to_string()]);
    assert_eq!(commands(&log), want);
    // A game the engine has not seen the start of (here: one turn taken back) starts over.
    let mut shorter = Game::new(variant);
    shorter.play(moves[0]).unwrap();
    engine.catch_up(&setup, &shorter, TIMEOUT).unwrap();
    want.extend(set_up.iter().map(|c| c.to_string()));
    want.push("play black d4".into());
    assert_eq!(commands(&log), want);
    engine.kill();
    let _ = std::fs::remove_file(&log);
}

#[test]
fn an_engine_that_refuses_time_settings_plays_untimed_and_is_sent_no_time_left() {
    let log = scratch("untimed");
    let mut engine = scripted(
        &log,
        r#"time_settings) printf "?%s unknown command\n\n" "$id";; genmove) printf "=%s d4\n\n" "$id";;"#,
    );
    engine.start(TIMEOUT).unwrap();
    let variant = Variant::from_size(7).unwrap();
    let control = TimeControl::MoveTime(5.0);
    let mut game = Game::new(variant);
    engine.catch_up(&Setup::of_game(&game, Some(control)), &game, TIMEOUT).unwrap();
    assert!(!engine.timed());
    let mut clock = Clock::new(control);
    engine.time_left(Color::Black, &clock, TIMEOUT).unwrap();
    let mut elapsed = Duration::ZERO;
    let played = engine.genmove(Ask::Plain, &mut game, &mut clock, 1.0, &mut elapsed).unwrap();
    assert_eq!(played.mv.map(|m| m.to_string()).as_deref(), Some("d4"));
    assert!(!commands(&log).iter().any(|c| c.starts_with("time_left")), "{:?}", commands(&log));
    // The same engine's illegal move is the referee's illegal move.
    let fault = engine.genmove(Ask::Plain, &mut game, &mut clock, 1.0, &mut elapsed).unwrap_err();
    assert_eq!(fault.termination(), Termination::IllegalMove, "{fault}");
    assert!(fault.to_string().starts_with("played d4: "), "{fault}");
    engine.kill();
    let _ = std::fs::remove_file(&log);
}

#[test]
fn a_genmove_analyze_reply_gives_the_move_and_its_report() {
    let reply = "info move d3 visits 42 winrate 5740 order 0 memory 1 memory_limit 256 pv d3 c4 info move b3 \
                 visits 4 winrate 4639 order 1 pv b3\nplay d3";
    let (mv, report) = split_analyzed(reply).unwrap();
    assert_eq!(mv, "d3");
    let report = report.unwrap();
    let d3 = evaluation_of(report, "d3").unwrap();
    assert_eq!((d3.winrate.hundredths(), d3.visits), (5740, 42));
    let b3 = evaluation_of(report, "b3").unwrap();
    assert_eq!((b3.winrate.hundredths(), b3.visits), (4639, 4));
    assert_eq!(evaluation_of(report, "c4"), None, "a move of the pv is no entry");
    assert_eq!(split_analyzed("play resign").unwrap(), ("resign", None));
    assert!(split_analyzed("d3").unwrap_err().to_string().contains("not 'play MOVE'"));
    assert!(split_analyzed("").is_err());
}

#[test]
fn a_genmove_analyze_steps_reply_gives_its_first_steps() {
    let reply = "info move d3 visits 42 winrate 5740 order 0 pv d3\nsteps -:61 c4-c2:25\nplay d3";
    assert_eq!(split_analyzed(reply).unwrap().0, "d3");
    let steps = steps_of(reply).unwrap();
    assert_eq!((steps.entries().len(), steps.total()), (2, 86));
    for bad in ["info move d3 visits 0 winrate 5000 order 0 pv d3\nsteps\nplay d3", "steps x\nplay d3", "play d3"] {
        assert_eq!(steps_of(bad), None, "{bad}");
    }
}

#[test]
fn reports_without_search_or_malformed_give_no_evaluation() {
    assert_eq!(evaluation_of("info move d3 visits 0 winrate 5000 order 0 pv d3", "d3"), None);
    for bad in [
        "info move d3 visits x winrate 5000 order 0 pv d3",
        "info move d3 visits 5 winrate 10001 order 0 pv d3",
        "info move d3 visits 5 order 0 pv d3",
        "info move",
        "garbage",
    ] {
        assert_eq!(evaluation_of(bad, "d3"), None, "{bad}");
    }
    // Each says why, in its own words.
    for (report, why) in [
        (None, "the reply has no 'info' line before 'play'"),
        (
            Some("info move d3 visits 5 winrate nan order 0"),
            "winrate 'nan' of d3 is not a whole number from 0 to 10000",
        ),
        (Some("info move d3 visits x winrate 5000"), "visits 'x' of d3 is not a whole number"),
        (Some("info move d3 winrate 5000"), "the entry of d3 has no visits"),
        (Some("info move d3 visits 5"), "the entry of d3 has no winrate"),
        (Some("info move d3 visits 0 winrate 5000"), "d3 has 0 visits: no search"),
        (
            Some("info move c4 visits 5 winrate 5000 pv d3"),
            "its report has no entry ('info move d3') for the move it played",
        ),
    ] {
        assert_eq!(read_evaluation(report, "d3").map_err(|e| e.to_string()), Err(why.to_string()), "{report:?}");
    }
}

#[test]
fn an_engines_text_in_a_message_is_cut_and_its_control_and_bidirectional_characters_escaped() {
    assert_eq!(shorten("W+\u{202e}evil\tname\n"), "W+\\u{202e}evil\\tname\\n");
    let long = "x".repeat(200);
    assert_eq!(shorten(&long), format!("{}...", "x".repeat(60)));
    assert_eq!(shorten("= 2"), "= 2");
}
