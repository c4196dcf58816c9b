//! `veletas book`: a balanced openings file for a board size. Candidate openings are
//! drawn as the referee draws random openings (both setup turns,
//! [`Opening::random_with_rules`]); an engine scores each through the protocol, as the
//! referee drives engines: it is set up on the opening and asked `genmove_analyze` for
//! the side to move, whose reported win rate is the opening's score (the engine's own
//! search budget, e.g. `--playouts 400`, fixes the effort). The openings whose score is
//! within the band are written in the openings-file form, each with its score in a
//! comment, through [`crate::output`]. `docs/book.md` describes it for users.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use crate::output::WriteError;
use crate::referee::clock::{Clock, TimeControl};
use crate::referee::engine::controller::{Ask, Fault, GreetError, NoEvaluation, Setup, read_evaluation};
use crate::referee::engine::{EngineClient, EngineCommand};
use crate::referee::openings::Opening;
use veletas_rules::record::Evaluation;
use veletas_rules::{Rules, Variant};

/// The most candidates one run scores.
pub const MAX_CANDIDATES: usize = 10_000;

/// What `veletas book` makes, validated once before the engine starts (the command line's
/// `BookArgs` become this with [`BookPlan::new`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BookPlan {
    /// The engine as given, to name it in errors.
    shown: String,
    command: EngineCommand,
    variant: Variant,
    candidates: usize,
    seed: u64,
    band: Band,
    timeout: Duration,
    output: Option<PathBuf>,
}

impl BookPlan {
    /// The book of `candidates` openings (1 to [`MAX_CANDIDATES`]) drawn from `seed` on a
    /// board of `size` (7, 9 or 10; classic rules), scored by the engine `engine` (`CMD
    /// ARGS`; it must list `genmove_analyze`, and its own search budget is the effort per
    /// opening) within `timeout` seconds each, keeping those whose win rate for Black is
    /// within `band`; written to stdout until [`BookPlan::with_output`] names a file.
    pub fn new(
        engine: &str,
        size: u8,
        candidates: usize,
        seed: u64,
        band: Band,
        timeout: f64,
    ) -> Result<BookPlan, BookError> {
        let variant =
            Variant::from_size(size).ok_or_else(|| BookError::Options("the board size must be 7, 9 or 10".into()))?;
        let command = EngineCommand::parse(engine).map_err(|e| BookError::Options(format!("--engine: {e}")))?;
        if !(1..=MAX_CANDIDATES).contains(&candidates) {
            return Err(BookError::Options(format!(
                "--candidates must be from 1 to {MAX_CANDIDATES}, not {candidates}"
            )));
        }
        if !(timeout.is_finite() && timeout >= 0.0) {
            return Err(BookError::Options(format!("--timeout must be a number of seconds, not {timeout}")));
        }
        let timeout = Duration::from_secs_f64(timeout.min(veletas_rules::record::time::MAX_SECONDS));
        Ok(BookPlan { shown: engine.to_string(), command, variant, candidates, seed, band, timeout, output: None })
    }

    /// With the book written to `output` (whole or not at all) instead of stdout.
    pub fn with_output(self, output: Option<PathBuf>) -> BookPlan {
        BookPlan { output, ..self }
    }
}

/// A band of win rates, in percent: `lo <= x <= hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    lo: f64,
    hi: f64,
}

/// A `--band` that is no band of win rates ([`Band::new`], [`parse_band`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BadBand {
    /// Not `LO-HI` with two numbers.
    #[error("the band must be LO-HI in percent, such as 40-60, not '{}'", veletas_rules::quoted(.0))]
    Text(String),
    /// Two numbers, but not `0 <= LO <= HI <= 100`.
    #[error("the band must be LO-HI percent with 0 <= LO <= HI <= 100, not {lo}-{hi}")]
    Range {
        /// The low end given.
        lo: f64,
        /// The high end given.
        hi: f64,
    },
}

impl Band {
    /// The band from `lo` to `hi` percent (0 <= lo <= hi <= 100).
    pub fn new(lo: f64, hi: f64) -> Result<Band, BadBand> {
        if (0.0..=100.0).contains(&lo) && (0.0..=100.0).contains(&hi) && lo <= hi {
            Ok(Band { lo, hi })
        } else {
            Err(BadBand::Range { lo, hi })
        }
    }

    /// Whether the win rate `percent` is within the band.
    pub fn contains(self, percent: f64) -> bool {
        (self.lo..=self.hi).contains(&percent)
    }
}

/// Parses `--band LO-HI` (percent).
pub fn parse_band(text: &str) -> Result<Band, BadBand> {
    let bad = || BadBand::Text(text.to_string());
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let number = |t: &str| t.trim().trim_end_matches('%').parse::<f64>().map_err(|_| bad());
    Band::new(number(lo)?, number(hi)?)
}

/// A `--candidates` that is not a number from 1 to [`MAX_CANDIDATES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--candidates must be 1 to {MAX_CANDIDATES}, not '{}'", veletas_rules::quoted(.0))]
pub struct BadCandidates(String);

/// Parses `--candidates N` (1 to [`MAX_CANDIDATES`]).
pub fn parse_candidates(text: &str) -> Result<usize, BadCandidates> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_CANDIDATES).contains(&n) => Ok(n),
        _ => Err(BadCandidates(text.to_string())),
    }
}

/// One scored candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// The opening.
    pub opening: Opening,
    /// Black's win rate and the visits behind it, as the engine reported them.
    pub evaluation: Evaluation,
}

/// What `veletas book` made: every candidate scored, and the file's text.
#[derive(Clone, Debug)]
pub struct Book {
    /// Every distinct candidate scored, in the order drawn.
    pub scored: Vec<Scored>,
    /// The kept openings as an openings file.
    pub text: String,
    /// How many were kept.
    pub kept: usize,
    /// How many candidates were drawn (`--candidates`).
    pub drawn: usize,
    /// How many of them repeated an earlier one (scored once).
    pub repeated: usize,
    /// How many the engine gave no win rate for (each named in a warning with the reason).
    pub unscored: usize,
}

impl Book {
    /// The summary line: `kept K of S candidate openings scored (N drawn: R repeated, U
    /// without a win rate)`.
    pub fn summary(&self) -> String {
        format!(
            "kept {} of {} candidate openings scored ({} drawn: {} repeated, {} without a win rate)",
            self.kept,
            self.scored.len(),
            self.drawn,
            self.repeated,
            self.unscored
        )
    }
}

/// What scoring the candidates gave: the engine's name, the scores, and the counts of the
/// repeated candidates and of those without a win rate (with the first one's reason).
struct Scoring {
    name: String,
    scored: Vec<Scored>,
    repeated: usize,
    unscored: usize,
    first_reason: Option<NoWinRate>,
}

/// Why `veletas book` made no book. Each is one line.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// Settings that make no book (the board size, the engine's command line): the
    /// command line's fault.
    #[error("{0}")]
    Options(String),
    /// The engine cannot be started, cannot score, or misbehaved while scoring.
    #[error(transparent)]
    Engine(#[from] ScoringError),
    /// The engine gave no win rate for any candidate; `reason` is the first one's.
    #[error(
        "{name} gave no win rate for any of the {unscored} candidates scored (the first: {reason}): the book \
         needs the win rate genmove_analyze reports for the move played"
    )]
    NoWinRates {
        /// The engine's name.
        name: String,
        /// How many candidates it gave none for.
        unscored: usize,
        /// Why it gave none for the first.
        #[source]
        reason: NoWinRate,
    },
    /// No candidate scored a win rate within the band.
    #[error(
        "none of the {scored} candidates scored a win rate for Black within {}%-{}%: widen --band or raise \
         --candidates",
        .band.lo,
        .band.hi
    )]
    NoneInBand {
        /// How many candidates were scored.
        scored: usize,
        /// The band.
        band: Band,
    },
    /// The book cannot be written.
    #[error(transparent)]
    Output(#[from] WriteError),
}

/// Why the engine could not score the candidates: one line naming it.
#[derive(Debug, thiserror::Error)]
pub enum ScoringError {
    /// The engine's process cannot be started.
    #[error("{shown}: cannot be started: {error}")]
    NotStarted {
        /// The engine as given.
        shown: String,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// Its greeting failed.
    #[error("{shown}: {error}")]
    Greeting {
        /// The engine as given.
        shown: String,
        /// Why.
        #[source]
        error: GreetError,
    },
    /// Its start-up commands failed.
    #[error("{shown}: {fault}")]
    StartUp {
        /// The engine as given.
        shown: String,
        /// Why.
        #[source]
        fault: Box<Fault>,
    },
    /// It does not list `genmove_analyze`.
    #[error("{0} does not list genmove_analyze: the book needs the win rates it reports")]
    NoAnalysis(String),
    /// It misbehaved while scoring an opening, named as a game's record names it.
    #[error("{name}, on {opening}: {}: {fault}", .fault.termination())]
    Misbehaved {
        /// The engine's name.
        name: String,
        /// The opening scored, as the openings file writes it.
        opening: String,
        /// What it did.
        #[source]
        fault: Box<Fault>,
    },
}

/// Why the engine's reply to an opening gave no win rate (the opening is not scored).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NoWinRate {
    /// It resigned.
    #[error("it resigned")]
    Resigned,
    /// Its report has no usable entry for the move it played.
    #[error(transparent)]
    Report(NoEvaluation),
    /// Its report says nothing of the move it played.
    #[error("no win rate for the move it played")]
    NoEntry,
}

/// Scores the candidates `args` asks for with its engine and writes the book (to
/// `--output` or stdout); returns what it made.
pub fn run_book(args: &BookPlan) -> Result<Book, BookError> {
    let size = args.variant.size();
    let mut engine = EngineClient::new(args.command.clone(), None);
    let result = score_all(&mut engine, args);
    engine.quit(Duration::from_millis(500));
    let Scoring { name, scored, repeated, unscored, first_reason } = result?;
    if let (true, Some(reason)) = (scored.is_empty(), first_reason) {
        return Err(BookError::NoWinRates { name, unscored, reason });
    }
    let kept: Vec<&Scored> =
        scored.iter().filter(|s| args.band.contains(s.evaluation.winrate.probability() * 100.0)).collect();
    if kept.is_empty() {
        return Err(BookError::NoneInBand { scored: scored.len(), band: args.band });
    }
    let mut text = format!(
        "# veletas book: {} of {} candidate openings, {}x{} classic, scored by {name}, drawn with --seed {}, Black's win \
         rate within {}%-{}%\n",
        kept.len(),
        scored.len(),
        size,
        size,
        args.seed,
        args.band.lo,
        args.band.hi
    );
    // The size, read by `match` and `tournament`: their default board is 10x10.
    let _ = writeln!(text, "size {size}");
    for s in &kept {
        let _ = writeln!(text, "{}  # Black {} ({} visits)", s.opening, s.evaluation.winrate, s.evaluation.visits);
    }
    crate::output::write_output(args.output.as_deref(), text.as_bytes())?;
    Ok(Book { kept: kept.len(), scored, text, drawn: args.candidates, repeated, unscored })
}

/// Starts the engine, checks it can score, and scores every distinct candidate: the
/// engine's name and the scores.
fn score_all(engine: &mut EngineClient, args: &BookPlan) -> Result<Scoring, ScoringError> {
    let (timeout, variant) = (args.timeout, args.variant);
    let shown = || args.shown.clone();
    engine.ensure_running().map_err(|error| ScoringError::NotStarted { shown: shown(), error })?;
    let name = engine.greet(timeout).map_err(|error| ScoringError::Greeting { shown: shown(), error })?.full_name();
    engine.start(timeout).map_err(|fault| ScoringError::StartUp { shown: shown(), fault: Box::new(fault) })?;
    if !engine.capabilities().analyzes() {
        return Err(ScoringError::NoAnalysis(name));
    }
    let mut seen = HashSet::new();
    let mut scoring = Scoring { name, scored: Vec::new(), repeated: 0, unscored: 0, first_reason: None };
    for pair in 0..args.candidates as u64 {
        let opening = Opening::random_with_rules(variant, Rules::CLASSIC, args.seed, pair);
        if !seen.insert(opening.to_string()) {
            scoring.repeated += 1;
            continue;
        }
        // The engine's misbehaviour is named as a game's record names it.
        let name = &scoring.name;
        let scored = score(engine, &opening, timeout);
        match scored.map_err(|fault| ScoringError::Misbehaved {
            name: name.clone(),
            opening: opening.to_string(),
            fault: Box::new(fault),
        })? {
            Ok(evaluation) => scoring.scored.push(Scored { opening, evaluation }),
            Err(reason) => {
                log::warn!("{opening}: no win rate from {name} ({reason}): not scored");
                scoring.unscored += 1;
                scoring.first_reason.get_or_insert(reason);
            }
        }
    }
    Ok(scoring)
}

/// Black's win rate after `opening` by the engine's search (Black is to move after the
/// classic setups), or why its reply gave none (no search, a win rate that is no number, no
/// entry for the move it played, a resignation); its move is checked by the rules, and
/// given within `timeout`.
fn score(
    engine: &mut EngineClient,
    opening: &Opening,
    timeout: Duration,
) -> Result<Result<Evaluation, NoWinRate>, Fault> {
    let setup = Setup::new(opening.variant, opening.rules, opening.start.clone(), None);
    let mut game = opening.game();
    engine.set_up(&setup, timeout)?;
    engine.catch_up(&setup, &game, timeout)?;
    let color = game.position().side_to_move();
    let mut clock = Clock::new(TimeControl::MoveTime(timeout.as_secs_f64()));
    let mut elapsed = Duration::ZERO;
    let played = engine.genmove(Ask::Analyze, &mut game, &mut clock, 0.0, &mut elapsed)?;
    let evaluation = match (played.evaluation, played.mv) {
        (Some(evaluation), _) => evaluation,
        (None, None) => return Ok(Err(NoWinRate::Resigned)),
        (None, Some(mv)) => {
            let why = read_evaluation(played.report.as_deref(), &mv.to_string()).err();
            return Ok(Err(why.map_or(NoWinRate::NoEntry, NoWinRate::Report)));
        }
    };
    // The win rate is the side to move's: Black's, unless the opening leaves White to move.
    Ok(Ok(if color == veletas_rules::Color::Black {
        evaluation
    } else {
        Evaluation { winrate: evaluation.winrate.other_side(), ..evaluation }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_read_percent_ranges_and_refuse_the_rest() {
        let band = parse_band("40-60").unwrap();
        assert!(band.contains(40.0) && band.contains(60.0) && !band.contains(60.01) && !band.contains(39.9));
        assert_eq!(parse_band("45%-55%"), Band::new(45.0, 55.0));
        for bad in ["60-40", "40", "-10-50", "50-101", "a-b", ""] {
            assert!(parse_band(bad).is_err(), "{bad}");
        }
        assert!(parse_candidates("0").is_err() && parse_candidates("10001").is_err());
        assert_eq!(parse_candidates("12"), Ok(12));
    }

    #[test]
    fn a_plan_refuses_what_cannot_make_a_book_before_any_engine_starts() {
        let band = parse_band("40-60").unwrap();
        let refused = |engine: &str, size, candidates, timeout| {
            BookPlan::new(engine, size, candidates, 1, band, timeout).unwrap_err().to_string()
        };
        assert_eq!(refused("veletas", 8, 10, 60.0), "the board size must be 7, 9 or 10");
        assert!(refused("'unclosed", 7, 10, 60.0).starts_with("--engine: "));
        assert!(refused("veletas", 7, 0, 60.0).starts_with("--candidates must be from 1"));
        assert!(refused("veletas", 7, 10, f64::NAN).starts_with("--timeout"));
        let plan = BookPlan::new("veletas --playouts 5", 9, 10, 1, band, 60.0).unwrap();
        assert_eq!((plan.variant.size(), plan.command.args.len(), plan.output), (9, 2, None));
    }
}
