//! One game between two engines, refereed: the referee keeps the authoritative
//! [`Game`], asks the side to move for `genmove`, checks the reply, and sends it to the
//! other engine with `play`.
//!
//! Every misbehaviour loses the game for the engine that commits it, with a
//! [`Termination`] and a reason recorded: an illegal move, a `?` reply to `genmove`, a
//! reply that is not a well-formed GTP reply or not a move, the engine ending (crash or
//! end of output), a move past the clock plus the margin, no reply to another command
//! within the command timeout, and a `?` reply to another command (such as refusing the
//! opponent's legal move). An engine that timed out or answered malformed output is
//! killed; a killed or crashed engine is restarted before its next game.
//!
//! Some games end before either engine has made a move (the opening's moves are the
//! referee's) with no one to blame for sure; they are **void**, without a winner, since
//! the side asked first (Black: set up first, asked to move first) would otherwise lose
//! every game two broken engines play, by the order of the questions alone:
//!
//! - both engines fail to be set up for the game (a failure of one is its forfeit when the
//!   other is set up: the referee sets the second one up even after the first failed);
//! - the first engine asked for a move fails to give one (no reply, a crash, `?`, a
//!   malformed reply: [`Termination::voids_before_a_move`]): the other engine was never
//!   asked. A resignation or an illegal move is a decision about a move and counts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::referee::clock::{Clock, TimeControl};
use crate::referee::engine::EngineClient;
use crate::referee::engine::controller::{Fault, FinalScore, Played, Setup};
use crate::referee::openings::Opening;
use veletas_rules::record::{Annotation, Evaluation, FirstSteps, GameRecord, TimeControls, tag};
use veletas_rules::{Color, Game, Move, Rules};

pub use veletas_rules::record::Termination;

/// The settings every game of a match shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The time control of each seat: the first engine of the pair (engine 1 of a
    /// match), then the second. Clocks follow the engines: each engine's clock runs on its
    /// own control (and odds) the whole game, after a modern swap too.
    pub time_controls: [TimeControl; 2],
    /// Seconds a move may exceed the clock before it loses.
    pub margin: f64,
    /// The deadline for replies to commands other than `genmove`.
    pub command_timeout: Duration,
    /// When given and set, the game stops before its next `genmove`, with no result
    /// ([`PlayedGame::stopped`]): for a caller that ends a game without blaming an engine.
    pub stop: Option<Arc<AtomicBool>>,
    /// Ask engines that list `genmove_analyze_steps` for their moves with it, and record
    /// the playouts of each first step at their root (`--record-steps`).
    pub record_steps: bool,
}

/// What the observer of [`play_game_observed`] is given: the game so far, the clocks and
/// what the referee noted of the turn just played.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// The game: start position and every move played, opening included.
    pub game: &'a Game,
    /// Black's and White's clocks as they stand now.
    pub clocks: &'a [Clock; 2],
    /// The turn just played by an engine, if the call follows one.
    pub last: Option<TurnNote>,
}

/// What the referee notes of a turn an engine played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnNote {
    /// The time the engine took to answer `genmove`.
    pub time: Duration,
    /// The win rate and visits it reported with its move (`genmove_analyze`), if any.
    pub evaluation: Option<Evaluation>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game number in the match, from 0.
    pub round: usize,
    /// Whether the first `--engine` played Black (after White's swap, if any: the
    /// engines then exchanged colours).
    pub engine1_black: bool,
    /// Whether White played the swap (modern rules), so the engines exchanged colours.
    pub swapped: bool,
    /// The opening it started from.
    pub opening: Opening,
    /// The game: start position and every move played, opening included.
    pub game: Game,
    /// The winner; `None` for a void game (see the module documentation).
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// Details of the ending (empty for a normal end).
    pub reason: String,
    /// The answers to `final_score` of Black's and White's engine (after normal ends).
    pub final_scores: [Option<String>; 2],
    /// Set when an engine's `final_score` disagrees with the referee's result.
    pub disagreement: Option<String>,
    /// The seconds Black's and White's engine (the colours they ended the game with,
    /// after a swap) spent on `genmove` as the referee timed them, every answered
    /// `genmove` counted.
    pub time_used: [f64; 2],
    /// The time each turn of `game` took its engine to answer `genmove`, by turn (from
    /// 0; `None` for the opening's turns, which no engine chose).
    pub turn_times: Vec<Option<Duration>>,
    /// The win rate and visits each turn's engine reported with its move
    /// (`genmove_analyze`), by turn (`None` where it reported none).
    pub turn_evaluations: Vec<Option<Evaluation>>,
    /// The playouts of each first step at the root each turn's engine reported with its
    /// move (`genmove_analyze_steps`, with [`GameSettings::record_steps`]), by turn.
    pub turn_steps: Vec<Option<FirstSteps>>,
    /// Whether the game was stopped by [`GameSettings::stop`] (then it has no winner).
    pub stopped: bool,
}

impl PlayedGame {
    /// The line reporting this game: `BLACK (black) vs WHITE (white): W+ normal, 12 turns`,
    /// then a swap, the reason of an adjudication and a `final_score` disagreement.
    pub fn report_line(&self, black: &str, white: &str) -> String {
        let result = match self.winner {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => "void:",
        };
        let mut line = format!(
            "{black} (black) vs {white} (white): {result} {}, {} turns",
            self.termination,
            self.game.moves().len()
        );
        if self.swapped {
            line.push_str(" (white swapped)");
        }
        if !self.reason.is_empty() {
            line.push_str(&format!(" ({})", self.reason));
        }
        if let Some(d) = &self.disagreement {
            line.push_str(&format!(" [final_score disagreement: {d}]"));
        }
        line
    }

    /// The game's record: the tags of `head` (event, engines, ...), then the board, the
    /// opening, the time controls, the result and how it ended, and each engine turn's
    /// time as its annotation. `swap` is the `Swap` tag's text, written only when White
    /// swapped.
    pub fn record(&self, head: &[(&str, String)], time_controls: &TimeControls, swap: &str) -> GameRecord {
        let mut record = GameRecord::default();
        for (name, value) in head {
            record.set_tag(name, value.clone());
        }
        record.set_tag(tag::SIZE, self.opening.variant.size().to_string());
        if self.opening.rules != Rules::CLASSIC {
            record.set_tag(tag::RULES, self.opening.rules.to_string());
        }
        if self.swapped {
            record.set_tag(tag::SWAP, swap);
        }
        record.set_tag(tag::OPENING, self.opening.to_string());
        if let Some(start) = &self.opening.start {
            record.set_tag(tag::START, start.to_string());
        }
        record.set_time_controls(time_controls);
        record.set_result(self.winner);
        record.set_termination(self.termination);
        if !self.reason.is_empty() {
            record.set_tag(tag::REASON, self.reason.clone());
        }
        for (color, name) in [(Color::Black, tag::FINAL_SCORE_BLACK), (Color::White, tag::FINAL_SCORE_WHITE)] {
            if let Some(answer) = &self.final_scores[color.index()] {
                record.set_tag(name, answer.clone());
            }
        }
        if let Some(d) = &self.disagreement {
            record.set_tag(tag::DISAGREEMENT, d.clone());
        }
        // Under a clock, what each side spent: the share of the clock an engine uses.
        if time_controls.any_clock() {
            for color in Color::ALL {
                record.set_time_used(color, self.time_used[color.index()]);
            }
        }
        record.set_moves_of(&self.game);
        for (turn, time) in self.turn_times.iter().enumerate() {
            if let Some(time) = time {
                let evaluation = self.turn_evaluations.get(turn).copied().flatten();
                let first_steps = self.turn_steps.get(turn).cloned().flatten();
                record.set_annotation(turn, Annotation { evaluation, first_steps, ..Annotation::of_time(*time) });
            }
        }
        record
    }
}

/// The loss of a game by one engine, or a void game (see the module documentation).
struct Loss {
    termination: Termination,
    reason: String,
    void: bool,
}

fn loss(termination: Termination, reason: impl Into<String>) -> Loss {
    Loss { termination, reason: reason.into(), void: false }
}

impl From<Fault> for Loss {
    fn from(fault: Fault) -> Loss {
        loss(fault.termination(), fault.to_string())
    }
}

/// Starts the engine if needed and sets up the opening and its clock's time control.
fn prepare(
    engine: &mut EngineClient,
    settings: &GameSettings,
    opening: &Opening,
    control: TimeControl,
) -> Result<(), Fault> {
    let timeout = settings.command_timeout;
    // A process started for the start-up questions gets them before its first game too.
    engine.start(timeout)?;
    let setup = Setup::new(opening.variant, opening.rules, opening.start.clone(), Some(control));
    engine.set_up(&setup, timeout)?;
    engine.catch_up(&setup, &opening.game(), timeout)
}

/// Plays game `round` from `opening` between `engines` (the first and second
/// `--engine`); the first plays Black when `engine1_black`.
pub fn play_game(
    engines: &mut [EngineClient; 2],
    settings: &GameSettings,
    round: usize,
    opening: &Opening,
    engine1_black: bool,
) -> PlayedGame {
    play_game_observed(engines, settings, round, opening, engine1_black, &mut |_| {})
}

/// [`play_game`], calling `observer` with the game so far, the clocks and the turn's notes
/// once the engines are set up and after every turn played (for the live page of `--live`
/// and the GUI; after White's swap the engines have exchanged colours, which the game's
/// moves show).
pub fn play_game_observed(
    engines: &mut [EngineClient; 2],
    settings: &GameSettings,
    round: usize,
    opening: &Opening,
    engine1_black: bool,
    observer: &mut dyn FnMut(&Progress),
) -> PlayedGame {
    let mut game = opening.game();
    let mut played = PlayedGame {
        round,
        engine1_black,
        swapped: false,
        opening: opening.clone(),
        game: game.clone(),
        winner: None,
        termination: Termination::Normal,
        reason: String::new(),
        final_scores: [None, None],
        disagreement: None,
        time_used: [0.0; 2],
        turn_times: Vec::new(),
        turn_evaluations: Vec::new(),
        turn_steps: Vec::new(),
        stopped: false,
    };
    let mut notes = GameNotes::default();
    let result = run(engines, settings, opening, &mut game, engine1_black, &mut notes, observer);
    let swapped = notes.swapped;
    played.game = game;
    played.swapped = swapped;
    let final_seat = |color: Color| usize::from((color == Color::Black) != (engine1_black != swapped));
    played.time_used = Color::ALL.map(|color| notes.time_used[final_seat(color)]);
    played.turn_times = notes.turn_times;
    played.turn_evaluations = notes.turn_evaluations;
    played.turn_steps = notes.turn_steps;
    played.stopped = notes.stopped;
    let final_engine1_black = engine1_black != swapped;
    played.engine1_black = final_engine1_black;
    let seat = |color: Color| usize::from((color == Color::Black) != final_engine1_black);
    match result {
        Ok(winner) => {
            played.winner = Some(winner);
            ask_final_scores(engines, settings, &mut played, winner, seat);
        }
        Err((loser, Loss { termination, reason, void })) => {
            played.termination = termination;
            played.winner = (!void).then_some(!loser);
            played.reason = if played.stopped { reason } else { format!("{loser}: {reason}") };
        }
    }
    played
}

/// What the game loop notes besides the result.
#[derive(Default)]
struct GameNotes {
    /// Whether White swapped.
    swapped: bool,
    /// Seconds spent on `genmove` by each seat's engine (the first engine of the pair,
    /// then the second).
    time_used: [f64; 2],
    /// The time of each turn an engine chose, by turn.
    turn_times: Vec<Option<Duration>>,
    /// The win rate and visits reported with each turn, by turn.
    turn_evaluations: Vec<Option<Evaluation>>,
    /// The first steps' playouts reported with each turn, by turn.
    turn_steps: Vec<Option<FirstSteps>>,
    /// Whether the game was stopped by [`GameSettings::stop`].
    stopped: bool,
}

/// The game loop proper: the winner, or the loser and why. `notes.swapped` is set when White
/// swaps; from then on the engines play the other colours (the loser's colour is
/// always the colour its engine played at that moment).
fn run(
    engines: &mut [EngineClient; 2],
    settings: &GameSettings,
    opening: &Opening,
    game: &mut Game,
    engine1_black: bool,
    notes: &mut GameNotes,
    observer: &mut dyn FnMut(&Progress),
) -> Result<Color, (Color, Loss)> {
    let seat = |color: Color, swapped: bool| usize::from((color == Color::Black) != (engine1_black != swapped));
    let control = |engine: usize| settings.time_controls[engine];
    // Both are set up even when the first fails: a failure is a forfeit only if the other
    // engine could be set up; when both fail the game is void.
    let mut failed: Option<(Color, Loss)> = None;
    for color in Color::ALL {
        let index = seat(color, false);
        if let Err(l) = prepare(&mut engines[index], settings, opening, control(index)).map_err(Loss::from) {
            failed = Some(match failed {
                None => (color, l),
                Some((first, mut loss)) => {
                    loss.reason =
                        format!("{}; {color}: {}; neither engine could be set up: void", loss.reason, l.reason);
                    loss.void = true;
                    (first, loss)
                }
            });
        }
    }
    if let Some(failed) = failed {
        return Err(failed);
    }
    let first_turn = game.moves().len();
    // Each engine's own clock, by seat: it follows the engine through a swap.
    let mut clocks = [Clock::new(control(0)), Clock::new(control(1))];
    let timeout = settings.command_timeout;
    let mut last = None;
    loop {
        let by_color = Color::ALL.map(|color| clocks[seat(color, notes.swapped)].clone());
        observer(&Progress { game, clocks: &by_color, last: last.take() });
        if let Some(winner) = game.position().winner() {
            return Ok(winner);
        }
        let color = game.position().side_to_move();
        if settings.stop.as_ref().is_some_and(|stop| stop.load(Ordering::SeqCst)) {
            notes.stopped = true;
            let stopped = Loss {
                termination: Termination::Normal,
                reason: "stopped before its end: no result".into(),
                void: true,
            };
            return Err((color, stopped));
        }
        let index = seat(color, notes.swapped);
        let clock = &mut clocks[index];
        let engine = &mut engines[index];
        let turn = game.moves().len();
        // The first engine asked for a move, failing to give one, voids the game.
        let first = |mut l: Loss| {
            if turn == first_turn && l.termination.voids_before_a_move() {
                l.reason.push_str("; no engine had moved: void");
                l.void = true;
            }
            (color, l)
        };
        engine.time_left(color, clock, timeout).map_err(|f| first(f.into()))?;
        let mut elapsed = Duration::ZERO;
        let ask = engine.capabilities().ask(settings.record_steps);
        let played = engine.genmove(ask, game, clock, settings.margin, &mut elapsed);
        notes.time_used[index] += elapsed.as_secs_f64();
        let Played { mv, evaluation, steps, .. } = played.map_err(|f| first(f.into()))?;
        if mv.is_some() {
            notes.turn_times.resize(turn + 1, None);
            notes.turn_times[turn] = Some(elapsed);
            notes.turn_evaluations.resize(turn + 1, None);
            notes.turn_evaluations[turn] = evaluation;
            if steps.is_some() {
                notes.turn_steps.resize(turn + 1, None);
                notes.turn_steps[turn] = steps;
            }
            last = Some(TurnNote { time: elapsed, evaluation });
        }
        let Some(mv) = mv else {
            return Err((color, loss(Termination::Resignation, "resigned")));
        };
        engines[seat(!color, notes.swapped)].play(color, mv, timeout).map_err(|f| (!color, f.into()))?;
        if mv == Move::Swap {
            // The engine that swapped takes over Black's setup; the other plays White.
            notes.swapped = true;
        }
    }
}

/// Asks both engines for `final_score` and notes any disagreement with the result.
fn ask_final_scores(
    engines: &mut [EngineClient; 2],
    settings: &GameSettings,
    played: &mut PlayedGame,
    winner: Color,
    seat: impl Fn(Color) -> usize,
) {
    let mut disagreements = Vec::new();
    for color in Color::ALL {
        let FinalScore { agrees, answer } = engines[seat(color)].final_score(winner, settings.command_timeout);
        if !agrees {
            disagreements.push(format!("{color} engine says '{answer}'"));
        }
        played.final_scores[color.index()] = Some(answer);
    }
    if !disagreements.is_empty() {
        played.disagreement = Some(disagreements.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::engine::EngineCommand;
    use veletas_rules::Variant;

    /// An engine that accepts every command and answers `genmove` with `d4`, noting each
    /// `genmove` in `log`.
    fn d4_engine(log: &std::path::Path) -> EngineClient {
        let script = format!(
            r#"while read id cmd rest; do case "$cmd" in genmove) echo g >> {}; printf "=%s d4\n\n" "$id";; *) printf "=%s\n\n" "$id";; esac; done"#,
            log.display()
        );
        EngineClient::new(EngineCommand::parse(&format!("sh -c '{script}'")).unwrap(), None)
    }

    #[test]
    fn the_observer_sees_each_turns_time_and_the_clocks_and_the_stop_flag_ends_the_game_with_no_result() {
        let log = std::env::temp_dir().join(format!("veletas-referee-stop-{}", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let mut engines = [d4_engine(&log), d4_engine(&log)];
        let stop = Arc::new(AtomicBool::new(false));
        let control = TimeControl::MoveTime(5.0);
        let settings = GameSettings {
            time_controls: [control; 2],
            margin: 1.0,
            command_timeout: Duration::from_secs(5),
            stop: Some(Arc::clone(&stop)),
            record_steps: false,
        };
        let variant = Variant::from_size(7).unwrap();
        let opening = Opening { start: None, moves: Vec::new(), variant, rules: Rules::CLASSIC };
        let mut seen = Vec::new();
        // Stopped once Black has played its first turn: White is never asked.
        let mut observer = |progress: &Progress| {
            seen.push((progress.game.moves().len(), progress.last.is_some(), progress.clocks[0].allowed()));
            if progress.last.is_some() {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let played = play_game_observed(&mut engines, &settings, 0, &opening, true, &mut observer);
        engines.iter_mut().for_each(EngineClient::kill);
        assert_eq!(seen, [(0, false, 5.0), (1, true, 5.0)]);
        assert!(played.stopped);
        assert_eq!((played.winner, played.termination), (None, Termination::Normal));
        assert_eq!(played.reason, "stopped before its end: no result");
        assert_eq!(played.game.moves().len(), 1);
        assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1, "one genmove only");
        let _ = std::fs::remove_file(&log);
    }
}
