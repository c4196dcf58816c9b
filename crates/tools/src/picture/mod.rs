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

use veletas_rules::record::ReadGamesError;

/// A record file's read error as the pictures' commands give it: one line naming the file
/// (and the line for a syntax error).
pub fn read_error(name: &str, error: ReadGamesError) -> String {
    match error {
        ReadGamesError::File(e) => format!("{name}: {e}"),
        ReadGamesError::Syntax(e) => format!("{name}: {e}"),
    }
}

pub use crate::output::write_output;
