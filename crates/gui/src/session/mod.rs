//! The games open in the server: each one's authoritative [`Game`] (kept with the rules
//! library), who plays each colour, and the engines playing it.
//!
//! An engine is driven through the protocol only, with the referee's engine controller
//! ([`veletas_tools::referee::engine::controller`]), as `veletas match` drives it:
//! `list_commands`, `boardsize`, `rules`, `clear_board`, `time_settings`, `play`,
//! `time_left`, `genmove` (or `genmove_analyze` when listed). Its move is asked for on a
//! thread of its own, so that the server keeps answering while it thinks; before each move
//! the engine is brought up to date with the game (the moves it has not seen are sent with
//! `play`; after an undo or a new game it starts over with `clear_board`). An engine that
//! crashes, does not answer in time, answers junk or plays an illegal move loses the game,
//! with the referee's termination and reason, and is killed; one that refuses
//! `time_settings` plays on, timed by the server alone; nothing else stops
//! ([`crate::engine_turn`]). Under a clock, each colour has the referee's [`Clock`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use veletas_rules::record::{BestLine, Evaluation, FirstSteps};
use veletas_rules::{Color, Game, Move};
use veletas_tools::picture::svg::{self, Layout, SvgOptions};
use veletas_tools::referee::clock::{Clock, TimeControl, format_seconds};
use veletas_tools::referee::engine::{EngineClient, EngineCommand, Killer};
use veletas_tools::referee::game::Termination;
use veletas_tools::review::PositionReview;

use crate::analysis_view::{AnalysisView, At, TurnAnalysis};
use crate::new_game::NewGame;
use crate::review_view::{ReviewState, ReviewView};
use crate::series_view::{SeriesView, SharedSeries};
use crate::steps::{self, Steps};
use crate::variation::{self, VariationView};

mod record;
mod start;

use start::{starting_game, time_controls};

/// An engine the server may start: its name and its command line (from the command line
/// only, never from the page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown in the page and written in records.
    pub name: String,
    /// The command line.
    pub command: EngineCommand,
}

/// Settings every game shares.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engines a game may use, by index.
    pub engines: Vec<EngineSpec>,
    /// The deadline of every command other than `genmove`.
    pub command_timeout: Duration,
    /// Seconds a move may exceed its time before it loses.
    pub margin: f64,
    /// The record file every finished game is appended to.
    pub record: Option<std::path::PathBuf>,
}

/// Appends the game to the record file of `settings` once it is finished (once only).
pub fn save_finished(shared: &SharedGame, settings: &Settings) {
    let Some(path) = &settings.record else { return };
    let Some(record) = lock(shared).take_finished_record() else { return };
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| std::io::Write::write_all(&mut file, record.to_string().as_bytes()));
    if let Err(e) = written {
        log::error!("{}: cannot append the game: {e}", path.display());
    }
}

/// What the game's record says of one turn besides its move.
#[derive(Clone, Debug, Default, PartialEq)]
struct TurnNote {
    /// The time the turn took, when known.
    time: Option<Duration>,
    /// The engine (its name) that played it, if one did: its analysis of the position
    /// before it gives the turn's win rate.
    engine: Option<String>,
    /// The win rate and visits a loaded record or a review gave the turn.
    evaluation: Option<Evaluation>,
    /// The best line from the position before the turn a loaded record or a review gave.
    best_line: Option<BestLine>,
    /// The first steps of the search that chose the turn a loaded record gave (`steps=`),
    /// saved again unchanged.
    first_steps: Option<FirstSteps>,
}

/// Why a request about a game cannot be granted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request is malformed or asks for something impossible (HTTP 400).
    Bad(String),
    /// Not now: the game is over, or it is the engine's turn (HTTP 409).
    Conflict(String),
}

/// The player of a seat: the seat that starts as Black is seat 0 (White's swap
/// exchanges the colours of the seats, not the seats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Person,
    Engine(usize),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameEnd {
    /// `black` or `white` (empty for a game without a result, such as a void match game).
    pub winner: String,
    /// How it ended, as the referee names it (`normal`, `resignation`, `crash`, ...).
    pub termination: String,
    /// The details (empty for a normal end).
    pub reason: String,
}

/// One game open in the server.
pub struct GameSession {
    id: u64,
    pub(crate) game: Game,
    players: [Player; 2],
    names: [String; 2],
    /// Each seat's time control (seat 0 starts as Black): a player keeps its own through a
    /// modern swap, as the referee's engines do ([`GameSession::seat`] gives a colour's).
    pub(crate) controls: [TimeControl; 2],
    /// Each seat's clock, which follows its player through a swap.
    pub(crate) clocks: [Clock; 2],
    pub(crate) swapped: bool,
    /// How the game ended before its end on the board: the winner (`None`: no result),
    /// how and why.
    outcome: Option<(Option<Color>, Termination, String)>,
    /// Bumped at every change, so that a reply to an older `genmove` is dropped.
    pub(crate) version: u64,
    pub(crate) thinking: bool,
    pub(crate) engines: [Option<Arc<Mutex<EngineClient>>>; 2],
    /// Whether the finished game has been handed to the record file.
    recorded: bool,
    started: String,
    /// The latest analysis of each position of the game, by its number of turns.
    pub(crate) analyses: BTreeMap<usize, TurnAnalysis>,
    /// The latest analysis of a variation's position (one at a time; never the game's).
    pub(crate) variation_analysis: Option<(At, TurnAnalysis)>,
    /// The engine process asked for the move being thought about, so that Undo can stop
    /// its search.
    pub(crate) thinking_killer: Option<Killer>,
    /// The analyses running: the engine's thinking during its turn, and one on request;
    /// each bumped when a new one of its kind starts, so that the older one stops.
    pub(crate) analysis_runs: [u64; 2],
    /// Bumped when turns are taken back, so that analyses of the game before stop.
    pub(crate) epoch: u64,
    /// The engines (by index) that answered `analyze` with `?`: not asked again.
    pub(crate) cannot_analyse: BTreeSet<usize>,
    /// Whether an engine's thinking is shown during its turns.
    pub(crate) show_thinking: bool,
    /// The analysis threads of this game still running (each ends its engine process).
    pub(crate) analysers: usize,
    /// When the last turn was played, in milliseconds since 1970 (0: none yet).
    pub(crate) moved_at: u64,
    /// The seconds each seat has spent on its turns.
    used: [f64; 2],
    /// When the turn to play began.
    turn_started: Instant,
    /// The clocks and the time used after each turn of this session (the first: at its
    /// start, after the turns of a record it continues), so that undo restores them.
    clock_history: Vec<([Clock; 2], [f64; 2])>,
    /// The number of turns the game had when this session started.
    first_turn: usize,
    /// What the record will say of each turn of the game besides its move.
    notes: Vec<TurnNote>,
    /// The match this game belongs to, and its number in it (from 1).
    pub(crate) series: Option<(SharedSeries, u32)>,
    /// Killers of the engine processes the game started: closing the game ends them even
    /// while they are asked for a move.
    pub(crate) killers: Vec<Killer>,
    /// Whether the game has been closed (its live updates end).
    pub(crate) closed: bool,
    /// Whether the referee's game function plays the game (a match's): the server's own
    /// engine turns leave it alone.
    pub(crate) refereed: bool,
    /// When a page last looked at the game (its stream of live updates, a request about it).
    pub(crate) seen_at: Instant,
    /// The game's whole-game review, once one has started.
    pub(crate) review: Option<ReviewState>,
}

/// The reason given to a game closed before its end (it has no result).
const CLOSED: &str = "closed";

/// Now, in milliseconds since 1970.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// What the page is shown of a game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: u64,
    /// Changes at every change of the game.
    pub version: u64,
    /// Board size.
    pub size: u8,
    /// The rules, as in records (`classic`, `modern`).
    pub rules: String,
    /// The position string.
    pub position: String,
    /// The board as `veletas render` draws it, the last turn marked.
    pub svg: String,
    /// Where the squares are in the picture: left and top of the board, side of a square.
    pub layout: [u32; 3],
    /// The moves so far, in notation.
    pub moves: Vec<String>,
    /// `black` or `white`.
    pub to_move: String,
    /// The names of Black's and White's players.
    pub players: [String; 2],
    /// Whether Black's and White's players are persons.
    pub persons: [bool; 2],
    /// Whether an engine is thinking.
    pub thinking: bool,
    /// How the game ended, once it has.
    pub outcome: Option<GameEnd>,
    /// The first step of the turn, when a person is to move.
    pub steps: Option<Steps>,
    /// Whether `undo` would take back a turn now.
    pub can_undo: bool,
    /// The status line: who is to move, claims.
    pub status: Vec<String>,
    /// The analysis of this position, if there is one: the engine's thinking during its
    /// turn, or one asked for.
    pub analysis: Option<AnalysisView>,
    /// For each position of the game (0 to the number of turns), Black's chance of winning
    /// by the latest analysis of it, where there is one: the win-rate graph.
    pub winrates: Vec<Option<f64>>,
    /// For each position of the game, the best line of its latest analysis (empty: none), at
    /// most [`BestLine::MAX_TURNS`] turns.
    pub lines: Vec<Vec<String>>,
    /// The game's whole-game review, once one has started.
    pub review: Option<ReviewView>,
    /// When the last turn was played (an engine's: when its reply was read), in
    /// milliseconds since 1970; the page measures the delay to its drawing with it.
    pub moved_at: u64,
    /// The seconds Black and White have spent on their finished turns.
    pub time_used: [f64; 2],
    /// The seconds the side to move has spent on this turn so far (0 once the game is over).
    pub turn_time: f64,
    /// For each side under a clock: the seconds Black and White have left for their next
    /// turn (before this turn's time), as the referee's clock counts them; `null` for a
    /// side with a time per move.
    pub clocks: [Option<f64>; 2],
    /// Black's and White's time controls, as records write them.
    pub time_controls: [String; 2],
    /// The match the game belongs to, if it does.
    pub series: Option<SeriesView>,
}

/// A position of the game shown while browsing it (the win-rate graph, the moves).
#[derive(Clone, Debug, Serialize)]
pub struct TurnView {
    /// The game's id.
    pub id: u64,
    /// The number of turns played before this position.
    pub turn: usize,
    /// The position string.
    pub position: String,
    /// The board, the turn that led to it marked.
    pub svg: String,
    /// `black` or `white`.
    pub to_move: String,
    /// Whether the game is over in this position.
    pub over: bool,
    /// The position's status lines: who is to move (or who has won), claims.
    pub status: Vec<String>,
    /// The latest analysis of this position, if any.
    pub analysis: Option<AnalysisView>,
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl GameSession {
    /// A new game as `request` asks, checked against `settings`.
    pub fn new(id: u64, request: &NewGame, settings: &Settings) -> Result<GameSession, Refusal> {
        let (game, loaded) = starting_game(request)?;
        let first_turn = game.moves().len();
        let notes: Vec<TurnNote> = (0..first_turn)
            .map(|i| {
                let annotation = loaded.as_ref().map(|r| r.annotation(i)).unwrap_or_default();
                TurnNote {
                    time: annotation.time,
                    engine: None,
                    evaluation: annotation.evaluation,
                    best_line: annotation.best_line,
                    first_steps: annotation.first_steps,
                }
            })
            .collect();
        let analyses = loaded.as_ref().map(|r| crate::analysis_view::recorded(&game, r)).unwrap_or_default();
        let controls = time_controls(request)?;
        let player = |choice: Option<usize>| match choice {
            None => Ok(Player::Person),
            Some(i) if i < settings.engines.len() => Ok(Player::Engine(i)),
            Some(i) => Err(Refusal::Bad(format!("there is no engine {i}"))),
        };
        let players = [player(request.black)?, player(request.white)?];
        let names = players.map(|p| match p {
            Player::Person => "person".to_string(),
            Player::Engine(i) => settings.engines[i].name.clone(),
        });
        let engines = players.map(|p| match p {
            Player::Person => None,
            Player::Engine(i) => {
                Some(Arc::new(Mutex::new(EngineClient::new(settings.engines[i].command.clone(), None))))
            }
        });
        // A game loaded finished is not recorded again.
        let recorded = game.position().winner().is_some();
        Ok(GameSession {
            id,
            swapped: game.moves().filter(|m| *m == Move::Swap).count() % 2 == 1,
            game,
            players,
            names,
            controls,
            clocks: controls.map(Clock::new),
            outcome: None,
            version: 1,
            thinking: false,
            engines,
            recorded,
            started: veletas_tools::referee::today(),
            analyses,
            variation_analysis: None,
            thinking_killer: None,
            analysis_runs: [0; 2],
            epoch: 0,
            cannot_analyse: BTreeSet::new(),
            show_thinking: request.thinking.unwrap_or(true),
            analysers: 0,
            moved_at: 0,
            used: [0.0; 2],
            turn_started: Instant::now(),
            clock_history: vec![(controls.map(Clock::new), [0.0; 2])],
            first_turn,
            notes,
            series: None,
            killers: Vec::new(),
            closed: false,
            refereed: false,
            seen_at: Instant::now(),
            review: None,
        })
    }

    /// The seat playing `color` now.
    pub(crate) fn seat(&self, color: Color) -> usize {
        usize::from((color == Color::White) != self.swapped)
    }

    fn winner(&self) -> Option<Color> {
        match &self.outcome {
            Some((winner, _, _)) => *winner,
            None => self.game.position().winner(),
        }
    }

    /// The game's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The seat of the winner, once there is one (0: the seat that started as Black).
    pub(crate) fn winner_seat(&self) -> Option<usize> {
        self.winner().map(|c| self.seat(c))
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some() || self.game.position().winner().is_some()
    }

    fn person_to_move(&self) -> bool {
        !self.is_over() && self.players[self.seat(self.game.position().side_to_move())] == Player::Person
    }

    /// Whether the game waits for a person's turn (its engines have nothing to do).
    pub(crate) fn waits_for_person(&self) -> bool {
        self.person_to_move() && !self.thinking
    }

    /// The names of Black's and White's players.
    pub fn player_names(&self) -> [String; 2] {
        Color::ALL.map(|c| self.names[self.seat(c)].clone())
    }

    /// The status lines: who is to move and the claims, or how the game ended.
    pub(crate) fn status_lines(&self) -> Vec<String> {
        let mut status = variation::status_lines(&self.game);
        if let Some((winner, termination, reason)) = &self.outcome {
            status[0] = match winner {
                Some(winner) => format!("{} wins ({termination})", capitalized(*winner)),
                None => format!("No result ({termination})"),
            };
            if reason == CLOSED {
                status[0] = "Closed before its end: no result".into();
            } else if !reason.is_empty() {
                status.insert(1, reason.clone());
            }
        }
        status
    }

    /// The page's view of the game.
    pub fn view(&self) -> GameView {
        let position = self.game.position();
        let last = self.game.moves().last();
        let options = SvgOptions { width: 560, coordinates: true, status: false };
        let layout = Layout::new(position.variant().size(), true);
        let (left, top) = (layout.left(), layout.top());
        let status = self.status_lines();
        GameView {
            id: self.id,
            version: self.version,
            size: position.variant().size(),
            rules: position.rules().to_string(),
            position: position.to_string(),
            svg: svg::render(position, last.as_ref(), &options),
            layout: [left, top, svg::CELL],
            moves: self.game.moves().map(|m| m.to_string()).collect(),
            to_move: position.side_to_move().to_string(),
            players: self.player_names(),
            persons: Color::ALL.map(|c| self.players[self.seat(c)] == Player::Person),
            thinking: self.thinking,
            outcome: self.is_over().then(|| {
                let (termination, reason) = match &self.outcome {
                    Some((_, t, r)) => (t.as_str().to_string(), r.clone()),
                    None => (Termination::Normal.as_str().to_string(), String::new()),
                };
                GameEnd { winner: self.winner().map(|w| w.to_string()).unwrap_or_default(), termination, reason }
            }),
            steps: if self.person_to_move() { steps::steps(position, &[]).ok() } else { None },
            can_undo: self.undo_target().is_some(),
            status,
            analysis: self.analysis_of(self.game.moves().len()),
            winrates: self.winrates(),
            lines: (0..=self.game.moves().len())
                .map(|t| {
                    let best = self.analyses.get(&t).and_then(|a| a.view.candidates.first());
                    // At most the turns a record keeps of a line (an engine's pv is not bounded).
                    best.map(|c| c.pv.iter().take(BestLine::MAX_TURNS).cloned().collect()).unwrap_or_default()
                })
                .collect(),
            review: self.review.as_ref().map(|r| r.view.clone()),
            moved_at: self.moved_at,
            time_used: Color::ALL.map(|c| self.used[self.seat(c)]),
            turn_time: if self.is_over() { 0.0 } else { self.turn_started.elapsed().as_secs_f64() },
            clocks: Color::ALL.map(|c| self.has_clock(c).then(|| self.clock(c).allowed())),
            time_controls: Color::ALL.map(|c| self.control(c).to_string()),
            series: self.series.as_ref().map(|(series, number)| lock(series).view(*number)),
        }
    }

    /// The latest analysis of the position after `turn` turns.
    fn analysis_of(&self, turn: usize) -> Option<AnalysisView> {
        self.analyses.get(&turn).map(|a| a.view.clone())
    }

    /// Black's chance of winning in each position of the game, by its latest analysis.
    fn winrates(&self) -> Vec<Option<f64>> {
        (0..=self.game.moves().len()).map(|t| self.analyses.get(&t).and_then(TurnAnalysis::black_winrate)).collect()
    }

    /// The game after its first `turn` turns.
    pub fn game_at(&self, turn: usize) -> Result<Game, Refusal> {
        let moves: Vec<Move> = self.game.moves().collect();
        if turn > moves.len() {
            return Err(Refusal::Bad(format!("the game has {} turns, not {turn}", moves.len())));
        }
        let mut game = Game::from_position(self.game.start().clone());
        for mv in &moves[..turn] {
            game.play(*mv).map_err(|e| Refusal::Bad(format!("replaying the game: {e}")))?;
        }
        Ok(game)
    }

    /// The position after `turn` turns, for browsing the game.
    pub fn turn_view(&self, turn: usize) -> Result<TurnView, Refusal> {
        let game = self.game_at(turn)?;
        let position = game.position();
        let options = SvgOptions { width: 560, coordinates: true, status: false };
        let last = game.moves().last();
        Ok(TurnView {
            id: self.id,
            turn,
            position: position.to_string(),
            svg: svg::render(position, last.as_ref(), &options),
            to_move: position.side_to_move().to_string(),
            over: position.winner().is_some(),
            status: variation::status_lines(&game),
            analysis: self.analysis_of(turn),
        })
    }

    /// The position after the game's first `turn` turns and then the variation `moves`,
    /// with the targets of the next click after `picks`; the game is not changed.
    pub fn variation_view(&self, turn: usize, moves: &[String], picks: &[String]) -> Result<VariationView, Refusal> {
        let game = self.game_at(turn)?;
        let game = variation::play_out(&game, moves).map_err(|e| Refusal::Bad(e.0))?;
        let at = At { turn, line: game.moves().skip(turn).map(|m| m.to_string()).collect() };
        let analysis = self.analysis_at(&at).map(|a| a.view.clone());
        variation::view(self.id, &game, turn, picks, analysis).map_err(|e| Refusal::Bad(e.0))
    }

    /// The latest analysis of the position `at`.
    pub(crate) fn analysis_at(&self, at: &At) -> Option<&TurnAnalysis> {
        if at.line.is_empty() {
            self.analyses.get(&at.turn)
        } else {
            self.variation_analysis.as_ref().filter(|(a, _)| a == at).map(|(_, analysis)| analysis)
        }
    }

    /// [`GameSession::analysis_at`], to change.
    pub(crate) fn analysis_at_mut(&mut self, at: &At) -> Option<&mut TurnAnalysis> {
        if at.line.is_empty() {
            self.analyses.get_mut(&at.turn)
        } else {
            self.variation_analysis.as_mut().filter(|(a, _)| a == at).map(|(_, analysis)| analysis)
        }
    }

    /// Keeps `analysis` as the latest of the position `at` (a variation's replaces the
    /// variation's before it).
    pub(crate) fn set_analysis(&mut self, at: At, analysis: TurnAnalysis) {
        if at.line.is_empty() {
            self.analyses.insert(at.turn, analysis);
        } else {
            self.variation_analysis = Some((at, analysis));
        }
    }

    /// The engine (by index) playing `color`, if an engine plays it.
    pub(crate) fn engine_of(&self, color: Color) -> Option<usize> {
        match self.players[self.seat(color)] {
            Player::Engine(i) => Some(i),
            Player::Person => None,
        }
    }

    /// The next step of a person's turn after `picks`.
    pub fn steps(&self, picks: &[String]) -> Result<Steps, Refusal> {
        if !self.person_to_move() {
            return Err(Refusal::Conflict(self.not_your_turn()));
        }
        steps::steps(self.game.position(), picks).map_err(|e| Refusal::Bad(e.0))
    }

    fn not_your_turn(&self) -> String {
        if self.is_over() { "the game is over".into() } else { "it is the engine's turn".into() }
    }

    /// Whether `color` plays on a clock (not a time per move).
    fn has_clock(&self, color: Color) -> bool {
        !matches!(self.control(color), TimeControl::MoveTime(_))
    }

    /// The time control of the player of `color` now.
    pub(crate) fn control(&self, color: Color) -> TimeControl {
        self.controls[self.seat(color)]
    }

    /// The clock of the player of `color` now.
    pub(crate) fn clock(&self, color: Color) -> &Clock {
        &self.clocks[self.seat(color)]
    }

    /// Sets the clocks from Black's and White's (`by_color`) as they stand when White has
    /// swapped (`swapped`) or not: each goes to the seat playing that colour then.
    pub(crate) fn set_clocks_by_color(&mut self, by_color: &[Clock; 2], swapped: bool) {
        for color in Color::ALL {
            let seat = usize::from((color == Color::White) != swapped);
            self.clocks[seat] = by_color[color.index()].clone();
        }
    }

    /// Under a clock, a person to move whose time (plus `margin`) has run out loses.
    pub fn check_flag(&mut self, margin: f64) {
        let color = self.game.position().side_to_move();
        if !self.has_clock(color) || !self.person_to_move() {
            return;
        }
        let elapsed = self.turn_started.elapsed().as_secs_f64();
        if elapsed > self.clock(color).allowed() + margin {
            let reason = format!("{color}: no move within {} s", format_seconds(self.clock(color).allowed()));
            self.finish(!color, Termination::TimeForfeit, reason);
        }
    }

    /// Plays a person's turn given in notation (a turn past the clock plus `margin` loses).
    pub fn play(&mut self, text: &str, margin: f64) -> Result<(), Refusal> {
        self.check_flag(margin);
        if !self.person_to_move() {
            return Err(Refusal::Conflict(self.not_your_turn()));
        }
        let shown = veletas_rules::quoted(text);
        let mv = self.game.position().parse_move(text).map_err(|e| Refusal::Bad(e.to_string()))?;
        let color = self.game.position().side_to_move();
        let seat = self.seat(color);
        let mut clock = self.clocks[seat].clone();
        if self.has_clock(color) {
            clock
                .spend(self.turn_started.elapsed().as_secs_f64(), margin)
                .map_err(|e| Refusal::Conflict(e.to_string()))?;
        }
        self.game.play(mv).map_err(|e| Refusal::Bad(format!("illegal move {shown}: {e}")))?;
        self.moved_at = now_ms();
        self.clocks[seat] = clock;
        self.turn_played(color, None);
        if mv == Move::Swap {
            self.swapped = !self.swapped;
        }
        Ok(())
    }

    /// How many turns `undo` takes back: back to the last turn of a person, so that the
    /// person is to move again; `None` when there is none. (An engine thinking meanwhile
    /// is stopped by [`GameSession::undo`].)
    fn undo_target(&self) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        let mut game = self.game.clone();
        let mut taken = 0;
        while let Ok(mv) = game.undo() {
            taken += 1;
            if mv == Move::Swap {
                return None;
            }
            let mover = game.position().side_to_move();
            if self.players[self.seat(mover)] == Player::Person {
                return Some(taken);
            }
        }
        None
    }

    /// Takes back turns up to and including the last turn of a person. An engine thinking
    /// about its move meanwhile is stopped: its process is ended (it starts again when its
    /// turn comes), and its reply, were it on its way, is dropped.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let taken =
            self.undo_target().ok_or_else(|| Refusal::Conflict("there is no turn of yours to take back".into()))?;
        if self.thinking {
            if let Some(killer) = self.thinking_killer.take() {
                killer.kill();
            }
            self.thinking = false;
        }
        for _ in 0..taken {
            let _ = self.game.undo();
        }
        let turns = self.game.moves().len();
        self.analyses.retain(|turn, _| *turn <= turns);
        if self.variation_analysis.as_ref().is_some_and(|(at, _)| at.turn > turns) {
            self.variation_analysis = None;
        }
        self.notes.truncate(turns);
        self.epoch += 1;
        self.stop_review();
        // The clocks as they were after the turn now last (or at the session's start).
        self.clock_history.truncate(turns.saturating_sub(self.first_turn) + 1);
        if let Some((clocks, used)) = self.clock_history.last() {
            (self.clocks, self.used) = (clocks.clone(), *used);
        }
        self.turn_started = Instant::now();
        self.version += 1;
        Ok(())
    }

    /// The person to move resigns (with two engines playing, nobody may).
    pub fn resign(&mut self) -> Result<(), Refusal> {
        if self.is_over() {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        let to_move = self.game.position().side_to_move();
        let person = [to_move, !to_move].into_iter().find(|&c| self.players[self.seat(c)] == Player::Person);
        let Some(loser) = person else {
            return Err(Refusal::Conflict("no person plays in this game".into()));
        };
        self.finish(!loser, Termination::Resignation, format!("{loser} resigned"));
        Ok(())
    }

    /// Charges the turn just played to `color` (the side that played it, its seat not yet
    /// exchanged by a swap), with the win rate its engine reported if any, and starts the
    /// next.
    pub(crate) fn turn_played(&mut self, color: Color, evaluation: Option<Evaluation>) {
        self.turn_noted(color, self.turn_started.elapsed(), evaluation);
    }

    /// [`GameSession::turn_played`], the turn's time and the win rate its engine reported
    /// given (by the referee, in a match).
    pub(crate) fn turn_noted(&mut self, color: Color, took: Duration, evaluation: Option<Evaluation>) {
        let engine = self.engine_of(color).map(|_| self.names[self.seat(color)].clone());
        self.notes.resize(self.game.moves().len().saturating_sub(1), TurnNote::default());
        self.notes.push(TurnNote { time: Some(took), engine, evaluation, best_line: None, first_steps: None });
        let seat = self.seat(color);
        self.used[seat] += took.as_secs_f64();
        self.turn_started = Instant::now();
        self.version += 1;
        self.clock_history.push((self.clocks.clone(), self.used));
    }

    pub(crate) fn finish(&mut self, winner: Color, termination: Termination, reason: String) {
        self.end(Some(winner), termination, reason);
    }

    /// Ends the game: `winner` wins (`None`: no result), how and why.
    pub(crate) fn end(&mut self, winner: Option<Color>, termination: Termination, reason: String) {
        self.outcome = Some((winner, termination, reason));
        self.thinking = false;
        self.version += 1;
    }

    /// What tells that the view has changed: its version, and the match's view (a match's
    /// next game opens without a change of this one).
    pub(crate) fn change_mark(&self) -> (u64, Option<String>) {
        let series = self.series.as_ref().map(|(series, number)| json_text(&lock(series).view(*number)));
        (self.version, series)
    }

    /// Stops the game's review, if one runs: its engine is ended at once.
    pub fn stop_review(&mut self) {
        if self.review.as_mut().is_some_and(ReviewState::stop) {
            self.version += 1;
        }
    }

    /// Keeps a review's figures of turn `turn` (from 0) as the turn's in the record (where
    /// the engine reported a search).
    pub(crate) fn note_review(&mut self, turn: usize, found: PositionReview) {
        if found.evaluation.is_none() {
            return;
        }
        if self.notes.len() <= turn {
            self.notes.resize(turn + 1, TurnNote::default());
        }
        let note = &mut self.notes[turn];
        note.evaluation = found.evaluation;
        note.best_line = found.best_line;
    }

    /// Kills the game's engines (when the game is closed); a match whose game was being
    /// played stops.
    pub fn close(&mut self) {
        self.closed = true;
        if !self.is_over()
            && let Some((series, _)) = &self.series
        {
            lock(series).stop();
        }
        if self.outcome.is_none() {
            // No result: nothing is recorded of it.
            self.outcome = Some((None, Termination::Normal, CLOSED.into()));
            self.recorded = true;
        }
        // Every analysis of the game stops at its next report.
        self.epoch += 1;
        for seat in self.engines.iter().flatten() {
            if let Ok(mut seat) = seat.try_lock() {
                seat.kill();
            }
        }
        // An engine being asked for its move (its seat is busy): its thread sees it end.
        for killer in self.killers.drain(..) {
            killer.kill();
        }
    }
}

fn json_text(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn capitalized(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A game shared between the server's threads and the engine's.
pub type SharedGame = Arc<Mutex<GameSession>>;
