//! The `render` and `view` subcommands: their options and what they do.

use std::path::PathBuf;

use clap::Args;

use crate::output::check_not_input;
use crate::picture::svg::{self, SvgOptions};
use crate::picture::{read_record_file, viewer, write_output};
use veletas_rules::Position;

/// Options of `veletas render`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(after_help = "Examples:\n  veletas render '7/7/2s4/7/4s2/1s5/7 b' -o setup.svg\n  \
veletas render --record games.txt --game 3 --turn 12 --size 600 -o turn12.svg")]
pub struct RenderArgs {
    /// The position string (quoted or as separate words); or use --record.
    #[arg(value_name = "POSITION", conflicts_with = "record", required_unless_present = "record")]
    pub position: Vec<String>,
    /// A record file: draws a position of one of its games, with the turn that led to it.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The game of the record file, from 1.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "record")]
    pub game: usize,
    /// The number of turns played (0: the start; default: the end of the game).
    #[arg(long, value_name = "T", requires = "record")]
    pub turn: Option<usize>,
    /// The picture's width in pixels (the board size comes from the position).
    #[arg(long, value_name = "PX", default_value_t = 480, value_parser = clap::value_parser!(u32).range(50..=20_000))]
    pub size: u32,
    /// Leave out the file letters and rank numbers.
    #[arg(long)]
    pub no_coordinates: bool,
    /// Leave out the status band (side to move, claims) below the board.
    #[arg(long)]
    pub no_status: bool,
    /// Write the picture to FILE (whole or not at all) instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Options of `veletas view`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(after_help = "Example: veletas view games.txt more-games.txt -o games.html   # then open games.html")]
pub struct ViewArgs {
    /// Record files (as `veletas match --record` writes them).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The page's title (default: the first game's Event tag).
    #[arg(long)]
    pub title: Option<String>,
    /// Write the page to FILE (whole or not at all) instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Draws the position `args` names. Errors are one line.
pub fn render(args: &RenderArgs) -> Result<(), String> {
    if let (Some(output), Some(record)) = (&args.output, &args.record) {
        check_not_input(("-o", output), &[("--record", record)])?;
    }
    let options = SvgOptions { width: args.size, coordinates: !args.no_coordinates, status: !args.no_status };
    let picture = match &args.record {
        None => {
            let text = args.position.join(" ");
            let position: Position = text.parse().map_err(|e| format!("invalid position '{text}': {e}"))?;
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
pub fn view(args: &ViewArgs) -> Result<(), String> {
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
        // warned about here. A game that does not replay is the page's error.
        let _ = crate::records::check_results(&path.display().to_string(), &games);
        files.push((path.display().to_string(), games));
    }
    let page = viewer::page(&files, args.title.as_deref())?;
    write_output(args.output.as_deref(), page.as_bytes())
}
