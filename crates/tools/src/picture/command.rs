//! The `render` and `view` subcommands: their settings and what they do.

use std::path::PathBuf;

use crate::output::check_not_input;
use crate::picture::svg::{self, SvgOptions};
use crate::picture::{read_record_file, viewer, write_output};
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

/// Draws the position `args` names. Errors are one line.
pub fn render(args: &RenderSettings) -> Result<(), String> {
    if let (Some(output), Some(record)) = (&args.output, &args.record) {
        check_not_input(("-o", output), &[("--record", record)])?;
    }
    let options = SvgOptions { width: args.size, coordinates: !args.no_coordinates, status: !args.no_status };
    let picture = match &args.record {
        None => {
            let text = args.position.join(" ");
            let position: Position =
                text.parse().map_err(|e| format!("invalid position '{}': {e}", veletas_rules::quoted(&text)))?;
            svg::render(&position, None, &options)
        }
        Some(path) => {
            let games = read_record_file(path)?;
            let name = path.display();
            let record = match args.game.checked_sub(1).and_then(|i| games.get(i)) {
                Some(record) => record,
                None => return Err(format!("{name}: no game {} (the file holds {})", args.game, games.len())),
            };
            let game = record.replay(args.turn).map_err(|e| format!("{name}: game {}: {e}", args.game))?;
            let last = game.moves().last();
            svg::render(game.position(), last.as_ref(), &options)
        }
    };
    write_output(args.output.as_deref(), picture.as_bytes())
}

/// Writes the viewer page of the games of `args.files`. Errors are one line.
pub fn view(args: &ViewSettings) -> Result<(), String> {
    if let Some(output) = &args.output {
        let inputs: Vec<(&str, &std::path::Path)> = args.files.iter().map(|path| ("", path.as_path())).collect();
        check_not_input(("-o", output), &inputs)?;
    }
    let mut files = Vec::with_capacity(args.files.len());
    let mut seen = crate::records::Duplicates::default();
    for (index, path) in args.files.iter().enumerate() {
        let mut games = read_record_file(path)?;
        let before = games.len();
        games.retain(|game| !seen.is_repeat(index, game));
        if games.len() < before {
            let repeats = before - games.len();
            crate::records::warn(&format!("{}: {repeats} games recorded twice: skipped", path.display()));
        }
        // The page shows what the replay decides; what the records claim against it is
        // warned about here. A game that does not replay is warned about and left out.
        let _ = crate::records::check_results(&path.display().to_string(), &games);
        files.push((path.display().to_string(), games));
    }
    let page = viewer::page(&files, args.title.as_deref())?;
    write_output(args.output.as_deref(), page.as_bytes())
}
