//! `veletas ratings`: its options, turned into [`RatingsSettings`], and the output written.

use std::path::PathBuf;

use clap::Args;

use super::error::{CommandError, classified, failed, print, usage};
use veletas_tools::ratings::files::{RatingsFormat, RatingsSettings, UnknownFormat};

/// Options of `veletas ratings`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(after_help = "Examples:\n  veletas ratings games.txt\n  \
veletas ratings shard-*.txt --format csv\n  \
veletas ratings a.txt b.txt --mix --anchor 'random=0' --head-to-head")]
pub struct RatingsArgs {
    /// Record files (see docs/records.md): of tournaments, matches or shards of one tournament.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Output: text (tables), csv (rank,name,rating,error,games,score), json, or html
    /// (one self-contained page: standings, crosstable, LOS and the games in the viewer).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Pins one engine's rating instead of a field mean of 0, e.g. `random=0`.
    #[arg(long, value_name = "NAME=RATING")]
    pub anchor: Option<String>,
    /// Also print each pair's own Elo from its games against each other, with its 95% interval.
    #[arg(long)]
    pub head_to_head: bool,
    /// Rate records of different tournaments (different Event or Tournament tags) together.
    #[arg(long)]
    pub mix: bool,
    /// Write the output to FILE (whole or not at all: a temporary file renamed over it)
    /// instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl TryFrom<RatingsArgs> for RatingsSettings {
    type Error = UnknownFormat;
    /// The settings of `args`, or why `--format` names no format (before any file is read).
    fn try_from(args: RatingsArgs) -> Result<RatingsSettings, UnknownFormat> {
        let RatingsArgs { files, format, anchor, head_to_head, mix, output } = args;
        let format: RatingsFormat = format.parse()?;
        Ok(RatingsSettings { files, format, anchor, head_to_head, mix, output })
    }
}

/// `veletas ratings`: the standings on stdout or in `--output`; `--format html` writes the
/// page of the report.
pub(super) fn ratings(args: RatingsArgs) -> Result<(), CommandError> {
    let args = RatingsSettings::try_from(args).map_err(usage("ratings"))?;
    if args.format == RatingsFormat::Html {
        return veletas_tools::report::ratings_html(&args).map_err(classified("ratings"));
    }
    let output = veletas_tools::ratings::run_ratings(&args).map_err(classified("ratings"))?;
    match args.output.as_deref() {
        Some(path) => veletas_tools::picture::write_output(Some(path), output.as_bytes()).map_err(failed("ratings")),
        None => print(&output),
    }
}
