//! The checks of `veletas check`, run in order on one engine process (restarted when a
//! check leaves it dead). Each check starts a new game of its own; the moves it plays
//! come from the rules library and a seeded generator, and every move the engine answers
//! is checked with the rules library.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use super::extensions;
use super::report::{CheckGroup, CheckOutcome, CheckResult};
use super::session::{Checked, Session};
use super::settings::CheckSettings;
use crate::referee::clock::TimeControl;
use crate::referee::engine::controller::shorten;
use crate::referee::engine::{EngineClient, EngineCommand, Reply};
use crate::referee::game::{GameSettings, Termination, play_game};
use crate::referee::openings::Opening;
use veletas_rules::{Color, Phase, PlayoutPolicy, Rng, RuleSet};

/// The commands of protocol.md's Commands section that every engine must have (the clock
/// commands, [`TIME_COMMANDS`], apart).
pub const REQUIRED_COMMANDS: [&str; 15] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
];

/// The clock commands: optional together. An engine that knows `time_settings` must know
/// `time_left` too, and pass the clock checks; one that does not is timed by the referee
/// alone (protocol.md, `time_settings`), and the report lists them among the extensions
/// only when offered.
pub const TIME_COMMANDS: [&str; 2] = ["time_settings", "time_left"];

/// The checks that need the clock commands: skipped, and not required, for an engine
/// without them.
const CLOCK_CHECKS: [&str; 6] =
    ["genmove-no-limit", "genmove-main-time", "genmove-byoyomi", "genmove-canadian", "genmove-increment", "time-left"];

/// The extensions protocol.md describes.
pub const EXTENSIONS: [&str; 21] = [
    "legal_moves",
    "is_legal",
    "set_position",
    "position",
    "perft",
    "rules",
    "option",
    "player",
    "movetime",
    "playouts",
    "threads",
    "analyze",
    "genmove_analyze",
    "genmove_analyze_steps",
    "solve",
    "memory",
    "resign_threshold",
    "ponder",
    "eval",
    "policy",
    "loadgame",
];

/// The commands a refereed game sends (besides `protocol_version` and `name`, which the
/// check `name` asks, and `rules` under other rules than classic): the check `commands`
/// requires these alone.
pub const PLAY_COMMANDS: [&str; 6] = ["boardsize", "clear_board", "play", "genmove", "final_score", "quit"];

/// Runs the checks in order; with `all` the strict ones and the extensions too (without,
/// only those of [`CheckGroup::Play`]). Returns the results, the engine's name (`name` and
/// `version`) if it answered, and the extensions it offers.
pub fn run_all(
    command: &EngineCommand,
    settings: &CheckSettings,
    all: bool,
) -> (Vec<CheckResult>, Option<String>, Vec<String>) {
    let mut session = Session {
        engine: EngineClient::new(command.clone(), None),
        settings,
        rng: Rng::new(settings.seed()),
        extensions: vec![],
        name: None,
        timed: true,
        listed: BTreeSet::new(),
    };
    let mut results: Vec<CheckResult> = Vec::new();
    type Probe = fn(&mut Session) -> Checked;
    use CheckGroup::{Play, Strict};
    let checks: [(&'static str, CheckGroup, Probe); 21] = [
        ("startup", Play, startup),
        ("ids", Play, ids),
        ("name", Play, |s| {
            s.running()?;
            let timeout = s.timeout();
            let identity = s.engine.greet(timeout).map_err(|e| e.to_string())?;
            s.name = Some(identity.full_name());
            Ok(format!("name '{}', version '{}'", identity.name, identity.version.unwrap_or_default()))
        }),
        ("framing", Strict, framing),
        ("commands", Play, commands),
        ("all-commands", Strict, all_commands),
        ("errors", Strict, errors),
        ("genmove-setup", Play, genmove_setup),
        ("reg-genmove", Strict, reg_genmove),
        ("genmove-no-clock", Play, |s| genmove_clock(s, "time_settings 0 0 0", None)),
        ("genmove-no-limit", Play, |s| genmove_clock(s, "time_settings 0 1 0", None)),
        ("genmove-main-time", Play, |s| genmove_clock(s, "time_settings 1 0 0", Some((1.0, 0)))),
        ("genmove-byoyomi", Play, |s| genmove_clock(s, "time_settings 0 0.5 1", Some((0.5, 1)))),
        ("genmove-canadian", Play, |s| genmove_clock(s, "time_settings 1 1 4", Some((0.6, 2)))),
        ("genmove-increment", Play, genmove_increment),
        ("time-left", Play, |s| genmove_clock(s, "time_settings 600 0 0", Some((0.3, 0)))),
        ("state-after-errors", Strict, state_after_errors),
        ("undo", Strict, undo),
        ("final-score", Play, final_score),
        ("game", Play, whole_game),
        ("quit", Play, quit),
    ];
    let mut blocked: Option<String> = None;
    for (id, group, probe) in checks {
        if group == Strict && !all {
            continue;
        }
        if !session.timed && CLOCK_CHECKS.contains(&id) {
            let reason = "the engine knows no time commands: timed by the referee alone";
            results.push(CheckResult { id, group: CheckGroup::Optional, outcome: CheckOutcome::Skip(reason.into()) });
            continue;
        }
        if group == Strict
            && id != "all-commands"
            && let Some(lacking) = lacking(&session, id)
        {
            let reason = format!("not run: the engine lacks {lacking} (see all-commands)");
            results.push(CheckResult { id, group, outcome: CheckOutcome::Skip(reason) });
            continue;
        }
        let outcome = match &blocked {
            Some(reason) => CheckOutcome::Skip(reason.clone()),
            None => match probe(&mut session) {
                Ok(detail) => CheckOutcome::Pass(detail),
                Err(reason) => CheckOutcome::Fail(reason.to_string()),
            },
        };
        // An engine that cannot be started cannot be asked anything else.
        if matches!(outcome, CheckOutcome::Fail(_)) && id == "startup" {
            blocked = Some(format!("not run: the check '{id}' failed"));
        }
        results.push(CheckResult { id, group, outcome });
    }
    if all {
        let optional: [(&'static str, &'static [&'static str], Probe); 4] = [
            ("ext-position", &["position"], extensions::position),
            ("ext-legal-moves", &["legal_moves"], extensions::legal_moves),
            ("ext-is-legal", &["is_legal"], extensions::is_legal),
            ("ext-set-position", &["set_position", "position"], extensions::set_position),
        ];
        for (id, needs, probe) in optional {
            let missing: Vec<&str> = needs.iter().copied().filter(|n| !session.offers(n)).collect();
            let outcome = match (&blocked, missing.is_empty()) {
                (Some(reason), _) => CheckOutcome::Skip(reason.clone()),
                (None, false) => CheckOutcome::Skip(format!("not offered: {}", missing.join(", "))),
                (None, true) => match probe(&mut session) {
                    Ok(detail) => CheckOutcome::Pass(detail),
                    Err(reason) => CheckOutcome::Fail(reason.to_string()),
                },
            };
            results.push(CheckResult { id, group: CheckGroup::Optional, outcome });
        }
    }
    session.engine.quit(Duration::from_millis(500));
    (results, session.name, session.extensions)
}

/// The command a strict check is about that the engine does not list (the check
/// `all-commands` reports it, once).
fn lacking(s: &Session, id: &str) -> Option<&'static str> {
    let about: &[&'static str] = match id {
        "reg-genmove" => &["reg_genmove"],
        "undo" => &["undo"],
        _ => &[],
    };
    about.iter().copied().find(|c| s.lacks(c))
}

/// Start-up: the process starts and answers `protocol_version` sent without an id.
fn startup(s: &mut Session) -> Checked {
    s.running()?;
    let exchange = s.raw("protocol_version", "")?;
    match exchange.reply {
        Reply { success: true, text } if text == "2" => Ok("started; 'protocol_version' (no id) answered '= 2'".into()),
        Reply { success, text } => Err(format!(
            "'protocol_version' answered '{}{}', not '= 2'",
            if success { "= " } else { "? " },
            shorten(&text)
        )
        .into()),
    }
}

/// Ids: replies echo the command's id, on success and on failure, and an empty result
/// is `=id ` with its space.
fn ids(s: &mut Session) -> Checked {
    s.running()?;
    let named = s.raw("17 protocol_version", "17")?;
    if !named.reply.success {
        return Err("'17 protocol_version' was refused".into());
    }
    let refused = s.raw("18 frobnicate", "18")?;
    if refused.reply.success {
        return Err("'18 frobnicate' (an unknown command) was accepted".into());
    }
    let empty = s.raw("19 clear_board", "19")?;
    match empty.lines.first().map(String::as_str) {
        Some("=19 ") => Ok("'=17 ...', '?18 ...' and '=19 ' (the space of an empty result)".into()),
        other => Err(format!(
            "'19 clear_board' answered '{}', not '=19 ' (a space follows the id)",
            shorten(other.unwrap_or(""))
        )
        .into()),
    }
}

/// Framing: comments, CR and tabs are preprocessed away; blank lines get no reply.
fn framing(s: &mut Session) -> Checked {
    s.running()?;
    let name = s.ok("name")?;
    let commented = s.raw("name # a comment\r", "")?;
    if !commented.reply.success || commented.reply.text != name {
        return Err(format!(
            "'name # a comment' + CR answered '{}', not '= {}'",
            shorten(&commented.lines.join(" | ")),
            shorten(&name)
        )
        .into());
    }
    let tabbed = s.raw("21\tname\t", "21")?;
    if !tabbed.reply.success || tabbed.reply.text != name {
        return Err(format!(
            "'21<TAB>name<TAB>' answered '{}', not '=21 {}'",
            shorten(&tabbed.lines.join(" | ")),
            shorten(&name)
        )
        .into());
    }
    // A reply to the blank lines would come first and carry no id.
    let blank = s.raw("\n   \n# only a comment\n22 protocol_version", "22")?;
    if blank.reply.text != "2" {
        return Err(format!(
            "after blank lines, '22 protocol_version' answered '{}'",
            shorten(&blank.lines.join(" | "))
        )
        .into());
    }
    Ok("comment, CR and tabs ignored; blank and comment lines get no reply".into())
}

/// The commands a refereed game needs are there (listed by `list_commands`, or else
/// `known_command` says `true`); which clock commands and extensions the engine offers.
fn commands(s: &mut Session) -> Checked {
    s.running()?;
    s.listed = match s.ask("list_commands")? {
        Reply { success: true, text } => text.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect(),
        Reply { success: false, .. } => BTreeSet::new(),
    };
    s.timed = s.knows(TIME_COMMANDS[0])?;
    let mut needed: Vec<&str> = PLAY_COMMANDS.to_vec();
    if s.settings.rules().set != RuleSet::Classic {
        needed.push("rules");
    }
    let mut missing = Vec::new();
    for command in needed {
        if !s.knows(command)? {
            missing.push(command);
        }
    }
    if !missing.is_empty() {
        return Err(format!("the engine lacks {}, which refereed games send", missing.join(", ")).into());
    }
    s.extensions.clear();
    for extension in EXTENSIONS {
        if s.knows(extension)? {
            s.extensions.push(extension.to_string());
        }
    }
    if s.timed {
        s.extensions.extend(TIME_COMMANDS.iter().map(|c| c.to_string()));
    }
    let clock = if s.timed { " and the clock commands" } else { "; no clock commands (timed by the referee alone)" };
    Ok(format!("the {} commands of a refereed game{clock} known", PLAY_COMMANDS.len()))
}

/// Every command protocol.md requires is listed and known; unknown names are not.
fn all_commands(s: &mut Session) -> Checked {
    s.running()?;
    let listed: BTreeSet<String> = s.ok("list_commands")?.lines().map(|l| l.trim().to_string()).collect();
    let mut needed: Vec<&str> = REQUIRED_COMMANDS.to_vec();
    if s.timed {
        needed.extend(TIME_COMMANDS);
    }
    let missing: Vec<&str> = needed.iter().copied().filter(|c| !listed.contains(*c)).collect();
    if !missing.is_empty() {
        return Err(format!("list_commands lacks {}", missing.join(", ")).into());
    }
    if s.settings.rules().set != RuleSet::Classic {
        needed.push("rules");
    }
    for command in needed {
        let known = s.ok(&format!("known_command {command}"))?;
        if known != "true" {
            return Err(format!("'known_command {command}' answered '{}', not 'true'", shorten(&known)).into());
        }
    }
    for unknown in ["frobnicate", "Genmove"] {
        let known = s.ok(&format!("known_command {unknown}"))?;
        if known != "false" {
            return Err(format!("'known_command {unknown}' answered '{}', not 'false'", shorten(&known)).into());
        }
    }
    let ours: BTreeSet<&str> =
        REQUIRED_COMMANDS.iter().chain(&TIME_COMMANDS).chain(EXTENSIONS.iter()).copied().collect();
    let others: Vec<&str> = listed.iter().map(String::as_str).filter(|c| !ours.contains(c)).collect();
    let others = if others.is_empty() { String::new() } else { format!("; commands of its own: {}", others.join(" ")) };
    let clock = if s.timed { " and the clock commands" } else { "" };
    Ok(format!("{} required commands{clock} listed and known, unknown names not{others}", REQUIRED_COMMANDS.len()))
}

/// Errors for bad input: each gets a `?` reply with protocol.md's opening words.
fn errors(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    let first = game.position().random_move(&mut s.rng, PlayoutPolicy::Uniform).ok_or("no first move")?;
    let mut cases: Vec<(String, &str)> = vec![
        ("frobnicate".into(), "unknown command"),
        ("Name".into(), "unknown command"),
        ("boardsize 8".into(), "unacceptable size"),
        ("boardsize x".into(), "syntax error"),
        ("known_command".into(), "syntax error"),
        ("komi abc".into(), "syntax error"),
        ("play red d4".into(), "syntax error"),
        ("play b".into(), "syntax error"),
        ("play b zz99".into(), "syntax error"),
        ("genmove".into(), "syntax error"),
        ("genmove red".into(), "syntax error"),
        ("time_settings a b c".into(), if s.timed { "syntax error" } else { "unknown command" }),
        ("time_left b x 0".into(), if s.timed { "syntax error" } else { "unknown command" }),
        (format!("play w {first}"), "illegal move"),
        ("genmove w".into(), "illegal move"),
        ("undo".into(), "cannot undo"),
        ("final_score".into(), "cannot score"),
    ];
    // A command the engine lacks is reported once, by `all-commands`.
    let lacking = |s: &Session, command: &str| {
        let verb = command.split_whitespace().next().unwrap_or_default();
        REQUIRED_COMMANDS.contains(&verb) && s.lacks(verb)
    };
    cases.retain(|(command, _)| !lacking(s, command));
    let mut wrong = Vec::new();
    for (command, prefix) in &cases {
        s.running()?;
        if let Err(e) = s.refused(command, prefix) {
            wrong.push(e.to_string());
        }
    }
    // A well-formed move that breaks a rule, in the play phase.
    s.new_game()?;
    s.play_into_play_phase(&mut game)?;
    let side = game.position().side_to_move();
    if let Some(illegal) = Session::illegal_move(game.position()) {
        let command = format!("play {side} {illegal}");
        if let Err(e) = s.refused(&command, "illegal move") {
            wrong.push(e.to_string());
        }
        cases.push((command, "illegal move"));
    }
    // `genmove` once the game is over.
    let mut game = s.new_game()?;
    s.play_random(&mut game, 10_000)?;
    if game.position().winner().is_some() {
        let command = format!("genmove {}", game.position().side_to_move());
        if let Err(e) = s.refused(&command, "") {
            wrong.push(format!("{e} (the game is over)"));
        }
        cases.push((command, ""));
    }
    match wrong.len() {
        0 => Ok(format!("{} bad commands refused with '?' and the right words", cases.len())),
        n => Err(format!("{n} of {} bad commands: {}", cases.len(), wrong.join("; ")).into()),
    }
}

/// State unchanged after errors: after a volley of refused commands the engine plays on
/// from the same position.
fn state_after_errors(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    s.play_into_play_phase(&mut game)?;
    let side = game.position().side_to_move();
    let mut bad = vec![
        "boardsize 8".to_string(),
        format!("genmove {}", !side),
        "play red d4".into(),
        "komi abc".into(),
        "time_settings a b c".into(),
        "final_score".into(),
        "frobnicate".into(),
    ];
    if let Some(mv) = game.position().random_move(&mut s.rng, PlayoutPolicy::Uniform) {
        bad.push(format!("play {} {mv}", !side));
    }
    if let Some(illegal) = Session::illegal_move(game.position()) {
        bad.push(format!("play {side} {illegal}"));
    }
    // Whether each is refused is the check `errors`'s: this one asks only whether the
    // state is the same after them.
    let mut accepted = Vec::new();
    for command in &bad {
        if let Reply { success: true, .. } = s.ask(command)? {
            accepted.push(command.as_str());
        }
    }
    let changed = |e: String| {
        let accepted = if accepted.is_empty() {
            String::new()
        } else {
            format!(" (accepted: '{}'; has one changed the state?)", accepted.join("', '"))
        };
        format!("after {} bad commands: {e}{accepted}", bad.len())
    };
    let mut seen = String::new();
    if s.offers("position") {
        let position = s.ok("position")?;
        if position != game.position().to_string() {
            return Err(
                changed(format!("'position' answers '{}', not '{}'", shorten(&position), game.position())).into()
            );
        }
        seen.push_str("position unchanged; ");
    }
    if s.timed {
        s.ok("time_settings 0 1 1")?;
    }
    // Only the move matters here: the time controls have checks of their own.
    let timeout = s.timeout().as_secs_f64();
    let (mv, _) = s.genmove(&mut game, timeout, false).map_err(|e| changed(e.to_string()))?;
    let mv = mv.map_or("resign".to_string(), |m| m.to_string());
    Ok(format!("{seen}after {} bad commands genmove plays {mv}, legal in the same position", bad.len()))
}

/// `undo` takes back the last move: the same side may then play another.
fn undo(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    s.play_into_play_phase(&mut game)?;
    let side = game.position().side_to_move();
    let before = game.position().clone();
    let first = before.random_move(&mut s.rng, PlayoutPolicy::Uniform).ok_or("no legal move")?;
    s.ok(&format!("play {side} {first}"))?;
    s.ok("undo")?;
    if s.offers("position") {
        let position = s.ok("position")?;
        if position != before.to_string() {
            return Err(format!("after 'undo' 'position' answers '{}', not '{before}'", shorten(&position)).into());
        }
    }
    // The same side is to move again: its move is accepted a second time.
    s.ok(&format!("play {side} {first}")).map_err(|e| format!("after 'undo': {e}"))?;
    Ok(format!("'play {side} {first}', 'undo', and the same move is accepted again"))
}

/// `genmove` in the setup turns of both sides (no time control set).
fn genmove_setup(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    let timeout = s.timeout().as_secs_f64();
    let mut moves = Vec::new();
    while game.position().phase() != Phase::Play && moves.len() < 3 {
        match s.genmove(&mut game, timeout, false)? {
            (Some(mv), _) => moves.push(mv.to_string()),
            (None, _) => return Err("resigned in a setup turn".into()),
        }
    }
    Ok(format!("setup turns {}", moves.join(" ")))
}

/// `reg_genmove` answers a legal move without playing it: the same side is still to move.
fn reg_genmove(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    if s.timed {
        s.ok("time_settings 0 0.5 1")?;
    }
    s.play_into_play_phase(&mut game)?;
    let side = game.position().side_to_move();
    let timeout = s.timeout().as_secs_f64();
    // The move is checked on a copy: the engine's game must not move on.
    let (mv, _) = s.generate("reg_genmove", &mut game.clone(), timeout, false)?;
    if s.offers("position") {
        let position = s.ok("position")?;
        if position != game.position().to_string() {
            return Err(format!(
                "after 'reg_genmove' 'position' answers '{}', not '{}'",
                shorten(&position),
                game.position()
            )
            .into());
        }
    }
    let next = game.position().random_move(&mut s.rng, PlayoutPolicy::Uniform).ok_or("no legal move")?;
    s.ok(&format!("play {side} {next}")).map_err(|e| format!("after 'reg_genmove {side}': {e}"))?;
    let mv = mv.map_or("resign".to_string(), |m| m.to_string());
    Ok(format!("'reg_genmove {side}' answers {mv} and {side} is still to move"))
}

/// A Fischer clock as the referee runs `--clock 1+0.5`: `time_settings 1 0 0`, then before
/// each of two moves `time_left` with the main time left, the second time with the
/// increment added (which GTP cannot announce otherwise); each move within the time left
/// plus the margin.
fn genmove_increment(s: &mut Session) -> Checked {
    let mut game = s.new_game()?;
    s.ok("time_settings 1 0 0")?;
    s.play_into_play_phase(&mut game)?;
    let color = game.position().side_to_move();
    let mut left = 1.0;
    let mut moves = Vec::new();
    for _ in 0..2 {
        if game.position().winner().is_some() {
            break;
        }
        s.ok(&format!("time_left {color} {left:.3} 0"))?;
        let (mv, took) = s.genmove(&mut game, left, true)?;
        let Some(mv) = mv else {
            moves.push("resign".to_string());
            break;
        };
        moves.push(format!("{mv} in {took:.2} s"));
        left = left - took + 0.5;
        s.play_random(&mut game, 1)?;
    }
    Ok(format!("'time_settings 1 0 0', 0.5 s added after each move: {}", moves.join(", ")))
}

/// `genmove` in the play phase under `time_settings`, with `left` = (seconds, stones)
/// sent by `time_left` before it (the move must come within those seconds plus the
/// margin), or no clock.
fn genmove_clock(s: &mut Session, settings: &str, left: Option<(f64, u32)>) -> Checked {
    let mut game = s.new_game()?;
    // An engine without clock commands is only asked the check without a clock, as is.
    let settings = if s.timed { settings } else { "no time_settings" };
    if s.timed {
        s.ok(settings)?;
    }
    s.play_into_play_phase(&mut game)?;
    if game.position().winner().is_some() {
        return Err("the random moves ended the game; try another --seed".into());
    }
    let color = game.position().side_to_move();
    let (allowed, clocked) = match left {
        Some((seconds, stones)) => {
            s.ok(&format!("time_left {color} {seconds} {stones}"))?;
            s.ok(&format!("time_left {} {seconds} {stones}", !color))?;
            (seconds, true)
        }
        None => (s.timeout().as_secs_f64(), false),
    };
    let (mv, took) = s.genmove(&mut game, allowed, clocked)?;
    let mv = mv.map_or("resign".to_string(), |m| m.to_string());
    let clock = match left {
        Some((seconds, stones)) => format!(" with 'time_left {color} {seconds} {stones}'"),
        None => String::new(),
    };
    Ok(format!("'{settings}'{clock}: {mv} in {took:.2} s"))
}

/// `final_score` at the end of a game agrees with the rules (its refusal before the end,
/// and `genmove`'s after it, are the check `errors`'s). Games are played until both colours
/// have won one (at most 12).
fn final_score(s: &mut Session) -> Checked {
    let mut winners = BTreeSet::new();
    let mut games = 0;
    while winners.len() < 2 && games < 12 {
        games += 1;
        let mut game = s.new_game()?;
        s.play_random(&mut game, 10_000)?;
        let winner = game.position().winner().ok_or("a random game did not end")?;
        let want = if winner == Color::Black { "B+" } else { "W+" };
        let said = s.ok("final_score")?;
        if !said.starts_with(want) {
            return Err(format!(
                "after {} turns won by {winner}, 'final_score' answered '{}'",
                game.moves().len(),
                shorten(&said)
            )
            .into());
        }
        winners.insert(want);
    }
    Ok(format!(
        "{games} random games to the end, final_score agrees ({})",
        winners.into_iter().collect::<Vec<_>>().join(" ")
    ))
}

/// A whole game of the engine against itself, refereed by the match's game runner.
fn whole_game(s: &mut Session) -> Checked {
    let command = s.engine.command_line().clone();
    let mut engines = [EngineClient::new(command.clone(), None), EngineClient::new(command, None)];
    let settings = GameSettings {
        time_controls: [TimeControl::MoveTime(s.settings.movetime()); 2],
        margin: s.settings.margin(),
        command_timeout: s.timeout(),
        stop: None,
        record_steps: false,
    };
    let (variant, rules) = (s.settings.variant(), s.settings.rules());
    let opening = Opening { start: None, moves: Vec::new(), variant, rules };
    let started = Instant::now();
    let played = play_game(&mut engines, &settings, 0, &opening, true);
    for engine in &mut engines {
        engine.quit(Duration::from_millis(500));
    }
    let result = veletas_rules::record::result_token(played.winner);
    let line = format!(
        "{result} {}, {} turns in {:.1} s at {} s a move",
        played.termination,
        played.game.moves().len(),
        started.elapsed().as_secs_f64(),
        s.settings.movetime()
    );
    match (played.termination, &played.disagreement) {
        (Termination::Normal | Termination::Resignation, None) => Ok(line),
        (Termination::Normal | Termination::Resignation, Some(d)) => Err(format!("{line}; final_score: {d}").into()),
        _ => Err(format!("{line}: {}", played.reason).into()),
    }
}

/// `quit` is answered and the engine exits with status 0; so it does at end of input.
fn quit(s: &mut Session) -> Checked {
    s.running()?;
    s.ok("quit")?;
    let wait = Duration::from_secs(2);
    let status = s.engine.process_mut().and_then(|p| p.wait_exit(wait));
    match status {
        Some(status) if status.success() => {}
        Some(status) => return Err(format!("after 'quit' the engine ended with {status}").into()),
        None => {
            s.engine.kill();
            return Err("the engine did not exit within 2 s of 'quit'".into());
        }
    }
    s.running()?;
    s.ok("protocol_version")?;
    let status = s.engine.process_mut().and_then(|p| {
        p.close_input();
        p.wait_exit(wait)
    });
    match status {
        Some(status) if status.success() => Ok("'quit' answered, exit 0; end of input, exit 0".into()),
        Some(status) => Err(format!("at end of input the engine ended with {status}").into()),
        None => {
            s.engine.kill();
            Err("the engine did not exit within 2 s of the end of its input".into())
        }
    }
}
