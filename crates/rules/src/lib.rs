//! The rules of Veletas: board, moves, notation, claims, the rule sets and the game record
//! format. The bottom layer of the house: it knows nothing of search, protocol or tools, and
//! it is the crate another Rust program would use to build a Veletas tool.

mod bitboard;
mod color;
mod facts;
mod fen;
mod game;
mod lines;
mod movegen;
mod moves;
mod playout;
mod position;
pub mod record;
mod rng;
mod ruleset;
mod square;
mod variant;

pub use bitboard::{Bitboard, Squares, between, nearest_on_ray, off_fullest_ray, queen_reach};
pub use color::{Color, ParseColorError};
pub use fen::ParsePositionError;
pub use game::{Game, NothingToUndo};
pub use moves::{Move, ParseMoveError, Turn};
pub use playout::PlayoutPolicy;
pub use position::{IllegalMove, Phase, Piece, Position, group_of};
pub use rng::Rng;
pub use ruleset::{ParseRuleSetError, RuleSet, Rules, RulesError};
pub use square::{ParseSquareError, Square};
pub use variant::Variant;
