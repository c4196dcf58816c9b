//! `veletas book`: its options, validated into a [`BookPlan`], and the count of openings kept.

use std::path::PathBuf;

use clap::Args;

use super::error::{Classified, CommandError, classified};
use super::values::parse_size;
use veletas_tools::book::{Band, BookError, BookPlan, parse_band, parse_candidates};
use veletas_tools::referee::clock::parse_seconds;

/// Options of `veletas book`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(
    after_help = "Examples:\n  veletas book --engine 'veletas --playouts 400' --size 7 --candidates 40 -o book7.txt\n  \
veletas match --engine A --engine B --size 7 --openings book7.txt\n\nSee docs/book.md."
)]
pub struct BookArgs {
    /// The engine that scores the openings: `CMD ARGS`; it must list `genmove_analyze`.
    /// Its own search budget is the effort per opening (e.g. `veletas --playouts 400`).
    #[arg(long, value_name = "CMD ARGS")]
    pub engine: String,
    /// The board size: 7, 9 or 10 (classic rules).
    #[arg(long, default_value_t = 7, value_parser = parse_size)]
    pub size: u8,
    /// How many candidate openings are drawn and scored (1 to 10,000).
    #[arg(long, value_name = "N", default_value_t = 40, value_parser = parse_candidates)]
    pub candidates: usize,
    /// The seed of the candidates (the same seed draws the same candidates, as `match --seed` does).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Black's win rate an opening must score to be kept: `LO-HI` in percent.
    #[arg(long, value_name = "LO-HI", default_value = "40-60", value_parser = parse_band)]
    pub band: Band,
    /// The longest an engine may take to score one opening.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    pub timeout: f64,
    /// The openings file to write (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl BookArgs {
    /// Validates the options once into the plan of the book.
    pub fn plan(self) -> Result<BookPlan, BookError> {
        let BookArgs { engine, size, candidates, seed, band, timeout, output } = self;
        Ok(BookPlan::new(&engine, size, candidates, seed, band, timeout)?.with_output(output))
    }
}

/// `veletas book`: the book written (to `--output` or stdout) and how many openings it kept
/// on stderr.
pub(super) fn book(args: BookArgs) -> Result<(), CommandError> {
    let book = veletas_tools::book::run_book(&args.plan().map_err(classified("book"))?).map_err(classified("book"))?;
    eprintln!("veletas book: {}", book.summary());
    Ok(())
}

impl Classified for veletas_tools::book::BookError {
    fn is_usage(&self) -> bool {
        matches!(self, veletas_tools::book::BookError::Options(_))
    }
}
