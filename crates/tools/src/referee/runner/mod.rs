//! The one runner of matches and tournaments: a match is a two-engine tournament.
//!
//! What differs between them (the schedule, the record's tags, the game line, the
//! progress line and the standings, how a recorded game is checked on resume) is a
//! [`Competition`]; everything else is here, once:
//!
//! - [`Field`]: the engines (command, restart policy, time control), their names, the
//!   openings and the shared settings; [`Field::probe`] starts every engine once before the
//!   first game (each must answer `protocol_version` and `name`);
//! - the workers: one thread each, with its own engine processes, started when first
//!   needed, playing [`ScheduledGame`]s through [`crate::referee::game::play_game_observed`].
//!   The games come from an iterator, one at a time as a worker is free, so the schedule
//!   is never held whole (memory does not grow with the number of games), and a game
//!   starts only after the results before it are counted (an SPRT stops at its decision);
//! - the record file: opened and locked once, its games matched to the schedule by their
//!   identity ([`Runner::open_record`], [`Runner::resumed`]), every new game appended whole;
//! - the output: a line per game, the progress line on a terminal, the standings every
//!   `--rating-interval` games, the live page, and the interruption (SIGINT, SIGTERM) that
//!   stops starting games and says how to resume.
//!
//! In five files: this one runs the games (workers, record file, output); [`field`] is the
//! field of engines every game shares ([`EngineDef`]), and how each is started and checked;
//! `names` names the field's engines; [`result`] is a scheduled game ([`ScheduledGame`]) and
//! its result, played or read back from the record file (the one resume check); `mismatch`
//! says why a recorded game is not this run's. The
//! tournament's schedules and field files import these; the runner imports nothing of them.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::referee::engine::EngineClient;
use crate::referee::error::RefereeError;
use crate::referee::game::{GameSettings, PlayedGame, Progress, play_game_observed};
use crate::referee::plan::{CommonPlan, Existing, RecordPlan};
use crate::referee::record_file::{LockedRecord, append_game, open_record_file, today};
use crate::report::{LiveBoard, LiveGame};
use veletas_rules::Move;
use veletas_rules::record::GameRecord;

mod competition;
mod field;
mod mismatch;
mod names;
mod result;
mod resume;

pub use crate::referee::field::EngineDef;
pub(crate) use competition::Competition;
pub(crate) use field::{Field, NewFiles};
pub(crate) use mismatch::{DifferentGames, EnginesMismatch, PlaceError};
pub(crate) use names::unique_names;
pub(crate) use result::played_engines;
pub use result::{GameResult, ScheduledGame};
use resume::recorded_result;

/// A worker: one thread's engine processes, started when first needed.
struct Worker {
    engines: Vec<Option<EngineClient>>,
}

impl Worker {
    fn new(field: usize) -> Worker {
        Worker { engines: (0..field).map(|_| None).collect() }
    }

    fn take(&mut self, field: &Field, index: usize) -> EngineClient {
        let engine = self.engines[index].take().unwrap_or_else(|| field.engine(index, &field.names[index]));
        engine.traffic().set_name(&field.names[index]);
        engine
    }

    /// Plays `scheduled`; `live` is the live page, this worker's slot in it and the label.
    fn play(
        &mut self,
        field: &Field,
        scheduled: &ScheduledGame,
        live: Option<(&LiveBoard, usize, &str)>,
    ) -> PlayedGame {
        let (a, b) = (scheduled.black, scheduled.white);
        let mut pair = [self.take(field, a), self.take(field, b)];
        pair.iter().for_each(|engine| engine.traffic().set_game(&scheduled.id));
        let settings = GameSettings {
            time_controls: [field.defs[a].time_control, field.defs[b].time_control],
            margin: field.margin,
            command_timeout: field.command_timeout,
            stop: None,
            record_steps: field.record_steps,
        };
        let opening = field.book.opening(scheduled.encounter);
        let mut observer = |progress: &Progress| {
            let game = progress.game;
            if let Some((board, slot, label)) = live {
                let swapped = game.moves().any(|m| m == Move::Swap);
                let (black, white) = if swapped { (b, a) } else { (a, b) };
                let (black, white) = (field.names[black].clone(), field.names[white].clone());
                board.set(slot, Some(LiveGame { label: label.to_string(), black, white, game: game.clone() }));
            }
        };
        let played = play_game_observed(&mut pair, &settings, scheduled.index, &opening, true, &mut observer);
        if let Some((board, slot, _)) = live {
            board.set(slot, None);
        }
        let [one, two] = pair;
        for (index, mut engine) in [(a, one), (b, two)] {
            if field.defs[index].restart {
                engine.quit(Duration::from_millis(500));
            }
            self.engines[index] = Some(engine);
        }
        played
    }

    fn shutdown(&mut self) {
        for engine in self.engines.iter_mut().flatten() {
            engine.quit(Duration::from_millis(500));
        }
    }
}

/// The record file being written (locked until the runner is dropped).
struct RecordFile {
    file: LockedRecord,
    path: PathBuf,
}

/// The running state: the field, workers, the record file, results and output. Built
/// from a finished plan ([`Runner::new`]); what it counts is read through its methods.
pub(crate) struct Runner<'a> {
    field: Field,
    competition: Box<dyn Competition + 'a>,
    workers: Vec<Worker>,
    record: Option<RecordFile>,
    /// Recorded games by identity, with their place in the file (resume).
    recorded: HashMap<String, (usize, GameRecord)>,
    /// Every game counted, resumed ones first.
    results: Vec<GameResult>,
    /// The games this run is to count ([`Runner::plan_games`]).
    planned: usize,
    date: String,
    output: Output,
    finished_now: usize,
    live: Option<LiveBoard>,
    /// Every counted game's record, when `--report` asks for them.
    records: Option<Vec<GameRecord>>,
    /// Set when a signal stopped the run before its end.
    interrupted: bool,
}

impl<'a> Runner<'a> {
    /// A runner of `field` for `competition` with the concurrency and output of the plan
    /// `common`; `title` names the live page. Each of its workers plays on its own engines.
    pub fn new(field: Field, competition: Box<dyn Competition + 'a>, common: &CommonPlan, title: &str) -> Runner<'a> {
        // From here on a first SIGINT or SIGTERM stops the games in order.
        crate::referee::process::stop_gracefully(true);
        let workers = common.concurrency().max(1);
        Runner {
            workers: (0..workers).map(|_| Worker::new(field.defs.len())).collect(),
            field,
            competition,
            record: None,
            recorded: HashMap::new(),
            results: Vec::new(),
            planned: 0,
            date: today(),
            output: Output {
                quiet: common.quiet(),
                // `-q` quiets stdout's game lines, not the terminal's progress line (as
                // cutechess-cli and fastchess keep theirs): --no-progress removes it.
                progress: common.progress() && std::io::stderr().is_terminal(),
                started: Instant::now(),
                rating_interval: common.rating_interval(),
            },
            finished_now: 0,
            live: common.live().map(|path| LiveBoard::new(path, title, workers)),
            records: common.report().is_some().then(Vec::new),
            interrupted: false,
        }
    }

    /// The field of engines.
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The field of engines, to start or name them before the first game.
    pub fn field_mut(&mut self) -> &mut Field {
        &mut self.field
    }

    /// Every game counted so far, resumed ones first.
    pub fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Every game counted, for the caller's report once the run is over.
    pub fn into_results(self) -> Vec<GameResult> {
        self.results
    }

    /// The recorded games not yet matched to the schedule, with their place in the file.
    pub fn recorded(&self) -> impl Iterator<Item = (&String, &(usize, GameRecord))> {
        self.recorded.iter()
    }

    /// Adds `games` to the games this run is to count (a knockout's rounds and
    /// tie-breaks add theirs as they come).
    pub fn plan_games(&mut self, games: usize) {
        self.planned += games;
    }

    /// The games this run is to count.
    pub fn planned(&self) -> usize {
        self.planned
    }

    /// Whether a signal stopped the run before its end.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The records of every counted game, once (when the plan has a report page).
    pub fn take_records(&mut self) -> Option<Vec<GameRecord>> {
        self.records.take()
    }

    /// Opens and locks the record file of `record` (which says whether it must exist, is
    /// emptied, or is waited for) and keeps its games by the identity `key` gives (`None`:
    /// not a game of this run; the first of equal identities counts). Says on stderr how
    /// many recorded games it found.
    pub fn open_record(
        &mut self,
        record: &RecordPlan,
        key: impl Fn(usize, &GameRecord) -> Result<Option<String>, RefereeError>,
    ) -> Result<(), RefereeError> {
        let path = record.path();
        let (must_exist, overwrite) = match record.existing() {
            Existing::Resume => (false, false),
            Existing::Required => (true, false),
            Existing::Overwrite => (false, true),
        };
        let (games, file) = open_record_file(path, must_exist, overwrite, record.wait())?;
        let found = games.len();
        for (position, game) in games.into_iter().enumerate() {
            if let Some(id) = key(position, &game)? {
                self.recorded.entry(id).or_insert((position, game));
            }
        }
        if found > 0 {
            let s = if found == 1 { "" } else { "s" };
            let noun = self.competition.noun();
            eprintln!("veletas {noun}: {}: found {found} recorded game{s}; they are not played again", path.display());
        }
        self.record = Some(RecordFile { file, path: path.to_path_buf() });
        Ok(())
    }

    /// The result of game `scheduled` if the record file holds it (counted, and kept for
    /// the report).
    pub fn resumed(&mut self, scheduled: &ScheduledGame) -> Result<Option<GameResult>, RefereeError> {
        let Some((position, game)) = self.recorded.remove(&scheduled.id) else { return Ok(None) };
        let path = self.record.as_ref().map(|r| r.path.clone()).unwrap_or_default();
        let noun = self.competition.noun();
        let checked = recorded_result(&self.field, &*self.competition, &game, scheduled);
        let result = checked
            .map_err(|source| RefereeError::record(path, DifferentGames { noun, position: position + 1, source }))?;
        if let Some(records) = self.records.as_mut() {
            records.push(game);
        }
        self.competition.add(&result);
        self.results.push(result.clone());
        Ok(Some(result))
    }

    /// Counts every game of `games` the record file holds ([`Runner::resumed`]) and returns
    /// their identities, to leave out of the games to play. Stops looking once every
    /// recorded game is found: with no record, it does not go through the schedule at all.
    pub fn resume_all(
        &mut self,
        games: impl Iterator<Item = ScheduledGame>,
    ) -> Result<std::collections::HashSet<String>, RefereeError> {
        let mut done = std::collections::HashSet::new();
        for game in games {
            if self.recorded.is_empty() {
                break;
            }
            if let Some(result) = self.resumed(&game)? {
                done.insert(result.id);
            }
        }
        Ok(done)
    }

    /// The path of the record file, if any.
    pub fn record_path(&self) -> Option<&std::path::Path> {
        self.record.as_ref().map(|r| r.path.as_path())
    }

    /// Hands engines already started (by [`Field::probe`]) to the first worker.
    pub fn adopt(&mut self, engines: Vec<EngineClient>) {
        if let Some(worker) = self.workers.first_mut() {
            for (slot, engine) in worker.engines.iter_mut().zip(engines) {
                *slot = Some(engine);
            }
        }
    }

    /// Whether no more games are to be started: the competition is decided, or a signal
    /// asked to stop.
    pub fn stopping(&self) -> bool {
        self.competition.decided() || crate::referee::process::stop_requested()
    }

    /// Plays the `count` games of `games` on the workers, recording and reporting each as
    /// it finishes. Games are taken from `games` one at a time, as a worker becomes free
    /// (the schedule is never held whole: memory does not grow with the number of games),
    /// and a game starts only after every result received so far has been counted: once
    /// the competition is decided (an SPRT) or a signal asks to stop, no game starts (the
    /// games running finish and are counted).
    pub fn play(&mut self, games: impl Iterator<Item = ScheduledGame>, count: usize) -> Result<(), RefereeError> {
        if crate::referee::process::stop_requested() {
            self.interrupted = true;
        }
        if count == 0 || self.stopping() {
            return Ok(());
        }
        let mut games = games;
        let threads = self.workers.len().min(count);
        // Games go out one per free worker: (the live page's label, the game).
        let (job_tx, job_rx) = mpsc::channel::<(String, ScheduledGame)>();
        let job_rx = Mutex::new(job_rx);
        let mut jobs = Some(job_tx);
        // Set when no game is to start any more: a game handed out but not started stays unplayed.
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(ScheduledGame, PlayedGame)>();
        let mut failure = None;
        let mut workers = std::mem::take(&mut self.workers);
        let live = self.live.take();
        let field = &self.field;
        thread::scope(|scope| {
            for (slot, worker) in workers.iter_mut().take(threads).enumerate() {
                let (tx, job_rx, stop, live) = (tx.clone(), &job_rx, &stop, live.as_ref());
                scope.spawn(move || {
                    // The lock is held while waiting (one idle worker waits, the others wait
                    // for it) and released before the game: the guard ends inside the closure.
                    while let Some((label, scheduled)) = job_rx.lock().ok().and_then(|rx| rx.recv().ok()) {
                        if stop.load(Ordering::SeqCst) || crate::referee::process::stop_requested() {
                            break;
                        }
                        let played = worker.play(field, &scheduled, live.map(|l| (l, slot, label.as_str())));
                        if tx.send((scheduled, played)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Hands the next game to a free worker; with none left, lets the idle ones end.
            let mut dispatch = |jobs: &mut Option<mpsc::Sender<(String, ScheduledGame)>>,
                                competition: &dyn Competition| {
                let Some(sender) = jobs.as_ref() else { return };
                let sent = games.next().is_some_and(|game| sender.send((competition.live_label(&game), game)).is_ok());
                if !sent {
                    *jobs = None;
                }
            };
            for _ in 0..threads {
                dispatch(&mut jobs, &*self.competition);
            }
            loop {
                let wait = live.as_ref().map_or(Duration::from_millis(200), |l| {
                    l.until_due().clamp(Duration::from_millis(20), Duration::from_millis(200))
                });
                match rx.recv_timeout(wait) {
                    Ok((scheduled, played)) => {
                        if failure.is_none() && ended_by_the_stop(&played) {
                            // Not recorded nor counted: the resume plays it again.
                            eprintln!(
                                "veletas {}: {} not counted: an engine failed while the referee was stopping ({}); \
                                 it is played again on resume",
                                self.competition.noun(),
                                self.competition.live_label(&scheduled),
                                played.reason
                            );
                        } else if failure.is_none() {
                            match finished(
                                field,
                                &mut *self.competition,
                                &mut FinishState {
                                    record: self.record.as_mut(),
                                    records: self.records.as_mut(),
                                    results: &mut self.results,
                                    date: &self.date,
                                },
                                &scheduled,
                                &played,
                            ) {
                                Ok(()) => {
                                    self.finished_now += 1;
                                    let counted = Counted {
                                        field,
                                        competition: &*self.competition,
                                        results: &self.results,
                                        planned: self.planned,
                                    };
                                    self.output.report_game(&counted, self.finished_now, &scheduled, &played);
                                }
                                Err(e) => failure = Some(e),
                            }
                        }
                        // The worker that sent this result is free: the next game, unless the
                        // results so far decide or a signal or a failure stops the run.
                        if failure.is_some() || self.competition.decided() || crate::referee::process::stop_requested()
                        {
                            stop.store(true, Ordering::SeqCst);
                            jobs = None;
                        } else {
                            dispatch(&mut jobs, &*self.competition);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                if crate::referee::process::stop_requested() {
                    jobs = None;
                }
                if let Some(live) = &live {
                    let counted = Counted {
                        field,
                        competition: &*self.competition,
                        results: &self.results,
                        planned: self.planned,
                    };
                    counted.write_live(live, false);
                }
            }
        });
        self.live = live;
        self.workers = workers;
        if self.output.progress {
            eprint!("\r\x1b[K");
        }
        if crate::referee::process::stop_requested() {
            self.interrupted = true;
        }
        failure.map_or(Ok(()), Err)
    }

    /// Writes the live page once more (now, if `finished` with `status` and `panel`) and
    /// ends the engines.
    pub fn finish(&mut self, status: Option<(&str, String)>) -> Result<(), RefereeError> {
        for worker in &mut self.workers {
            worker.shutdown();
        }
        if let Some(live) = self.live.take() {
            match status {
                Some((status, panel)) => {
                    live.write(status, true, || panel).map_err(|e| RefereeError::Output(e.to_string()))?
                }
                // The last page of an interrupted run says so, and how to go on.
                None if self.interrupted => {
                    let resume = if self.record.is_some() { "; the same command resumes" } else { "" };
                    let status =
                        format!("interrupted: {} of {} games played{resume}", self.results.len(), self.planned);
                    let panel = || self.competition.live_panel(&self.field, &self.results);
                    if let Err(e) = live.write(&status, true, panel) {
                        log::warn!("--live: {e}");
                    }
                }
                None => self.counted().write_live(&live, true),
            }
        }
        Ok(())
    }

    fn counted(&self) -> Counted<'_> {
        Counted { field: &self.field, competition: &*self.competition, results: &self.results, planned: self.planned }
    }

    /// Writes the live page now (before the first game).
    pub fn write_live_now(&self) -> Result<(), RefereeError> {
        if let Some(live) = &self.live {
            let status = self.competition.live_status(&self.field, &self.results, self.planned);
            live.write(&status, false, || self.competition.live_panel(&self.field, &self.results))
                .map_err(|e| RefereeError::Output(e.to_string()))?;
        }
        Ok(())
    }

    /// The lines printed after an interruption (on stderr): what was played and the
    /// command that resumes.
    pub fn interruption(&self) -> String {
        let command: Vec<String> = std::env::args().map(|word| crate::referee::words::quote(&word)).collect();
        let played = format!("{} of {} games played", self.results.len(), self.planned);
        match self.record_path() {
            Some(_) => format!("interrupted: {played}; to resume, run the same command:\n  {}\n", command.join(" ")),
            None => format!("interrupted: {played}; without --record the games are not kept\n"),
        }
    }
}

/// The output options.
#[derive(Clone, Copy)]
struct Output {
    quiet: bool,
    /// Whether the progress line is shown (stderr is a terminal).
    progress: bool,
    started: Instant,
    rating_interval: Option<usize>,
}

/// The games counted so far, as the output sees them.
struct Counted<'c> {
    field: &'c Field,
    competition: &'c dyn Competition,
    results: &'c [GameResult],
    planned: usize,
}

impl Counted<'_> {
    /// Rewrites the live page when due (or now, when `finished`).
    fn write_live(&self, live: &LiveBoard, finished: bool) {
        let status = self.competition.live_status(self.field, self.results, self.planned);
        if let Err(e) = live.write(&status, finished, || self.competition.live_panel(self.field, self.results)) {
            log::warn!("--live: {e}");
        }
    }
}

impl Output {
    /// Prints a finished game's line, the standings when due and the progress line
    /// (`finished_now`: games finished in this run).
    fn report_game(&self, counted: &Counted, finished_now: usize, scheduled: &ScheduledGame, played: &PlayedGame) {
        let Counted { field, competition, results, planned } = *counted;
        if self.progress {
            eprint!("\r\x1b[K");
        }
        let mut out = std::io::stdout().lock();
        // A closed stdout must not stop the games: the record file is what counts.
        if !self.quiet {
            let _ = writeln!(out, "{}", competition.game_line(field, scheduled, played));
        }
        if let Some(n) = self.rating_interval
            && results.len().is_multiple_of(n)
        {
            let _ = write!(out, "{}", competition.standings(field, results, planned));
        }
        let _ = out.flush();
        if self.progress {
            let left = planned.saturating_sub(results.len());
            let eta = (left > 0).then(|| self.started.elapsed().mul_f64(left as f64 / finished_now.max(1) as f64));
            eprint!("{}", competition.progress_line(field, results, planned, eta));
            let _ = std::io::stderr().flush();
        }
    }
}

/// How long a game an engine lost by crashing waits for the signal that stops the referee:
/// a scheduler's SIGTERM reaches every process of the job, the engines (which die of it)
/// maybe a moment before the referee.
const STOP_GRACE: Duration = Duration::from_millis(200);

/// Whether `played` ended by an engine's failure (not a move, a resignation or an illegal
/// move) while a signal stopped the referee: the signal ended it, not the engine, so it is
/// not recorded, and the resume plays it again.
fn ended_by_the_stop(played: &PlayedGame) -> bool {
    if played.stopped || !played.termination.voids_before_a_move() {
        return false;
    }
    let give_up = Instant::now() + STOP_GRACE;
    loop {
        if crate::referee::process::stop_requested() {
            return true;
        }
        if played.termination != crate::referee::game::Termination::Crash || Instant::now() >= give_up {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// What [`finished`] writes to.
struct FinishState<'r> {
    record: Option<&'r mut RecordFile>,
    records: Option<&'r mut Vec<GameRecord>>,
    results: &'r mut Vec<GameResult>,
    date: &'r str,
}

/// Records and counts a finished game.
fn finished(
    field: &Field,
    competition: &mut dyn Competition,
    state: &mut FinishState,
    scheduled: &ScheduledGame,
    played: &PlayedGame,
) -> Result<(), RefereeError> {
    if state.record.is_some() || state.records.is_some() {
        let game_record = competition.record(field, scheduled, played, state.date);
        if let Some(record) = state.record.as_mut() {
            append_game(&mut record.file, &record.path, &game_record.to_string())?;
        }
        if let Some(records) = state.records.as_mut() {
            records.push(game_record);
        }
    }
    let result = GameResult::of(scheduled, played);
    competition.add(&result);
    state.results.push(result);
    Ok(())
}
