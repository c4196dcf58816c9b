//! The engine's state, and the checks its commands share.
//!
//! Each command's handler is a method of [`Engine`] in the room of its concern: `setup`
//! (the game, its variant, rules and position), `moves` (moves and what the position
//! answers), `generate` (moves chosen by the player, and `solve`), `clock` (the time
//! control), `settings` (the player's settings) and `weights` (evaluation and policy
//! files). [`crate::protocol::command`] declares the commands and dispatches
//! ([`Engine::execute`]). Every command either succeeds, with a result text, or fails with
//! a [`CommandError`] and leaves the state exactly as it was: handlers check everything
//! before they change anything.

mod clock;
mod generate;
mod moves;
mod settings;
mod setup;
mod weights;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::player::{GtpClock, Player};
use crate::protocol::error::{CommandError, TurnError};
use crate::search::SearchResult;
use veletas_rules::{Color, Game, Move, Phase, Position, Rules, Variant};

/// What a successful command asks of the loop besides replying.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Reply, then end the session.
    Quit,
}

/// The engine: the game in progress, the time control and the player choosing moves.
pub struct Engine {
    game: Game,
    clock: GtpClock,
    komi: f64,
    player: Box<dyn Player>,
    /// Search on the opponent's turn while idle (`ponder`, `--ponder`).
    ponder: bool,
    /// The colour of the engine's last `genmove` in this game: the other one is the
    /// opponent, on whose turn it ponders.
    own: Option<Color>,
}

/// The result of a command: the reply text and what to do next, or why it was refused.
pub type Outcome = Result<(String, Flow), CommandError>;

/// What a handler replies: a text (the session goes on), or a text and what to do next.
pub(crate) trait IntoReply {
    /// The reply's text and what to do next.
    fn into_reply(self) -> (String, Flow);
}

impl IntoReply for String {
    fn into_reply(self) -> (String, Flow) {
        (self, Flow::Continue)
    }
}

impl IntoReply for (String, Flow) {
    fn into_reply(self) -> (String, Flow) {
        self
    }
}

impl Engine {
    /// An engine at the empty board of `variant` (classic rules), with `player`
    /// choosing its moves.
    pub fn new(variant: Variant, player: Box<dyn Player>) -> Engine {
        Engine::from_position(Position::new(variant), player)
    }

    /// An engine whose first game starts at `position` (its variant and rules stay in
    /// force for `clear_board` and `boardsize`), with `player` choosing its moves.
    pub fn from_position(position: Position, player: Box<dyn Player>) -> Engine {
        Engine {
            game: Game::from_position(position),
            clock: GtpClock::default(),
            komi: 0.0,
            player,
            ponder: false,
            own: None,
        }
    }

    /// Turns pondering on or off (as the `ponder` command does; off by default).
    pub fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
    }

    /// Whether pondering is on.
    pub fn ponder_enabled(&self) -> bool {
        self.ponder
    }

    /// Whether the engine should ponder while it waits for the next command: pondering
    /// is on, the game is in play (past the setup turns) and not over, and the side to move
    /// is the opponent, that is not the colour of the engine's last `genmove` in this game.
    pub fn should_ponder(&self) -> bool {
        let pos = self.position();
        self.ponder
            && !pos.is_over()
            && pos.phase() == Phase::Play
            && self.own.is_some_and(|own| own != pos.side_to_move())
    }

    /// Lets the player search the opponent's turn until `stop` is raised (see
    /// [`Player::ponder`]), when [`Engine::should_ponder`]; returns the playouts run.
    pub fn ponder(&mut self, stop: &Arc<AtomicBool>) -> u64 {
        if self.should_ponder() { self.player.ponder(&self.game, stop) } else { 0 }
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The time control and clocks as last announced.
    pub fn clock(&self) -> &GtpClock {
        &self.clock
    }

    /// The komi last announced (ignored by the rules).
    pub fn komi(&self) -> f64 {
        self.komi
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// Starts a new game on the empty board of the variant in force under `rules`.
    fn start_new_game(&mut self, rules: Rules) {
        self.new_game(Game::from_position(Position::with_rules(self.position().variant(), rules)));
    }

    fn new_game(&mut self, game: Game) {
        self.game = game;
        self.own = None;
        self.player.new_game();
    }

    /// Whether an analysis can start: the game must go on.
    pub fn can_analyze(&self) -> Result<(), CommandError> {
        if self.position().is_over() { Err(CommandError::AnalyzeOver) } else { Ok(()) }
    }

    /// Lets the player analyse the current position until `stop` is raised (see
    /// [`Player::analyze`]); the caller checked [`Engine::can_analyze`].
    pub fn analyze(&mut self, interval: Duration, stop: &Arc<AtomicBool>, report: &mut dyn FnMut(&SearchResult)) {
        if self.can_analyze().is_ok() {
            self.player.analyze(&self.game, interval, stop, report);
        }
    }

    /// Reads `text` as a move in the current position.
    fn parse_move(&self, text: &str) -> Result<Move, CommandError> {
        self.position().parse_move(text).map_err(CommandError::MoveSyntax)
    }

    /// Plays `mv`, which the caller checked (the rules check it again).
    fn play_checked(&mut self, mv: Move) -> Result<(), CommandError> {
        self.game.play(mv).map_err(|reason| CommandError::Illegal { shown: mv.to_string(), reason })
    }

    /// Checks that the game goes on and that `color` is to move.
    fn check_turn(&self, color: Color) -> Result<(), TurnError> {
        if self.position().is_over() {
            return Err(TurnError::GameOver);
        }
        let side = self.position().side_to_move();
        if color != side {
            return Err(TurnError::NotToMove(side));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::RandomPlayer;
    use crate::protocol::command::Command;

    fn engine() -> Engine {
        Engine::new(Variant::from_size(7).unwrap(), Box::new(RandomPlayer::new(1)))
    }

    /// The reply to `command`, its error as the `?` reply's text.
    fn reply(e: &mut Engine, command: Command) -> Result<(String, Flow), String> {
        e.execute(command).map_err(|error| error.to_string())
    }

    #[test]
    fn play_checks_side_and_legality() {
        let mut e = engine();
        assert_eq!(
            reply(&mut e, Command::Play(Color::White, "d4".into())),
            Err("illegal move: d4: it is black's turn".into())
        );
        assert_eq!(reply(&mut e, Command::Play(Color::Black, "D4".into())), Ok((String::new(), Flow::Continue)));
        assert_eq!(
            reply(&mut e, Command::Play(Color::White, "d5,a1".into())),
            Err("illegal move: a1,d5: shooters on d4 and d5 would be adjacent".into())
        );
    }

    #[test]
    fn boardsize_rejects_other_sizes() {
        let mut e = engine();
        assert!(matches!(e.execute(Command::BoardSize(8)), Err(CommandError::UnacceptableSize)));
        assert_eq!(reply(&mut e, Command::BoardSize(u32::MAX)), Err("unacceptable size".into()));
        assert_eq!(e.game().position().variant().size(), 7);
    }

    #[test]
    fn the_increment_is_learned_from_the_time_left_after_our_move() {
        let mut e = engine();
        e.execute(Command::TimeSettings { main_time: 2.0, byo_yomi: 0.0, stones: 0 }).unwrap();
        e.execute(Command::TimeLeft { color: Color::Black, seconds: 2.0, stones: 0 }).unwrap();
        e.execute(Command::Genmove(Color::Black)).unwrap();
        let ours = e.clock().charged[Color::Black.index()].expect("our account of the clock after the move");
        assert!(ours <= 2.0);
        // The controller adds a 0.25 s increment to what we spent (the exact value is ours).
        e.execute(Command::TimeLeft { color: Color::Black, seconds: ours + 0.25, stones: 0 }).unwrap();
        assert!((e.clock().increment - 0.25).abs() < 1e-9, "{}", e.clock().increment);
        // A new time control forgets it.
        e.execute(Command::TimeSettings { main_time: 2.0, byo_yomi: 0.0, stones: 0 }).unwrap();
        assert_eq!(e.clock().increment, 0.0);
    }
}
