//! The `render` and `view` subcommands: their settings and what they do.

use std::path::PathBuf;

use crate::output::write_output_with;
use crate::output::{FilesError, check_not_input};
use crate::picture::svg::{self, SvgOptions};
use crate::picture::viewer::PageError;
use crate::picture::{RecordFileError, read_error, viewer, write_output};
use veletas_rules::Position;

/// What `veletas render` draws (the command line's `RenderArgs` become these).
#[derive(Clone, Debug, PartialEq)]
pub struct RenderSettings {
    /// The position string, in one or several words; unused with `record`.
    pub position: Vec<String>,
    /// A record file: draws a position of one of its games, with the turn that led to it.
    pub record: Option<PathBuf>,
    /// The game of the record file, from 1.
    pub game: usize,
    /// The number of turns played (0: the start; `None`: the end of the game).
    pub turn: Option<usize>,
    /// The picture's width in pixels.
    pub size: u32,
    /// Leave out the file letters and rank numbers.
    pub no_coordinates: bool,
    /// Leave out the status band below the board.
    pub no_status: bool,
    /// Write the picture to this file (whole or not at all) instead of stdout.
    pub output: Option<PathBuf>,
}

/// What `veletas view` shows (the command line's `ViewArgs` become these).
#[derive(Clone, Debug, PartialEq)]
pub struct ViewSettings {
    /// Record files.
    pub files: Vec<PathBuf>,
    /// The page's title (default: the first game's Event tag).
    pub title: Option<String>,
    /// Write the page to this file (whole or not at all) instead of stdout.
    pub output: Option<PathBuf>,
}

/// Draws the position `args` names.
pub fn render(args: &RenderSettings) -> Result<(), FilesError> {
    if let (Some(output), Some(record)) = (&args.output, &args.record) {
        check_not_input(("-o", output), &[("--record", record)])?;
    }
    let options = SvgOptions { width: args.size, coordinates: !args.no_coordinates, status: !args.no_status };
    let picture = match &args.record {
        None => {
            let text = args.position.join(" ");
            let position: Position = text.parse().map_err(|e| {
                FilesError::Options(format!("invalid position '{}': {e}", veletas_rules::quoted(&text)))
            })?;
            svg::render(&position, None, &options)
        }
        Some(path) => {
            // Only the game asked for is kept.
            let name = path.display();
            let input = FilesError::Input;
            let (mut kept, mut count) = (None, 0);
            crate::records::read_each(path, |number, game| {
                count = number;
                if number == args.game {
                    kept = Some(game);
                }
            })
            .map_err(|e| input(read_error(&name.to_string(), e).to_string()))?;
            if count == 0 {
                return Err(input(format!("{name}: no games in the file")));
            }
            let record = match &kept {
                Some(record) => record,
                None => return Err(input(format!("{name}: no game {} (the file holds {count})", args.game))),
            };
            let game = record.replay(args.turn).map_err(|e| input(format!("{name}: game {}: {e}", args.game)))?;
            let last = game.moves().last();
            svg::render(game.position(), last.as_ref(), &options)
        }
    };
    Ok(write_output(args.output.as_deref(), picture.as_bytes())?)
}

/// Writes the viewer page of the games of `args.files`, each game as it is read (the
/// memory is the page's table of strings, not its games).
pub fn view(args: &ViewSettings) -> Result<(), FilesError> {
    if let Some(output) = &args.output {
        let inputs: Vec<(&str, &std::path::Path)> = args.files.iter().map(|path| ("", path.as_path())).collect();
        check_not_input(("-o", output), &inputs)?;
    }
    let title = match &args.title {
        Some(title) => title.clone(),
        None => first_event(&args.files)
            .map_err(|e| FilesError::Input(e.to_string()))?
            .unwrap_or_else(|| "Veletas games".to_string()),
    };
    let names: Vec<String> = args.files.iter().map(|path| path.display().to_string()).collect();
    let shown: Vec<&str> = names.iter().map(String::as_str).collect();
    // The games are read as the page is written: a failure of theirs is the input's.
    let mut input_failed = false;
    let written = write_output_with(args.output.as_deref(), |out| {
        viewer::write_page(out, &title, "", &shown, |page| {
            let mut seen = crate::records::Duplicates::default();
            for (index, path) in args.files.iter().enumerate() {
                let name = &names[index];
                let (mut games, mut repeats, mut failed) = (0, 0, None);
                crate::records::read_each(path, |number, game| {
                    games = number;
                    if failed.is_some() {
                        return;
                    }
                    if seen.is_repeat(index, &game) {
                        repeats += 1;
                        return;
                    }
                    // The page shows what the replay decides; what the records claim
                    // against it is warned about here, and a game that does not replay
                    // is left out with a warning.
                    let _ = crate::records::check_result(name, number, &game);
                    failed = page.add(index, name, number, &game).err();
                })
                .map_err(|e| read_error(name, e))
                .inspect_err(|_| input_failed = true)?;
                if let Some(e) = failed {
                    return Err(e.into());
                }
                if games == 0 {
                    input_failed = true;
                    return Err(ViewError::NoGames(name.clone()));
                }
                if repeats > 0 {
                    crate::records::warn(&format!("{name}: {repeats} games recorded twice: skipped"));
                }
            }
            Ok(())
        })
    });
    written.map_err(|e| if input_failed { FilesError::Input(e.into()) } else { FilesError::from(e) })
}

/// Why `view` stopped while it wrote its page: one line.
#[derive(Debug, thiserror::Error)]
enum ViewError {
    /// The page could not be written.
    #[error(transparent)]
    Page(#[from] PageError),
    /// A record file could not be read.
    #[error(transparent)]
    Read(#[from] RecordFileError),
    /// A record file holds no game.
    #[error("{0}: no games in the file")]
    NoGames(String),
}

/// The `Event` tag of the first game of the first of `files` whose first game has one
/// (the page's default title, as [`viewer::default_title`]): each file read up to its
/// first game only. A file that cannot be read is the error, before anything is written.
fn first_event(files: &[PathBuf]) -> Result<Option<String>, RecordFileError> {
    for path in files {
        let name = path.display();
        let mut first = None;
        veletas_rules::record::read_games_until(path, |game| {
            first = Some(game);
            false
        })
        .map_err(|e| read_error(&name.to_string(), e))?;
        if let Some(event) = first.as_ref().and_then(|g| g.tag(veletas_rules::record::tag::EVENT)) {
            return Ok(Some(event.to_string()));
        }
    }
    Ok(None)
}
