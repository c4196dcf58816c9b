//! The Veletas engine: the layers between the rules and the outside world.
//!
//! Layers depend in one direction: [`search`] chooses moves within plain limits (time,
//! playouts, a stop flag) using the rules (the `veletas-rules` crate); [`player`] runs the
//! search under the game's clock (GTP time controls); [`protocol`] speaks GTP to controllers
//! through a player. [`learning`] fits the evaluation's, the move policy's and the
//! networks' weights from recorded games, and [`bench`](mod@bench) measures the rules' and
//! the search's speed.

pub mod bench;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod learning;
pub mod net;
pub mod player;
pub mod protocol;
pub mod search;
