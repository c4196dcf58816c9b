//! The rules of Veletas: board, moves, notation, claims, the rule sets and the game record
//! format. The bottom layer of the house: it knows nothing of search, protocol or tools, and
//! it is the crate another Rust program would use to build a Veletas tool.
//!
//! A [`Position`] is reachable by construction: it starts empty ([`Position::new`],
//! [`Position::with_rules`]) or is read from its position string, and changes only by
//! legal moves. Moves are read in the project's notation, checked, and played:
//!
//! ```
//! use veletas_rules::{Color, Phase, Position, Variant};
//!
//! let mut position = Position::new(Variant::from_size(7).expect("7x7 is a variant"));
//! assert_eq!(position.phase(), Phase::BlackSetup);
//! // The classic 7x7 setup: Black places one shooter, White two.
//! for text in ["d4", "b2,f6"] {
//!     let mv = position.parse_move(text)?;
//!     position.play(mv)?;
//! }
//! assert_eq!(position.phase(), Phase::Play);
//! assert_eq!(position.side_to_move(), Color::Black);
//! // A turn: a shooter moves like a queen (or stays: `-`), then shoots a stone.
//! let turn = position.parse_move("d4-d6/d5")?;
//! position.play(turn)?;
//! assert!(position.stones(Color::Black).contains("d5".parse()?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Illegal moves are refused with the reason, and the position stays as it was:
//!
//! ```
//! use veletas_rules::{IllegalMove, Position, Variant};
//!
//! let mut position = Position::new(Variant::STANDARD);
//! let before = position.clone();
//! let mv = position.parse_move("e5-e7/e6")?; // a turn in the setup
//! assert!(position.play(mv).is_err());
//! assert_eq!(position, before);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Move generation, perft and random playouts serve engines and tests alike:
//!
//! ```
//! use veletas_rules::{Position, Variant};
//!
//! let start = Position::new(Variant::from_size(7).expect("7x7"));
//! assert_eq!(start.legal_moves().len() as u64, start.perft(1));
//! ```
//!
//! A [`Game`] keeps the history for undo, and [`record`] reads and writes game records
//! (docs/records.md), replaying them through the same checked moves:
//!
//! ```
//! use veletas_rules::record::parse_records;
//!
//! let text = "[Size \"7\"]\n[Result \"*\"]\n\n1. d4 b2,f6 2. d4-d6/d5 *\n";
//! let records = parse_records(text)?;
//! let game = records[0].replay(None)?;
//! assert_eq!(game.moves().count(), 3);
//! assert_eq!(game.position().to_string(), records[0].position_after(None)?.to_string());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod color;
mod facts;
mod fen;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod game;
mod line_layout;
mod lines;
mod movegen;
mod moves;
mod playout;
mod position;
mod quoted;
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
pub use quoted::{MAX_QUOTED, is_bidirectional_control, quoted, quoted_to};
pub use rng::Rng;
pub use ruleset::{ParseRuleSetError, RuleSet, Rules, RulesError};
pub use square::{ParseSquareError, Square};
pub use variant::Variant;
