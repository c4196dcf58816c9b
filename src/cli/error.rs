//! The one error edge of the command line: every subcommand returns [`CommandError`], and
//! [`super::run`] alone turns it into the message, the exit code and the handling of a
//! closed stdout.

use std::io::{self, Write};
use std::process::ExitCode;

/// Why a subcommand did not succeed. Every subcommand returns it, and [`super::run`] alone
/// turns it into the message, the exit code and the handling of a closed stdout.
#[derive(Debug)]
pub enum CommandError {
    /// The command could not do what was asked (bad options or input, an engine refused,
    /// a file that cannot be read or written): `veletas COMMAND: MESSAGE` (control
    /// characters shown as spaces), exit code 2.
    Usage {
        /// The subcommand (`match`, ...), empty for the engine itself.
        command: &'static str,
        /// One line.
        message: String,
    },
    /// The command ran and its verdict is no (`check` found a required check failing):
    /// nothing more is printed, exit code 1.
    Verdict,
    /// A signal stopped the games: `veletas COMMAND: TEXT` (what was played and how to
    /// resume, several lines), exit code 130.
    Interrupted {
        /// The subcommand.
        command: &'static str,
        /// The lines to print.
        text: String,
    },
    /// Reading or writing failed: `veletas: ERROR`, exit code 1; a closed stdout
    /// (broken pipe) is a success, as for any Unix filter.
    Io(io::Error),
}

impl From<io::Error> for CommandError {
    fn from(e: io::Error) -> CommandError {
        CommandError::Io(e)
    }
}

impl CommandError {
    /// The exit code, after printing the message on stderr.
    pub(super) fn exit(self) -> ExitCode {
        match self {
            CommandError::Usage { command, message } => {
                let message: String = message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                match command {
                    "" => eprintln!("veletas: {message}"),
                    command => eprintln!("veletas {command}: {message}"),
                }
                ExitCode::from(2)
            }
            CommandError::Verdict => ExitCode::FAILURE,
            CommandError::Interrupted { command, text } => {
                eprint!("veletas {command}: {text}");
                ExitCode::from(130)
            }
            CommandError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            CommandError::Io(e) => {
                eprintln!("veletas: {e}");
                ExitCode::FAILURE
            }
        }
    }
}

/// The [`CommandError::Usage`] of `command` for an error `e`.
pub(super) fn usage<E: std::fmt::Display>(command: &'static str) -> impl FnOnce(E) -> CommandError {
    move |e| CommandError::Usage { command, message: e.to_string() }
}

/// Writes `text` on stdout (a closed stdout is not an error: see [`CommandError::Io`]).
pub(super) fn print(text: &str) -> Result<(), CommandError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CommandError::Io)
}
