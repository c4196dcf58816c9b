//! Analysis on request: an engine's view of a position, Lizzie-style, through the
//! protocol's `analyze` (as Leela Zero's `lz-analyze`): the candidate turns with their
//! visits, win rates and principal variations, shown on the board and beside it.
//!
//! The analysis runs in an engine process of its own (not the game's), so that it never
//! disturbs a game's engine; it streams reports for a few seconds, each replacing the last,
//! and stops early once the game has moved on. An engine without `analyze` answers `?`,
//! which the page shows; games still play.

use serde::Serialize;
use veletas_rules::{Game, Move, Position, RuleSet};
use veletas_tools::referee::engine::{Engine, EngineCommand, Failure, Reply};

/// The most candidates kept from a report.
pub const MAX_CANDIDATES: usize = 8;

/// One candidate turn of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The turn, in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The playouts through it.
    pub visits: u64,
    /// The chance that the side to move wins after it, from 0 to 1.
    pub winrate: f64,
    /// The principal variation, starting with the turn.
    pub pv: Vec<String>,
}

/// The latest view of the analysis of one position.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AnalysisView {
    /// The engine analysing.
    pub engine: String,
    /// The number of turns of the game analysed (its position).
    pub turn: usize,
    /// Whether the engine is still analysing.
    pub running: bool,
    /// The candidates, best first.
    pub candidates: Vec<Candidate>,
    /// Why the analysis failed or stopped early, if it did.
    pub error: Option<String>,
}

/// Reads one report line of `analyze`: `info move M visits N winrate W order K ... pv M M ...`
/// entries, concatenated. Entries that do not parse are left out.
pub fn parse_report(line: &str) -> Vec<Candidate> {
    let mut candidates: Vec<(u64, Candidate)> = Vec::new();
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
            Candidate { mv: mv.to_string(), visits, winrate: f64::from(winrate.min(10_000)) / 10_000.0, pv };
        candidates.push((order, candidate));
    }
    candidates.sort_by_key(|(order, _)| *order);
    candidates.into_iter().map(|(_, c)| c).take(MAX_CANDIDATES).collect()
}

/// Sets `engine` up on `game`'s position: size, rules, start position and moves.
pub fn set_up(engine: &mut Engine, game: &Game, timeout: std::time::Duration) -> Result<(), String> {
    let mut ask = |command: String| match engine.command(&command, timeout) {
        Ok(Reply { success: true, .. }) => Ok(()),
        Ok(Reply { success: false, text }) => Err(format!("'{command}' was refused: {text}")),
        Err(failure) => Err(format!("'{command}': {failure}")),
    };
    let start = game.start();
    ask(format!("boardsize {}", start.variant().size()))?;
    if start.rules().set != RuleSet::Classic {
        ask(format!("rules {}", start.rules().set))?;
    }
    if start.rules().no_corners {
        ask("option no-corners on".into())?;
    }
    if start.rules().claimed_block() {
        ask("option claimed-block on".into())?;
    }
    ask("clear_board".into())?;
    if *start != Position::with_rules(start.variant(), start.rules()) {
        ask(format!("set_position {start}"))?;
    }
    let mut replay = Game::from_position(start.clone());
    let moves: Vec<Move> = game.moves().collect();
    for mv in moves {
        ask(format!("play {} {mv}", replay.position().side_to_move()))?;
        let _ = replay.play(mv);
    }
    Ok(())
}

/// Runs `analyze` on `game`'s position with a fresh process of `command` for `duration`,
/// calling `report` with every report; `report` returns `false` to stop early.
pub fn analyse(
    command: &EngineCommand,
    game: &Game,
    duration: std::time::Duration,
    timeout: std::time::Duration,
    report: &mut dyn FnMut(Vec<Candidate>) -> bool,
) -> Result<(), String> {
    let mut engine = Engine::new(command.clone(), None);
    engine.ensure_running().map_err(|e| format!("could not be started: {e}"))?;
    set_up(&mut engine, game, timeout)?;
    let result = engine.stream("analyze 25", duration, timeout, &mut |line| {
        let candidates = parse_report(line);
        candidates.is_empty() || report(candidates)
    });
    engine.quit(std::time::Duration::from_millis(500));
    match result {
        Ok(Reply { success: true, .. }) => Ok(()),
        Ok(Reply { success: false, text }) => Err(format!("the engine cannot analyse: {text}")),
        Err(Failure::Timeout) => Err("the engine did not answer 'analyze' in time".into()),
        Err(failure) => Err(format!("'analyze': {failure}")),
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
