//! `veletas analyse-games`: its options, turned into [`ReviewSettings`], and what the review did.

use std::path::PathBuf;

use clap::Args;

use super::error::{Classified, CommandError, classified};
use veletas_tools::referee::clock::parse_seconds;
use veletas_tools::referee::tournament::ShardSpec;
use veletas_tools::review::{MAX_JOBS, ReviewError, ReviewSettings};

/// Options of `veletas analyse-games`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(
    after_help = "Examples:\n  veletas analyse-games games.txt --engine 'veletas --playouts 400' -o reviewed.txt\n  \
veletas analyse-games t.txt --engine veletas --movetime 1 -j 2 -o reviewed.txt\n  \
veletas analyse-games t.txt --engine 'veletas --playouts 400' --shard 2/3 -o review-{shard}.txt\n  \
veletas view reviewed.txt -o reviewed.html\n\n\
Rerun the same command after an interruption: it goes on where it stopped. See docs/review.md."
)]
pub struct ReviewArgs {
    /// The record files whose games are reviewed.
    #[arg(value_name = "RECORDS", required = true)]
    pub records: Vec<PathBuf>,
    /// The record file to write, every game with each turn's win rate (`OUT.part` until every
    /// game is reviewed). `{shard}` is replaced by K of --shard.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// The engine that analyses: `CMD ARGS`, run without a shell; it must list
    /// `genmove_analyze`. Without --movetime its own search budget is the effort per position
    /// (e.g. `veletas --playouts 400`).
    #[arg(long, value_name = "CMD ARGS")]
    pub engine: String,
    /// The seconds per position, sent to the engine with `time_settings` (default: none, the
    /// engine's own budget).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub movetime: Option<f64>,
    /// The longest the engine may take on one position (its --movetime included) or to answer
    /// any other command.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    pub timeout: f64,
    /// Engines analysing at once, each a game at a time (1 to 64).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1, value_parser = parse_jobs)]
    pub jobs: usize,
    /// Review only shard K of N: the games whose number n (from 1, over the record files in
    /// order) has n - 1 mod N = K - 1. K may be `auto` (as for `veletas tournament`).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<ShardSpec>,
}

fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        _ => Err(format!("-j must be 1 to {MAX_JOBS}, not '{}'", veletas_rules::quoted(text))),
    }
}

impl From<ReviewArgs> for ReviewSettings {
    fn from(args: ReviewArgs) -> ReviewSettings {
        let ReviewArgs { records, output, engine, movetime, timeout, jobs, shard } = args;
        ReviewSettings { records, output, engine, movetime, timeout, jobs, shard }
    }
}

/// `veletas analyse-games`: the review written, and what it did on stderr.
pub(super) fn analyse_games(args: ReviewArgs) -> Result<(), CommandError> {
    let command = "analyse-games";
    let settings = ReviewSettings::from(args);
    match veletas_tools::review::run_review(&settings) {
        Ok(done) => {
            eprintln!(
                "veletas {command}: {} games reviewed into {} ({} by an earlier run; {} positions analysed now)",
                done.games,
                done.output.display(),
                done.resumed,
                done.positions
            );
            Ok(())
        }
        Err(e) => Err(classified(command)(e)),
    }
}

impl Classified for ReviewError {
    fn is_usage(&self) -> bool {
        matches!(self, ReviewError::Usage(_))
    }
}
