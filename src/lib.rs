//! Veletas: the rules of the game, a searching engine, a GTP-style protocol and a match referee.
//!
//! Layers depend in one direction: [`rules`] knows nothing of the others; [`stats`] is
//! plain arithmetic for the referee; [`player`] chooses moves with the rules;
//! [`protocol`] speaks GTP to controllers through a player; [`cli`] is the program's
//! command line.

pub mod cli;
pub mod player;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod stats;
