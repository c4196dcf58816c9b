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

pub use html::{PageDataError, html_escape, script_json};

use veletas_rules::record::ReadGamesError;

/// A record file's read error as the pictures' commands give it: one line naming the file
/// (and the line for a syntax error), `NAME: ...`.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {error}")]
pub struct RecordFileError {
    name: String,
    #[source]
    error: ReadGamesError,
}

/// The [`RecordFileError`] of the file `name`.
pub fn read_error(name: &str, error: ReadGamesError) -> RecordFileError {
    RecordFileError { name: name.to_string(), error }
}

pub use crate::output::write_output;
