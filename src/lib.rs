//! Veletas: the rules of the game, a searching engine, a GTP-style protocol and the tools
//! that pit engines against each other.
//!
//! The house is a workspace whose crates are its layers, so the compiler checks the arrows:
//! `veletas-rules` (crates/rules: board, moves, notation, rule sets, records) knows nothing
//! of the others; `veletas-engine` (crates/engine: search, players, the protocol) uses the
//! rules; `veletas-tools` (crates/tools: referee, tournaments, ratings, reports, pictures)
//! uses the rules and drives engines as processes through the protocol; this crate is the
//! `veletas` program's command line ([`cli`]), which wires them, and `main.rs` only starts it.
//! The program and its tests import each layer by its own name (`veletas_rules`,
//! `veletas_engine`, `veletas_tools`, `veletas_gui`).

pub mod cli;
