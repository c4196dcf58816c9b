//! The one error edge of the command line: every subcommand returns [`CommandError`], and
//! [`super::run`] alone turns it into the message, the exit code and the handling of a
//! closed stdout.

use std::io::{self, Write};
use std::process::ExitCode;

/// Why a subcommand did not succeed. Every subcommand returns it, and [`super::run`] alone
/// turns it into the message, the exit code and the handling of a closed stdout.
#[derive(Debug)]
pub enum CommandError {
    /// The command line cannot work as given (an unknown option, a bad option value,
    /// options that contradict each other), found before anything is done:
    /// `veletas COMMAND: MESSAGE` (control characters shown as spaces), exit code 2.
    Usage {
        /// The subcommand (`match`, ...), empty for the engine itself.
        command: &'static str,
        /// One line.
        message: String,
    },
    /// The command failed while it ran (an engine that cannot start or is refused, a file
    /// that cannot be read, holds what it should not, or cannot be written): the message
    /// as for [`CommandError::Usage`], exit code 1.
    Failed {
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
                one_line(command, &message);
                ExitCode::from(2)
            }
            CommandError::Failed { command, message } => {
                one_line(command, &message);
                ExitCode::FAILURE
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

/// Prints `message` as the one line of `command`'s error, control characters shown as spaces.
fn one_line(command: &str, message: &str) {
    let message: String = message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    match command {
        "" => eprintln!("veletas: {message}"),
        command => eprintln!("veletas {command}: {message}"),
    }
}

/// The [`CommandError::Usage`] of `command` for an error `e`.
pub(super) fn usage<E: std::fmt::Display>(command: &'static str) -> impl FnOnce(E) -> CommandError {
    move |e| CommandError::Usage { command, message: e.to_string() }
}

/// The [`CommandError::Failed`] of `command` for an error `e` found while it ran.
pub(super) fn failed<E: std::fmt::Display>(command: &'static str) -> impl FnOnce(E) -> CommandError {
    move |e| CommandError::Failed { command, message: e.to_string() }
}

/// A tool's error that knows whether it is a usage error (exit code 2) or one found
/// while the tool ran (exit code 1).
pub(super) trait Classified: std::fmt::Display {
    /// Whether the command line is at fault (an option), not what happened while running.
    fn is_usage(&self) -> bool;
}

/// The [`CommandError`] of `command` for a classified error `e`: [`CommandError::Usage`]
/// or [`CommandError::Failed`].
pub(super) fn classified<E: Classified>(command: &'static str) -> impl FnOnce(E) -> CommandError {
    move |e| match e.is_usage() {
        true => usage(command)(e),
        false => failed(command)(e),
    }
}

/// Writes `text` on stdout (a closed stdout is not an error: see [`CommandError::Io`]).
pub(super) fn print(text: &str) -> Result<(), CommandError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CommandError::Io)
}

impl Classified for veletas_tools::output::FilesError {
    fn is_usage(&self) -> bool {
        veletas_tools::output::FilesError::is_usage(self)
    }
}
