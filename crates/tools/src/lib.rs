//! Veletas tools: the programs that drive engines through the protocol and show their games.
//!
//! They know the rules and the record format (the `veletas-rules` crate) but not the engine:
//! an engine is a process spoken to over GTP, ours or anyone's. [`referee`] plays engines
//! against each other (matches and tournaments), with [`stats`] for the arithmetic;
//! [`ratings`] rates a whole field of engines from their games; [`picture`] draws positions
//! (SVG) and games (an HTML viewer) from the rules and records; [`report`] puts standings
//! and games into one HTML page (and the live page of running games) from ratings and
//! pictures (JSON through serde_json; `picture::script_json` makes it safe inside a page's
//! `<script>`); [`check`] tests one
//! engine's compliance with the protocol; [`review`] has an engine analyse every position of
//! recorded games and writes them again with each turn's win rate, and [`marks`] says which
//! turns lost the most by those win rates; [`output`] writes output files whole, never
//! replacing a link, a device or an input; [`records`] reads record files for the readers,
//! skipping a truncated last game and repeated games.

pub mod book;
pub mod check;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod marks;
pub mod output;
pub mod picture;
pub mod ratings;
pub mod records;
pub mod referee;
pub mod report;
pub mod review;
pub mod stats;
