//! `veletas match`: a two-engine tournament with a match's schedule and output.
//!
//! Game `i` (from 0) plays pair `i / 2`'s opening with engine 1 as Black when `i` is even;
//! the record's `Round` tag is `i + 1` and `BlackEngine` says which engine played Black.
//! Everything else (engines, workers, record file, live page, progress, report) is the
//! runner's ([`super::runner`]); this module says what a match prints and writes.

use std::io::Write;
use std::time::Duration;

use crate::referee::error::RefereeError;
use crate::referee::game::PlayedGame;
use crate::referee::plan::{MatchPlan, RecordPlan};
use crate::referee::runner::{Competition, Field, GameResult, NewFiles, Runner, played_engines};
use crate::referee::runner::{EnginesMismatch, PlaceError, ScheduledGame, unique_names};
use crate::referee::summary::{GameOutcome, MatchSummary, SprtSpec, Tally};
use crate::stats::SprtDecision;
use veletas_rules::record::{GameRecord, TimeControls, tag};

/// Game `index` of a match: engine 1 (field index 0) has Black in even games.
fn match_game(index: usize) -> ScheduledGame {
    let (black, white) = if index.is_multiple_of(2) { (0, 1) } else { (1, 0) };
    ScheduledGame { index, id: (index + 1).to_string(), round: index + 1, black, white, encounter: (index / 2) as u64 }
}

/// What a match prints and writes, and its running tally.
struct MatchCompetition {
    games: usize,
    sprt: Option<SprtSpec>,
    event: String,
    /// The `TimeControl` tag.
    time_control: Option<TimeControls>,
    tally: Tally,
    outcomes: Vec<GameOutcome>,
}

impl MatchCompetition {
    fn names(field: &Field) -> [String; 2] {
        [field.names[0].clone(), field.names[1].clone()]
    }

    /// The `TimeControl` tag of a game engine `black` and `white` played as Black and White
    /// (after a swap, the engines as they ended): clocks follow the engines.
    fn controls(&self, field: &Field, black: usize, white: usize) -> TimeControls {
        self.time_control.unwrap_or(TimeControls::PerColor {
            black: field.defs[black].time_control,
            white: field.defs[white].time_control,
        })
    }

    fn summary(&self, field: &Field) -> MatchSummary {
        MatchSummary::new(Self::names(field), self.games, &self.outcomes, self.sprt)
    }
}

impl Competition for MatchCompetition {
    fn add(&mut self, result: &GameResult) {
        let outcome = outcome(result);
        if self.tally.add(&outcome) {
            self.outcomes.push(outcome);
        }
    }

    fn record(&self, field: &Field, scheduled: &ScheduledGame, played: &PlayedGame, date: &str) -> GameRecord {
        let (black, white) = played_engines(scheduled, played.swapped);
        let head = [
            (tag::EVENT, self.event.clone()),
            (tag::DATE, date.to_string()),
            (tag::ROUND, (scheduled.index + 1).to_string()),
            (tag::BLACK, field.names[black].clone()),
            (tag::WHITE, field.names[white].clone()),
            (tag::BLACK_ENGINE, (black + 1).to_string()),
        ];
        // After a swap the engine now White made Black's setup.
        let swap = format!("white swapped: engine {} made Black's setup and then played White", white + 1);
        played.record(&head, &self.controls(field, black, white), &swap)
    }

    /// A match's records hold the time control it was played under: a resume under another
    /// one would mix two controls in one summary. (Before clocks followed the engines, a
    /// swapped game's `black TC; white TC` named the colours at the start: read as well.)
    fn check_place(&self, field: &Field, game: &GameRecord, scheduled: &ScheduledGame) -> Result<(), PlaceError> {
        let swapped = game.tag(tag::SWAP).is_some();
        let (black, white) = played_engines(scheduled, swapped);
        let expected = self.controls(field, black, white).to_string();
        let before = self.controls(field, scheduled.black, scheduled.white).to_string();
        let round = Some(scheduled.index + 1);
        match game.time_controls() {
            Ok(Some(controls)) if controls.to_string() == expected || swapped && controls.to_string() == before => {
                Ok(())
            }
            Ok(controls) => Err(PlaceError::TimeControl { round, recorded: controls.map(|c| c.to_string()), expected }),
            Err(source) => Err(PlaceError::Record { round, source }),
        }
    }

    fn game_line(&self, field: &Field, scheduled: &ScheduledGame, played: &PlayedGame) -> String {
        let (black, white) = played_engines(scheduled, played.swapped);
        format!(
            "game {}/{}: {}",
            scheduled.index + 1,
            self.games,
            played.report_line(&field.names[black], &field.names[white])
        )
    }

    fn live_label(&self, scheduled: &ScheduledGame) -> String {
        format!("game {}/{}", scheduled.index + 1, self.games)
    }

    fn progress_line(&self, field: &Field, _: &[GameResult], _: usize, eta: Option<Duration>) -> String {
        self.tally.progress_line(&Self::names(field), self.games, self.sprt, Some(eta.unwrap_or_default()))
    }

    fn live_status(&self, field: &Field, _: &[GameResult], _: usize) -> String {
        self.tally.progress_line(&Self::names(field), self.games, self.sprt, None)
    }

    fn live_panel(&self, field: &Field, _: &[GameResult]) -> String {
        self.summary(field).panel(Self::names(field)).html()
    }

    fn standings(&self, field: &Field, _: &[GameResult], _: usize) -> String {
        format!("{}\n", self.tally.progress_line(&Self::names(field), self.games, self.sprt, None))
    }

    fn decided(&self) -> bool {
        self.tally.sprt(self.sprt).is_some_and(|s| s.decision != SprtDecision::Continue)
    }

    /// A match's records say which engine played Black (`BlackEngine`); names may change
    /// between runs (another version of an engine).
    fn check_engines(&self, _: &Field, game: &GameRecord, black: usize, _: usize) -> Result<(), EnginesMismatch> {
        match game.tag(tag::BLACK_ENGINE) {
            Some(tag) if tag == (black + 1).to_string() => Ok(()),
            tag => Err(EnginesMismatch::BlackEngine { engine: black + 1, recorded: tag.map(str::to_string) }),
        }
    }

    fn noun(&self) -> &'static str {
        "match"
    }

    fn identity(&self, scheduled: &ScheduledGame) -> String {
        format!("round {}", scheduled.index + 1)
    }
}

/// The games of `plan` this run would play, one line each, without starting any engine:
/// `game 1/2: BLACK (black) vs WHITE (white), opening OPENING`.
pub fn dry_run_match(plan: &MatchPlan) -> Result<String, RefereeError> {
    let (defs, book, games) = (plan.engines(), plan.common().book(), plan.games());
    let raw: Vec<String> = defs.iter().map(|d| d.name.clone().unwrap_or_else(|| d.command.text.clone())).collect();
    let fixed: Vec<bool> = defs.iter().map(|d| d.name.is_some()).collect();
    let names = unique_names(&raw, &fixed);
    let mut out = format!("{games} games\n");
    for game in (0..games).map(match_game) {
        out.push_str(&format!(
            "game {}/{games}: {} (black) vs {} (white), opening {}\n",
            game.index + 1,
            names[game.black],
            names[game.white],
            book.opening(game.encounter)
        ));
    }
    Ok(out)
}

/// Plays the match `plan` describes and returns its statistics. Prints a line per game
/// (unless `--quiet`), a progress line on stderr when it is a terminal, and the summary.
/// A signal (SIGINT, SIGTERM) stops it after the games running: the summary so far is
/// printed and the error [`RefereeError::Interrupted`] says how to resume.
pub fn run_match(plan: &MatchPlan) -> Result<MatchSummary, RefereeError> {
    let common = plan.common();
    let record = common.record();
    let record_path = record.map(RecordPlan::path);
    let log = common.engine_log_path();
    common.check_outputs(record_path, log.as_deref(), plan.engines_file())?;
    common.warn_about_concurrency();
    let created = NewFiles::before([record_path, log.as_deref(), common.log_protocol()]);
    let field = Field::new(plan.engines().to_vec(), common.book().clone(), log, common)?;
    let competition = MatchCompetition {
        games: plan.games(),
        sprt: common.sprt(),
        event: plan.event().to_string(),
        time_control: plan.time_control_tag(),
        tally: Tally::default(),
        outcomes: Vec::new(),
    };
    let mut runner = Runner::new(field, Box::new(competition), common, plan.event());
    let games = plan.games();
    if let Some(record) = record {
        let path = record.path();
        let past = std::cell::Cell::new((0usize, 0usize));
        runner.open_record(record, |position, game| {
            match game.tag(tag::ROUND).and_then(|r| r.trim().parse::<usize>().ok()) {
                Some(round) if round > games => {
                    let (count, last) = past.get();
                    past.set((count + 1, last.max(round)));
                    Ok(None)
                }
                Some(round) if round >= 1 => Ok(Some(round.to_string())),
                _ => Err(RefereeError::record(
                    path,
                    format!(
                        "holds games of a different match (game {} of the file: no valid Round tag); use --overwrite \
                         or another --record",
                        position + 1
                    ),
                )),
            }
        })?;
        // As a tournament's: a summary of fewer games than the file holds (which `ratings`
        // would rate) is refused, not made silently.
        let (count, last) = past.get();
        if count > 0 {
            drop(runner);
            let s = if count == 1 { "" } else { "s" };
            return Err(RefereeError::record(
                path,
                format!(
                    "holds {count} game{s} past --games {games} (rounds up to {last}): give --games {} or more to \
                     count them, or use --overwrite or another --record",
                    last + last % 2
                ),
            ));
        }
    }
    // The names recorded for each engine, for a match with nothing left to play.
    let mut recorded: [Option<String>; 2] = [None, None];
    for (_, (_, game)) in runner.recorded() {
        if let Some(black) =
            game.tag(tag::BLACK_ENGINE).and_then(|b| b.parse::<usize>().ok()).filter(|b| (1..=2).contains(b))
        {
            let (b, w) = (black - 1, 2 - black);
            recorded[b] = recorded[b].take().or_else(|| game.tag(tag::BLACK).map(str::to_string));
            recorded[w] = recorded[w].take().or_else(|| game.tag(tag::WHITE).map(str::to_string));
        }
    }
    // The games still to play, made one by one as workers take them (not held whole).
    let done = runner.resume_all((0..games).map(match_game))?;
    let left = games - done.len();
    let todo = (0..games).map(match_game).filter(move |game| !done.contains(&game.id));
    runner.plan_games(games);
    if left == 0 || runner.stopping() {
        // With nothing left to play no engine is started: the record file names them (an
        // engine it does not name is named by its command line).
        let raw: Vec<String> = (0..2)
            .map(|i| {
                let def = &runner.field().defs[i];
                def.name.clone().or_else(|| recorded[i].clone()).unwrap_or_else(|| def.command.text.clone())
            })
            .collect();
        runner.field_mut().name_as_recorded(&raw);
    } else {
        match runner.field_mut().start(common.check()) {
            Ok(engines) => runner.adopt(engines),
            Err(e) => {
                // Refused: the lock let go first, then what this run created removed.
                drop(runner);
                created.remove(record_path);
                return Err(e);
            }
        }
    }
    runner.write_live_now()?;
    let played = runner.play(todo, left);
    let summary = runner_summary(&runner, common.sprt());
    let finished = played.and_then(|()| {
        let _ = write!(std::io::stdout(), "{summary}").and_then(|()| std::io::stdout().flush());
        let mut status = format!("{} of {} games played", summary.games, summary.planned);
        if runner.interrupted() {
            // The last page of an interrupted match says so, and how to go on.
            let resume = if runner.record_path().is_some() { "; the same command resumes" } else { "" };
            status = format!("interrupted: {status}{resume}");
        }
        runner.finish(Some((&status, summary.panel(names(&runner)).html())))
    });
    if let Err(e) = finished {
        let _ = runner.finish(None);
        return Err(e);
    }
    if let Some(path) = common.report()
        && let Some(mut records) = runner.take_records()
    {
        records.sort_by_key(|r| r.tag(tag::ROUND).and_then(|n| n.trim().parse::<usize>().ok()).unwrap_or(0));
        let file = record_path.map_or("this match".to_string(), |p| p.display().to_string());
        let panel = summary.panel(names(&runner)).html();
        crate::report::page(&[(file, records)], plan.event(), &panel)
            .map_err(String::from)
            .and_then(|page| Ok(crate::picture::write_output(Some(path), page.as_bytes())?))
            .map_err(|e| RefereeError::Output(format!("--report: {e}")))?;
    }
    if runner.interrupted() {
        return Err(RefereeError::Interrupted(runner.interruption()));
    }
    Ok(summary)
}

fn names(runner: &Runner) -> [String; 2] {
    [runner.field().names[0].clone(), runner.field().names[1].clone()]
}

/// A match's view of a result: engine 1's game `round`.
fn outcome(r: &GameResult) -> GameOutcome {
    GameOutcome {
        round: r.index,
        engine1_black: r.black == 0,
        winner: r.winner,
        termination: r.termination,
        disagreement: r.disagreement,
    }
}

/// The summary of the games the runner counted.
fn runner_summary(runner: &Runner, sprt: Option<SprtSpec>) -> MatchSummary {
    let outcomes: Vec<GameOutcome> = runner.results().iter().map(outcome).collect();
    MatchSummary::new(names(runner), runner.planned(), &outcomes, sprt)
}
