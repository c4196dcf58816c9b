//! Running a match: the plan (engines, openings, colours), the record file and resume,
//! the worker threads, and the output.

use std::collections::{HashSet, VecDeque};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::referee::clock::TimeControl;
use crate::referee::engine::{Engine, EngineCommand};
use crate::referee::game::{GameSettings, PlayedGame, Termination, play_game_observed};
use crate::referee::openings::{Opening, OpeningBook};
use crate::referee::record_file::{append_game, open_record_file};
use crate::referee::summary::{GameOutcome, MatchSummary, SprtSpec, Tally};
use crate::referee::words::split_engine_name;
use crate::referee::{MatchArgs, RefereeError};
use crate::report::{LiveBoard, LiveGame};
use crate::stats::SprtDecision;
use veletas_rules::Move;
use veletas_rules::record::{GameRecord, TimeControls, tag};

/// Everything fixed before the first game.
struct Plan {
    commands: [EngineCommand; 2],
    /// The names given as `NAME=CMD` (else the engines' `name` replies are used).
    given_names: [Option<String>; 2],
    openings: OpeningBook,
    games: usize,
    settings: GameSettings,
    time_control: TimeControl,
    time_odds: f64,
    sprt: Option<SprtSpec>,
    event: String,
}

impl Plan {
    fn new(args: &MatchArgs) -> Result<Plan, RefereeError> {
        let usage = RefereeError::Usage;
        let [one, two] = args.engines.as_slice() else {
            let given = match args.engines.len() {
                1 => "once".to_string(),
                n => format!("{n} times"),
            };
            return Err(usage(format!("give --engine exactly twice, not {given}")));
        };
        let parse = |text: &str| {
            let (_, command) = split_engine_name(text);
            EngineCommand::parse(command).map_err(|e| usage(format!("--engine '{text}': {e}")))
        };
        if args.games == 0 || args.games % 2 == 1 {
            return Err(usage(format!(
                "--games must be even and positive (games come in pairs: one opening, colours swapped), not {}",
                args.games
            )));
        }
        let commands = [parse(one)?, parse(two)?];
        let given_names = [one, two].map(|text| split_engine_name(text).0.map(str::to_string));
        if let [Some(a), Some(b)] = &given_names
            && a == b
        {
            return Err(usage(format!("two engines are named '{a}': names must be unique")));
        }
        let time_control =
            TimeControl::from_options(args.common.movetime, args.common.clock, args.common.byoyomi).map_err(usage)?;
        if args.common.concurrency == 0 {
            return Err(usage("--concurrency must be at least 1".into()));
        }
        let openings = OpeningBook::new(&args.common).map_err(usage)?;
        let settings = GameSettings {
            time_controls: [time_control.scaled(args.time_odds), time_control],
            margin: args.common.margin,
            command_timeout: Duration::from_secs_f64(args.common.command_timeout.clamp(0.001, 1e6)),
        };
        Ok(Plan {
            commands,
            given_names,
            openings,
            games: args.games,
            settings,
            time_control,
            time_odds: args.time_odds,
            sprt: args.sprt,
            event: args.event.clone(),
        })
    }

    /// The opening of game `round`: pair `round / 2`'s.
    fn opening(&self, round: usize) -> Opening {
        self.openings.opening((round / 2) as u64)
    }

    /// Engine 1 plays Black in even games, White in odd ones.
    fn engine1_black(round: usize) -> bool {
        round.is_multiple_of(2)
    }
}

/// Checks a recorded game against the plan and returns its outcome (`None` for games
/// beyond `--games`) and its engines' names as Black and White.
fn recorded_outcome(game: &GameRecord, plan: &Plan, index: usize) -> Result<Option<GameOutcome>, String> {
    let which = |what: &str| format!("game {} of the file: {what}", index + 1);
    let round: usize = match game.tag("Round").and_then(|r| r.trim().parse().ok()) {
        Some(r) if r >= 1 => r,
        _ => return Err(which("no valid Round tag")),
    };
    if round > plan.games {
        return Ok(None);
    }
    // Options such as claimed-block leave the openings as they are: compare the rules too.
    match game.rules() {
        Ok(rules) if rules == plan.openings.rules => {}
        Ok(rules) => {
            return Err(which(&format!(
                "round {round} was played under the {rules} rules, this match plays {}",
                plan.openings.rules
            )));
        }
        Err(e) => return Err(which(&e.to_string())),
    }
    let opening = plan.opening(round - 1).to_string();
    if game.tag("Opening") != Some(opening.as_str()) {
        return Err(which(&format!(
            "round {round} has opening '{}', this match plays '{opening}' there",
            game.tag("Opening").unwrap_or("")
        )));
    }
    // After White's swap the engines have exchanged colours: BlackEngine names the
    // engine that played Black after it.
    let swapped = game.tag("Swap").is_some();
    let engine1_black = Plan::engine1_black(round - 1) != swapped;
    let black = if engine1_black { "1" } else { "2" };
    if game.tag("BlackEngine") != Some(black) {
        let after = if swapped { " after the swap" } else { "" };
        return Err(which(&format!(
            "in round {round} engine {black} plays Black{after}, not engine {}",
            game.tag("BlackEngine").unwrap_or("?")
        )));
    }
    let winner = game.winner().ok_or_else(|| which("no result"))?;
    let termination = game.tag("Termination").and_then(Termination::from_name).unwrap_or(Termination::Normal);
    let disagreement = game.tag("Disagreement").is_some();
    Ok(Some(GameOutcome { round: round - 1, engine1_black, winner, termination, disagreement }))
}

/// The outcomes already in the record file, their records (for `--report`) and the file
/// opened for appending.
type Opened = (Vec<GameOutcome>, Vec<GameRecord>, Option<File>);

fn open_record(args: &MatchArgs, plan: &Plan) -> Result<Opened, RefereeError> {
    let Some(path) = &args.common.record else {
        return Ok((Vec::new(), Vec::new(), None));
    };
    let common = &args.common;
    let (games, file) = open_record_file(path, common.resume, common.overwrite, common.wait)?;
    let mut outcomes = Vec::new();
    let mut records = Vec::new();
    let mut seen = HashSet::new();
    for (i, game) in games.into_iter().enumerate() {
        let outcome = recorded_outcome(&game, plan, i).map_err(|e| RefereeError::Record {
            path: path.clone(),
            detail: format!("holds games of a different match ({e}); use --overwrite or another --record"),
        })?;
        if let Some(o) = outcome.filter(|o| seen.insert(o.round)) {
            outcomes.push(o);
            records.push(game);
        }
    }
    Ok((outcomes, records, Some(file)))
}

/// Today's date (UTC) as `YYYY.MM.DD`, as the records' `Date` tag writes it.
pub fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The record of a played game.
fn to_record(played: &PlayedGame, plan: &Plan, names: &[String; 2], date: &str) -> GameRecord {
    let (black, white) = if played.engine1_black { (0, 1) } else { (1, 0) };
    let head = [
        (tag::EVENT, plan.event.clone()),
        (tag::DATE, date.to_string()),
        (tag::ROUND, (played.round + 1).to_string()),
        (tag::BLACK, names[black].clone()),
        (tag::WHITE, names[white].clone()),
        (tag::BLACK_ENGINE, (black + 1).to_string()),
    ];
    let setup_engine = if played.engine1_black { 2 } else { 1 };
    let swap = format!("white swapped: engine {setup_engine} made Black's setup and then played White");
    let (control, factor) = (plan.time_control, plan.time_odds);
    let controls = if factor == 1.0 { TimeControls::Same(control) } else { TimeControls::Odds { control, factor } };
    played.record(&head, &controls, &swap)
}

/// Asks a started engine `protocol_version` and `name` (and `version`), as every engine
/// must answer before the first game ([`crate::check::startup`]); its name, or why it is
/// refused.
pub(super) fn engine_name(engine: &mut Engine, timeout: Duration) -> Result<String, RefereeError> {
    crate::check::startup(engine, timeout).map(|identity| identity.full_name()).map_err(|detail| {
        RefereeError::Refused { command: engine_text(engine), detail: format!("at start-up, {detail}") }
    })
}

/// Runs the required checks of `veletas check` on each engine command (`--check`); the
/// first engine that fails one is refused, with the check and its reason.
pub(super) fn check_engines(
    commands: &[&EngineCommand],
    openings: &OpeningBook,
    margin: f64,
    timeout: Duration,
) -> Result<(), RefereeError> {
    let settings = crate::check::CheckSettings {
        variant: openings.variant,
        rules: openings.rules.set.into(),
        command_timeout: timeout,
        margin,
        movetime: 0.2,
        seed: 1,
    };
    for command in commands {
        crate::check::required_checks(command, &settings).map_err(|detail| RefereeError::Refused {
            command: command.text.clone(),
            detail: format!("--check: {detail}"),
        })?;
    }
    Ok(())
}

fn engine_text(engine: &Engine) -> String {
    engine.command_line().text.clone()
}

/// The line printed for a finished game.
fn game_line(played: &PlayedGame, games: usize, shown: &[String; 2]) -> String {
    let (black, white) = if played.engine1_black { (0, 1) } else { (1, 0) };
    format!("game {}/{games}: {}", played.round + 1, played.report_line(&shown[black], &shown[white]))
}

/// Plays the match `args` describe and returns its statistics. Prints a line per game
/// (unless `--quiet`), a progress line on stderr when it is a terminal, and the summary.
pub fn run_match(args: &MatchArgs) -> Result<MatchSummary, RefereeError> {
    let plan = Plan::new(args)?;
    let log = args.common.engine_log_path();
    args.common.check_outputs(args.common.record.as_deref(), log.as_deref(), &[])?;
    args.common.warn_about_concurrency();
    let (mut outcomes, mut records, mut record) = open_record(args, &plan)?;
    let keep_records = args.common.report.is_some();
    let mut tally = Tally::default();
    outcomes.iter().for_each(|o| {
        tally.add(o);
    });
    let done: HashSet<usize> = outcomes.iter().map(|o| o.round).collect();
    let todo: VecDeque<usize> = (0..plan.games).filter(|r| !done.contains(r)).collect();
    let decided = |t: &Tally| t.sprt(plan.sprt).is_some_and(|s| s.decision != SprtDecision::Continue);
    let workers = if decided(&tally) { 0 } else { args.common.concurrency.min(todo.len()) };

    let timeout = plan.settings.command_timeout;
    if args.common.check && workers > 0 {
        check_engines(&[&plan.commands[0], &plan.commands[1]], &plan.openings, plan.settings.margin, timeout)?;
    }
    let mut pairs: Vec<[Engine; 2]> =
        (0..workers).map(|_| plan.commands.clone().map(|c| Engine::new(c, log.clone()))).collect();
    // Every engine answers protocol_version and name before the first game, or none is played.
    let mut replied: [Option<String>; 2] = [None, None];
    for pair in &mut pairs {
        for (i, engine) in pair.iter_mut().enumerate() {
            engine
                .ensure_running()
                .map_err(|e| RefereeError::Engine { command: engine_text(engine), detail: e.to_string() })?;
            let name = engine_name(engine, timeout)?;
            replied[i].get_or_insert(name);
        }
    }
    // With nothing left to play no engine is started: the record file names them.
    let recorded = |i: usize| {
        records.iter().find_map(|r| {
            let black = r.tag("BlackEngine")? == (i + 1).to_string();
            r.tag(if black { "Black" } else { "White" }).map(str::to_string)
        })
    };
    let raw: [String; 2] = [0, 1].map(|i| {
        plan.given_names[i]
            .clone()
            .or_else(|| replied[i].clone())
            .or_else(|| recorded(i))
            .unwrap_or_else(|| plan.commands[i].text.clone())
    });
    let fixed = plan.given_names.each_ref().map(Option::is_some);
    let distinct =
        crate::referee::tournament::field::distinct_names(&raw, &fixed, &[&plan.commands[0], &plan.commands[1]]);
    let names: [String; 2] = [distinct[0].clone(), distinct[1].clone()];
    // Screen and records carry the same names.
    let shown = names.clone();
    let progress = !args.common.quiet && std::io::stderr().is_terminal();
    let date = today();

    let live = args.common.live.as_deref().map(|path| LiveBoard::new(path, &plan.event, workers));
    let live_status = |tally: &Tally| tally.progress_line(&shown, plan.games, plan.sprt, None);
    let live_panel = |outcomes: &[GameOutcome]| {
        MatchSummary::new(shown.clone(), plan.games, outcomes, plan.sprt).panel(names.clone()).html()
    };
    if let Some(live) = &live {
        live.write(&live_status(&tally), false, || live_panel(&outcomes)).map_err(RefereeError::Usage)?;
    }
    let queue = Mutex::new(todo);
    let remaining_at_start = queue.lock().map_or(0, |q| q.len());
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<PlayedGame>();
    let started = Instant::now();
    let mut failure: Option<RefereeError> = None;
    thread::scope(|scope| {
        for (worker, mut pair) in pairs.drain(..).enumerate() {
            let (tx, queue, stop, plan, live, names) = (tx.clone(), &queue, &stop, &plan, live.as_ref(), &names);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let Some(round) = queue.lock().ok().and_then(|mut q| q.pop_front()) else { break };
                    let opening = plan.opening(round);
                    let black = Plan::engine1_black(round);
                    let mut observer = |game: &veletas_rules::Game| {
                        if let Some(live) = live {
                            let swapped = game.moves().any(|m| m == Move::Swap);
                            let (b, w) = if black != swapped { (0, 1) } else { (1, 0) };
                            let label = format!("game {}/{}", round + 1, plan.games);
                            let (black, white) = (names[b].clone(), names[w].clone());
                            live.set(worker, Some(LiveGame { label, black, white, game: game.clone() }));
                        }
                    };
                    let played = play_game_observed(&mut pair, &plan.settings, round, &opening, black, &mut observer);
                    if let Some(live) = live {
                        live.set(worker, None);
                    }
                    if tx.send(played).is_err() {
                        break;
                    }
                }
                for engine in &mut pair {
                    engine.quit(Duration::from_millis(500));
                }
            });
        }
        drop(tx);
        let mut finished_now = 0usize;
        loop {
            let wait =
                live.as_ref().map_or(Duration::from_secs(3600), |l| l.until_due().max(Duration::from_millis(20)));
            let played = match rx.recv_timeout(wait) {
                Ok(played) => played,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(live) = &live
                        && let Err(e) = live.write(&live_status(&tally), false, || live_panel(&outcomes))
                    {
                        log::warn!("--live: {e}");
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            finished_now += 1;
            let game_record = (record.is_some() || keep_records).then(|| to_record(&played, &plan, &names, &date));
            if keep_records && let Some(r) = &game_record {
                records.push(r.clone());
            }
            if let (Some(file), None, Some(game_record)) = (record.as_mut(), &failure, &game_record) {
                let path = args.common.record.as_deref().unwrap_or(Path::new(""));
                if let Err(e) = append_game(file, path, &game_record.to_string()) {
                    failure = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            let outcome = GameOutcome {
                round: played.round,
                engine1_black: played.engine1_black,
                winner: played.winner,
                termination: played.termination,
                disagreement: played.disagreement.is_some(),
            };
            tally.add(&outcome);
            outcomes.push(outcome);
            if progress {
                eprint!("\r\x1b[K");
            }
            if !args.common.quiet {
                // A closed stdout must not stop the match: the record file is what counts.
                let _ = writeln!(std::io::stdout(), "{}", game_line(&played, plan.games, &shown));
            }
            if decided(&tally) {
                stop.store(true, Ordering::SeqCst);
            }
            if let Some(live) = &live
                && let Err(e) = live.write(&live_status(&tally), false, || live_panel(&outcomes))
            {
                log::warn!("--live: {e}");
            }
            if progress {
                let left = remaining_at_start.saturating_sub(finished_now);
                let eta = started.elapsed().mul_f64(left as f64 / finished_now as f64);
                eprint!("{}", tally.progress_line(&shown, plan.games, plan.sprt, Some(eta)));
                let _ = std::io::stderr().flush();
            }
        }
        if progress {
            eprint!("\r\x1b[K");
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let summary = MatchSummary::new(shown, plan.games, &outcomes, plan.sprt);
    let _ = write!(std::io::stdout(), "{summary}").and_then(|()| std::io::stdout().flush());
    if let Some(live) = &live {
        let status = format!("{} of {} games played", summary.games, summary.planned);
        live.write(&status, true, || summary.panel(names.clone()).html()).map_err(RefereeError::Usage)?;
    }
    if let Some(path) = &args.common.report {
        records.sort_by_key(|r| r.tag("Round").and_then(|n| n.trim().parse::<usize>().ok()).unwrap_or(0));
        let file = args.common.record.as_ref().map_or("this match".to_string(), |p| p.display().to_string());
        let panel = summary.panel(names.clone()).html();
        crate::report::page(&[(file, records)], &plan.event, &panel)
            .and_then(|page| crate::picture::write_output(Some(path), page.as_bytes()))
            .map_err(|e| RefereeError::Usage(format!("--report: {e}")))?;
    }
    Ok(summary)
}
