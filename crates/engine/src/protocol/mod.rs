//! The engine's text protocol: GTP version 2 framing with Veletas commands.
//!
//! [`run`] reads commands from any [`BufRead`] and writes replies to any [`Write`], so
//! the binary wires it to stdin/stdout and tests feed it bytes. The protocol is
//! specified in `protocol.md` at the repository root. Layers: [`framing`] turns bytes
//! into lines and replies into bytes, [`command`] declares each command once (its table
//! entry, [`Command`] variant, [`arguments`]' parsers and handler) and parses a line into
//! a [`Command`], which [`Engine`] executes, or refuses with an [`error`]; [`analysis`] streams `analyze` replies and ponders, both of
//! which run until the next input arrives; [`mod@info`] writes the search's view as the `info`
//! line that `analyze` and `genmove_analyze` report.

pub mod analysis;
pub mod arguments;
pub mod board;
pub mod command;
pub mod engine;
pub mod error;
pub mod framing;
pub mod info;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use log::{debug, info};

pub use arguments::MIN_MOVETIME;
pub use command::{COMMANDS, Command, parse_command, split_id};
pub use engine::{Engine, Flow, Outcome};
pub use error::{CommandError, ParseError};
pub use framing::{Line, MAX_LINE, format_reply, read_line};

/// How a session ended, for the caller's log.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Summary {
    /// Commands answered (non-empty lines).
    pub commands: u64,
    /// Of which answered with an error.
    pub errors: u64,
    /// Whether the session ended with `quit` (otherwise at end of input).
    pub quit: bool,
}

/// Reads a preprocessed, non-empty line: its id and the command, or why it is none.
fn parse_line(line: &Line) -> (Option<&str>, Result<Command, CommandError>) {
    let (id, rest) = split_id(&line.text);
    if line.too_long {
        return (id, Err(ParseError::TooLong.into()));
    }
    (id, parse_command(rest).map_err(CommandError::from))
}

/// Answers one preprocessed, non-empty line: the formatted reply and what to do next.
/// (`analyze` needs the session's input and output: see [`run`].)
pub fn respond(engine: &mut Engine, line: &Line) -> (String, Flow, bool) {
    let (id, command) = parse_line(line);
    match command.and_then(|command| engine.execute(command)) {
        Ok((text, flow)) => (format_reply(true, id, &text), flow, true),
        Err(error) => (format_reply(false, id, &error.to_string()), Flow::Continue, false),
    }
}

/// Runs a session: reads commands from `input` until `quit` or end of input, writing
/// each reply to `output` and flushing it. Only I/O errors end it early.
///
/// `input` is `Send` because `analyze` watches it from a second (scoped) thread while
/// the search runs, to stop at the next input line; nothing else reads it concurrently.
/// At the terminal, wrap stdin as `BufReader::new(io::stdin())` (a `StdinLock` is not
/// `Send`). With pondering on ([`Engine::should_ponder`]), the engine searches the
/// opponent's turn the same way between a reply and the next input.
pub fn run(mut input: impl BufRead + Send, mut output: impl Write, engine: &mut Engine) -> io::Result<Summary> {
    let mut summary = Summary::default();
    while let Some(line) = read_line(&mut input)? {
        if line.is_empty() {
            continue;
        }
        debug!("<< {}", line.text);
        summary.commands += 1;
        let (id, command) = parse_line(&line);
        if let Ok(Command::Analyze(centiseconds)) = command {
            let interval = Duration::from_millis(u64::from(centiseconds) * 10);
            let ok = analysis::stream(&mut input, &mut output, engine, id, interval)?;
            summary.errors += u64::from(!ok);
            continue;
        }
        let (reply, flow, ok) = match command.and_then(|command| engine.execute(command)) {
            Ok((text, flow)) => (format_reply(true, id, &text), flow, true),
            Err(error) => (format_reply(false, id, &error.to_string()), Flow::Continue, false),
        };
        debug!(">> {}", reply.trim_end());
        summary.errors += u64::from(!ok);
        framing::write_reply(&mut output, &reply)?;
        if flow == Flow::Quit {
            summary.quit = true;
            break;
        }
        if engine.should_ponder() {
            analysis::ponder(&mut input, engine);
        }
    }
    info!(
        "session ended by {}: {} commands, {} errors",
        if summary.quit { "quit" } else { "end of input" },
        summary.commands,
        summary.errors
    );
    Ok(summary)
}
