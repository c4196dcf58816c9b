//! Moves, and what the position answers: `play`, `undo`, `is_legal`, `legal_moves`,
//! `final_score`, the position as a diagram (`showboard`) or a string (`position`), and
//! `perft`.

use crate::protocol::board::diagram;
use crate::protocol::engine::Engine;
use crate::protocol::error::CommandError;
use veletas_rules::{Color, Move};

/// The most moves `legal_moves` lists (the classic setups, 720,731 at most, fit; modern
/// 10x10 setups, millions, do not).
pub const MAX_LISTED_MOVES: u64 = 1_000_000;

impl Engine {
    /// `play COLOR MOVE`: plays `color`'s move, if that side is to move and it is legal.
    pub(crate) fn play(&mut self, color: Color, text: String) -> Result<String, CommandError> {
        let mv = self.parse_move(&text)?;
        let shown = mv.to_string();
        if let Err(reason) = self.check_turn(color) {
            return Err(CommandError::PlayOutOfTurn { shown, reason });
        }
        if let Err(reason) = self.position().check_move(mv) {
            return Err(CommandError::Illegal { shown, reason });
        }
        self.play_checked(mv)?;
        Ok(String::new())
    }

    /// `undo`: takes back the last move.
    pub(crate) fn undo(&mut self) -> Result<String, CommandError> {
        self.game.undo().map_err(|_| CommandError::NothingToUndo)?;
        Ok(String::new())
    }

    /// `showboard`: a diagram of the position.
    pub(crate) fn showboard(&mut self) -> Result<String, CommandError> {
        Ok(diagram(self.position()))
    }

    /// `position`: the position string.
    pub(crate) fn position_string(&mut self) -> Result<String, CommandError> {
        Ok(self.position().to_string())
    }

    /// `final_score`: the winner, once the game is over.
    pub(crate) fn final_score(&mut self) -> Result<String, CommandError> {
        match self.position().winner() {
            Some(Color::Black) => Ok("B+".to_string()),
            Some(Color::White) => Ok("W+".to_string()),
            None => Err(CommandError::NotOver),
        }
    }

    /// `legal_moves`: every legal move, up to [`MAX_LISTED_MOVES`] of them.
    pub(crate) fn legal_moves(&mut self) -> Result<String, CommandError> {
        let count = self.position().count_legal_moves();
        if count > MAX_LISTED_MOVES {
            return Err(CommandError::TooManyMoves { count, most: MAX_LISTED_MOVES });
        }
        Ok(self.position().legal_moves().iter().map(Move::to_string).collect::<Vec<_>>().join(" "))
    }

    /// `is_legal COLOR MOVE`: whether `color` is to move and the move is legal.
    pub(crate) fn is_legal(&mut self, color: Color, text: String) -> Result<String, CommandError> {
        let mv = self.parse_move(&text)?;
        Ok((color == self.position().side_to_move() && self.position().is_legal(mv)).to_string())
    }

    /// `perft DEPTH THREADS`: the number of move sequences of `depth` moves.
    pub(crate) fn perft(&mut self, depth: u32, threads: u32) -> Result<String, CommandError> {
        Ok(self.position().perft_threads(depth, threads as usize).to_string())
    }
}
