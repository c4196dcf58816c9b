//! Running a tournament: the plan (engines, schedule, shard, fingerprint) and what a
//! tournament prints and writes about its games. The engines, workers, record file,
//! resume, live page and progress are the runner's ([`crate::referee::runner`]), the same
//! as a match's; knockouts are driven round by round in [`super::knockout`].

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use crate::referee::error::RefereeError;
use crate::referee::field::{self, EngineFlags};
use crate::referee::game::PlayedGame;
use crate::referee::plan::{CommonPlan, Existing, RecordPlan};
use crate::referee::runner::{
    Competition, EngineDef, EnginesMismatch, Field, GameResult, NewFiles, PlaceError, Runner, ScheduledGame,
    played_engines, unique_names,
};
use crate::referee::summary::{GameOutcome, SprtSpec, Tally};
use crate::referee::tournament::end::StandingsError;
use crate::referee::tournament::growth::{self, GrowError, Settings};
use crate::referee::tournament::schedule::{Format, Schedule, check_knockout, fnv1a};
use crate::referee::tournament::{ShardSpec, TournamentPlan, knockout};
use crate::stats::SprtDecision;
use veletas_rules::record::{GameRecord, TimeControls, read_games, tag};

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
    /// The `Tournament` tag: the fingerprint of the schedule (the one the record file's
    /// games have, when this run grew a tournament).
    pub fingerprint: String,
    /// This run's shard, (K, N), and the games of the whole schedule, when sharded.
    pub shard: Option<((usize, usize), usize)>,
    /// With `--sprt` (two engines): the SPRT of the first engine against the second.
    pub sprt: Option<crate::referee::summary::SprtReport>,
    /// Set when a signal stopped the tournament: what was played and how to resume.
    pub interrupted: Option<String>,
}

/// Everything fixed before the first game, besides the field.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Plan {
    pub(super) format: Format,
    pub(super) games_per_pair: usize,
    rounds: usize,
    pub(super) schedule: Option<Schedule>,
    /// This process's shard: (K, N).
    pub(super) shard: Option<(usize, usize)>,
    log: Option<PathBuf>,
    record: Option<RecordPlan>,
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

impl Plan {
    /// Validates the schedule of `engines` (see [`super::TournamentPlan::new`]) and reads
    /// the engines into their definitions.
    pub(super) fn new(
        engines: &EngineFlags,
        format: Format,
        games_per_pair: usize,
        rounds: usize,
        shard: Option<ShardSpec>,
        common: &CommonPlan,
    ) -> Result<(Plan, Vec<EngineDef>), RefereeError> {
        let (entries, each) = engines.entries().map_err(RefereeError::options)?;
        if entries.len() < 2 {
            return Err(usage(format!(
                "a tournament needs at least two engines (--engine or --engines), not {}",
                entries.len()
            )));
        }
        let defs = field::resolve(&entries, &each, common.time_control()).map_err(RefereeError::options)?;
        if common.sprt().is_some() && defs.len() != 2 {
            return Err(usage(format!(
                "--sprt tests the first engine against the second: it needs exactly two engines, not {}",
                defs.len()
            )));
        }
        let schedule = match format {
            Format::Knockout => {
                check_knockout(defs.len(), games_per_pair).map_err(RefereeError::options)?;
                if rounds != 1 {
                    return Err(usage("--rounds does not apply to a knockout"));
                }
                if common.sprt().is_some() {
                    return Err(usage("--sprt does not apply to a knockout (its tie-breaks decide)"));
                }
                None
            }
            format => Some(Schedule::new(format, defs.len(), games_per_pair, rounds).map_err(RefereeError::options)?),
        };
        let shard = match shard {
            None => None,
            Some(_) if format == Format::Knockout => {
                return Err(usage("--shard: a knockout's later rounds depend on results, so it cannot be sharded"));
            }
            Some(_) if common.sprt().is_some() => {
                return Err(usage("--sprt decides on all the games: it cannot be used with --shard"));
            }
            Some(spec) => {
                Some((spec.resolve(|name| std::env::var(name).ok()).map_err(RefereeError::options)?, spec.count()))
            }
        };
        let record = common.record().map(|r| r.at(with_shard(r.path(), shard)));
        let log = common
            .engine_log()
            .map(|p| with_shard(p, shard))
            .or_else(|| record.as_ref().map(|r| crate::referee::plan::engine_log_beside(r.path())));
        let plan = Plan { format, games_per_pair, rounds, schedule, shard, log, record };
        Ok((plan, defs))
    }

    /// Everything that fixes the games: the fingerprint's text.
    fn describe(&self, field: &Field) -> String {
        let engines: Vec<String> =
            field.defs.iter().zip(&field.names).map(|(d, n)| format!("{n}@{}", d.time_control)).collect();
        let counts = self.schedule.as_ref().map_or(0, Schedule::len);
        format!(
            "format={};games-per-pair={};games={counts};size={};rules={};openings={};engines={}",
            self.format,
            self.games_per_pair,
            field.book.variant.size(),
            field.book.rules,
            field.book.describe(),
            engines.join("|")
        )
    }

    /// The settings that fix the schedule, as the `Schedule` tag writes them.
    fn settings(&self, field: &Field) -> Settings {
        Settings::new(self.format, field.defs.len(), self.games_per_pair, self.rounds, &field.book)
    }

    /// This run's `settings` for the tournament the record file's games were played under
    /// (`recorded`, [`Settings::grown`]), and the schedule they make.
    fn grow(&mut self, settings: Settings, recorded: Option<&Settings>) -> Result<Settings, GrowError> {
        let settings = settings.grown(recorded)?;
        if self.schedule.is_some() {
            self.schedule = settings.schedule()?;
        }
        Ok(settings)
    }

    /// Whether this process plays game `index` of the schedule.
    fn in_shard(&self, index: usize) -> bool {
        self.shard.is_none_or(|(k, n)| ShardSpec::contains(k, n, index))
    }
}

/// What a tournament prints and writes.
struct TournamentCompetition {
    event: String,
    /// The fingerprint written: this run's, or that of the record file's games when this
    /// run grows their tournament.
    fingerprint: Rc<RefCell<String>>,
    /// This run's fingerprint: games that have it were played under these settings.
    own_fingerprint: String,
    /// This run's settings (the `Schedule` tag): grown from the record file's once it is read.
    settings: Rc<RefCell<Settings>>,
    /// With `--sprt` (two engines): the first engine's tally.
    sprt: Option<SprtSpec>,
    tally: Tally,
}

impl Competition for TournamentCompetition {
    fn add(&mut self, result: &GameResult) {
        if self.sprt.is_some() {
            self.tally.add(&GameOutcome {
                round: result.index,
                engine1_black: result.black == 0,
                winner: result.winner,
                termination: result.termination,
                disagreement: result.disagreement,
            });
        }
    }

    fn record(&self, field: &Field, scheduled: &ScheduledGame, played: &PlayedGame, date: &str) -> GameRecord {
        let (black, white) = played_engines(scheduled, played.swapped);
        let head = [
            (tag::EVENT, self.event.clone()),
            (tag::DATE, date.to_string()),
            (tag::ROUND, scheduled.round.to_string()),
            (tag::GAME, scheduled.id.clone()),
            (tag::TOURNAMENT, self.fingerprint.borrow().clone()),
            (tag::SCHEDULE, self.settings.borrow().to_string()),
            (tag::BLACK, field.names[black].clone()),
            (tag::WHITE, field.names[white].clone()),
        ];
        let swap = format!("white swapped: {} made Black's setup and then played White", field.names[black]);
        played.record(&head, &time_controls(field, black, white), &swap)
    }

    /// A game of another fingerprint keeps its place if its `Schedule` tag's schedule
    /// and this run's agree on it ([`growth::check_place`]); every game was played under
    /// the time controls this run gives its engines.
    fn check_place(&self, field: &Field, game: &GameRecord, scheduled: &ScheduledGame) -> Result<(), PlaceError> {
        if game.tag(tag::TOURNAMENT) != Some(self.own_fingerprint.as_str()) {
            let old: Settings = game
                .tag(tag::SCHEDULE)
                .ok_or(PlaceError::NoSchedule)?
                .parse()
                .map_err(|e| PlaceError::Schedule(Box::new(e)))?;
            growth::check_place(&old, &self.settings.borrow(), scheduled)
                .map_err(|e| PlaceError::Schedule(Box::new(e)))?;
        }
        let swapped = game.tag(tag::SWAP).is_some();
        let (black, white) = played_engines(scheduled, swapped);
        let expected = time_controls(field, black, white).to_string();
        // Before clocks followed the engines, a swapped game's tag named the colours at the start.
        let before = time_controls(field, scheduled.black, scheduled.white).to_string();
        match game.time_controls() {
            Ok(Some(controls)) if controls.to_string() == expected || swapped && controls.to_string() == before => {
                Ok(())
            }
            Ok(controls) => {
                Err(PlaceError::TimeControl { round: None, recorded: controls.map(|c| c.to_string()), expected })
            }
            Err(source) => Err(PlaceError::Record { round: None, source }),
        }
    }

    fn game_line(&self, field: &Field, scheduled: &ScheduledGame, played: &PlayedGame) -> String {
        let (black, white) = played_engines(scheduled, played.swapped);
        format!(
            "game {} (round {}): {}",
            scheduled.id,
            scheduled.round,
            played.report_line(&field.names[black], &field.names[white])
        )
    }

    fn live_label(&self, scheduled: &ScheduledGame) -> String {
        format!("game {} (round {})", scheduled.id, scheduled.round)
    }

    /// `[done/planned] leader score, ETA`.
    fn progress_line(&self, field: &Field, results: &[GameResult], planned: usize, eta: Option<Duration>) -> String {
        let mut points = vec![0usize; field.names.len()];
        let mut games = vec![0usize; field.names.len()];
        // Void games count for no one.
        for r in results {
            let Some(winner) = r.winner_engine() else { continue };
            points[winner] += 1;
            games[r.black] += 1;
            games[r.white] += 1;
        }
        let mut line = format!("[{}/{planned}]", results.len());
        if let Some(best) = (0..points.len()).max_by_key(|&i| (points[i] * 1000).checked_div(games[i]).unwrap_or(0)) {
            line.push_str(&format!(" leader {} {}/{}", field.names[best], points[best], games[best]));
        }
        if let Some(s) = self.tally.sprt(self.sprt) {
            line.push_str(&format!(", LLR {:.2}", s.llr));
        }
        if let Some(eta) = eta {
            let secs = eta.as_secs();
            line.push_str(&format!(", ETA {}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60));
        }
        line
    }

    fn live_panel(&self, field: &Field, results: &[GameResult]) -> String {
        match super::end::standings(&field.names, results, None) {
            Ok(Some(standings)) => crate::report::standings_panel(&standings, ""),
            Ok(None) => r#"<div id="report"><div class="report-inner"><p>No game finished yet.</p></div></div>"#.into(),
            Err(e) => format!(r#"<div id="report"><p>{}</p></div>"#, crate::picture::html_escape(&e.to_string())),
        }
    }

    fn standings(&self, field: &Field, results: &[GameResult], planned: usize) -> String {
        let void = results.iter().filter(|r| r.winner.is_none()).count();
        let void = if void > 0 { format!(" ({void} void, not counted)") } else { String::new() };
        let mut out = format!("Standings after {} of {planned} games{void}:\n", results.len());
        match super::end::standings(&field.names, results, None) {
            Ok(Some(standings)) => out.push_str(&standings.ranking_text()),
            Ok(None) => out.push_str("No games: nothing to rate.\n"),
            Err(e) => out.push_str(&format!("{e}\n")),
        }
        if let Some(s) = self.tally.sprt(self.sprt) {
            out.push_str(&format!("SPRT: LLR {:.2} [{:.2}, {:.2}]\n", s.llr, s.bounds.0, s.bounds.1));
        }
        out
    }

    fn decided(&self) -> bool {
        self.tally.sprt(self.sprt).is_some_and(|s| s.decision != SprtDecision::Continue)
    }

    /// A tournament's records name the engines (the fingerprint holds the names too).
    fn check_engines(
        &self,
        field: &Field,
        game: &GameRecord,
        black: usize,
        white: usize,
    ) -> Result<(), EnginesMismatch> {
        for (side, engine) in [(tag::BLACK, black), (tag::WHITE, white)] {
            if game.tag(side) != Some(field.names[engine].as_str()) {
                return Err(EnginesMismatch::Name {
                    side,
                    recorded: game.tag(side).unwrap_or("").to_string(),
                    name: field.names[engine].clone(),
                });
            }
        }
        Ok(())
    }

    fn noun(&self) -> &'static str {
        "tournament"
    }
}

/// The time controls of a game engines `black` and `white` played as Black and White
/// (after a swap, as they ended), as its record names them: clocks follow the engines.
fn time_controls(field: &Field, black: usize, white: usize) -> TimeControls {
    let (tb, tw) = (field.defs[black].time_control, field.defs[white].time_control);
    if tb == tw { TimeControls::Same(tb) } else { TimeControls::PerColor { black: tb, white: tw } }
}

/// Plays the tournament `args` describes and returns what it played. Prints a line per
/// game (unless `--quiet`) and a progress line on stderr when it is a terminal; the
/// caller prints the standings.
pub fn run_tournament(args: &TournamentPlan) -> Result<TournamentReport, RefereeError> {
    let common = args.common();
    let mut plan = args.games.clone();
    let record_path = plan.record.as_ref().map(RecordPlan::path);
    common.check_outputs(record_path, plan.log.as_deref(), args.engines_file.as_deref())?;
    // A record to resume that is not there is refused before any engine starts, as a match does.
    if let Some(record) = plan.record.as_ref().filter(|r| r.existing() == Existing::Required && !r.path().exists()) {
        return Err(crate::referee::record_file::not_there_to_resume(record.path()));
    }
    common.warn_about_concurrency();
    let created = NewFiles::before([plan.log.as_deref(), common.log_protocol()]);
    let mut field = Field::new(args.engines().to_vec(), common.book().clone(), plan.log.clone(), common)?;
    // From here on a first SIGINT or SIGTERM stops the games in order.
    crate::referee::process::stop_gracefully(true);
    // Refused, what this run created is removed (the record file is opened later).
    let engines = field.start(common.check()).inspect_err(|_| created.remove(None))?;
    let own = fnv1a(&plan.describe(&field));
    let mut settings = plan.settings(&field);
    let (size, rules) = (field.book.variant.size(), field.book.rules);
    let written = Rc::new(RefCell::new(own.clone()));
    let shared_settings = Rc::new(RefCell::new(settings.clone()));
    let competition = TournamentCompetition {
        event: args.event().to_string(),
        fingerprint: Rc::clone(&written),
        own_fingerprint: own.clone(),
        settings: Rc::clone(&shared_settings),
        sprt: common.sprt(),
        tally: Tally::default(),
    };
    let mut runner = Runner::new(field, Box::new(competition), common, args.event());
    runner.adopt(engines);
    let mut grown_from: Option<Settings> = None;
    if let Some(record) = plan.record.clone() {
        let path = record.path().to_path_buf();
        // The file's games all have the fingerprint of the first: this run's, or that of
        // the tournament this run grows (checked game by game when the schedule reaches them).
        let first: RefCell<Option<String>> = RefCell::new(None);
        let last_schedule: RefCell<Option<String>> = RefCell::new(None);
        runner.open_record(&record, |i, game| {
            let detail = |what: String| {
                RefereeError::record(
                    path.clone(),
                    format!("game {} of the file: {what}; use --overwrite or another --record", i + 1),
                )
            };
            let found = game.tag(tag::TOURNAMENT).unwrap_or("");
            let file = first.borrow_mut().get_or_insert_with(|| found.to_string()).clone();
            if found != file {
                return Err(detail(format!(
                    "it belongs to another tournament (Tournament tag '{}', the file's first game has '{}')",
                    veletas_rules::quoted(found),
                    veletas_rules::quoted(&file)
                )));
            }
            if found != own {
                if let Some(text) = game.tag(tag::SIZE).filter(|s| s.trim() != size.to_string()) {
                    return Err(detail(format!(
                        "the record was made with --size {}, this run has --size {size}",
                        veletas_rules::quoted(text)
                    )));
                }
                match game.rules() {
                    Ok(recorded) if recorded != rules => {
                        return Err(detail(format!(
                            "the record was made with --rules {recorded}, this run has --rules {rules}"
                        )));
                    }
                    _ => {}
                }
                if game.tag(tag::SCHEDULE).is_none() {
                    return Err(detail(format!(
                        "it belongs to another tournament (Tournament tag '{}', this one is '{own}'; the \
                         record has no Schedule tag to tell which setting differs)",
                        veletas_rules::quoted(found)
                    )));
                }
            }
            *last_schedule.borrow_mut() = game.tag(tag::SCHEDULE).map(str::to_string);
            match game.tag(tag::GAME) {
                Some(id) => Ok(Some(id.to_string())),
                None => Err(detail("no Game tag".into())),
            }
        })?;
        if let Some(file) = first.into_inner() {
            *written.borrow_mut() = file;
        }
        grown_from = last_schedule.into_inner().and_then(|text| text.parse().ok());
        // A bigger field than the record's grows it by a segment: the record's engines
        // must be this run's first ones.
        settings = plan.grow(settings, grown_from.as_ref()).map_err(|e| RefereeError::record(path.clone(), e))?;
        if grown_from.as_ref().is_some_and(|old| old.engines.len() < settings.engines.len()) {
            let mut recorded: Vec<&(usize, GameRecord)> = runner.recorded().map(|(_, game)| game).collect();
            recorded.sort_by_key(|(position, _)| *position);
            growth::check_field(&runner.field().names, recorded.iter().map(|(_, game)| game))
                .map_err(|e| RefereeError::record(path.clone(), growth::FieldRefused(e)))?;
        }
        *shared_settings.borrow_mut() = settings.clone();
    }
    let fingerprint = written.borrow().clone();
    let outcome = match &plan.schedule {
        Some(schedule) => play_schedule(&mut runner, &plan, schedule, &settings, grown_from.as_ref()).map(|()| None),
        None => knockout::play_knockout(&mut runner, plan.games_per_pair),
    };
    runner.finish(None)?;
    let knockout = outcome?;
    if let (Some(path), Some(records)) = (common.report(), runner.take_records()) {
        write_report(path, args, &plan, &fingerprint, &runner, records)
            .map_err(|e| RefereeError::Output(format!("--report: {e}")))?;
    }
    let sprt = common.sprt().and_then(|spec| {
        let mut tally = Tally::default();
        runner.results().iter().for_each(|r| {
            tally.add(&GameOutcome {
                round: r.index,
                engine1_black: r.black == 0,
                winner: r.winner,
                termination: r.termination,
                disagreement: r.disagreement,
            });
        });
        tally.sprt(Some(spec))
    });
    Ok(TournamentReport {
        names: runner.field().names.clone(),
        planned: runner.planned(),
        interrupted: runner.interrupted().then(|| runner.interruption()),
        results: runner.into_results(),
        knockout,
        fingerprint,
        shard: plan.shard.zip(plan.schedule.as_ref().map(Schedule::len)),
        sprt,
    })
}

/// Writes the report page: the standings (as the summary rates them) and every counted game.
fn write_report(
    path: &Path,
    args: &TournamentPlan,
    plan: &Plan,
    fingerprint: &str,
    runner: &Runner,
    records: Vec<GameRecord>,
) -> Result<(), ReportError> {
    let file = plan.record.as_ref().map_or("this tournament".to_string(), |r| r.path().display().to_string());
    let lead = format!("Tournament {fingerprint} ({}): {} games.", plan.format, runner.results().len());
    let panel = match super::end::standings(&runner.field().names, runner.results(), args.anchor())? {
        Some(standings) => crate::report::standings_panel(&standings, &lead),
        None => format!(
            r#"<div id="report" data-tab="Standings"><div class="report-inner"><p>{}</p><p>No games: nothing to rate.</p></div></div>"#,
            crate::picture::html_escape(&lead)
        ),
    };
    let page = crate::report::page(&[(file, records)], args.event(), &panel)?;
    Ok(crate::picture::write_output(Some(path), page.as_bytes())?)
}

/// Why the report page (`--report`) was not written ([`write_report`]).
#[derive(Debug, thiserror::Error)]
enum ReportError {
    /// The standings cannot be made.
    #[error(transparent)]
    Standings(#[from] StandingsError),
    /// The page cannot be made.
    #[error(transparent)]
    Page(#[from] crate::picture::viewer::PageError),
    /// The page cannot be written.
    #[error(transparent)]
    Write(#[from] crate::output::WriteError),
}

/// The games `args` would play in this process, one line each, without starting any
/// engine: `game ID (round R): BLACK (black) vs WHITE (white), opening OPENING`. A
/// knockout lists its first round.
pub fn dry_run(args: &TournamentPlan) -> Result<String, RefereeError> {
    let mut plan = args.games.clone();
    let (defs, book) = (args.engines(), args.common().book());
    // The schedule of the tournament the record file holds, grown when this field is bigger.
    let resumed = plan.record.as_ref().filter(|r| r.existing() != Existing::Overwrite).map(|r| r.path().to_path_buf());
    if let Some(path) = resumed.filter(|p| p.is_file()) {
        let read = read_games(&path).map_err(|e| RefereeError::record(path.clone(), format!("cannot read it: {e}")))?;
        let recorded: Option<Settings> =
            read.games.iter().rev().find_map(|game| game.tag(tag::SCHEDULE)).and_then(|text| text.parse().ok());
        let settings = Settings::new(plan.format, defs.len(), plan.games_per_pair, plan.rounds, book);
        plan.grow(settings, recorded.as_ref()).map_err(|e| RefereeError::record(path.clone(), e))?;
    }
    let raw: Vec<String> = defs.iter().map(|d| d.name.clone().unwrap_or_else(|| d.command.text.clone())).collect();
    let fixed: Vec<bool> = defs.iter().map(|d| d.name.is_some()).collect();
    let names = unique_names(&raw, &fixed);
    let line = |g: &ScheduledGame| {
        format!(
            "game {} (round {}): {} (black) vs {} (white), opening {}\n",
            g.id,
            g.round,
            names[g.black],
            names[g.white],
            book.opening(g.encounter)
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
            for (slot, (a, b)) in crate::referee::tournament::schedule::bracket(defs.len()).into_iter().enumerate() {
                match b {
                    None => out.push_str(&format!("{}: bye\n", names[a])),
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
/// `grown_from`: the settings the record file's last game was played under.
fn play_schedule(
    runner: &mut Runner,
    plan: &Plan,
    schedule: &Schedule,
    settings: &Settings,
    grown_from: Option<&Settings>,
) -> Result<(), RefereeError> {
    // Games of other shards in the same file count too: they are the same tournament.
    let done = runner.resume_all(schedule.games())?;
    let mine = plan.shard.map_or(schedule.len(), |(k, n)| ShardSpec::size(k, n, schedule.len()));
    let left = mine - runner.results().iter().filter(|r| plan.in_shard(r.index)).count();
    // The games still to play, made one by one as workers take them (not held whole).
    let todo = (0..schedule.len())
        .filter(|&index| plan.in_shard(index))
        .filter_map(|index| schedule.game(index))
        .filter(move |game| !done.contains(&game.id));
    runner.plan_games(runner.results().len() + left);
    if let Some((id, (_, game))) = runner.recorded().min_by_key(|(_, (position, _))| *position) {
        let old: Option<Settings> = game.tag(tag::SCHEDULE).and_then(|text| text.parse().ok());
        return Err(RefereeError::record(
            plan.record.as_ref().map(|r| r.path().to_path_buf()).unwrap_or_default(),
            format!("{}; use --overwrite or another --record", growth::not_scheduled(old.as_ref(), settings, id)),
        ));
    }
    let record = plan.record.as_ref().map(RecordPlan::path);
    if let (Some(diff), Some(path)) = (grown_from.and_then(|old| growth::difference(old, settings)), record) {
        eprintln!(
            "veletas tournament: {}: {diff}: the {} games recorded keep their places; {} more to play",
            path.display(),
            runner.results().len(),
            runner.planned() - runner.results().len()
        );
    }
    runner.write_live_now()?;
    runner.play(todo, left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_numbers_fill_in_paths() {
        assert_eq!(with_shard(Path::new("t-{shard}.txt"), Some((2, 3))), PathBuf::from("t-2.txt"));
        assert_eq!(with_shard(Path::new("t.txt"), Some((2, 3))), PathBuf::from("t.txt"));
        assert_eq!(with_shard(Path::new("t-{shard}.txt"), None), PathBuf::from("t-{shard}.txt"));
    }
}
