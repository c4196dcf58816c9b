//! The Veletas engine: the layers between the rules and the outside world.
//!
//! Layers depend in one direction: [`search`] chooses moves within plain limits (time,
//! playouts, a stop flag) using the rules (the `veletas-rules` crate); [`player`] runs the
//! search under the game's clock (GTP time controls); [`protocol`] speaks GTP to controllers
//! through a player. [`learn`] fits the learned evaluation's weights from recorded games,
//! [`learn_policy`] the move policy's from the root visits of self-play searches
//! ([`train_policy`] reads them from records), both from the games [`training`] reads, and
//! [`bench`](mod@bench) measures the rules' and the search's speed; [`linear`] solves the
//! linear systems of their fits.

pub mod bench;
pub mod fuzzing;
pub mod learn;
pub mod learn_policy;
pub mod linear;
pub mod net;
pub mod player;
pub mod protocol;
pub mod search;
pub mod train_net;
pub mod train_policy;
pub mod training;
