//! `veletas analyse-games`: a whole-game review. An engine analyses the position before every
//! turn of every game of record files, and the games are written again with each turn's
//! annotation holding that analysis: the win rate of the engine's best turn for the side to
//! move and the visits behind it, as the GUI's saved records carry them, so `veletas view`
//! and `veletas gui` draw the win-rate graph and mark the turns that lost the most
//! ([`crate::marks`]). `docs/review.md` describes it for users.
//!
//! - **One controller.** The engine is driven through the referee's controller
//!   ([`crate::referee::engine::controller`]), as every tool drives one: started, greeted, its
//!   `list_commands` read; for each position it is set up afresh (`boardsize`, rules,
//!   `clear_board`, `set_position` for a game that does not start on the empty board, and
//!   `time_settings` with `--movetime`), brought to the position with `play`, and asked
//!   `genmove_analyze` for the side to move. Since every new game restarts an engine's
//!   random choices and drops its tree (protocol.md, `clear_board`), a position's figures
//!   are those of `genmove_analyze` asked directly on it, whatever was analysed before, in
//!   whichever process: with a playout budget and a seed they do not depend on `-j`, on
//!   shards or on an interruption.
//! - **Resumable.** Every game analysed is appended whole to `OUT.part` (the referee's record
//!   file: locked to one writer, a game cut short by a kill dropped when it is opened again);
//!   a rerun of the same command reads it and analyses only the games not there. Once every
//!   game is analysed, `OUT` is written whole (a temporary file and a rename), the games in
//!   their order in the record files, and `OUT.part` removed.
//! - **Shardable.** `--shard K/N` analyses the games whose number n (from 1, over the record
//!   files in order) has n - 1 mod N = K - 1; the shards' outputs hold the whole review's
//!   games, each tagged with its number ([`tag::ANALYSIS_GAME`]).
//! - **Bounded.** At most [`MAX_GAMES`] games and [`MAX_POSITIONS`] positions a run; every
//!   reply within `--timeout` (an engine's output is bounded by the controller).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::referee::clock::{Clock, TimeControl};
use crate::referee::engine::controller::{Ask, Fault, Setup};
use crate::referee::engine::{EngineClient, EngineCommand, Killer, clean_text};
use crate::referee::record_file::{LockedRecord, append_game, open_record_file};
use crate::referee::tournament::ShardSpec;
use veletas_rules::record::{Annotation, BestLine, Evaluation, GameRecord, read_games, tag};
use veletas_rules::{Game, quoted};

/// The most games one run reviews (over all its record files).
pub const MAX_GAMES: usize = 100_000;

/// The most positions one run analyses (over all its games, before `--shard`).
pub const MAX_POSITIONS: usize = 5_000_000;

/// The most engines analysing at once (`-j`).
pub const MAX_JOBS: usize = 64;

/// The most characters of the engine's command line the [`tag::ANALYSIS`] tag keeps.
const MAX_COMMAND_TAG: usize = 240;

/// What `veletas analyse-games` is asked to do (the command line's options become this).
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewSettings {
    /// The record files whose games are reviewed, in order.
    pub records: Vec<PathBuf>,
    /// The record file written once every game is reviewed (`OUT.part` meanwhile).
    pub output: PathBuf,
    /// The engine: `CMD ARGS`; it must list `genmove_analyze`. Without `movetime`, its own
    /// search budget (e.g. `veletas --playouts 400`) is the effort per position.
    pub engine: String,
    /// The seconds per position sent to the engine with `time_settings`, if any.
    pub movetime: Option<f64>,
    /// The longest the engine may take to answer on one position, its `movetime` included,
    /// and any other command, in seconds.
    pub timeout: f64,
    /// How many engines analyse at once, each a game at a time (1 to [`MAX_JOBS`]).
    pub jobs: usize,
    /// Only this shard's games, if given.
    pub shard: Option<ShardSpec>,
}

/// Why a review did not end, in one line.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The command line cannot work, found before anything runs: options that make no
    /// review, a record file that cannot be read or holds a game that does not replay, an
    /// output that is an input or holds something else than this review (exit code 2).
    #[error("{0}")]
    Usage(String),
    /// The review failed as it ran: an engine that cannot start, is refused or misbehaves,
    /// an output another run is writing or that cannot be written (exit code 1). What was
    /// analysed is kept, and the same command goes on.
    #[error("{0}")]
    Failed(String),
}

/// What a finished review did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewSummary {
    /// The games of this run's shard (all of them without `--shard`).
    pub games: usize,
    /// Of which reviewed by an earlier, interrupted run.
    pub resumed: usize,
    /// The positions analysed by this run.
    pub positions: usize,
    /// The record file written (`-o`, its `{shard}` replaced).
    pub output: PathBuf,
}

/// One game to review: its number among all the games (from 1), its file and its number
/// there, the game and the positions it has to analyse.
struct Item {
    number: usize,
    record: GameRecord,
}

/// The path of `output`'s journal: `OUT.part`.
pub fn journal_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// Runs the review `settings` ask for (see the module documentation).
pub fn run_review(settings: &ReviewSettings) -> Result<ReviewSummary, ReviewError> {
    let usage = |m: String| ReviewError::Usage(m);
    if settings.records.is_empty() {
        return Err(usage("no record file to review".into()));
    }
    if !(1..=MAX_JOBS).contains(&settings.jobs) {
        return Err(usage(format!("-j must be 1 to {MAX_JOBS}, not {}", settings.jobs)));
    }
    if let Some(movetime) = settings.movetime
        && movetime > settings.timeout
    {
        return Err(usage(format!("--movetime {movetime} is longer than --timeout {}", settings.timeout)));
    }
    let command = EngineCommand::parse(&settings.engine).map_err(|e| usage(format!("--engine: {e}")))?;
    let (k, n) = match settings.shard {
        Some(spec) => (spec.resolve(|name| std::env::var(name).ok()).map_err(|e| usage(e.to_string()))?, spec.count()),
        None => (1, 1),
    };
    // `{shard}` in -o is K, as in a tournament's --record: one command line for every shard.
    let output = PathBuf::from(settings.output.to_string_lossy().replace("{shard}", &k.to_string()));
    let journal = journal_path(&output);
    let inputs: Vec<(&str, &Path)> = settings.records.iter().map(|p| ("", p.as_path())).collect();
    crate::output::check_not_input(("-o", &output), &inputs).map_err(|e| usage(e.into()))?;
    crate::output::check_not_input(("-o", &journal), &inputs).map_err(|e| usage(e.into()))?;
    let items: Vec<Item> =
        read_inputs(&settings.records)?.into_iter().filter(|i| ShardSpec::contains(k, n, i.number - 1)).collect();
    let label = analysis_label(settings);
    // What an earlier run of the same command wrote: the finished output, then the journal.
    let mut done: BTreeMap<usize, GameRecord> = BTreeMap::new();
    if output.exists() {
        let file = read_games(&output).map_err(|e| usage(format!("{}: {e}", output.display())))?;
        take_done(&output, file.games, &items, &label, &mut done)?;
    }
    // The journal is the referee's record file, locked to one writer: a second run on the
    // same output is refused (the referee's hint of its `--wait` is not ours).
    let (written, mut locked) = open_record_file(&journal, false, false, false).map_err(|e| {
        ReviewError::Failed(e.to_string().replace("; give --wait to wait for it", "").replace("referee", "run"))
    })?;
    take_done(&journal, written, &items, &label, &mut done)?;
    let resumed = done.len();
    let todo: Vec<&Item> = items.iter().filter(|i| !done.contains_key(&i.number)).collect();
    let positions = AtomicUsize::new(0);
    let review = Review { settings, command, label: &label, todo: &todo, positions: &positions };
    let new = review.run(&mut locked, &journal, items.len(), resumed)?;
    done.extend(new);
    let mut text = String::new();
    for record in done.values() {
        text.push_str(&record.to_string());
    }
    crate::output::write_output(Some(&output), text.as_bytes()).map_err(|e| ReviewError::Failed(e.into()))?;
    drop(locked);
    std::fs::remove_file(&journal)
        .map_err(|e| ReviewError::Failed(format!("{}: cannot remove it: {e}", journal.display())))?;
    Ok(ReviewSummary { games: items.len(), resumed, positions: positions.load(Ordering::SeqCst), output })
}

/// The value of the [`tag::ANALYSIS`] tag: the engine's command line (cleaned, cut) and the
/// time per position, if any.
fn analysis_label(settings: &ReviewSettings) -> String {
    let command = clean_text(&settings.engine, MAX_COMMAND_TAG);
    match settings.movetime {
        Some(t) => format!("{command}; movetime {}", crate::referee::clock::format_seconds(t)),
        None => command,
    }
}

/// Every game of the record files, numbered from 1 in order, each replayed (a game whose
/// moves do not replay, or too many games or positions, is refused in one line).
fn read_inputs(paths: &[PathBuf]) -> Result<Vec<Item>, ReviewError> {
    let mut items: Vec<Item> = Vec::new();
    let mut positions = 0usize;
    for path in paths {
        let mut refused: Option<String> = None;
        crate::records::read_each(path, |number, record| {
            if refused.is_some() {
                return;
            }
            if items.len() >= MAX_GAMES {
                refused = Some(format!("more than {MAX_GAMES} games: review them in parts (--shard)"));
                return;
            }
            if let Err(e) = record.replay(None) {
                refused = Some(format!("{}: game {number}: {e}", path.display()));
                return;
            }
            positions += record.moves().len();
            if positions > MAX_POSITIONS {
                refused = Some(format!("more than {MAX_POSITIONS} positions: review them in parts (--shard)"));
                return;
            }
            items.push(Item { number: items.len() + 1, record });
        })
        .map_err(|e| ReviewError::Usage(format!("{}: {e}", path.display())))?;
        if let Some(refusal) = refused {
            return Err(ReviewError::Usage(refusal));
        }
    }
    Ok(items)
}

/// Takes the games of `file` (the output or its journal) as done, checking that each is a
/// review of this command's: its number is one of `items`, with the same moves, reviewed with
/// the same `label`. Anything else is refused (the file is another review's, or no review).
fn take_done(
    file: &Path,
    games: Vec<GameRecord>,
    items: &[Item],
    label: &str,
    done: &mut BTreeMap<usize, GameRecord>,
) -> Result<(), ReviewError> {
    for (i, game) in games.into_iter().enumerate() {
        let refuse = |why: String| {
            ReviewError::Usage(format!(
                "{}: game {}: {why}: not this review's (give another -o, or remove the file)",
                file.display(),
                i + 1
            ))
        };
        let number = game.tag(tag::ANALYSIS_GAME).ok_or_else(|| refuse("no AnalysisGame tag".into()))?;
        let number: usize = number.parse().map_err(|_| refuse(format!("AnalysisGame '{}'", quoted(number))))?;
        let item = items
            .binary_search_by_key(&number, |i| i.number)
            .map(|at| &items[at])
            .map_err(|_| refuse(format!("game {number} is not among the games to review")))?;
        if game.tag(tag::ANALYSIS) != Some(label) {
            let other = quoted(game.tag(tag::ANALYSIS).unwrap_or(""));
            return Err(refuse(format!("reviewed with '{other}'")));
        }
        if game.moves() != item.record.moves() || game.tag(tag::START) != item.record.tag(tag::START) {
            return Err(refuse(format!("game {number} has other moves")));
        }
        done.entry(number).or_insert(game);
    }
    Ok(())
}

/// A run over the games left to review.
struct Review<'a> {
    settings: &'a ReviewSettings,
    command: EngineCommand,
    label: &'a str,
    todo: &'a [&'a Item],
    positions: &'a AtomicUsize,
}

/// What a worker reports.
enum Outcome {
    Reviewed(GameRecord),
    Stopped,
}

impl Review<'_> {
    /// Reviews every game of `todo` with `-j` engines, appending each to the journal as it is
    /// done; the reviewed games by number.
    fn run(
        &self,
        journal: &mut LockedRecord,
        path: &Path,
        games: usize,
        resumed: usize,
    ) -> Result<BTreeMap<usize, GameRecord>, ReviewError> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let first_error: Mutex<Option<ReviewError>> = Mutex::new(None);
        let reviewed: Mutex<(BTreeMap<usize, GameRecord>, &mut LockedRecord)> = Mutex::new((BTreeMap::new(), journal));
        let workers = self.settings.jobs.min(self.todo.len());
        let fail = |e: ReviewError| {
            stop.store(true, Ordering::SeqCst);
            first_error.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
        };
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    let mut reviewer = match self.start_engine() {
                        Ok(reviewer) => reviewer,
                        Err(e) => return fail(e),
                    };
                    while !stop.load(Ordering::SeqCst) {
                        let Some(item) = self.todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                        match self.review_game(&mut reviewer, item, &stop) {
                            Ok(Outcome::Reviewed(record)) => {
                                let mut guard = reviewed.lock().unwrap_or_else(PoisonError::into_inner);
                                let (map, journal) = &mut *guard;
                                if let Err(e) = append_game(journal, path, &record.to_string()) {
                                    drop(guard);
                                    return fail(ReviewError::Failed(e.to_string()));
                                }
                                map.insert(item.number, record);
                                eprintln!(
                                    "veletas analyse-games: game {} reviewed ({} turns); {} of {games} done",
                                    item.number,
                                    item.record.moves().len(),
                                    resumed + map.len()
                                );
                            }
                            Ok(Outcome::Stopped) => break,
                            Err(e) => return fail(e),
                        }
                    }
                    reviewer.quit();
                });
            }
        });
        if let Some(e) = first_error.into_inner().unwrap_or_else(PoisonError::into_inner) {
            let (map, _) = reviewed.into_inner().unwrap_or_else(PoisonError::into_inner);
            let kept = resumed + map.len();
            return Err(match e {
                ReviewError::Failed(m) if kept > 0 || m.contains(" on game ") => ReviewError::Failed(format!(
                    "{m}; {kept} of {games} games reviewed are kept in {}: the same command goes on",
                    path.display()
                )),
                other => other,
            });
        }
        Ok(reviewed.into_inner().unwrap_or_else(PoisonError::into_inner).0)
    }

    /// Starts an engine and checks that it can review.
    fn start_engine(&self) -> Result<Reviewer, ReviewError> {
        Reviewer::start(&self.command, &self.settings.engine, self.settings.movetime, self.settings.timeout)
    }

    /// Analyses the position before every turn of `item`'s game: the game with each turn's
    /// evaluation replaced by the engine's (none where it reported no search), and the
    /// review's tags; [`Outcome::Stopped`] when `stop` is set on the way.
    fn review_game(&self, reviewer: &mut Reviewer, item: &Item, stop: &AtomicBool) -> Result<Outcome, ReviewError> {
        let name = reviewer.name().to_string();
        let failed = |turn: usize, fault: Fault| {
            ReviewError::Failed(format!(
                "{name}, on game {} before turn {}: {}: {fault}",
                item.number,
                turn + 1,
                fault.termination()
            ))
        };
        let mut record = item.record.clone();
        let mut game =
            item.record.replay(Some(0)).map_err(|e| ReviewError::Failed(format!("game {}: {e}", item.number)))?;
        for (turn, text) in item.record.moves().iter().enumerate() {
            if stop.load(Ordering::SeqCst) {
                return Ok(Outcome::Stopped);
            }
            let PositionReview { evaluation, best_line } = reviewer.analyse(&game).map_err(|f| failed(turn, f))?;
            self.positions.fetch_add(1, Ordering::SeqCst);
            record.set_annotation(turn, Annotation { evaluation, best_line, ..record.annotation(turn) });
            let mv = game.position().parse_move(text.as_str()).map_err(|e| ReviewError::Failed(e.to_string()))?;
            game.play(mv).map_err(|e| ReviewError::Failed(e.to_string()))?;
        }
        record.set_tag(tag::ANALYSIS, self.label);
        record.set_tag(tag::ANALYSIS_GAME, item.number.to_string());
        record.set_tag(tag::ANALYSIS_ENGINE, name);
        Ok(Outcome::Reviewed(record))
    }
}

/// What the review says of one position: the engine's win rate of its best turn for the
/// side to move and the visits behind it, and its best line from there (neither where it
/// reported no search; no line where its report had none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionReview {
    /// The win rate and visits of the turn the engine chose.
    pub evaluation: Option<Evaluation>,
    /// The engine's principal variation, from the turn it chose.
    pub best_line: Option<BestLine>,
}

/// One engine reviewing positions, as `analyse-games` drives each of its engines (and the
/// GUI's review of its open game, through the same code): started, greeted and checked to
/// list `genmove_analyze`, then asked about one position after another, each set up afresh.
pub struct Reviewer {
    engine: EngineClient,
    name: String,
    movetime: Option<f64>,
    timeout: f64,
}

impl Reviewer {
    /// Starts `command` (`shown` is its command line, as messages quote it) and checks that it
    /// can review. `movetime` is the seconds per position sent with `time_settings` (none: the
    /// engine's own budget); `timeout` the longest any answer may take, in seconds.
    pub fn start(
        command: &EngineCommand,
        shown: &str,
        movetime: Option<f64>,
        timeout: f64,
    ) -> Result<Reviewer, ReviewError> {
        let wait = Duration::from_secs_f64(timeout);
        let shown = quoted(shown);
        let refused = |detail: String| ReviewError::Failed(format!("engine '{shown}': {detail}"));
        let mut engine = EngineClient::new(command.clone(), None);
        engine.ensure_running().map_err(|e| refused(format!("cannot be started: {e}")))?;
        let name = engine.greet(wait).map_err(|e| refused(e.to_string()))?.full_name();
        engine.start(wait).map_err(|fault| refused(fault.to_string()))?;
        if !engine.capabilities().analyzes() {
            engine.quit(Duration::from_millis(500));
            return Err(ReviewError::Failed(format!(
                "{name} does not list genmove_analyze: the review needs the win rates it reports"
            )));
        }
        Ok(Reviewer { engine, name, movetime, timeout })
    }

    /// The engine's name and version, as it gives them.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What ends the engine's process from another thread (a review stopped part way).
    pub fn killer(&self) -> Option<Killer> {
        self.engine.killer()
    }

    /// The engine's view of the position `game` is in, for the side to move: set up afresh,
    /// brought there, asked `genmove_analyze` (its move checked by the rules).
    pub fn analyse(&mut self, game: &Game) -> Result<PositionReview, Fault> {
        let timeout = Duration::from_secs_f64(self.timeout);
        let setup = Setup::of_game(game, self.movetime.map(TimeControl::MoveTime));
        self.engine.set_up(&setup, timeout)?;
        self.engine.catch_up(&setup, game, timeout)?;
        let mut clock = Clock::new(TimeControl::MoveTime(self.timeout));
        let mut elapsed = Duration::ZERO;
        let played = self.engine.genmove(Ask::Analyze, &mut game.clone(), &mut clock, 0.0, &mut elapsed)?;
        // A line only with a search behind it (a turn chosen without one, `visits 0`, has none).
        let best_line = match (&played.report, played.mv, played.evaluation) {
            (Some(report), Some(mv), Some(_)) => best_line_of(report, &mv.to_string()),
            _ => None,
        };
        Ok(PositionReview { evaluation: played.evaluation, best_line })
    }

    /// Ends the engine.
    pub fn quit(mut self) {
        self.engine.quit(Duration::from_millis(500));
    }
}

/// The principal variation a report line (protocol.md's `analyze`: `info move M ... pv M M
/// ...` entries) gives `mv`, kept as far as its turns are spelled as turns; `None` without an
/// entry for `mv` or a `pv` in it.
pub fn best_line_of(report: &str, mv: &str) -> Option<BestLine> {
    let entry = report.split("info ").find(|e| e.split_whitespace().nth(1) == Some(mv))?;
    let words: Vec<&str> = entry.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "pv")?;
    BestLine::lenient(&words[at + 1..])
}
