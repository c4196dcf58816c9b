//! Learning from recorded games: the fits behind `veletas train-eval`, `train-policy` and
//! `train-net`, and the weights files they produce for the search ([`crate::search`] reads
//! them). docs/learning.md describes the whole pipeline.
//!
//! [`training_data`] reads the games every trainer learns from (bounded, numbered, held out
//! the same way); [`eval_trainer`] fits the learned evaluation's weights to the games'
//! outcomes; [`policy_fit`] fits the move policy to the root visits of self-play searches
//! (its samples' format and the fit), and [`policy_trainer`] feeds it the first steps that
//! records carry; [`net_trainer`] trains the value and policy networks; [`length_fit`] fits
//! the clock's game-length model; [`linear_solver`] solves the linear systems of the fits.

pub mod eval_trainer;
pub mod length_fit;
pub mod linear_solver;
pub mod net_trainer;
pub mod policy_fit;
pub mod policy_trainer;
pub mod training_data;
