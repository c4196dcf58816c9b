//! Reports for people: one self-contained HTML page with the results of a field or a
//! match and its games in the viewer (`veletas ratings --format html`, `--report` of
//! `match` and `tournament`), and the live page of `--live` ([`live`]).
//!
//! Layering: this module sits on [`crate::ratings`] (the standings, never recomputed
//! here), [`crate::picture`] (the viewer and the boards) and the records; it knows
//! nothing of the referee, which calls it. `docs/pictures.md` describes the pages.

pub mod live;
pub mod standings;

use std::path::{Path, PathBuf};

use crate::output::FilesError;
use crate::picture::viewer::PageError;
use crate::picture::{viewer, write_output};
use crate::ratings::{RatingsSettings, Standings};
use veletas_rules::record::GameRecord;

pub use live::{LiveBoard, LiveGame};
pub use standings::{MatchPanel, standings_panel};

/// Why a page cannot be written where an option says ([`check_writable`]): one line
/// naming the option and the path, `--report PATH: ...`.
#[derive(Debug, thiserror::Error)]
#[error("{option} {}: {problem}", .path.display())]
pub struct NotWritable {
    option: String,
    path: PathBuf,
    #[source]
    problem: Unwritable,
}

/// What is wrong with a page's path ([`NotWritable`]).
#[derive(Debug, thiserror::Error)]
pub enum Unwritable {
    /// The path is a directory.
    #[error("is a directory")]
    Directory,
    /// The path has no file name (`..`, `/`).
    #[error("not a file name")]
    NoFileName,
    /// Its directory does not take a new file.
    #[error("cannot write in {}: {error}", .dir.display())]
    CannotCreate {
        /// The directory.
        dir: PathBuf,
        /// Why a file could not be created in it.
        #[source]
        error: std::io::Error,
    },
}

/// Checks, before any game is played, that a page can be written at `path`: its
/// directory exists and takes a new file, and `path` is not a directory. The error is
/// one line naming the option and the path.
pub fn check_writable(option: &str, path: &Path) -> Result<(), NotWritable> {
    let refused = |problem| NotWritable { option: option.to_string(), path: path.to_path_buf(), problem };
    if path.is_dir() {
        return Err(refused(Unwritable::Directory));
    }
    let file_name = path.file_name().ok_or_else(|| refused(Unwritable::NoFileName))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut probe = std::ffi::OsString::from(".");
    probe.push(file_name);
    probe.push(format!(".{}.probe", std::process::id()));
    let probe = dir.join(probe);
    match std::fs::File::create_new(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(error) => Err(refused(Unwritable::CannotCreate { dir, error })),
    }
}

/// The report page: `panel` (HTML from [`standings`]) as a tab beside every game of
/// `files` in the viewer.
pub fn page(files: &[(String, Vec<GameRecord>)], title: &str, panel: &str) -> Result<String, PageError> {
    let panel = [standings::STYLE, panel].concat();
    viewer::page_with_panel(files, Some(title), &panel)
}

/// The report of a field: its standings and its games.
pub fn field_page(
    standings: &Standings,
    files: &[(String, Vec<GameRecord>)],
    title: &str,
    lead: &str,
) -> Result<String, PageError> {
    page(files, title, &standings_panel(standings, lead))
}

/// `veletas ratings --format html`: the page of the standings of `args.files` and their
/// games, written to `args.output` (whole or not at all) or stdout.
pub fn ratings_html(args: &RatingsSettings) -> Result<(), FilesError> {
    let (standings, files) = crate::ratings::files::rate_files(args)?;
    let title = files
        .iter()
        .flat_map(|(_, records)| records.first())
        .find_map(|r| r.tag(veletas_rules::record::tag::EVENT))
        .unwrap_or("Veletas ratings")
        .to_string();
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let lead = format!("From {}.", names.join(", "));
    let html = field_page(&standings, &files, &title, &lead).map_err(|e| FilesError::Input(e.to_string()))?;
    Ok(write_output(args.output.as_deref(), html.as_bytes())?)
}
