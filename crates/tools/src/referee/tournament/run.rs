//! Running a tournament: the plan (engines probed and named, schedule, shard), the
//! workers that play games through [`crate::referee::game::play_game`], the record
//! file and resume, and the output. Knockouts are driven round by round in
//! [`super::knockout`].

use std::collections::HashMap;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::referee::RefereeError;
use crate::referee::engine::{Engine, EngineCommand};
use crate::referee::game::{GameSettings, PlayedGame, Termination, play_game_observed};
use crate::referee::openings::OpeningBook;
use crate::referee::record_file::{append_game, open_record_file};
use crate::referee::runner::{check_engines, engine_name, today};
use crate::referee::tournament::field::{self, EngineDef, EngineOptions};
use crate::referee::tournament::schedule::{Format, Schedule, ScheduledGame, check_knockout};
use crate::referee::tournament::{ShardSpec, TournamentArgs, knockout};
use crate::report::{LiveBoard, LiveGame};
use veletas_rules::record::GameRecord;
use veletas_rules::{Color, Move};

/// One game's result, with the engines as they played it (after a swap, if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's identity (`Game` tag).
    pub id: String,
    /// The schedule or knockout round, from 1.
    pub round: usize,
    /// The engine that played Black (index in the field).
    pub black: usize,
    /// The engine that played White.
    pub white: usize,
    /// The winner's colour.
    pub winner: Color,
    /// How it ended.
    pub termination: Termination,
    /// Whether an engine's `final_score` disagreed with the result.
    pub disagreement: bool,
}

impl GameResult {
    /// The winning engine.
    pub fn winner_engine(&self) -> usize {
        if self.winner == Color::Black { self.black } else { self.white }
    }
}

/// What a tournament played: every game counted (resumed ones included) and notes.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentReport {
    /// The engines' names, in field order.
    pub names: Vec<String>,
    /// The games this run was to count (its shard's, or all).
    pub planned: usize,
    /// The games counted, resumed ones first.
    pub results: Vec<GameResult>,
    /// A knockout's rounds: each match's engines, score and winner; and the champion.
    pub knockout: Option<knockout::KnockoutReport>,
    /// The `Tournament` tag: the fingerprint of the schedule.
    pub fingerprint: String,
    /// This run's shard, (K, N), and the games of the whole schedule, when sharded.
    pub shard: Option<((usize, usize), usize)>,
}

/// Everything fixed before the first game.
pub(super) struct Plan {
    pub(super) defs: Vec<EngineDef>,
    pub(super) names: Vec<String>,
    pub(super) book: OpeningBook,
    pub(super) format: Format,
    pub(super) games_per_pair: usize,
    pub(super) schedule: Option<Schedule>,
    /// This process's shard: (K, N).
    pub(super) shard: Option<(usize, usize)>,
    margin: f64,
    command_timeout: Duration,
    event: String,
    pub(super) fingerprint: String,
    log: Option<PathBuf>,
    record: Option<PathBuf>,
}

fn usage(message: impl Into<String>) -> RefereeError {
    RefereeError::Usage(message.into())
}

/// `path` with `{shard}` replaced by the shard number.
fn with_shard(path: &Path, shard: Option<(usize, usize)>) -> PathBuf {
    let text = path.to_string_lossy();
    match shard {
        Some((k, _)) if text.contains("{shard}") => PathBuf::from(text.replace("{shard}", &k.to_string())),
        _ => path.to_path_buf(),
    }
}

/// FNV-1a, 64 bits: a stable fingerprint of the schedule's description.
fn fnv1a(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

impl Plan {
    fn new(args: &TournamentArgs) -> Result<Plan, RefereeError> {
        let common = &args.common;
        let default_control =
            crate::referee::TimeControl::from_options(common.movetime, common.clock, common.byoyomi).map_err(usage)?;
        let (mut entries, mut each) = match &args.engines_file {
            Some(path) => field::read_engines_file(path).map_err(usage)?,
            None => (Vec::new(), EngineOptions::default()),
        };
        entries.extend(args.engines.iter().map(|text| field::entry_from_flag(text)));
        if entries.len() < 2 {
            return Err(usage(format!(
                "a tournament needs at least two engines (--engine or --engines), not {}",
                entries.len()
            )));
        }
        for pair in &args.each {
            each.set_pair(pair).map_err(|e| usage(format!("--each {pair}: {e}")))?;
        }
        for option in &args.options {
            field::apply_option(&mut entries, option).map_err(usage)?;
        }
        let defs = field::resolve(&entries, &each, default_control).map_err(usage)?;
        if common.concurrency == 0 {
            return Err(usage("--concurrency must be at least 1"));
        }
        let book = OpeningBook::new(common).map_err(usage)?;
        let schedule = match args.format {
            Format::Knockout => {
                check_knockout(defs.len(), args.games_per_pair).map_err(usage)?;
                if args.rounds != 1 {
                    return Err(usage("--rounds does not apply to a knockout"));
                }
                None
            }
            format => Some(Schedule::new(format, defs.len(), args.games_per_pair, args.rounds).map_err(usage)?),
        };
        let shard = match args.shard {
            None => None,
            Some(_) if args.format == Format::Knockout => {
                return Err(usage("--shard: a knockout's later rounds depend on results, so it cannot be sharded"));
            }
            Some(spec) => Some((spec.resolve(|name| std::env::var(name).ok()).map_err(usage)?, spec.count())),
        };
        let record = common.record.as_deref().map(|p| with_shard(p, shard));
        let log = common
            .engine_log
            .as_deref()
            .map(|p| with_shard(p, shard))
            .or_else(|| record.as_deref().map(crate::referee::engine_log_beside));
        Ok(Plan {
            names: Vec::new(),
            defs,
            book,
            format: args.format,
            games_per_pair: args.games_per_pair,
            schedule,
            shard,
            margin: common.margin,
            command_timeout: Duration::from_secs_f64(common.command_timeout.clamp(0.001, 1e6)),
            event: args.event.clone(),
            fingerprint: String::new(),
            log,
            record,
        })
    }

    /// Starts every engine once (in parallel): each must answer `protocol_version` and
    /// `name` ([`crate::check::startup`]), or the tournament is refused before any game.
    /// Then names the field and computes the fingerprint.
    fn probe(&mut self) -> Result<(), RefereeError> {
        let timeout = self.command_timeout;
        let log = self.log.clone();
        let probed: Vec<Result<String, RefereeError>> = thread::scope(|scope| {
            let handles: Vec<_> = self
                .defs
                .iter()
                .map(|def| {
                    let log = log.clone();
                    scope.spawn(move || {
                        let mut engine = Engine::new(def.command.clone(), log);
                        let result = match engine.ensure_running() {
                            Err(e) => {
                                Err(RefereeError::Engine { command: def.command.text.clone(), detail: e.to_string() })
                            }
                            Ok(_) => engine_name(&mut engine, timeout),
                        };
                        engine.quit(Duration::from_millis(500));
                        result
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err(usage("the start-up of an engine failed"))))
                .collect()
        });
        let mut raw = Vec::new();
        for (def, result) in self.defs.iter().zip(probed) {
            let replied = result.map_err(|e| match (&def.name, e) {
                (Some(name), RefereeError::Engine { detail, .. }) => {
                    RefereeError::Engine { command: format!("{name}={}", def.command.text), detail }
                }
                (Some(name), RefereeError::Refused { detail, .. }) => {
                    RefereeError::Refused { command: format!("{name}={}", def.command.text), detail }
                }
                (_, e) => e,
            })?;
            raw.push(def.name.clone().unwrap_or(replied));
        }
        let fixed: Vec<bool> = self.defs.iter().map(|d| d.name.is_some()).collect();
        let commands: Vec<&EngineCommand> = self.defs.iter().map(|d| &d.command).collect();
        self.names = field::distinct_names(&raw, &fixed, &commands);
        self.fingerprint = fnv1a(&self.describe());
        Ok(())
    }

    /// Everything that fixes the games: the fingerprint's text.
    fn describe(&self) -> String {
        let engines: Vec<String> =
            self.defs.iter().zip(&self.names).map(|(d, n)| format!("{n}@{}", d.time_control)).collect();
        let counts = self.schedule.as_ref().map_or(0, Schedule::len);
        format!(
            "format={};games-per-pair={};games={counts};size={};rules={};openings={};engines={}",
            self.format,
            self.games_per_pair,
            self.book.variant.size(),
            self.book.rules,
            self.book.describe(),
            engines.join("|")
        )
    }

    /// Whether this process plays game `index` of the schedule.
    fn in_shard(&self, index: usize) -> bool {
        self.shard.is_none_or(|(k, n)| ShardSpec::contains(k, n, index))
    }

    /// The record of a played game.
    fn to_record(&self, scheduled: &ScheduledGame, played: &PlayedGame, date: &str) -> GameRecord {
        let (black, white) = self.played_engines(scheduled, played);
        let head = [
            ("Event", self.event.clone()),
            ("Date", date.to_string()),
            ("Round", scheduled.round.to_string()),
            ("Game", scheduled.id.clone()),
            ("Tournament", self.fingerprint.clone()),
            ("Black", self.names[black].clone()),
            ("White", self.names[white].clone()),
        ];
        let swap = format!("white swapped: {} made Black's setup and then played White", self.names[black]);
        let (tb, tw) = (self.defs[scheduled.black].time_control, self.defs[scheduled.white].time_control);
        let control = if tb == tw { tb.to_string() } else { format!("black {tb}; white {tw}") };
        played.record(&head, &control, &swap)
    }

    /// The engines that played Black and White, after a swap if there was one.
    fn played_engines(&self, scheduled: &ScheduledGame, played: &PlayedGame) -> (usize, usize) {
        if played.swapped { (scheduled.white, scheduled.black) } else { (scheduled.black, scheduled.white) }
    }

    /// Checks a recorded game against the game the schedule plans under its id.
    pub(super) fn recorded_result(&self, game: &GameRecord, expected: &ScheduledGame) -> Result<GameResult, String> {
        let id = &expected.id;
        let opening = self.book.opening(expected.encounter).to_string();
        if game.tag("Opening") != Some(opening.as_str()) {
            return Err(format!(
                "game {id} has opening '{}', this tournament plays '{opening}'",
                game.tag("Opening").unwrap_or("")
            ));
        }
        let swapped = game.tag("Swap").is_some();
        let (black, white) = if swapped { (expected.white, expected.black) } else { (expected.black, expected.white) };
        for (tag, engine) in [("Black", black), ("White", white)] {
            if game.tag(tag) != Some(self.names[engine].as_str()) {
                return Err(format!(
                    "game {id} has {tag} '{}', this tournament plays '{}' there",
                    game.tag(tag).unwrap_or(""),
                    self.names[engine]
                ));
            }
        }
        let winner = game.winner().ok_or_else(|| format!("game {id} has no result"))?;
        let termination = game.tag("Termination").and_then(Termination::from_name).unwrap_or(Termination::Normal);
        Ok(GameResult {
            id: id.clone(),
            round: expected.round,
            black,
            white,
            winner,
            termination,
            disagreement: game.tag("Disagreement").is_some(),
        })
    }
}

/// A worker: one thread's engine processes, started when first needed.
pub(super) struct Worker {
    engines: Vec<Option<Engine>>,
}

impl Worker {
    fn new(field: usize) -> Worker {
        Worker { engines: (0..field).map(|_| None).collect() }
    }

    fn take(&mut self, plan: &Plan, index: usize) -> Engine {
        self.engines[index].take().unwrap_or_else(|| Engine::new(plan.defs[index].command.clone(), plan.log.clone()))
    }

    /// Plays `scheduled`; `live` is the live page and this worker's slot in it.
    fn play(&mut self, plan: &Plan, scheduled: &ScheduledGame, live: Option<(&LiveBoard, usize)>) -> PlayedGame {
        let (a, b) = (scheduled.black, scheduled.white);
        let mut pair = [self.take(plan, a), self.take(plan, b)];
        let settings = GameSettings {
            time_controls: [plan.defs[a].time_control, plan.defs[b].time_control],
            margin: plan.margin,
            command_timeout: plan.command_timeout,
        };
        let opening = plan.book.opening(scheduled.encounter);
        let mut observer = |game: &veletas_rules::Game| {
            if let Some((board, slot)) = live {
                let swapped = game.moves().any(|m| m == Move::Swap);
                let (black, white) = if swapped { (b, a) } else { (a, b) };
                let label = format!("game {} (round {})", scheduled.id, scheduled.round);
                let (black, white) = (plan.names[black].clone(), plan.names[white].clone());
                board.set(slot, Some(LiveGame { label, black, white, game: game.clone() }));
            }
        };
        let played = play_game_observed(&mut pair, &settings, scheduled.index, &opening, true, &mut observer);
        if let Some((board, slot)) = live {
            board.set(slot, None);
        }
        let [one, two] = pair;
        for (index, mut engine) in [(a, one), (b, two)] {
            if plan.defs[index].restart {
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

/// The running state: workers, the record file, results and output.
pub(super) struct Runner<'a> {
    pub(super) plan: &'a Plan,
    workers: Vec<Worker>,
    record: Option<File>,
    /// Recorded games by id (resume).
    pub(super) recorded: HashMap<String, GameRecord>,
    pub(super) results: Vec<GameResult>,
    date: String,
    quiet: bool,
    progress: bool,
    started: Instant,
    finished_now: usize,
    pub(super) planned: usize,
    /// The live page (`--live`).
    live: Option<LiveBoard>,
    /// Every counted game's record, when `--report` asks for them.
    records: Option<Vec<GameRecord>>,
}

impl Runner<'_> {
    /// The result of game `scheduled` if the record file holds it.
    pub(super) fn resumed(&mut self, scheduled: &ScheduledGame) -> Result<Option<GameResult>, RefereeError> {
        let Some(game) = self.recorded.remove(&scheduled.id) else { return Ok(None) };
        let path = self.plan.record.clone().unwrap_or_default();
        let result = self.plan.recorded_result(&game, scheduled).map_err(|e| RefereeError::Record {
            path,
            detail: format!("holds games of a different tournament ({e}); use --overwrite or another --record"),
        })?;
        if let Some(records) = self.records.as_mut() {
            records.push(game);
        }
        Ok(Some(result))
    }

    /// Plays `games` on the workers, recording and reporting each as it finishes.
    pub(super) fn play(&mut self, games: Vec<ScheduledGame>) -> Result<(), RefereeError> {
        if games.is_empty() {
            return Ok(());
        }
        let threads = self.workers.len().min(games.len());
        let queue = Mutex::new(games.into_iter());
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(ScheduledGame, PlayedGame)>();
        let plan = self.plan;
        let mut failure = None;
        let mut workers = std::mem::take(&mut self.workers);
        let live = self.live.take();
        thread::scope(|scope| {
            for (slot, worker) in workers.iter_mut().take(threads).enumerate() {
                let (tx, queue, stop, live) = (tx.clone(), &queue, &stop, live.as_ref());
                scope.spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        let Some(scheduled) = queue.lock().ok().and_then(|mut q| q.next()) else { break };
                        let played = worker.play(plan, &scheduled, live.map(|l| (l, slot)));
                        if tx.send((scheduled, played)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            loop {
                let wait =
                    live.as_ref().map_or(Duration::from_secs(3600), |l| l.until_due().max(Duration::from_millis(20)));
                match rx.recv_timeout(wait) {
                    Ok((scheduled, played)) => {
                        if failure.is_none()
                            && let Err(e) = self.finished(&scheduled, &played)
                        {
                            failure = Some(e);
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                if let Some(live) = &live {
                    self.write_live(live, false);
                }
            }
        });
        self.live = live;
        self.workers = workers;
        if self.progress {
            eprint!("\r\x1b[K");
        }
        failure.map_or(Ok(()), Err)
    }

    /// Rewrites the live page when due (or now, when `finished`): the standings so far.
    fn write_live(&self, live: &LiveBoard, finished: bool) {
        let status = format!("{} of {} games played", self.results.len(), self.planned);
        let panel = || match super::report::standings(&self.plan.names, &self.results, None) {
            Ok(Some(standings)) => crate::report::standings_panel(&standings, ""),
            Ok(None) => r#"<div id="report"><div class="report-inner"><p>No game finished yet.</p></div></div>"#.into(),
            Err(e) => format!(r#"<div id="report"><p>{}</p></div>"#, crate::picture::html_escape(&e)),
        };
        if let Err(e) = live.write(&status, finished, panel) {
            log::warn!("--live: {e}");
        }
    }

    fn finished(&mut self, scheduled: &ScheduledGame, played: &PlayedGame) -> Result<(), RefereeError> {
        let plan = self.plan;
        if self.record.is_some() || self.records.is_some() {
            let game_record = plan.to_record(scheduled, played, &self.date);
            if let Some(file) = self.record.as_mut() {
                append_game(file, plan.record.as_deref().unwrap_or(Path::new("")), &game_record.to_string())?;
            }
            if let Some(records) = self.records.as_mut() {
                records.push(game_record);
            }
        }
        let (black, white) = plan.played_engines(scheduled, played);
        let result = GameResult {
            id: scheduled.id.clone(),
            round: scheduled.round,
            black,
            white,
            winner: played.winner,
            termination: played.termination,
            disagreement: played.disagreement.is_some(),
        };
        self.finished_now += 1;
        if self.progress {
            eprint!("\r\x1b[K");
        }
        if !self.quiet {
            let line = format!(
                "game {} (round {}): {}",
                scheduled.id,
                scheduled.round,
                played.report_line(&plan.names[black], &plan.names[white])
            );
            // A closed stdout must not stop the tournament: the record file is what counts.
            let _ = writeln!(std::io::stdout(), "{line}");
        }
        self.results.push(result);
        if self.progress {
            eprint!("{}", self.progress_line());
            let _ = std::io::stderr().flush();
        }
        Ok(())
    }

    /// `[done/planned] leader score, ETA`.
    fn progress_line(&self) -> String {
        let mut points = vec![0usize; self.plan.names.len()];
        let mut games = vec![0usize; self.plan.names.len()];
        for r in &self.results {
            points[r.winner_engine()] += 1;
            games[r.black] += 1;
            games[r.white] += 1;
        }
        let mut line = format!("[{}/{}]", self.results.len(), self.planned);
        if let Some(best) = (0..points.len()).max_by_key(|&i| (points[i] * 1000).checked_div(games[i]).unwrap_or(0)) {
            line.push_str(&format!(" leader {} {}/{}", self.plan.names[best], points[best], games[best]));
        }
        let left = self.planned.saturating_sub(self.results.len());
        if self.finished_now > 0 && left > 0 {
            let secs = self.started.elapsed().mul_f64(left as f64 / self.finished_now as f64).as_secs();
            line.push_str(&format!(", ETA {}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60));
        }
        line
    }
}

/// Plays the tournament `args` describe and returns what it played. Prints a line per
/// game (unless `--quiet`) and a progress line on stderr when it is a terminal; the
/// caller prints the standings.
pub fn run_tournament(args: &TournamentArgs) -> Result<TournamentReport, RefereeError> {
    let mut plan = Plan::new(args)?;
    let engines_file = args.engines_file.as_deref().map(|path| ("--engines", path));
    args.common.check_outputs(plan.record.as_deref(), plan.log.as_deref(), engines_file.as_slice())?;
    args.common.warn_about_concurrency();
    if args.common.check {
        let commands: Vec<&EngineCommand> = plan.defs.iter().map(|d| &d.command).collect();
        check_engines(&commands, &plan.book, plan.margin, plan.command_timeout)?;
    }
    plan.probe()?;
    let (recorded, record) = match &plan.record {
        Some(path) => {
            let common = &args.common;
            let (games, file) = open_record_file(path, common.resume, common.overwrite, common.wait)?;
            let mut by_id = HashMap::new();
            for (i, game) in games.into_iter().enumerate() {
                let detail = |what: String| RefereeError::Record {
                    path: path.clone(),
                    detail: format!("game {} of the file: {what}; use --overwrite or another --record", i + 1),
                };
                if game.tag("Tournament") != Some(plan.fingerprint.as_str()) {
                    return Err(detail(format!(
                        "it belongs to another tournament (Tournament tag '{}', this one is '{}')",
                        game.tag("Tournament").unwrap_or(""),
                        plan.fingerprint
                    )));
                }
                let Some(id) = game.tag("Game").map(str::to_string) else {
                    return Err(detail("no Game tag".into()));
                };
                by_id.entry(id).or_insert(game);
            }
            (by_id, Some(file))
        }
        None => (HashMap::new(), None),
    };
    let mut runner = Runner {
        plan: &plan,
        workers: (0..args.common.concurrency).map(|_| Worker::new(plan.defs.len())).collect(),
        record,
        recorded,
        results: Vec::new(),
        date: today(),
        quiet: args.common.quiet,
        progress: !args.common.quiet && std::io::stderr().is_terminal(),
        started: Instant::now(),
        finished_now: 0,
        planned: 0,
        live: args.common.live.as_deref().map(|path| LiveBoard::new(path, &args.event, args.common.concurrency)),
        records: args.common.report.is_some().then(Vec::new),
    };
    let outcome = match &plan.schedule {
        Some(schedule) => play_schedule(&mut runner, schedule).map(|()| None),
        None => knockout::play_knockout(&mut runner).map(Some),
    };
    for worker in &mut runner.workers {
        worker.shutdown();
    }
    let knockout = outcome?;
    if let Some(live) = runner.live.take() {
        runner.write_live(&live, true);
    }
    if let (Some(path), Some(records)) = (&args.common.report, runner.records.take()) {
        write_report(path, args, &plan, &runner.results, records).map_err(|e| usage(format!("--report: {e}")))?;
    }
    Ok(TournamentReport {
        names: plan.names.clone(),
        planned: runner.planned,
        results: runner.results,
        knockout,
        fingerprint: plan.fingerprint.clone(),
        shard: plan.shard.zip(plan.schedule.as_ref().map(Schedule::len)),
    })
}

/// Writes the report page: the standings (as the summary rates them) and every counted game.
fn write_report(
    path: &Path,
    args: &TournamentArgs,
    plan: &Plan,
    results: &[GameResult],
    records: Vec<GameRecord>,
) -> Result<(), String> {
    let file = plan.record.as_ref().map_or("this tournament".to_string(), |p| p.display().to_string());
    let lead = format!("Tournament {} ({}): {} games.", plan.fingerprint, plan.format, results.len());
    let panel = match super::report::standings(&plan.names, results, args.anchor.as_deref())? {
        Some(standings) => crate::report::standings_panel(&standings, &lead),
        None => format!(
            r#"<div id="report" data-tab="Standings"><div class="report-inner"><p>{}</p><p>No games: nothing to rate.</p></div></div>"#,
            crate::picture::html_escape(&lead)
        ),
    };
    let page = crate::report::page(&[(file, records)], &args.event, &panel)?;
    crate::picture::write_output(Some(path), page.as_bytes())
}

/// The games `args` would play in this process, one line each, without starting any
/// engine: `game ID (round R): BLACK (black) vs WHITE (white), opening OPENING`. A
/// knockout lists its first round.
pub fn dry_run(args: &TournamentArgs) -> Result<String, RefereeError> {
    let mut plan = Plan::new(args)?;
    let raw: Vec<String> = plan.defs.iter().map(|d| d.name.clone().unwrap_or_else(|| d.command.text.clone())).collect();
    let fixed: Vec<bool> = plan.defs.iter().map(|d| d.name.is_some()).collect();
    plan.names = field::unique_names(&raw, &fixed);
    let line = |g: &ScheduledGame| {
        format!(
            "game {} (round {}): {} (black) vs {} (white), opening {}\n",
            g.id,
            g.round,
            plan.names[g.black],
            plan.names[g.white],
            plan.book.opening(g.encounter)
        )
    };
    let mut out = String::new();
    match (&plan.schedule, plan.shard) {
        (Some(schedule), shard) => {
            let mine: Vec<ScheduledGame> = schedule.games().filter(|g| plan.in_shard(g.index)).collect();
            let shard = shard.map_or(String::new(), |(k, n)| format!(" (shard {k}/{n})"));
            out.push_str(&format!("{} of {} games{shard}\n", mine.len(), schedule.len()));
            mine.iter().for_each(|g| out.push_str(&line(g)));
        }
        (None, _) => {
            out.push_str("knockout round 1\n");
            for (slot, (a, b)) in crate::referee::tournament::schedule::bracket(plan.defs.len()).into_iter().enumerate()
            {
                match b {
                    None => out.push_str(&format!("{}: bye\n", plan.names[a])),
                    Some(b) => (0..plan.games_per_pair).for_each(|g| {
                        out.push_str(&line(&crate::referee::tournament::schedule::knockout_game(1, slot, g, a, b)))
                    }),
                }
            }
        }
    }
    Ok(out)
}

/// Plays a round robin or gauntlet: this shard's games not yet recorded.
fn play_schedule(runner: &mut Runner, schedule: &Schedule) -> Result<(), RefereeError> {
    let mut todo = Vec::new();
    for game in schedule.games() {
        // Games of other shards in the same file count too: they are the same tournament.
        if let Some(result) = runner.resumed(&game)? {
            runner.results.push(result);
        } else if runner.plan.in_shard(game.index) {
            todo.push(game);
        }
    }
    runner.planned = runner.results.len() + todo.len();
    if let Some((id, _)) = runner.recorded.iter().next() {
        return Err(RefereeError::Record {
            path: runner.plan.record.clone().unwrap_or_default(),
            detail: format!(
                "holds game '{id}', which this tournament does not have; use --overwrite or another --record"
            ),
        });
    }
    runner.play(todo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_is_stable_and_sensitive() {
        assert_eq!(fnv1a(""), "cbf29ce484222325");
        assert_eq!(fnv1a("a"), "af63dc4c8601ec8c");
        assert_ne!(fnv1a("format=round-robin"), fnv1a("format=gauntlet"));
    }

    #[test]
    fn shard_numbers_fill_in_paths() {
        assert_eq!(with_shard(Path::new("t-{shard}.txt"), Some((2, 3))), PathBuf::from("t-2.txt"));
        assert_eq!(with_shard(Path::new("t.txt"), Some((2, 3))), PathBuf::from("t.txt"));
        assert_eq!(with_shard(Path::new("t-{shard}.txt"), None), PathBuf::from("t-{shard}.txt"));
    }
}
