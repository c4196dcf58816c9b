//! Veletas: the rules of the game, a searching engine, a GTP-style protocol and a match referee.
//!
//! Layers depend in one direction: [`rules`] knows nothing of the others; [`search`]
//! chooses moves within plain limits (time, playouts, a stop flag); [`player`] runs the
//! search under the game's clock (GTP time controls); [`protocol`] speaks GTP to
//! controllers through a player; [`referee`] plays engines against each other through the
//! protocol, with [`stats`] for the arithmetic; [`ratings`] rates a whole field of engines
//! from their games; [`picture`] draws positions (SVG) and games (an HTML viewer) from the
//! rules and records; [`report`] puts standings and games into one HTML page (and the
//! live page of running games) from ratings and pictures; [`cli`] is the program's command line.

pub mod bench;
pub mod cli;
pub mod json;
pub mod learn;
pub mod picture;
pub mod player;
pub mod protocol;
pub mod ratings;
pub mod record;
pub mod referee;
pub mod report;
pub mod rules;
pub mod search;
pub mod stats;
