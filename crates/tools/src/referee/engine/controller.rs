//! The controller side of the protocol, in one place: the operations every tool that
//! drives an engine (the referee's games, `check`, `book`, the GUI's engine turns and
//! analyses) uses on an [`EngineClient`] to start it and greet it ([`EngineClient::start`],
//! [`EngineClient::greet`], its [`Capabilities`] from `list_commands`), set up a game
//! ([`Setup`]: size, rules, options, a position, the time control), send it the moves it
//! has not seen, ask its move (`genmove`, or `genmove_analyze` with its notes) and its
//! `final_score`.
//!
//! An engine that ends during start-up (its start-up commands, `list_commands`, the
//! greeting) has the last lines of its stderr in the failure, to say why.
//!
//! Every misbehaviour is a [`Fault`], whose [`Fault::termination`] and text are the
//! termination and reason a game record gives it: an engine's verdict is the same
//! whichever tool drove it. An engine that answers `?` to `time_settings` (it knows no
//! time commands) is no fault: it plays on, timed by the controller's caller alone, and is
//! sent no `time_left`.

use std::io;
use std::time::{Duration, Instant};

use super::client::EngineClient;
pub use super::client::{Ask, Capabilities, Setup};
use super::transport::{Failure, MAX_NAME, MAX_SHOWN, Reply, STOPPED, clean_text};
use crate::referee::clock::{Clock, Overtime, format_seconds};
use veletas_rules::record::{Evaluation, FirstSteps, Termination, WinRate};
use veletas_rules::{Color, Game, Move, RuleSet};

/// An engine's misbehaviour, as a game record gives it: [`Fault::termination`] is the
/// record's termination and the text its reason.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Fault {
    /// The process could not be started.
    #[error("could not be started: {0}")]
    NotStarted(String),
    /// A command that must succeed was answered `?` (the text cleaned and cut).
    #[error("'{}' was refused: {text}", shown_command(command))]
    Refused {
        /// The command.
        command: String,
        /// The engine's reason.
        text: String,
    },
    /// A command got no well-formed reply within `timeout`.
    #[error("{}", no_reply(command, failure, *timeout))]
    NoReply {
        /// The command.
        command: String,
        /// How it failed.
        failure: Failure,
        /// Its deadline.
        timeout: Duration,
    },
    /// The move was refused with `?` (the text cleaned and cut).
    #[error("'?' to genmove: {0}")]
    MoveRefused(String),
    /// No move before the clock's deadline; the engine has been killed.
    #[error("no move within {} s + {} s margin; killed", format_seconds(*allowed), format_seconds(*margin))]
    MoveTimeout {
        /// The seconds the move was allowed.
        allowed: f64,
        /// The margin past them.
        margin: f64,
    },
    /// The reply to the move is not a move.
    #[error(transparent)]
    NotAMove(#[from] NotAMove),
    /// The move is illegal.
    #[error("played {mv}: {detail}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why the rules refuse it.
        detail: String,
    },
    /// The move came past the clock plus the margin.
    #[error("played {mv} too late: {detail}")]
    TooLate {
        /// The move.
        mv: Move,
        /// By how much.
        #[source]
        detail: Overtime,
    },
}

/// Why a reply to `genmove` is not a move (the engine's words cleaned and cut).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotAMove {
    /// A `genmove_analyze` reply that does not end in `play MOVE`.
    #[error(transparent)]
    NotPlay(#[from] NotPlay),
    /// Empty, or more than one word.
    #[error("'{0}' is not a move")]
    NotOneWord(String),
    /// One word the position does not read as a move.
    #[error("'{shown}' is not a move: {}", clean_text(&.source.to_string(), MAX_SHOWN))]
    Unreadable {
        /// The reply, cleaned and cut.
        shown: String,
        /// The rules' reason (quoting the reply: it is cleaned like the rest when shown).
        source: veletas_rules::ParseMoveError,
    },
}

/// A `genmove_analyze` reply whose last line is not `play MOVE` ([`split_analyzed`]): that
/// line, cleaned and cut.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not 'play MOVE' ending a genmove_analyze reply")]
pub struct NotPlay(String);

/// Why a `genmove_analyze` report gives no evaluation of the move played
/// ([`read_evaluation`]); the engine's words are quoted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoEvaluation {
    /// The reply has no report line.
    #[error("the reply has no 'info' line before 'play'")]
    NoReport,
    /// The move's entry has no `visits`.
    #[error("the entry of {} has no visits", shown_word(.mv))]
    NoVisits {
        /// The move.
        mv: String,
    },
    /// The move's `visits` is not a whole number.
    #[error("visits '{}' of {} is not a whole number", shown_word(.visits), shown_word(.mv))]
    BadVisits {
        /// The move.
        mv: String,
        /// What the engine gave.
        visits: String,
    },
    /// The move's entry has no `winrate`.
    #[error("the entry of {} has no winrate", shown_word(.mv))]
    NoWinrate {
        /// The move.
        mv: String,
    },
    /// The move's `winrate` is not a win rate in hundredths.
    #[error("winrate '{}' of {} is not a whole number from 0 to 10000", shown_word(.winrate), shown_word(.mv))]
    BadWinrate {
        /// The move.
        mv: String,
        /// What the engine gave.
        winrate: String,
    },
    /// The move was not searched.
    #[error("{} has 0 visits: no search", shown_word(.mv))]
    NoSearch {
        /// The move.
        mv: String,
    },
    /// The report has no entry for the move.
    #[error("its report has no entry ('info move {}') for the move it played", shown_word(.mv))]
    NoEntry {
        /// The move.
        mv: String,
    },
}

/// A word of an engine's report as [`NoEvaluation`] quotes it.
fn shown_word(word: &str) -> String {
    veletas_rules::quoted_to(word, 20)
}

/// A command the controller sent, as a message quotes it: it holds the user's options, so it
/// is cut at [`MAX_SHOWN`] characters and its control and bidirectional characters escaped.
pub fn shown_command(command: &str) -> String {
    veletas_rules::quoted_to(command, MAX_SHOWN)
}

fn no_reply(command: &str, failure: &Failure, timeout: Duration) -> String {
    let seconds = timeout.as_secs_f64();
    let command = shown_command(command);
    match failure {
        Failure::Timeout => format!("no reply to '{command}' within {seconds:.3} s"),
        Failure::Exited(detail) => format!("ended during '{command}': {detail}"),
        Failure::Malformed(detail) => format!("to '{command}': {detail}"),
        Failure::NotReading => {
            format!("'{command}' not taken within {seconds:.3} s: the engine stopped reading its input")
        }
    }
}

impl Fault {
    /// How a game the engine commits this in ends.
    pub fn termination(&self) -> Termination {
        match self {
            Fault::NotStarted(_) => Termination::Crash,
            Fault::Refused { .. } => Termination::RejectedCommand,
            Fault::NoReply { failure: Failure::Timeout | Failure::NotReading, .. } => Termination::Timeout,
            Fault::NoReply { failure: Failure::Exited(_), .. } => Termination::Crash,
            Fault::NoReply { failure: Failure::Malformed(_), .. } => Termination::MalformedReply,
            Fault::MoveRefused(_) => Termination::GenmoveError,
            Fault::MoveTimeout { .. } | Fault::TooLate { .. } => Termination::TimeForfeit,
            Fault::NotAMove(_) => Termination::MalformedReply,
            Fault::Illegal { .. } => Termination::IllegalMove,
        }
    }

    /// The fault of a process that could not be started.
    pub fn not_started(error: &io::Error) -> Fault {
        Fault::NotStarted(error.to_string())
    }
}

/// Why an engine's greeting (`protocol_version`, `name`, `version`) failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GreetError {
    /// No reply in time.
    #[error("no reply to '{command}' within {seconds:.1} s")]
    Timeout {
        /// The command.
        command: &'static str,
        /// Its deadline.
        seconds: f64,
    },
    /// Another failure of the transport.
    #[error("'{command}': {failure}")]
    Failed {
        /// The command.
        command: &'static str,
        /// How it failed.
        failure: Failure,
    },
    /// Refused with `?`.
    #[error("'{command}' was refused: {text}")]
    Refused {
        /// The command.
        command: &'static str,
        /// The reason, shortened.
        text: String,
    },
    /// `protocol_version` did not answer 2.
    #[error("'protocol_version' answered '{0}', not 2")]
    NotVersion2(String),
    /// `name` did not answer a name on one line.
    #[error("'name' answered '{0}', not a name on one line")]
    NoName(String),
}

/// What the engine says at start-up: its `name` and, when it answers, its `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The reply to `name`.
    pub name: String,
    /// The reply to `version`, when it answered one line.
    pub version: Option<String>,
}

impl Identity {
    /// `NAME VERSION`, or the name alone, each cleaned of control characters and cut to
    /// [`MAX_NAME`] characters (they go into every record and screen line).
    pub fn full_name(&self) -> String {
        let name = clean_text(&self.name, MAX_NAME);
        match self.version.as_deref().map(|v| clean_text(v, MAX_NAME)) {
            Some(version) if !version.is_empty() => format!("{name} {version}"),
            _ => name,
        }
    }
}

/// An engine's `text` as a message quotes it: at most 60 characters (the cut marked `...`), on
/// one line, control and bidirectional characters escaped ([`veletas_rules::quoted_to`]).
pub fn shorten(text: &str) -> String {
    veletas_rules::quoted_to(text, 60)
}

/// A move an engine gave: `None` is a resignation; with it what it reported.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The move (played in the game), or `None` for a resignation.
    pub mv: Option<Move>,
    /// The win rate and visits it reported for its move (`genmove_analyze`), if any.
    pub evaluation: Option<Evaluation>,
    /// The playouts of its first steps at the root (`genmove_analyze_steps`), if any.
    pub steps: Option<FirstSteps>,
    /// The report line of a `genmove_analyze` reply (`info move ...`), if it had one: what
    /// [`read_evaluation`] says of it when it gave no evaluation.
    pub report: Option<String>,
}

/// An engine's answer to `final_score`, as a record keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalScore {
    /// Whether it is the whole answer protocol.md gives the winner (`B+`, `W+`).
    pub agrees: bool,
    /// The answer, cleaned; `? TEXT` for a refusal, `(FAILURE)` for no reply.
    pub answer: String,
}

impl EngineClient {
    /// Sends a command that must succeed within `timeout`; its reply's text.
    pub fn expect_ok(&mut self, command: &str, timeout: Duration) -> Result<String, Fault> {
        match self.command(command, timeout) {
            Ok(Reply { success: true, text }) => Ok(text),
            Ok(Reply { success: false, text }) => {
                Err(Fault::Refused { command: command.to_string(), text: clean_text(&text, MAX_SHOWN) })
            }
            Err(failure) => Err(Fault::NoReply { command: command.to_string(), failure, timeout }),
        }
    }

    /// [`EngineClient::send_init`], and a process that had them now is asked
    /// `list_commands` ([`EngineClient::capabilities`]; a `?` lists nothing). `true` when
    /// it was started or had its start-up commands now.
    pub fn start(&mut self, timeout: Duration) -> Result<bool, Fault> {
        if !self.send_init(timeout)? {
            return Ok(false);
        }
        let listed = match self.command("list_commands", timeout) {
            Ok(Reply { success: true, text }) => text,
            Ok(Reply { success: false, .. }) => String::new(),
            Err(failure) => {
                let failure = self.with_cause(failure);
                return Err(Fault::NoReply { command: "list_commands".into(), failure, timeout });
            }
        };
        self.capabilities = Capabilities::from_list(&listed);
        Ok(true)
    }

    /// Starts the engine unless it runs, and sends a process that has not had them yet its
    /// start-up commands ([`super::EngineCommand::init`]; one refused kills it: the next
    /// start sends them again). `true` when they were sent now.
    pub fn send_init(&mut self, timeout: Duration) -> Result<bool, Fault> {
        self.ensure_running().map_err(|e| Fault::not_started(&e))?;
        if !self.take_init_pending() {
            return Ok(false);
        }
        for command in self.command_line().init.clone() {
            if let Err(refused) = self.expect_ok(&command, timeout) {
                self.kill();
                return Err(match refused {
                    Fault::NoReply { command, failure, timeout } => {
                        Fault::NoReply { command, failure: self.with_cause(failure), timeout }
                    }
                    refused => refused,
                });
            }
        }
        Ok(true)
    }

    /// `failure` with, when the engine ended, the last lines of its stderr: why an engine
    /// that ended at start-up ended (clap's "tip: --movetime"), in every tool's message.
    pub fn with_cause(&self, failure: Failure) -> Failure {
        match (failure, self.stderr_tail()) {
            (Failure::Exited(detail), Some(tail)) if detail != STOPPED => Failure::Exited(format!("{detail}; {tail}")),
            (failure, _) => failure,
        }
    }

    /// What the running process listed with `list_commands` (nothing before
    /// [`EngineClient::start`] asked it).
    pub fn capabilities(&self) -> Capabilities {
        self.capabilities
    }

    /// Whether the engine accepted the last game's `time_settings` (one that answered `?`
    /// plays on untimed and is sent no `time_left`).
    pub fn timed(&self) -> bool {
        self.timed
    }

    /// Asks a running engine `protocol_version` (which must be `2`) and `name` (one
    /// non-empty line), then `version` (optional).
    pub fn greet(&mut self, timeout: Duration) -> Result<Identity, GreetError> {
        let mut ask = |command: &'static str| -> Result<Reply, GreetError> {
            match self.command(command, timeout) {
                Ok(reply) => Ok(reply),
                Err(Failure::Timeout) => Err(GreetError::Timeout { command, seconds: timeout.as_secs_f64() }),
                Err(failure) => Err(GreetError::Failed { command, failure: self.with_cause(failure) }),
            }
        };
        let refused = |command, text: &str| GreetError::Refused { command, text: shorten(text) };
        match ask("protocol_version")? {
            Reply { success: true, text } if text == "2" => {}
            Reply { success: true, text } => return Err(GreetError::NotVersion2(shorten(&text))),
            Reply { success: false, text } => return Err(refused("protocol_version", &text)),
        }
        let name = match ask("name")? {
            Reply { success: true, text } if !text.is_empty() && !text.contains('\n') => text,
            Reply { success: true, text } => return Err(GreetError::NoName(shorten(&text))),
            Reply { success: false, text } => return Err(refused("name", &text)),
        };
        let version = match ask("version")? {
            Reply { success: true, text } if !text.contains('\n') => Some(text),
            _ => None,
        };
        Ok(Identity { name, version })
    }

    /// Sets the engine up for a new game: `boardsize`, the rules and options that differ
    /// from plain classic (so that engines without these commands still play classic
    /// games), `clear_board`, `set_position`, then `time_settings` when the setup has a
    /// time control (a `?` to it only leaves the engine untimed).
    pub fn set_up(&mut self, setup: &Setup, timeout: Duration) -> Result<(), Fault> {
        self.seen = None;
        self.timed = true;
        self.expect_ok(&format!("boardsize {}", setup.variant.size()), timeout)?;
        if setup.rules.set != RuleSet::Classic {
            self.expect_ok(&format!("rules {}", setup.rules.set), timeout)?;
        }
        if setup.rules.no_corners {
            self.expect_ok("option no-corners on", timeout)?;
        }
        if setup.rules.claimed_block() {
            self.expect_ok("option claimed-block on", timeout)?;
        }
        self.expect_ok("clear_board", timeout)?;
        if let Some(start) = &setup.start {
            self.expect_ok(&format!("set_position {start}"), timeout)?;
        }
        if let Some(control) = setup.time {
            let command = control.time_settings_command();
            self.timed = match self.command(&command, timeout) {
                Ok(reply) => reply.success,
                Err(failure) => return Err(Fault::NoReply { command, failure, timeout }),
            };
        }
        self.seen = Some((setup.clone(), Game::from_position(setup.start_position())));
        Ok(())
    }

    /// Brings the engine to `game` under `setup`: the moves it has not seen are sent with
    /// `play`, after setting it up anew unless it has seen the start of this very game.
    pub fn catch_up(&mut self, setup: &Setup, game: &Game, timeout: Duration) -> Result<(), Fault> {
        let seen = self.seen.as_ref().filter(|(known, seen)| {
            known == setup && seen.start() == game.start() && game.moves().take(seen.moves().len()).eq(seen.moves())
        });
        if seen.is_none() {
            self.set_up(setup, timeout)?;
        }
        let from = self.seen.as_ref().map_or(0, |(_, seen)| seen.moves().len());
        let mut replay = Game::from_position(game.start().clone());
        for (turn, mv) in game.moves().enumerate() {
            if turn >= from {
                self.play(replay.position().side_to_move(), mv, timeout)?;
            }
            let _ = replay.play(mv);
        }
        Ok(())
    }

    /// Tells the engine `color` played `mv`.
    pub fn play(&mut self, color: Color, mv: Move, timeout: Duration) -> Result<(), Fault> {
        let seen = self.seen.take();
        self.expect_ok(&format!("play {color} {mv}"), timeout)?;
        self.seen = seen.map(|(setup, mut game)| {
            let _ = game.play(mv);
            (setup, game)
        });
        Ok(())
    }

    /// Sends `time_left` for `color`'s `clock`, unless the engine is untimed.
    pub fn time_left(&mut self, color: Color, clock: &Clock, timeout: Duration) -> Result<(), Fault> {
        if self.timed {
            let (left, stones) = clock.time_left();
            self.expect_ok(&format!("time_left {color} {} {stones}", format_seconds(left)), timeout)?;
        }
        Ok(())
    }

    /// Asks the side to move in `game` for its move with `ask`, by `clock`'s deadline plus
    /// `margin`, and checks it: it is played in `game` and charged to `clock`. `elapsed`
    /// is set to the time the engine took to answer, whatever the answer.
    pub fn genmove(
        &mut self,
        ask: Ask,
        game: &mut Game,
        clock: &mut Clock,
        margin: f64,
        elapsed: &mut Duration,
    ) -> Result<Played, Fault> {
        let seen = self.seen.take();
        let color = game.position().side_to_move();
        let command = format!("{} {color}", ask.verb());
        let deadline = clock.deadline(margin);
        let start = Instant::now();
        let reply = self.command(&command, deadline);
        *elapsed = start.elapsed();
        let full = match reply {
            Ok(Reply { success: true, text }) => text,
            Ok(Reply { success: false, text }) => return Err(Fault::MoveRefused(clean_text(&text, MAX_SHOWN))),
            Err(Failure::Timeout) => return Err(Fault::MoveTimeout { allowed: clock.allowed(), margin }),
            Err(failure) => return Err(Fault::NoReply { command, failure, timeout: deadline }),
        };
        let (text, report) =
            if ask == Ask::Plain { (full.as_str(), None) } else { split_analyzed(&full).map_err(NotAMove::from)? };
        if text.eq_ignore_ascii_case("resign") {
            return Ok(Played { mv: None, evaluation: None, steps: None, report: None });
        }
        let shown = clean_text(text, 60);
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Err(NotAMove::NotOneWord(shown).into());
        }
        let mv = game.position().parse_move(text).map_err(|source| NotAMove::Unreadable { shown, source })?;
        game.play(mv).map_err(|e| Fault::Illegal { mv, detail: e.to_string() })?;
        clock.spend(elapsed.as_secs_f64(), margin).map_err(|detail| Fault::TooLate { mv, detail })?;
        self.seen = seen.map(|(setup, mut seen)| {
            let _ = seen.play(mv);
            (setup, seen)
        });
        // The engine's own notation for the move may differ from the canonical one.
        let evaluation =
            report.and_then(|line| evaluation_of(line, &mv.to_string()).or_else(|| evaluation_of(line, text)));
        let steps = if ask == Ask::Steps { steps_of(&full) } else { None };
        Ok(Played { mv: Some(mv), evaluation, steps, report: report.map(str::to_string) })
    }

    /// Asks `final_score` after a game `winner` won.
    pub fn final_score(&mut self, winner: Color, timeout: Duration) -> FinalScore {
        let want = match winner {
            Color::Black => "B+",
            Color::White => "W+",
        };
        // Agreement is the whole answer in protocol.md's form (`B+` or `W+`), not a prefix.
        match self.command("final_score", timeout) {
            Ok(Reply { success: true, text }) => {
                FinalScore { agrees: text.trim().eq_ignore_ascii_case(want), answer: clean_text(&text, MAX_SHOWN) }
            }
            Ok(Reply { success: false, text }) => {
                FinalScore { agrees: false, answer: format!("? {}", clean_text(&text, MAX_SHOWN)) }
            }
            Err(failure) => {
                FinalScore { agrees: false, answer: format!("({})", clean_text(&failure.to_string(), MAX_SHOWN)) }
            }
        }
    }
}

/// The first steps' playouts of a `genmove_analyze_steps` reply (its `steps` line,
/// protocol.md), when it has a well-formed one with at least one step; a missing or
/// malformed line gives nothing (the move still counts).
pub fn steps_of(reply: &str) -> Option<FirstSteps> {
    let line = reply.lines().map(str::trim).find(|l| *l == "steps" || l.starts_with("steps "))?;
    let mut words = line.split_whitespace();
    words.next();
    FirstSteps::from_words(words).ok()
}

/// A `genmove_analyze` reply: the move's text (the last line, `play MOVE`) and the report
/// line before it, if any.
pub fn split_analyzed(text: &str) -> Result<(&str, Option<&str>), NotPlay> {
    let mut lines = text.lines().rev();
    let last = lines.next().unwrap_or("");
    let mv = last.strip_prefix("play ").ok_or_else(|| NotPlay(clean_text(last, 60)))?;
    Ok((mv.trim(), lines.map(str::trim).find(|l| l.starts_with("info "))))
}

/// The win rate and visits a report line (`info move M visits N winrate W order 0 ...`,
/// protocol.md's `analyze`) gives `mv`, when it has an entry for it with visits; a line
/// that does not read so gives nothing (the move still counts).
pub fn evaluation_of(line: &str, mv: &str) -> Option<Evaluation> {
    read_evaluation(Some(line), mv).ok()
}

/// [`evaluation_of`] with the reason a `report` line (`None`: the reply had none) gives no
/// evaluation of `mv`, the move played: no entry for it, visits or a win rate that are
/// not numbers (a `nan`), or no search (`visits 0`). The engine's words are quoted.
pub fn read_evaluation(report: Option<&str>, mv: &str) -> Result<Evaluation, NoEvaluation> {
    let line = report.ok_or(NoEvaluation::NoReport)?;
    let owned = || mv.to_string();
    for entry in line.split("info ").filter(|e| !e.trim().is_empty()) {
        let words: Vec<&str> = entry.split_whitespace().collect();
        let value = |key: &str| words.windows(2).find(|w| w[0] == key).map(|w| w[1]);
        if value("move") != Some(mv) {
            continue;
        }
        let visits = value("visits").ok_or_else(|| NoEvaluation::NoVisits { mv: owned() })?;
        let visits: u64 =
            visits.parse().map_err(|_| NoEvaluation::BadVisits { mv: owned(), visits: visits.to_string() })?;
        let winrate = value("winrate").ok_or_else(|| NoEvaluation::NoWinrate { mv: owned() })?;
        let winrate = winrate
            .parse()
            .ok()
            .and_then(WinRate::from_hundredths)
            .ok_or_else(|| NoEvaluation::BadWinrate { mv: owned(), winrate: winrate.to_string() })?;
        if visits == 0 {
            return Err(NoEvaluation::NoSearch { mv: owned() });
        }
        return Ok(Evaluation { winrate, visits });
    }
    Err(NoEvaluation::NoEntry { mv: owned() })
}

#[cfg(test)]
mod tests;
