//! One engine under check ([`Session`]): its process (restarted when a check leaves it
//! dead), the commands sent to it with their deadlines, and the games the checks play on
//! it with the rules library. The checks themselves are in `probes` and `extensions`.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use super::settings::CheckSettings;
use crate::referee::clock::{Clock, TimeControl};
use crate::referee::engine::controller::{Ask, Fault, Setup, shorten, shown_command};
use crate::referee::engine::{EngineClient, Exchange, Failure, Reply};
use veletas_rules::record::Termination;
use veletas_rules::{Game, IllegalMove, Move, ParseMoveError, Phase, PlayoutPolicy, Position, Rng};

/// A check's result: what was seen, or why it failed.
pub(super) type Checked = Result<String, CheckFailure>;

/// Why a check failed: what one of the session's operations met, or what the check itself
/// found wrong. One line, the check's detail in the report.
#[derive(Debug, thiserror::Error)]
pub(super) enum CheckFailure {
    /// An operation of the session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The check found the engine wrong: what it saw.
    #[error("{0}")]
    Found(String),
}

impl From<String> for CheckFailure {
    fn from(found: String) -> CheckFailure {
        CheckFailure::Found(found)
    }
}

impl From<&str> for CheckFailure {
    fn from(found: &str) -> CheckFailure {
        CheckFailure::Found(found.to_string())
    }
}

/// Why one of the session's operations failed: one line, a check's failure.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionError {
    /// The engine's process cannot be started.
    #[error("cannot be started: {0}")]
    NotStarted(String),
    /// A start-up command (a tournament's `init=`) failed.
    #[error("start-up command: {0}")]
    StartUp(Box<SessionError>),
    /// A command got no reply, or one not ended, in time, or the engine went away.
    #[error(transparent)]
    Unanswered(#[from] Unanswered),
    /// The engine misbehaved as the controller sees it (a refused set-up command...).
    #[error(transparent)]
    Fault(Fault),
    /// A command that must succeed was refused.
    #[error("'{command}' was refused: {text}")]
    Refused {
        /// The command as shown.
        command: String,
        /// The refusal's text, shortened.
        text: String,
    },
    /// A command that must be refused was accepted.
    #[error("'{command}' was accepted ('= {text}'); it must be refused")]
    Accepted {
        /// The command as shown.
        command: String,
        /// The reply's text, shortened.
        text: String,
    },
    /// A command was refused with the wrong words.
    #[error("'{command}' was refused with '{text}', which must start with '{prefix}'")]
    WrongWords {
        /// The command as shown.
        command: String,
        /// The refusal's text, shortened.
        text: String,
        /// What it must start with.
        prefix: String,
    },
    /// The rules refused a random move they drew themselves.
    #[error("the rules refused their own random move {mv}: {error}")]
    OwnMove {
        /// The move.
        mv: Move,
        /// Why.
        #[source]
        error: IllegalMove,
    },
    /// `genmove` failed as a game's record would tell it: its termination and reason.
    #[error("{termination}: {cause}")]
    Genmove {
        /// The game's termination.
        termination: Termination,
        /// The reason.
        #[source]
        cause: Box<SessionError>,
    },
    /// A raw probe's generation (`reg_genmove`) got no reply within its time.
    #[error("no reply to '{command}' within {allowed} s{}; killed", margin_text(*.margin))]
    Silent {
        /// The command.
        command: String,
        /// The seconds it had, without the margin.
        allowed: f64,
        /// The margin, when clocked.
        margin: Option<f64>,
    },
    /// A raw probe's generation failed in transport.
    #[error("'{command}': {failure}")]
    Transport {
        /// The command.
        command: String,
        /// How.
        failure: Failure,
    },
    /// A raw probe's generation answered what is no move.
    #[error("'{command}' answered '{text}', not a move: {error}")]
    NotAMove {
        /// The command.
        command: String,
        /// The answer, shortened.
        text: String,
        /// Why it is no move.
        #[source]
        error: ParseMoveError,
    },
    /// A raw probe's generation answered an illegal move.
    #[error("'{command}' answered the illegal move {mv}: {error}")]
    Illegal {
        /// The command.
        command: String,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        #[source]
        error: IllegalMove,
    },
    /// A raw probe's generation took longer than its clock and the margin.
    #[error("'{command}' took {took:.2} s, more than {allowed} s + {margin} s")]
    TooSlow {
        /// The command.
        command: String,
        /// The seconds it took.
        took: f64,
        /// The seconds it had.
        allowed: f64,
        /// The margin.
        margin: f64,
    },
}

/// ` + M s margin`, or nothing without a margin.
fn margin_text(margin: Option<f64>) -> String {
    margin.map_or(String::new(), |m| format!(" + {m} s margin"))
}

/// A command that got no well-formed reply ([`describe`]).
#[derive(Debug, thiserror::Error)]
pub(super) enum Unanswered {
    /// A reply began but no empty line ended it in time.
    #[error("the reply to '{command}' began ('{first}') but no empty line ended it within {seconds:.2} s")]
    Unended {
        /// The command as shown.
        command: String,
        /// The reply's first line, shortened.
        first: String,
        /// The seconds it had.
        seconds: f64,
    },
    /// No reply in time.
    #[error("no reply to '{command}' within {seconds:.2} s")]
    Silent {
        /// The command as shown.
        command: String,
        /// The seconds it had.
        seconds: f64,
    },
    /// The transport failed (the engine ended: its last stderr lines say why).
    #[error("'{command}': {failure}")]
    Failed {
        /// The command as shown.
        command: String,
        /// How.
        failure: Failure,
    },
}

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
fn describe(engine: &mut EngineClient, command: &str, failure: Failure, timeout: Duration) -> Unanswered {
    let unterminated = engine.process_mut().and_then(|p| p.unterminated().map(shorten));
    let command = shown_command(command);
    let seconds = timeout.as_secs_f64();
    match (failure, unterminated) {
        (Failure::Timeout, Some(first)) => Unanswered::Unended { command, first, seconds },
        (Failure::Timeout, None) => Unanswered::Silent { command, seconds },
        (failure, _) => Unanswered::Failed { command, failure: engine.with_cause(failure) },
    }
}

impl Session<'_> {
    pub(super) fn timeout(&self) -> Duration {
        self.settings.command_timeout()
    }

    pub(super) fn offers(&self, extension: &str) -> bool {
        self.extensions.iter().any(|e| e == extension)
    }

    /// Whether the engine has `command`: listed by `list_commands`, or else `known_command`
    /// says `true` (a refused `known_command` says no).
    pub(super) fn knows(&mut self, command: &str) -> Result<bool, SessionError> {
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
    pub(super) fn running(&mut self) -> Result<(), SessionError> {
        match self.engine.send_init(self.timeout()) {
            Ok(_) => Ok(()),
            Err(Fault::NotStarted(e)) => Err(SessionError::NotStarted(e)),
            Err(fault) => Err(SessionError::StartUp(Box::new(self.explain(fault)))),
        }
    }

    /// A controller's fault as a check's failure (a reply begun but not ended told as such).
    fn explain(&mut self, fault: Fault) -> SessionError {
        match fault {
            Fault::NoReply { command, failure, timeout } => {
                describe(&mut self.engine, &command, failure, timeout).into()
            }
            fault => SessionError::Fault(fault),
        }
    }

    pub(super) fn ask(&mut self, command: &str) -> Result<Reply, SessionError> {
        let timeout = self.timeout();
        let reply = self.engine.command(command, timeout);
        reply.map_err(|f| describe(&mut self.engine, command, f, timeout).into())
    }

    /// A command that must succeed; its result.
    pub(super) fn ok(&mut self, command: &str) -> Result<String, SessionError> {
        match self.ask(command)? {
            Reply { success: true, text } => Ok(text),
            Reply { success: false, text } => {
                Err(SessionError::Refused { command: shown_command(command), text: shorten(&text) })
            }
        }
    }

    /// A command that must fail with a message starting with `prefix`.
    pub(super) fn refused(&mut self, command: &str, prefix: &str) -> Result<(), SessionError> {
        let reply = self.ask(command)?;
        let command = shown_command(command);
        match reply {
            Reply { success: true, text } => Err(SessionError::Accepted { command, text: shorten(&text) }),
            Reply { success: false, text } if text.starts_with(prefix) => Ok(()),
            Reply { success: false, text } => {
                Err(SessionError::WrongWords { command, text: shorten(&text), prefix: prefix.to_string() })
            }
        }
    }

    pub(super) fn raw(&mut self, line: &str, id: &str) -> Result<Exchange, SessionError> {
        let timeout = self.timeout();
        let reply = self.engine.exchange(line, id, timeout);
        reply.map_err(|f| describe(&mut self.engine, line.trim(), f, timeout).into())
    }

    /// Starts a new game of the variant and rules checked; our copy of it.
    pub(super) fn new_game(&mut self) -> Result<Game, SessionError> {
        self.running()?;
        let setup = Setup::new(self.settings.variant(), self.settings.rules(), None, None);
        let timeout = self.timeout();
        self.engine.set_up(&setup, timeout).map_err(|fault| self.explain(fault))?;
        Ok(Game::from_position(setup.start_position()))
    }

    /// Plays up to `turns` random legal moves with `play` (fewer if the game ends).
    pub(super) fn play_random(&mut self, game: &mut Game, turns: usize) -> Result<(), SessionError> {
        for _ in 0..turns {
            if game.position().winner().is_some() {
                break;
            }
            let Some(mv) = game.position().random_move(&mut self.rng, PlayoutPolicy::Uniform) else { break };
            self.ok(&format!("play {} {mv}", game.position().side_to_move()))?;
            game.play(mv).map_err(|error| SessionError::OwnMove { mv, error })?;
        }
        Ok(())
    }

    /// Plays random moves into the play phase (past the setup turns) and a few turns more.
    pub(super) fn play_into_play_phase(&mut self, game: &mut Game) -> Result<(), SessionError> {
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
    ) -> Result<(Option<Move>, f64), SessionError> {
        let mut clock = Clock::new(TimeControl::MoveTime(allowed));
        let margin = if clocked { self.settings.margin() } else { 0.0 };
        let mut took = Duration::ZERO;
        match self.engine.genmove(Ask::Plain, game, &mut clock, margin, &mut took) {
            Ok(played) => Ok((played.mv, took.as_secs_f64())),
            Err(fault) => {
                let termination = fault.termination();
                Err(SessionError::Genmove { termination, cause: Box::new(self.explain(fault)) })
            }
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
    ) -> Result<(Option<Move>, f64), SessionError> {
        let color = game.position().side_to_move();
        let command = format!("{verb} {color}");
        let margin = self.settings.margin();
        let limit = if clocked { allowed + margin } else { allowed };
        let start = Instant::now();
        let reply = self.engine.command(&command, Duration::from_secs_f64(limit));
        let took = start.elapsed().as_secs_f64();
        let text = match reply {
            Ok(Reply { success: true, text }) => text,
            Ok(Reply { success: false, text }) => {
                return Err(SessionError::Refused { command, text: shorten(&text) });
            }
            Err(Failure::Timeout) => {
                return Err(SessionError::Silent { command, allowed, margin: clocked.then_some(margin) });
            }
            Err(failure) => return Err(SessionError::Transport { command, failure }),
        };
        if text.eq_ignore_ascii_case("resign") {
            return Ok((None, took));
        }
        let mv = match game.position().parse_move(&text) {
            Ok(mv) => mv,
            Err(error) => return Err(SessionError::NotAMove { command, text: shorten(&text), error }),
        };
        if let Err(error) = game.play(mv) {
            return Err(SessionError::Illegal { command, mv, error });
        }
        if clocked && took > limit {
            return Err(SessionError::TooSlow { command, took, allowed, margin });
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
