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

pub use html::html_escape;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

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

/// Writes `bytes` to `path` whole or not at all: to a temporary file in the same
/// directory, then renamed over `path`. Without a path, writes to stdout.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    let Some(path) = path else {
        let mut out = std::io::stdout().lock();
        return match out.write_all(bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
            _ => Ok(()),
        };
    };
    let name = path.display();
    if path.is_dir() {
        return Err(format!("{name}: is a directory"));
    }
    let file_name = path.file_name().ok_or_else(|| format!("{name}: not a file name"))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp: PathBuf = path.with_file_name(temp_name);
    let written = fs::File::create_new(&temp)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = fs::remove_file(&temp);
        format!("{name}: cannot write: {e}")
    })
}
