//! Why a match or a tournament could not be played: [`RefereeError`], which the record
//! file's writer, the runner and the command line all use (kept apart from them so that
//! none of them imports another for it).

use std::path::PathBuf;

/// The most characters of an engine's command line a message quotes (a command line is
/// the user's own and tells engines apart by its last words, so it gets more than the
/// [`veletas_rules::MAX_QUOTED`] of other input).
pub const MAX_COMMAND_SHOWN: usize = 120;

/// Why a match could not be played. [`RefereeError::Usage`], [`RefereeError::Options`] and
/// [`RefereeError::Record`] are the command line's fault (an option, or a file it names to read: the engines file,
/// the openings, a record to resume); every other variant is found while running.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// Options that do not make a match.
    #[error("{0}")]
    Usage(String),
    /// Options that do not make a match, with the typed reason (the engines' definitions,
    /// the schedule, the shard), shown as the reason says it.
    #[error(transparent)]
    Options(Box<dyn std::error::Error + Send + Sync>),
    /// An output (`--report`, `--live`, `--log-protocol`) that cannot be written.
    #[error("{0}")]
    Output(String),
    /// Something else that failed while running (a thread of the referee).
    #[error("{0}")]
    Failed(String),
    /// An engine that cannot be started at all.
    #[error("cannot start engine '{}': {detail}", veletas_rules::quoted_to(.command, MAX_COMMAND_SHOWN))]
    Engine {
        /// The engine's command line.
        command: String,
        /// What went wrong.
        detail: String,
    },
    /// An engine refused before the first game: it did not answer `protocol_version` and
    /// `name` at start-up, or failed a required check of `--check`.
    #[error("engine '{}' is refused: {detail}", veletas_rules::quoted_to(.command, MAX_COMMAND_SHOWN))]
    Refused {
        /// The engine's command line.
        command: String,
        /// Why.
        detail: String,
    },
    /// A file that cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A signal stopped the games before their end: what was played and how to resume.
    #[error("{0}")]
    Interrupted(String),
    /// A record file that cannot be resumed (not a regular file, not records, or games of
    /// another match or tournament): the fault of the command line, which names it.
    #[error("{path}: {detail}")]
    Record {
        /// The record file.
        path: PathBuf,
        /// What is wrong with it (a text, or a typed reason: a game that is not this run's).
        #[source]
        detail: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A record file that cannot be written on: another referee is writing it, a game
    /// cannot be appended, or someone else changed it while the games ran.
    #[error("{path}: {detail}")]
    RecordWrite {
        /// The record file.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
}

impl RefereeError {
    /// Whether the command line is at fault ([`RefereeError::Usage`],
    /// [`RefereeError::Options`], a [`RefereeError::Record`] that cannot be resumed), not
    /// what happened while running.
    pub fn is_usage(&self) -> bool {
        matches!(self, RefereeError::Usage(_) | RefereeError::Options(_) | RefereeError::Record { .. })
    }

    /// The [`RefereeError::Options`] of a typed reason `e`.
    pub(crate) fn options(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> RefereeError {
        RefereeError::Options(e.into())
    }

    /// The [`RefereeError::Record`] of the record file `path` for `detail` (a text or a typed reason).
    pub(crate) fn record(
        path: impl Into<PathBuf>,
        detail: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> RefereeError {
        RefereeError::Record { path: path.into(), detail: detail.into() }
    }
}
