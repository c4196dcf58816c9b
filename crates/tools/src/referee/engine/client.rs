//! [`EngineClient`]: one engine as the referee, `check`, `book` and the GUI drive it, its
//! process started on demand and started again after a crash or a kill (the process itself
//! and its transport are [`EngineProcess`]'s; the protocol's operations on it, the
//! `controller` module's), with what the running process listed ([`Capabilities`]) and the
//! game it was set up for ([`Setup`]).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use super::transport::{EngineCommand, EngineProcess, Exchange, Failure, Killer, Reply};
use crate::referee::clock::TimeControl;
use crate::referee::traffic::{StderrTail, Traffic};
use veletas_rules::{Game, Position, Rules, Variant};

/// The client of one engine, as the referee, `check`, `book` and the GUI drive it: the
/// command, the log, and the current process, restarted when it is needed again.
pub struct EngineClient {
    command: EngineCommand,
    log: Option<PathBuf>,
    process: Option<EngineProcess>,
    /// How many times the engine has been started.
    pub starts: u32,
    /// Whether the engine accepted this game's `time_settings`: one that answered `?` (it
    /// knows no time commands) plays on, timed by the referee alone, and gets no `time_left`.
    pub(super) timed: bool,
    /// What the running process listed with `list_commands` (asked once per process, before
    /// its first game).
    pub(super) capabilities: Capabilities,
    /// The game the running process was set up for and the moves it has seen since
    /// (`None`: it must be set up anew).
    pub(super) seen: Option<(Setup, Game)>,
    /// Whether the process was started and its start-up commands were not sent yet.
    init_pending: bool,
    /// Its name and game, for the logs.
    traffic: Traffic,
    /// The last stderr lines of the latest process (kept after it is gone).
    stderr_tail: StderrTail,
}

impl EngineClient {
    /// An engine not started yet.
    pub fn new(command: EngineCommand, log: Option<PathBuf>) -> EngineClient {
        let traffic = Traffic::new(&command.text, None);
        EngineClient {
            command,
            log,
            process: None,
            starts: 0,
            timed: true,
            capabilities: Capabilities::default(),
            seen: None,
            init_pending: false,
            traffic,
            stderr_tail: StderrTail::default(),
        }
    }

    /// The engine with `traffic` for its name, game and protocol log.
    pub fn with_traffic(mut self, traffic: Traffic) -> EngineClient {
        self.traffic = traffic;
        self
    }

    /// Its name and game, for the logs.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
    }

    /// The command line.
    pub fn command_line(&self) -> &EngineCommand {
        &self.command
    }

    /// Starts the engine unless it is running; `true` when it was started now (its
    /// start-up commands, [`EngineCommand::init`], are then still to be sent).
    pub fn ensure_running(&mut self) -> io::Result<bool> {
        if self.process.as_ref().is_some_and(EngineProcess::is_running) {
            return Ok(false);
        }
        self.process = None;
        self.seen = None;
        self.capabilities = Capabilities::default();
        if crate::referee::process::stopping_now() {
            // A second signal ended every engine: none starts again.
            return Err(io::Error::other("the referee is stopping"));
        }
        let process = EngineProcess::spawn_logged(&self.command, self.log.as_deref(), self.traffic.clone())?;
        self.stderr_tail = process.stderr_tail().clone();
        self.process = Some(process);
        self.starts += 1;
        self.init_pending = true;
        Ok(true)
    }

    /// Whether the running process has not been sent its start-up commands
    /// ([`EngineCommand::init`]) yet; they count as sent from now on.
    pub fn take_init_pending(&mut self) -> bool {
        std::mem::take(&mut self.init_pending)
    }

    /// Sends a raw line to the running engine (see [`EngineProcess::exchange`]).
    pub fn exchange(&mut self, line: &str, id: &str, timeout: Duration) -> Result<Exchange, Failure> {
        match self.process.as_mut() {
            Some(process) => process.exchange(line, id, timeout),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// The running process, if any (to close its input or wait for its exit).
    pub fn process_mut(&mut self) -> Option<&mut EngineProcess> {
        self.process.as_mut()
    }

    /// Sends a command to the running engine (see [`EngineProcess::command`]).
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<Reply, Failure> {
        match self.process.as_mut() {
            Some(process) => process.command(command, timeout),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// Sends a streaming command to the running engine (see [`EngineProcess::stream`]).
    pub fn stream(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        match self.process.as_mut() {
            Some(process) => process.stream(command, duration, timeout, on_line),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// Sends a streaming command that `stop` can end at once (see
    /// [`EngineProcess::stream_until`]).
    pub fn stream_until(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        match self.process.as_mut() {
            Some(process) => process.stream_until(command, duration, timeout, stop, on_line),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// What the latest process last wrote to stderr, as [`StderrTail::shown`] says it (kept
    /// after the process is gone), or `None`.
    pub fn stderr_tail(&self) -> Option<String> {
        self.stderr_tail.shown()
    }

    /// Whether a process is running.
    pub fn is_running(&self) -> bool {
        self.process.as_ref().is_some_and(EngineProcess::is_running)
    }

    /// A handle that kills the running process from another thread (see
    /// [`EngineProcess::killer`]).
    pub fn killer(&self) -> Option<Killer> {
        self.process.as_ref().map(EngineProcess::killer)
    }

    /// Kills the process, if any.
    pub fn kill(&mut self) {
        self.seen = None;
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// Asks the engine to quit (killing it if it does not within `timeout`).
    pub fn quit(&mut self, timeout: Duration) {
        if let Some(mut process) = self.process.take() {
            process.quit(timeout);
        }
    }
}

/// What an engine lists with `list_commands` that changes how it is driven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    analyzes: bool,
    reports_steps: bool,
}

impl Capabilities {
    /// The capabilities a `list_commands` reply (one command a line) lists.
    pub fn from_list(listed: &str) -> Capabilities {
        let lists = |command: &str| listed.lines().any(|l| l.trim() == command);
        Capabilities { analyzes: lists("genmove_analyze"), reports_steps: lists("genmove_analyze_steps") }
    }

    /// Whether it lists `genmove_analyze`: its moves are asked with it, their win rates noted.
    pub fn analyzes(self) -> bool {
        self.analyzes
    }

    /// Whether it lists `genmove_analyze_steps`.
    pub fn reports_steps(self) -> bool {
        self.reports_steps
    }

    /// How to ask this engine for a move: with `genmove_analyze_steps` when `steps` are
    /// wanted and it lists them, else with `genmove_analyze` when it lists it, else plainly.
    pub fn ask(self, steps: bool) -> Ask {
        if steps && self.reports_steps {
            Ask::Steps
        } else if self.analyzes {
            Ask::Analyze
        } else {
            Ask::Plain
        }
    }
}

/// The command a move is asked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `genmove`.
    Plain,
    /// `genmove_analyze`: the move comes with a report line.
    Analyze,
    /// `genmove_analyze_steps`: the move comes with a report and its first steps' playouts.
    Steps,
}

impl Ask {
    pub(super) fn verb(self) -> &'static str {
        match self {
            Ask::Plain => "genmove",
            Ask::Analyze => "genmove_analyze",
            Ask::Steps => "genmove_analyze_steps",
        }
    }
}

/// The game an engine is set up for: the board, the rules, the start position when it is
/// not the plain one, and the time control (none: no `time_settings`).
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub(super) variant: Variant,
    pub(super) rules: Rules,
    pub(super) start: Option<Position>,
    pub(super) time: Option<TimeControl>,
}

impl Setup {
    /// A game of `variant` and `rules` from `start` (`None`: the plain start, no
    /// `set_position` sent) under `time`.
    pub fn new(variant: Variant, rules: Rules, start: Option<Position>, time: Option<TimeControl>) -> Setup {
        Setup { variant, rules, start, time }
    }

    /// The setup of `game`'s start: its position is sent when it is not the plain one.
    pub fn of_game(game: &Game, time: Option<TimeControl>) -> Setup {
        let start = game.start();
        let plain = Position::with_rules(start.variant(), start.rules());
        Setup::new(start.variant(), start.rules(), (*start != plain).then(|| start.clone()), time)
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Position {
        self.start.clone().unwrap_or_else(|| Position::with_rules(self.variant, self.rules))
    }
}
