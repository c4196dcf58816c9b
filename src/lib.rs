//! Veletas: the rules of the game, a searching engine, a GTP-style protocol and a match referee.
//!
//! Layers depend in one direction: [`rules`] knows nothing of the others; [`stats`] is
//! plain arithmetic for the [`referee`], which plays engines against each other.

pub mod referee;
pub mod rules;
pub mod stats;
