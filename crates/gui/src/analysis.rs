//! An engine's view of a position, Lizzie-style, through the protocol's `analyze` (as
//! Leela Zero's `lz-analyze`): the candidate turns with their visits, win rates and
//! principal variations, shown on the board and beside it, and the win rate of each
//! position analysed in the game's win-rate graph.
//!
//! Two kinds run: the engine's thinking during its own turn, and an analysis asked for of
//! any position of the game. Either runs in an engine process of its own (not the game's),
//! so that it never disturbs a game's engine: the protocol's `genmove` reports nothing
//! while it searches, so the thinking shown during an engine's turn is that of a second
//! process of the same engine analysing the same position beside it. It streams reports,
//! each replacing the last, until the engine has moved (or the time asked for is over,
//! or the game has moved on). An engine without `analyze` answers `?`: the page shows it
//! once, the engine is not asked again in that game, and games still play.

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use veletas_rules::Game;
use veletas_tools::referee::engine::controller::{Setup, shorten};
use veletas_tools::referee::engine::{EngineClient, EngineCommand, Failure, Reply, STOPPED};

pub use crate::analysis_view::{AnalysisView, At, Kind, ReportedCandidate, TurnAnalysis};
use crate::session::{GameSession, Refusal, Settings, SharedGame, lock};

/// The longest an engine's thinking is shown for, in seconds (it stops at its move).
pub const THINKING_SECONDS: f64 = 600.0;

/// The most candidates kept from a report.
pub const MAX_CANDIDATES: usize = 8;

/// Starts an analysis by engine `engine` (an index into the settings' engines) of the
/// position after `turn` turns (the current one when `None`) and then the variation `line`
/// (its turns in notation; none for the game's own position) for `seconds`, in an engine
/// process of its own; its reports show up in the game's views (a variation's in its view
/// only: it is never the game's). An analysis of the current position stops once the game
/// moves on or ends; any stops when a newer one of its kind starts, turns are taken back or
/// the game is closed (checked at each report).
pub fn start(
    shared: &SharedGame,
    settings: &Arc<Settings>,
    engine: usize,
    seconds: f64,
    turn: Option<usize>,
    line: &[String],
    kind: Kind,
) -> Result<(), Refusal> {
    let spec = settings.engines.get(engine).ok_or_else(|| Refusal::Bad(format!("there is no engine {engine}")))?;
    if !(seconds.is_finite() && (0.1..=THINKING_SECONDS).contains(&seconds)) {
        return Err(Refusal::Bad(format!("the analysis lasts from 0.1 to {THINKING_SECONDS} seconds")));
    }
    let mut session = lock(shared);
    let turns = session.game.moves().len();
    let turn = turn.unwrap_or(turns);
    let game = crate::variation::play_out(&session.game_at(turn)?, line).map_err(|e| Refusal::Bad(e.0))?;
    let at = At { turn, line: game.moves().skip(turn).map(|m| m.to_string()).collect() };
    let live = turn == turns && at.line.is_empty();
    if game.position().winner().is_some() {
        return Err(Refusal::Conflict("the game is over in that position".into()));
    }
    if kind == Kind::Request && live && session.thinking {
        return Err(Refusal::Conflict("an engine is thinking: its thinking is shown".into()));
    }
    if session.cannot_analyse.contains(&engine) && kind == Kind::Thinking {
        return Ok(());
    }
    session.analysis_runs[kind.index()] += 1;
    let id = session.analysis_runs[kind.index()];
    let epoch = session.epoch;
    let view = AnalysisView {
        engine: spec.name.clone(),
        turn,
        running: true,
        thinking: kind == Kind::Thinking,
        ..Default::default()
    };
    session.set_analysis(at.clone(), TurnAnalysis { to_move: game.position().side_to_move(), view, run: (kind, id) });
    session.version += 1;
    session.analysers += 1;
    drop(session);
    let (shared, command, timeout) = (Arc::clone(shared), spec.command.clone(), settings.command_timeout);
    let duration = Duration::from_secs_f64(seconds);
    let current = move |session: &GameSession| {
        session.analysis_runs[kind.index()] == id
            && session.epoch == epoch
            && (!live || (session.game.moves().len() == turn && !session.is_over()))
    };
    let whose = at.clone();
    let mine = move |session: &GameSession| {
        session.epoch == epoch && session.analysis_at(&whose).is_some_and(|a| a.run == (kind, id))
    };
    let spawned = thread::Builder::new().name("analysis".into()).spawn(move || {
        // The thinking reports every 0.1 s (an engine's turn may be short), others every 0.25 s.
        let interval = if kind == Kind::Thinking { 10 } else { 25 };
        // Checked while the engine is waited for, so that even a silent engine is ended at
        // once when the game moves on, the analysis is stopped or the game is closed.
        let stop = || !current(&lock(&shared));
        let result = analyse(&command, &game, interval, duration, timeout, &stop, &mut |candidates| {
            let mut session = lock(&shared);
            if !current(&session) {
                return false;
            }
            if !mine(&session) {
                return true;
            }
            if let Some(analysis) = session.analysis_at_mut(&at) {
                analysis.view.candidates = candidates;
            }
            session.version += 1;
            true
        });
        let mut session = lock(&shared);
        session.analysers -= 1;
        if let Err((_, true)) = &result {
            session.cannot_analyse.insert(engine);
        }
        if mine(&session) {
            if let Some(analysis) = session.analysis_at_mut(&at) {
                analysis.view.running = false;
                analysis.view.error = result.err().map(|(message, _)| message);
            }
            session.version += 1;
        }
    });
    spawned.map(|_| ()).map_err(|e| Refusal::Conflict(format!("no thread for the analysis: {e}")))
}

/// Reads one report line of `analyze`: `info move M visits N winrate W order K ... pv M M ...`
/// entries, concatenated. Entries that do not parse are left out.
pub fn parse_report(line: &str) -> Vec<ReportedCandidate> {
    let mut candidates: Vec<(u64, ReportedCandidate)> = Vec::new();
    for entry in line.split("info ").map(str::trim).filter(|e| !e.is_empty()) {
        let words: Vec<&str> = entry.split_whitespace().collect();
        let value = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1)).copied();
        let (Some(mv), Some(visits), Some(winrate)) = (value("move"), value("visits"), value("winrate")) else {
            continue;
        };
        let (Ok(visits), Ok(winrate)) = (visits.parse::<u64>(), winrate.parse::<u32>()) else { continue };
        let order = value("order").and_then(|o| o.parse::<u64>().ok()).unwrap_or(u64::MAX);
        let pv = match words.iter().position(|w| *w == "pv") {
            Some(i) => words[i + 1..].iter().map(|w| w.to_string()).collect(),
            None => vec![mv.to_string()],
        };
        let candidate =
            ReportedCandidate { mv: mv.to_string(), visits, winrate: f64::from(winrate.min(10_000)) / 10_000.0, pv };
        candidates.push((order, candidate));
    }
    candidates.sort_by_key(|(order, _)| *order);
    candidates.into_iter().map(|(_, c)| c).take(MAX_CANDIDATES).collect()
}

/// Stops the analysis asked for, if one runs (the engine's thinking goes on).
pub fn stop(session: &mut GameSession) {
    session.analysis_runs[Kind::Request.index()] += 1;
    let variation = session.variation_analysis.as_mut().map(|(_, analysis)| analysis);
    for analysis in session.analyses.values_mut().chain(variation) {
        if analysis.view.running && !analysis.view.thinking {
            analysis.view.running = false;
        }
    }
    session.version += 1;
}

/// Runs `analyze` on `game`'s position with a fresh process of `command` for `duration`,
/// a report every `interval` centiseconds, calling `report` with every report; `report`
/// returns `false` to stop early. `stop` is asked while the engine is waited for: once it
/// says so, the engine is killed at once (a silent one too) and the analysis ends without
/// an error. An error says whether the engine answered `analyze` with `?` (it has none).
pub fn analyse(
    command: &EngineCommand,
    game: &Game,
    interval: u32,
    duration: std::time::Duration,
    timeout: std::time::Duration,
    stop: &dyn Fn() -> bool,
    report: &mut dyn FnMut(Vec<ReportedCandidate>) -> bool,
) -> Result<(), (String, bool)> {
    let mut engine = EngineClient::new(command.clone(), None);
    // Started, and set up on the position, as for a game (without its clock).
    let ready = engine.start(timeout).and_then(|_| engine.catch_up(&Setup::of_game(game, None), game, timeout));
    ready.map_err(|fault| (fault.to_string(), false))?;
    let result = engine.stream_until(&format!("analyze {interval}"), duration, timeout, stop, &mut |line| {
        let candidates = parse_report(line);
        candidates.is_empty() || report(candidates)
    });
    engine.quit(std::time::Duration::from_millis(500));
    match result {
        Ok(Reply { success: true, .. }) => Ok(()),
        Err(Failure::Exited(detail)) if detail == STOPPED => Ok(()),
        Ok(Reply { success: false, text }) => Err((format!("the engine cannot analyse: {}", shorten(&text)), true)),
        Err(Failure::Timeout) => Err(("the engine did not answer 'analyze' in time".into(), false)),
        Err(failure) => Err((format!("'analyze': {failure}"), false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_line_gives_the_candidates_in_order() {
        let line = "info move a7-a1/b1 visits 929 winrate 4421 order 1 pv a7-a1/b1 a1-a7/a6 \
                    info move a7-a1/a2 visits 27116 winrate 5875 order 0 memory 4 memory_limit 256 pv a7-a1/a2 d4-a7/b6";
        let candidates = parse_report(line);
        assert_eq!(candidates.len(), 2);
        assert_eq!(candidates[0].mv, "a7-a1/a2");
        assert_eq!(candidates[0].visits, 27116);
        assert!((candidates[0].winrate - 0.5875).abs() < 1e-9);
        assert_eq!(candidates[0].pv, ["a7-a1/a2", "d4-a7/b6"]);
        assert_eq!(candidates[1].pv, ["a7-a1/b1", "a1-a7/a6"]);
        assert!(parse_report("junk").is_empty());
        assert!(parse_report("info move x visits many winrate 1").is_empty());
    }
}
