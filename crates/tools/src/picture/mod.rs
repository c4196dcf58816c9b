//! Pictures of games: one position as SVG ([`svg`]) and every game of record files in one
//! self-contained HTML page ([`viewer`]), for the `render` and `view` subcommands
//! ([`command`]).
//!
//! Built on the rules and the record format only: the rules library knows nothing of
//! pictures, and the protocol's `showboard` stays text.

pub mod command;
pub mod svg;
pub mod viewer;

use std::path::Path;

use veletas_rules::record::{GameRecord, parse_records};

/// Reads the games of a record file. Errors are one line naming the file (and the line
/// for a syntax error); a file holding no game is an error too.
pub fn read_record_file(path: &Path) -> Result<Vec<GameRecord>, String> {
    let name = path.display();
    let text = veletas_rules::record::read_record_file(path).map_err(|e| format!("{name}: {e}"))?;
    let games = parse_records(&text).map_err(|e| format!("{name}: {e}"))?;
    if games.is_empty() {
        return Err(format!("{name}: no games in the file"));
    }
    Ok(games)
}

pub use crate::output::write_output;
