//! `veletas render` and `veletas view`: their options, turned into the pictures' settings.

use std::path::PathBuf;

use clap::Args;

use veletas_tools::picture::command::{RenderSettings, ViewSettings};

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

impl From<RenderArgs> for RenderSettings {
    fn from(args: RenderArgs) -> RenderSettings {
        let RenderArgs { position, record, game, turn, size, no_coordinates, no_status, output } = args;
        RenderSettings { position, record, game, turn, size, no_coordinates, no_status, output }
    }
}

impl From<ViewArgs> for ViewSettings {
    fn from(args: ViewArgs) -> ViewSettings {
        let ViewArgs { files, title, output } = args;
        ViewSettings { files, title, output }
    }
}
