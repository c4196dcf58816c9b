//! `veletas perft`: counts the move sequences of a given depth (move-generation check).

use std::io::{self, BufWriter, Write};
use std::time::Instant;

use clap::Args;
use log::info;

use super::error::{CommandError, usage};
use super::values::{parse_rules, parse_size};
use veletas_rules::{Position, RuleSet};

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of moves (plies) deep.
    pub depth: u32,
    /// The board of the default position (also accepted before `perft`).
    #[command(flatten)]
    pub board: BoardArgs,
    /// The position string (quoted or as separate words); default: the empty board of
    /// --size under --rules and --no-corners.
    pub position: Vec<String>,
    /// Print the count below each legal move, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Threads to count on: the legal moves of the position are shared out among them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
}

/// `perft`'s board options: the same as the engine's `--size`, `--rules`, `--no-corners`
/// and `--claimed-block`, which may also be given before `perft`.
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct BoardArgs {
    /// Board size of the default position: 7, 9 or 10 [default: 10].
    #[arg(long, value_parser = parse_size)]
    pub size: Option<u8>,
    /// The rule set of the default position: classic or modern [default: classic].
    #[arg(long, value_name = "RULES", value_parser = parse_rules)]
    pub rules: Option<RuleSet>,
    /// The no-corners option: the four corners do not exist.
    #[arg(long)]
    pub no_corners: bool,
    /// The claimed-block option of the modern rules.
    #[arg(long)]
    pub claimed_block: bool,
}

/// Counts (and with `--divide` lists) the move sequences of `args.depth` from the position
/// of `args`, or from `empty_board` when none is given.
pub(super) fn run(empty_board: Position, args: &PerftArgs) -> Result<(), CommandError> {
    let position = if args.position.is_empty() {
        empty_board
    } else {
        let text = args.position.join(" ");
        text.parse::<Position>()
            .map_err(|e| usage("perft")(format!("invalid position '{}': {e}", veletas_rules::quoted(&text))))?
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let start = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for mv in position.legal_moves() {
            let mut next = position.clone();
            next.play_unchecked(mv);
            let count = next.perft_threads(args.depth - 1, args.threads as usize);
            writeln!(out, "{mv} {count}")?;
            total += count;
        }
        total
    } else {
        position.perft_threads(args.depth, args.threads as usize)
    };
    writeln!(out, "{total}")?;
    info!("perft {} = {total} in {:.3}s", args.depth, start.elapsed().as_secs_f64());
    Ok(out.flush()?)
}
