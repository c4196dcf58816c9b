//! A game: a position plus the history needed to undo and to write records.

use crate::moves::Move;
use crate::position::{IllegalMove, Position};
use crate::variant::Variant;

/// `undo` with no turn to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no move to undo")]
pub struct NothingToUndo;

/// A game in progress: where it started, the moves played, and the current position.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    history: Vec<(Position, Move)>,
}

impl Game {
    /// A new game of `variant` from the empty board.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::new(variant))
    }

    /// A game starting from `position`, with no history.
    pub fn from_position(position: Position) -> Game {
        Game { start: position.clone(), position, history: Vec::new() }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|(_, mv)| *mv)
    }

    /// Plays `mv` if it is legal; otherwise nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let mut next = self.position.clone();
        next.play(mv)?;
        let before = std::mem::replace(&mut self.position, next);
        self.history.push((before, mv));
        Ok(())
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Result<Move, NothingToUndo> {
        let (before, mv) = self.history.pop().ok_or(NothingToUndo)?;
        self.position = before;
        Ok(mv)
    }
}
