//! What makes a match a match and a tournament a tournament, as the runner sees it: the
//! [`Competition`] each of them implements (its records, lines, live page and resume checks).

use std::time::Duration;

use super::field::Field;
use super::mismatch::{EnginesMismatch, PlaceError};
use super::result::{GameResult, ScheduledGame};
use crate::referee::game::PlayedGame;
use veletas_rules::record::GameRecord;

/// What makes a match a match and a tournament a tournament: everything the runner
/// prints or writes about a game, and how a recorded game is checked.
pub(crate) trait Competition {
    /// Counts a result (resumed or new), before it is printed.
    fn add(&mut self, result: &GameResult);
    /// The record of a played game.
    fn record(&self, field: &Field, scheduled: &ScheduledGame, played: &PlayedGame, date: &str) -> GameRecord;
    /// The line printed for a finished game.
    fn game_line(&self, field: &Field, scheduled: &ScheduledGame, played: &PlayedGame) -> String;
    /// The label of a running game on the live page.
    fn live_label(&self, scheduled: &ScheduledGame) -> String;
    /// The progress line (on a terminal): games done of `planned`, the score, the ETA.
    fn progress_line(&self, field: &Field, results: &[GameResult], planned: usize, eta: Option<Duration>) -> String;
    /// The live page's status line while games run.
    fn live_status(&self, field: &Field, results: &[GameResult], planned: usize) -> String {
        let _ = field;
        format!("{} of {planned} games played", results.len())
    }
    /// The live page's panel: the standings so far (HTML).
    fn live_panel(&self, field: &Field, results: &[GameResult]) -> String;
    /// The standings so far as text, for `--rating-interval` and an interruption.
    fn standings(&self, field: &Field, results: &[GameResult], planned: usize) -> String;
    /// Whether the games so far decide the competition (an SPRT): no more are started.
    fn decided(&self) -> bool {
        false
    }
    /// Checks that a recorded game names the engines this run has as Black and White
    /// (`black`, `white`, after a recorded swap) the way this competition's records do.
    fn check_engines(
        &self,
        field: &Field,
        game: &GameRecord,
        black: usize,
        white: usize,
    ) -> Result<(), EnginesMismatch>;
    /// Checks what else fixes a recorded game's place in this run (a tournament: the
    /// schedule it was recorded under, the time controls).
    fn check_place(&self, field: &Field, game: &GameRecord, scheduled: &ScheduledGame) -> Result<(), PlaceError> {
        let _ = (field, game, scheduled);
        Ok(())
    }
    /// What a record file of another competition is called in errors ("match", ...).
    fn noun(&self) -> &'static str;
    /// How errors name a scheduled game (`round 3` in a match, `game 3` in a tournament).
    fn identity(&self, scheduled: &ScheduledGame) -> String {
        format!("game {}", scheduled.id)
    }
}
