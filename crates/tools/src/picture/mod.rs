//! Pictures of games: one position as SVG ([`svg`]) and every game of record files in one
//! self-contained HTML page ([`viewer`]), for the `render` and `view` subcommands
//! ([`command`]).
//!
//! Built on the rules and the record format only: the rules library knows nothing of
//! pictures, and the protocol's `showboard` stays text.

pub mod command;
mod html;
pub mod svg;
pub mod viewer;

pub use html::{html_escape, script_json};

use std::path::Path;

use veletas_rules::record::{GameRecord, ReadGamesError};

/// Reads the games of a record file. Errors are one line naming the file (and the line
/// for a syntax error); a file holding no game is an error too. A last game cut short by
/// an interrupted write is skipped with a warning on stderr.
pub fn read_record_file(path: &Path) -> Result<Vec<GameRecord>, String> {
    let name = path.display();
    let (games, warning) = crate::records::read_complete(path).map_err(|e| match e {
        ReadGamesError::File(e) => format!("{name}: {e}"),
        ReadGamesError::Syntax(e) => format!("{name}: {e}"),
    })?;
    if let Some(warning) = warning {
        crate::records::warn(&warning);
    }
    if games.is_empty() {
        return Err(format!("{name}: no games in the file"));
    }
    Ok(games)
}

pub use crate::output::write_output;
