//! Why a command fails: [`ParseError`] when the line is no command, [`CommandError`] when
//! a command is refused. Their `Display` is the text of the `?` reply, word for word as
//! protocol.md shows it; input they quote goes through [`quoted`] (cut at 40 characters, controls escaped).

use std::time::TryFromFloatSecsError;

use veletas_rules::record::{RecordError, RecordFileError};
use veletas_rules::{Color, IllegalMove, ParseMoveError, ParsePositionError, RulesError, quoted};

use crate::player::{SettingError, SolveError};
use crate::protocol::framing::MAX_LINE;
use crate::search::eval::LoadWeightsError;
use crate::search::{Algorithm, ParseAlgorithmError};

/// `name ARGS`, a command's usage line, from its name and its arguments' words.
fn usage(name: &str, args: &str) -> String {
    if args.is_empty() { name.to_string() } else { format!("{name} {args}") }
}

/// Why a line is not a command.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ParseError {
    /// The line is longer than the protocol reads ([`MAX_LINE`]).
    #[error("syntax error: line longer than {MAX_LINE} bytes")]
    TooLong,
    /// The line has an id but nothing after it.
    #[error("syntax error: missing command name")]
    MissingName,
    /// The name is no command.
    #[error("unknown command")]
    Unknown,
    /// A known command with wrong arguments: its name and arguments' words (the usage
    /// line), and the offending word (empty when an argument is missing).
    #[error("syntax error: {}; usage: {}", unexpected(.word), usage(.name, .args))]
    Syntax {
        /// The command's name.
        name: &'static str,
        /// Its arguments' words, as `list_commands`' table gives them.
        args: &'static str,
        /// The first word that does not fit (empty: an argument is missing).
        word: String,
    },
}

fn unexpected(word: &str) -> String {
    if word.is_empty() { "missing argument".to_string() } else { format!("unexpected '{}'", quoted(word)) }
}

/// Why the colour named cannot move now.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TurnError {
    /// The game is over.
    #[error("{}", IllegalMove::GameOver)]
    GameOver,
    /// The other colour is to move.
    #[error("it is {0}'s turn")]
    NotToMove(Color),
}

/// Why `loadgame` cannot load the game asked for.
#[derive(Debug, thiserror::Error)]
pub enum LoadGameError {
    /// The file cannot be read.
    #[error("{0}")]
    Read(#[from] RecordFileError),
    /// The file holds no records, or a record does not replay.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// There are fewer games than the number asked for.
    #[error("there is no game {index} (the file holds {count})")]
    NoSuchGame {
        /// The game asked for, from 1.
        index: u64,
        /// The games in the file.
        count: usize,
    },
}

/// Why a command is refused; the state is then exactly as it was.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The line is no command.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// `boardsize` of no variant.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// A move's text does not read as a move.
    #[error("syntax error: {0}")]
    MoveSyntax(ParseMoveError),
    /// A move the rules refuse here.
    #[error("illegal move: {shown}: {reason}")]
    Illegal {
        /// The move, as the engine writes it.
        shown: String,
        /// Why the rules refuse it.
        reason: IllegalMove,
    },
    /// `play` for a colour that cannot move now.
    #[error("illegal move: {shown}: {reason}")]
    PlayOutOfTurn {
        /// The move, as the engine writes it.
        shown: String,
        /// Why that colour cannot move.
        reason: TurnError,
    },
    /// A move asked of the engine for a colour that cannot move now.
    #[error("illegal move: {0}")]
    GenerateOutOfTurn(TurnError),
    /// `undo` with no move to take back.
    #[error("cannot undo")]
    NothingToUndo,
    /// `final_score` before the end.
    #[error("cannot score: the game is not over")]
    NotOver,
    /// `legal_moves` with more moves than it lists.
    #[error("cannot list: {count} legal moves, more than {most}")]
    TooManyMoves {
        /// The legal moves.
        count: u64,
        /// The most the command lists.
        most: u64,
    },
    /// `set_position` of a text that is no position.
    #[error("invalid position: {error}: '{}'", quoted(.text))]
    InvalidPosition {
        /// What is wrong with it.
        error: ParsePositionError,
        /// The text given.
        text: String,
    },
    /// `loadgame` that cannot load the game asked for.
    #[error("cannot load: {}: {reason}", quoted(.path))]
    LoadGame {
        /// The file named.
        path: String,
        /// Why.
        reason: LoadGameError,
    },
    /// `rules` that would combine with an option in force into no rules.
    #[error("cannot set the rules: {0}; turn it off first (option claimed-block off)")]
    RuleSet(RulesError),
    /// `option` of no option.
    #[error("syntax error: unknown option '{}' (no-corners, claimed-block)", quoted(.0))]
    UnknownOption(String),
    /// `option NAME VALUE` with a value other than on or off.
    #[error("syntax error: expected on or off, not '{}'", quoted(.0))]
    NotOnOrOff(String),
    /// `option claimed-block on` under rules without it.
    #[error("cannot set claimed-block: {0}; set rules modern first")]
    ClaimedBlock(RulesError),
    /// `player` of no player.
    #[error("syntax error: {0}")]
    UnknownPlayer(ParseAlgorithmError),
    /// A time in seconds that is no duration.
    #[error("syntax error: {0}")]
    Duration(TryFromFloatSecsError),
    /// A memory size the player refuses.
    #[error("syntax error: {0}")]
    Memory(#[source] SettingError),
    /// A setting the player refuses, in its words.
    #[error("{0}")]
    Setting(#[source] SettingError),
    /// A search the player cannot make, in its words.
    #[error("{0}")]
    Solve(#[source] SolveError),
    /// `solve` once the game is over.
    #[error("cannot solve: the game is over")]
    SolveOver,
    /// `memory` of a player without a memory limit.
    #[error("cannot report: the {0} player has no memory limit")]
    NoMemoryLimit(Algorithm),
    /// `eval` of a player without an evaluation.
    #[error("cannot report: the {0} player has no evaluation")]
    NoEvaluation(Algorithm),
    /// `policy` of a player without a move policy.
    #[error("cannot report: the {0} player has no move policy")]
    NoPolicy(Algorithm),
    /// `eval FILE` or `policy FILE` of a file that is no weights file.
    #[error("cannot load weights: {}: {}", quoted(.word), weights_reason(.reason))]
    Weights {
        /// The word given.
        word: String,
        /// Why the file is refused.
        reason: LoadWeightsError,
    },
    /// `analyze` outside the session loop, which streams analyses itself.
    #[error("cannot analyze outside a session")]
    AnalyzeOutsideSession,
    /// `analyze` once the game is over.
    #[error("cannot analyze: the game is over")]
    AnalyzeOver,
}

/// Why a weights file is refused, without the read error's prefix (the reply says
/// `cannot load weights` already).
fn weights_reason(reason: &LoadWeightsError) -> String {
    match reason {
        LoadWeightsError::Read(e) => e.to_string(),
        e @ (LoadWeightsError::Parse(_)
        | LoadWeightsError::Net(_)
        | LoadWeightsError::PolicyNet(_)
        | LoadWeightsError::NetBase(_)) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_quote_the_word_cut_short_and_the_usage() {
        let missing = ParseError::Syntax { name: "play", args: "COLOR MOVE", word: String::new() };
        assert_eq!(missing.to_string(), "syntax error: missing argument; usage: play COLOR MOVE");
        let long = ParseError::Syntax { name: "name", args: "", word: "x".repeat(50) };
        assert_eq!(long.to_string(), format!("syntax error: unexpected '{}...'; usage: name", "x".repeat(40)));
    }

    #[test]
    fn turn_errors_read_as_the_rules_say_them() {
        assert_eq!(TurnError::GameOver.to_string(), IllegalMove::GameOver.to_string());
        assert_eq!(TurnError::NotToMove(Color::White).to_string(), "it is white's turn");
    }
}
