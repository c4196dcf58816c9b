//! The games open in the server: each one's authoritative [`Game`] (kept with the rules
//! library), who plays each colour, and the engines playing it.
//!
//! An engine is driven through the protocol only, with the referee's engine client
//! ([`veletas_tools::referee::engine`]), as a third-party engine would be: `boardsize`,
//! `rules`, `clear_board`, `time_settings`, `play`, `time_left`, `genmove`. Its move is
//! asked for on a thread of its own, so that the server keeps answering while it thinks;
//! before each `genmove` the engine is brought up to date with the game (the moves it has
//! not seen are sent with `play`; after an undo or a new game it starts over with
//! `clear_board`). An engine that crashes, does not answer in time, answers junk or plays an
//! illegal move loses the game, with the reason shown, and is killed; nothing else stops
//! ([`crate::engine_turn`]). Under a clock, each colour has the referee's [`Clock`].

use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use veletas_rules::record::{GameRecord, TimeControls, tag};
use veletas_rules::{Color, Game, Move, Position, RuleSet, Rules, Variant};
use veletas_tools::picture::svg::{self, Layout, SvgOptions};
use veletas_tools::referee::clock::{ByoYomiSpec, Clock, ClockSpec, TimeControl, format_seconds};
use veletas_tools::referee::engine::{Engine, EngineCommand};
use veletas_tools::referee::game::Termination;

use crate::analysis::{self, AnalysisView};
use crate::steps::{self, Steps};

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

/// What the page asks for when it starts a game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Board size: 7, 9 or 10.
    pub size: u8,
    /// `classic` or `modern`.
    pub rules: String,
    /// Who plays Black: `null` for a person, else the index of an engine.
    pub black: Option<usize>,
    /// Who plays White, the same way.
    pub white: Option<usize>,
    /// Seconds per move for the engines (1 when not given).
    #[serde(default)]
    pub movetime: Option<f64>,
    /// Where to start instead of the empty board: a position string, or a game record
    /// (its first game) to continue after `turn` turns (default: at its end). The size
    /// and rules then come from it.
    #[serde(default)]
    pub start: Option<String>,
    /// The turns of the record in `start` to replay (all when not given).
    #[serde(default)]
    pub turn: Option<usize>,
    /// A clock for each side instead of a time per move: `MAIN+INC` or `MAIN` seconds.
    #[serde(default)]
    pub clock: Option<String>,
    /// Canadian byo-yomi after the clock's main time: `PERIOD/STONES`.
    #[serde(default)]
    pub byoyomi: Option<String>,
}

/// The time control a new game request asks for.
fn time_control(request: &NewGame) -> Result<TimeControl, Refusal> {
    let text = |t: &Option<String>| t.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string);
    let clock = text(&request.clock)
        .map(|c| c.parse::<ClockSpec>())
        .transpose()
        .map_err(|e| Refusal::Bad(format!("clock: {e}")))?;
    let byoyomi = text(&request.byoyomi)
        .map(|b| b.parse::<ByoYomiSpec>())
        .transpose()
        .map_err(|e| Refusal::Bad(format!("byoyomi: {e}")))?;
    let movetime = request.movetime.unwrap_or(1.0);
    if !(movetime.is_finite() && (0.01..=3600.0).contains(&movetime)) {
        return Err(Refusal::Bad("the time per move must be from 0.01 to 3600 seconds".into()));
    }
    let movetime = (clock.is_none() && byoyomi.is_none()).then_some(movetime);
    TimeControl::from_options(movetime, clock, byoyomi).map_err(Refusal::Bad)
}

/// The game a new game request starts from: the empty board of its size and rules, a
/// position string, or a record replayed up to a turn.
fn starting_game(request: &NewGame) -> Result<Game, Refusal> {
    let text = request.start.as_deref().map(str::trim).unwrap_or_default();
    if text.is_empty() {
        let variant = Variant::from_size(request.size)
            .ok_or_else(|| Refusal::Bad(format!("the board size must be 7, 9 or 10, not {}", request.size)))?;
        let set: RuleSet =
            request.rules.parse().map_err(|_| Refusal::Bad(format!("unknown rules '{}'", request.rules)))?;
        return Ok(Game::from_position(Position::with_rules(variant, Rules::from(set))));
    }
    if !text.contains('[') && !text.contains('.') {
        let position: Position = text.parse().map_err(|e| Refusal::Bad(format!("not a position string: {e}")))?;
        return Ok(Game::from_position(position));
    }
    let games = veletas_rules::record::parse_records(text).map_err(|e| Refusal::Bad(format!("not a record: {e}")))?;
    let first = games.first().ok_or_else(|| Refusal::Bad("the record holds no game".into()))?;
    first.replay(request.turn).map_err(|e| Refusal::Bad(format!("the record's game: {e}")))
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

/// An engine playing in one game, with the moves it has been told.
pub(crate) struct EngineSeat {
    pub(crate) engine: Engine,
    /// The game's moves this engine knows (played or generated); `None`: it must start over.
    pub(crate) known: Option<Vec<Move>>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// `black` or `white`.
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
    pub(crate) control: TimeControl,
    /// Black's and White's clocks.
    pub(crate) clocks: [Clock; 2],
    pub(crate) swapped: bool,
    outcome: Option<(Color, Termination, String)>,
    /// Bumped at every change, so that a reply to an older `genmove` is dropped.
    pub(crate) version: u64,
    pub(crate) thinking: bool,
    pub(crate) engines: [Option<Arc<Mutex<EngineSeat>>>; 2],
    /// Whether the finished game has been handed to the record file.
    recorded: bool,
    started: String,
    /// The latest analysis, with the position string it is of.
    analysis: Option<(String, AnalysisView)>,
    /// Bumped at every analysis started, so that an older one stops.
    analysis_id: u64,
    /// When the last turn was played, in milliseconds since 1970 (0: none yet).
    pub(crate) moved_at: u64,
    /// The seconds Black and White have spent on their turns.
    used: [f64; 2],
    /// When the turn to play began.
    turn_started: Instant,
}

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
    pub outcome: Option<Outcome>,
    /// The first step of the turn, when a person is to move.
    pub steps: Option<Steps>,
    /// Whether `undo` would take back a turn now.
    pub can_undo: bool,
    /// The status line: who is to move, claims.
    pub status: Vec<String>,
    /// The analysis of this position, if one was asked for.
    pub analysis: Option<AnalysisView>,
    /// When the last turn was played (an engine's: when its reply was read), in
    /// milliseconds since 1970; the page measures the delay to its drawing with it.
    pub moved_at: u64,
    /// The seconds Black and White have spent on their finished turns.
    pub time_used: [f64; 2],
    /// The seconds the side to move has spent on this turn so far (0 once the game is over).
    pub turn_time: f64,
    /// Under a clock: the seconds Black and White have left for their next turn (before
    /// this turn's time), as the referee's clock counts them; `null` with a time per move.
    pub clocks: Option<[f64; 2]>,
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl GameSession {
    /// A new game as `request` asks, checked against `settings`.
    pub fn new(id: u64, request: &NewGame, settings: &Settings) -> Result<GameSession, Refusal> {
        let game = starting_game(request)?;
        let control = time_control(request)?;
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
            Player::Engine(i) => Some(Arc::new(Mutex::new(EngineSeat {
                engine: Engine::new(settings.engines[i].command.clone(), None),
                known: None,
            }))),
        });
        Ok(GameSession {
            id,
            swapped: game.moves().filter(|m| *m == Move::Swap).count() % 2 == 1,
            game,
            players,
            names,
            control,
            clocks: [Clock::new(control), Clock::new(control)],
            outcome: None,
            version: 1,
            thinking: false,
            engines,
            recorded: false,
            started: veletas_tools::referee::today(),
            analysis: None,
            analysis_id: 0,
            moved_at: 0,
            used: [0.0; 2],
            turn_started: Instant::now(),
        })
    }

    /// The seat playing `color` now.
    pub(crate) fn seat(&self, color: Color) -> usize {
        usize::from((color == Color::White) != self.swapped)
    }

    fn winner(&self) -> Option<Color> {
        self.outcome.as_ref().map(|(c, _, _)| *c).or_else(|| self.game.position().winner())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    fn person_to_move(&self) -> bool {
        !self.is_over() && self.players[self.seat(self.game.position().side_to_move())] == Player::Person
    }

    /// The page's view of the game.
    pub fn view(&self) -> GameView {
        let position = self.game.position();
        let last = self.game.moves().last();
        let options = SvgOptions { width: 560, coordinates: true, status: false };
        let layout = Layout::new(position.variant().size(), true);
        let (left, top) = (layout.left(), layout.top());
        let colour_name = |c: Color| self.names[self.seat(c)].clone();
        let mut status = svg::status_lines(position, last.as_ref());
        if let Some((winner, termination, reason)) = &self.outcome {
            status[0] = format!("{} wins ({termination})", capitalized(*winner));
            if !reason.is_empty() {
                status.insert(1, reason.clone());
            }
        }
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
            players: [colour_name(Color::Black), colour_name(Color::White)],
            persons: Color::ALL.map(|c| self.players[self.seat(c)] == Player::Person),
            thinking: self.thinking,
            outcome: self.winner().map(|w| {
                let (termination, reason) = match &self.outcome {
                    Some((_, t, r)) => (t.as_str().to_string(), r.clone()),
                    None => (Termination::Normal.as_str().to_string(), String::new()),
                };
                Outcome { winner: w.to_string(), termination, reason }
            }),
            steps: if self.person_to_move() { steps::steps(position, &[]).ok() } else { None },
            can_undo: self.undo_target().is_some(),
            status,
            analysis: self
                .analysis
                .as_ref()
                .filter(|(of, _)| *of == position.to_string())
                .map(|(_, analysis)| analysis.clone()),
            moved_at: self.moved_at,
            time_used: self.used,
            turn_time: if self.is_over() { 0.0 } else { self.turn_started.elapsed().as_secs_f64() },
            clocks: self.has_clock().then(|| self.clocks.each_ref().map(Clock::allowed)),
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

    /// Whether the sides play on clocks (not a time per move).
    fn has_clock(&self) -> bool {
        !matches!(self.control, TimeControl::MoveTime(_))
    }

    /// Under a clock, a person to move whose time (plus `margin`) has run out loses.
    pub fn check_flag(&mut self, margin: f64) {
        if !self.has_clock() || !self.person_to_move() {
            return;
        }
        let color = self.game.position().side_to_move();
        let elapsed = self.turn_started.elapsed().as_secs_f64();
        if elapsed > self.clocks[color.index()].allowed() + margin {
            let reason = format!("{color}: no move within {} s", format_seconds(self.clocks[color.index()].allowed()));
            self.finish(!color, Termination::TimeForfeit, reason);
        }
    }

    /// Plays a person's turn given in notation (a turn past the clock plus `margin` loses).
    pub fn play(&mut self, text: &str, margin: f64) -> Result<(), Refusal> {
        self.check_flag(margin);
        if !self.person_to_move() {
            return Err(Refusal::Conflict(self.not_your_turn()));
        }
        let shown: String = text.chars().take(40).collect();
        let mv = self.game.position().parse_move(text).map_err(|e| Refusal::Bad(e.to_string()))?;
        let color = self.game.position().side_to_move();
        let mut clock = self.clocks[color.index()].clone();
        if self.has_clock() {
            clock.spend(self.turn_started.elapsed().as_secs_f64(), margin).map_err(Refusal::Conflict)?;
        }
        self.game.play(mv).map_err(|e| Refusal::Bad(format!("illegal move {shown}: {e}")))?;
        if mv == Move::Swap {
            self.swapped = !self.swapped;
        }
        self.moved_at = now_ms();
        self.clocks[color.index()] = clock;
        self.turn_played(color);
        Ok(())
    }

    /// How many turns `undo` takes back: back to the last turn of a person, so that the
    /// person is to move again; `None` when there is none or an engine is thinking.
    fn undo_target(&self) -> Option<usize> {
        if self.thinking || self.is_over() {
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

    /// Takes back turns up to and including the last turn of a person.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let taken =
            self.undo_target().ok_or_else(|| Refusal::Conflict("there is no turn of yours to take back".into()))?;
        for _ in 0..taken {
            let _ = self.game.undo();
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

    /// Charges the turn just played to `color` (the side that played it) and starts the next.
    pub(crate) fn turn_played(&mut self, color: Color) {
        self.used[color.index()] += self.turn_started.elapsed().as_secs_f64();
        self.turn_started = Instant::now();
        self.version += 1;
    }

    pub(crate) fn finish(&mut self, winner: Color, termination: Termination, reason: String) {
        self.outcome = Some((winner, termination, reason));
        self.thinking = false;
        self.version += 1;
    }

    /// The game as a record (result `*` while it goes on).
    pub fn record(&self) -> GameRecord {
        let mut record = GameRecord::default();
        let position = self.game.start();
        record.set_tag(tag::EVENT, "veletas gui");
        record.set_tag(tag::DATE, self.started.clone());
        // After White's swap the players have exchanged colours: the tags name them as
        // they played after it, so the result is theirs (as `veletas match` writes them).
        record.set_player(Color::Black, self.names[self.seat(Color::Black)].clone());
        record.set_player(Color::White, self.names[self.seat(Color::White)].clone());
        record.set_tag(tag::SIZE, position.variant().size().to_string());
        if position.rules() != Rules::CLASSIC {
            record.set_tag(tag::RULES, position.rules().to_string());
        }
        if *position != Position::with_rules(position.variant(), position.rules()) {
            record.set_tag(tag::START, position.to_string());
        }
        if self.swapped {
            let setup = &self.names[self.seat(Color::White)];
            record.set_tag(tag::SWAP, format!("white swapped: {setup} made Black's setup and then played White"));
        }
        record.set_time_controls(&TimeControls::Same(self.control));
        record.set_result(self.winner());
        if let Some((_, termination, reason)) = &self.outcome {
            record.set_termination(*termination);
            if !reason.is_empty() {
                record.set_tag(tag::REASON, reason.clone());
            }
        } else if self.winner().is_some() {
            record.set_termination(Termination::Normal);
        }
        record.moves = self.game.moves().map(|m| m.to_string()).collect();
        record
    }

    /// The finished game's record, once: `None` while it goes on or once taken.
    pub fn take_finished_record(&mut self) -> Option<GameRecord> {
        if self.recorded || !self.is_over() {
            return None;
        }
        self.recorded = true;
        Some(self.record())
    }

    /// Kills the game's engines (when the game is closed).
    pub fn close(&mut self) {
        self.outcome.get_or_insert((Color::Black, Termination::Normal, "closed".into()));
        for seat in self.engines.iter().flatten() {
            if let Ok(mut seat) = seat.try_lock() {
                seat.engine.kill();
            }
        }
    }
}

fn capitalized(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A game shared between the server's threads and the engine's.
pub type SharedGame = Arc<Mutex<GameSession>>;

/// Starts an analysis of the game's position by engine `engine` for `seconds`, in an
/// engine process of its own; the reports show up in the game's view.
pub fn start_analysis(
    shared: &SharedGame,
    settings: &Arc<Settings>,
    engine: usize,
    seconds: f64,
) -> Result<(), Refusal> {
    let spec = settings.engines.get(engine).ok_or_else(|| Refusal::Bad(format!("there is no engine {engine}")))?;
    if !(seconds.is_finite() && (0.1..=600.0).contains(&seconds)) {
        return Err(Refusal::Bad("the analysis lasts from 0.1 to 600 seconds".into()));
    }
    let mut session = lock(shared);
    if session.is_over() {
        return Err(Refusal::Conflict("the game is over".into()));
    }
    if session.thinking {
        return Err(Refusal::Conflict("an engine is thinking".into()));
    }
    session.analysis_id += 1;
    let id = session.analysis_id;
    let position = session.game.position().to_string();
    let view = AnalysisView {
        engine: spec.name.clone(),
        turn: session.game.moves().len(),
        running: true,
        ..Default::default()
    };
    session.analysis = Some((position.clone(), view));
    session.version += 1;
    let game = session.game.clone();
    drop(session);
    let (shared, command, timeout) = (Arc::clone(shared), spec.command.clone(), settings.command_timeout);
    let duration = Duration::from_secs_f64(seconds);
    let current =
        move |session: &GameSession| session.analysis_id == id && session.game.position().to_string() == position;
    let spawned = thread::Builder::new().name("analysis".into()).spawn(move || {
        let result = analysis::analyse(&command, &game, duration, timeout, &mut |candidates| {
            let mut session = lock(&shared);
            if !current(&session) {
                return false;
            }
            if let Some((_, view)) = session.analysis.as_mut() {
                view.candidates = candidates;
            }
            session.version += 1;
            true
        });
        let mut session = lock(&shared);
        if session.analysis_id == id {
            if let Some((_, view)) = session.analysis.as_mut() {
                view.running = false;
                view.error = result.err();
            }
            session.version += 1;
        }
    });
    spawned.map(|_| ()).map_err(|e| Refusal::Conflict(format!("no thread for the analysis: {e}")))
}
