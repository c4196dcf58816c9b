//! One engine under check ([`Session`]): its process (restarted when a check leaves it
//! dead), the commands sent to it with their deadlines, and the games the checks play on
//! it with the rules library. The checks themselves are in `probes` and `extensions`.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use super::CheckSettings;
use crate::referee::clock::{Clock, TimeControl};
use crate::referee::engine::controller::{Ask, Fault, Setup, shown_command};
use crate::referee::engine::{EngineClient, Exchange, Failure, Reply};
use veletas_rules::{Game, Move, Phase, PlayoutPolicy, Position, Rng};

/// A check's result: what was seen, or why it failed.
pub(super) type Checked = Result<String, String>;

/// One engine under check.
pub(super) struct Session<'a> {
    pub(super) engine: EngineClient,
    pub(super) settings: &'a CheckSettings,
    pub(super) rng: Rng,
    /// The extensions `known_command` confirmed.
    pub(super) extensions: Vec<String>,
    /// `name` and `version`, once the check `name` has passed.
    pub(super) name: Option<String>,
    /// Whether the engine knows the clock commands (`time_settings`, `time_left`): true
    /// until the check `commands` hears `known_command time_settings` answer otherwise.
    /// An engine without them is timed by the referee alone, and the clock checks are
    /// then optional and skipped.
    pub(super) timed: bool,
    /// What `list_commands` listed (empty until the check `commands`, or if it was refused).
    pub(super) listed: BTreeSet<String>,
}

/// A transport failure as a check's failure; an engine that ended says why in its last stderr lines.
fn describe(engine: &mut EngineClient, command: &str, failure: Failure, timeout: Duration) -> String {
    let unterminated = engine.process_mut().and_then(|p| p.unterminated().map(super::shorten));
    let command = shown_command(command);
    match (failure, unterminated) {
        (Failure::Timeout, Some(first)) => format!(
            "the reply to '{command}' began ('{first}') but no empty line ended it within {:.2} s",
            timeout.as_secs_f64()
        ),
        (Failure::Timeout, None) => format!("no reply to '{command}' within {:.2} s", timeout.as_secs_f64()),
        (failure, _) => format!("'{command}': {}", engine.with_cause(failure)),
    }
}

impl Session<'_> {
    pub(super) fn timeout(&self) -> Duration {
        self.settings.command_timeout
    }

    pub(super) fn offers(&self, extension: &str) -> bool {
        self.extensions.iter().any(|e| e == extension)
    }

    /// Whether the engine has `command`: listed by `list_commands`, or else `known_command`
    /// says `true` (a refused `known_command` says no).
    pub(super) fn knows(&mut self, command: &str) -> Result<bool, String> {
        if self.listed.contains(command) {
            return Ok(true);
        }
        Ok(matches!(self.ask(&format!("known_command {command}"))?, Reply { success: true, text } if text == "true"))
    }

    /// Whether the engine lacks `command`, by `list_commands` alone (an engine that lists
    /// nothing lacks nothing here).
    pub(super) fn lacks(&self, command: &str) -> bool {
        !self.listed.is_empty() && !self.listed.contains(command)
    }

    /// Starts the engine again if a check left it dead, and sends its start-up commands
    /// (a tournament's `init=`) after every start.
    pub(super) fn running(&mut self) -> Result<(), String> {
        match self.engine.send_init(self.timeout()) {
            Ok(_) => Ok(()),
            Err(Fault::NotStarted(e)) => Err(format!("cannot be started: {e}")),
            Err(fault) => Err(format!("start-up command: {}", self.explain(fault))),
        }
    }

    /// A controller's fault as a check's failure (a reply begun but not ended told as such).
    fn explain(&mut self, fault: Fault) -> String {
        match fault {
            Fault::NoReply { command, failure, timeout } => describe(&mut self.engine, &command, failure, timeout),
            fault => fault.to_string(),
        }
    }

    pub(super) fn ask(&mut self, command: &str) -> Result<Reply, String> {
        let timeout = self.timeout();
        let reply = self.engine.command(command, timeout);
        reply.map_err(|f| describe(&mut self.engine, command, f, timeout))
    }

    /// A command that must succeed; its result.
    pub(super) fn ok(&mut self, command: &str) -> Checked {
        match self.ask(command)? {
            Reply { success: true, text } => Ok(text),
            Reply { success: false, text } => {
                Err(format!("'{}' was refused: {}", shown_command(command), super::shorten(&text)))
            }
        }
    }

    /// A command that must fail with a message starting with `prefix`.
    pub(super) fn refused(&mut self, command: &str, prefix: &str) -> Result<(), String> {
        let reply = self.ask(command)?;
        let command = shown_command(command);
        match reply {
            Reply { success: true, text } => {
                Err(format!("'{command}' was accepted ('= {}'); it must be refused", super::shorten(&text)))
            }
            Reply { success: false, text } if text.starts_with(prefix) => Ok(()),
            Reply { success: false, text } => Err(format!(
                "'{command}' was refused with '{}', which must start with '{prefix}'",
                super::shorten(&text)
            )),
        }
    }

    pub(super) fn raw(&mut self, line: &str, id: &str) -> Result<Exchange, String> {
        let timeout = self.timeout();
        let reply = self.engine.exchange(line, id, timeout);
        reply.map_err(|f| describe(&mut self.engine, line.trim(), f, timeout))
    }

    /// Starts a new game of the variant and rules checked; our copy of it.
    pub(super) fn new_game(&mut self) -> Result<Game, String> {
        self.running()?;
        let setup = Setup::new(self.settings.variant, self.settings.rules, None, None);
        let timeout = self.timeout();
        self.engine.set_up(&setup, timeout).map_err(|fault| self.explain(fault))?;
        Ok(Game::from_position(setup.start_position()))
    }

    /// Plays up to `turns` random legal moves with `play` (fewer if the game ends).
    pub(super) fn play_random(&mut self, game: &mut Game, turns: usize) -> Result<(), String> {
        for _ in 0..turns {
            if game.position().winner().is_some() {
                break;
            }
            let Some(mv) = game.position().random_move(&mut self.rng, PlayoutPolicy::Uniform) else { break };
            self.ok(&format!("play {} {mv}", game.position().side_to_move()))?;
            game.play(mv).map_err(|e| format!("the rules refused their own random move {mv}: {e}"))?;
        }
        Ok(())
    }

    /// Plays random moves into the play phase (past the setup turns) and a few turns more.
    pub(super) fn play_into_play_phase(&mut self, game: &mut Game) -> Result<(), String> {
        while game.position().phase() != Phase::Play && game.position().winner().is_none() {
            self.play_random(game, 1)?;
        }
        self.play_random(game, 2)
    }

    /// Asks `genmove` for the side to move with `allowed` seconds (plus the margin when
    /// `clocked`), checks the move with the rules and plays it in `game`, as the referee
    /// does (a failure is told as a game's termination and reason). Returns the move
    /// (`None`: resigned) and the seconds it took.
    pub(super) fn genmove(
        &mut self,
        game: &mut Game,
        allowed: f64,
        clocked: bool,
    ) -> Result<(Option<Move>, f64), String> {
        let mut clock = Clock::new(TimeControl::MoveTime(allowed));
        let margin = if clocked { self.settings.margin } else { 0.0 };
        let mut took = Duration::ZERO;
        match self.engine.genmove(Ask::Plain, game, &mut clock, margin, &mut took) {
            Ok(played) => Ok((played.mv, took.as_secs_f64())),
            Err(fault) => Err(format!("{}: {}", fault.termination(), self.explain(fault))),
        }
    }

    /// `verb` (`reg_genmove`, which the engine must not play) for the side to move, sent as a
    /// raw probe: its move checked with the rules and played in `game`.
    pub(super) fn generate(
        &mut self,
        verb: &str,
        game: &mut Game,
        allowed: f64,
        clocked: bool,
    ) -> Result<(Option<Move>, f64), String> {
        let color = game.position().side_to_move();
        let command = format!("{verb} {color}");
        let limit = if clocked { allowed + self.settings.margin } else { allowed };
        let start = Instant::now();
        let reply = self.engine.command(&command, Duration::from_secs_f64(limit));
        let took = start.elapsed().as_secs_f64();
        let text = match reply {
            Ok(Reply { success: true, text }) => text,
            Ok(Reply { success: false, text }) => {
                return Err(format!("'{command}' was refused: {}", super::shorten(&text)));
            }
            Err(Failure::Timeout) => {
                let margin = if clocked { format!(" + {} s margin", self.settings.margin) } else { String::new() };
                return Err(format!("no reply to '{command}' within {allowed} s{margin}; killed"));
            }
            Err(failure) => return Err(format!("'{command}': {failure}")),
        };
        if text.eq_ignore_ascii_case("resign") {
            return Ok((None, took));
        }
        let mv = game
            .position()
            .parse_move(&text)
            .map_err(|e| format!("'{command}' answered '{}', not a move: {e}", super::shorten(&text)))?;
        game.play(mv).map_err(|e| format!("'{command}' answered the illegal move {mv}: {e}"))?;
        if clocked && took > limit {
            return Err(format!("'{command}' took {took:.2} s, more than {allowed} s + {} s", self.settings.margin));
        }
        Ok((Some(mv), took))
    }

    /// A move that is well-formed but illegal for the side to move in `position`: in play,
    /// a shot at an unclaimed shooter's square.
    pub(super) fn illegal_move(position: &Position) -> Option<String> {
        let square = position.shooters().first()?;
        let text = square.to_string();
        let mv = position.parse_move(&text).ok()?;
        position.clone().play(mv).is_err().then_some(text)
    }
}
