//! Veletas: the rules of the game, a searching engine, a GTP-style protocol and a match referee.

pub mod stats;
