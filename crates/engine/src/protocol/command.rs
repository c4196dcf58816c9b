//! The commands, and their parser (nom).
//!
//! A preprocessed line is `[id] name [args...]` with single spaces between words. The
//! parser tries each command keyword; once a keyword matched, its arguments are parsed
//! under `cut`, so a known command with bad arguments is a *syntax error* while an
//! unmatched name is an *unknown command*. Moves and position strings are kept as text
//! here: reading them depends on the position (see [`veletas_rules::Position::parse_move`]).

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::char;
use nom::combinator::{cut, eof, map, map_res, opt, peek, success};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use veletas_rules::{Color, RuleSet};

/// Every command: name, arguments, and a one-line summary. `list_commands` prints the
/// names in this order; syntax errors quote the usage.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("protocol_version", "", "the GTP version: 2"),
    ("name", "", "the engine's name"),
    ("version", "", "the engine's version"),
    ("known_command", "NAME", "whether NAME is a command"),
    ("list_commands", "", "every command, one per line"),
    ("quit", "", "ends the session"),
    ("boardsize", "SIZE", "7, 9 or 10: chooses the variant and clears the board"),
    ("clear_board", "", "starts a new game of the variant in force"),
    ("komi", "KOMI", "accepted and ignored"),
    ("play", "COLOR MOVE", "plays a move for the side to move"),
    ("genmove", "COLOR", "the engine chooses a move and plays it"),
    ("reg_genmove", "COLOR", "the engine chooses a move without playing it"),
    ("genmove_analyze", "COLOR", "as genmove, with the search's final view: an info line, then play MOVE"),
    (
        "genmove_analyze_steps",
        "COLOR",
        "as genmove_analyze, with a steps line before play MOVE: the playouts of each first step at the root",
    ),
    ("undo", "", "takes back the last move"),
    ("showboard", "", "a diagram of the position"),
    ("time_settings", "MAIN BYO_YOMI STONES", "sets the time control"),
    ("time_left", "COLOR TIME STONES", "the time left on a clock"),
    ("final_score", "", "the result once the game is over"),
    ("legal_moves", "", "every legal move"),
    ("is_legal", "COLOR MOVE", "whether a move is legal"),
    ("set_position", "POSITION", "sets up a position string"),
    ("position", "", "the position string"),
    ("perft", "DEPTH [THREADS]", "the number of move sequences of DEPTH moves"),
    ("rules", "[classic|modern]", "reports the variant and rules in force, or sets the rules (new game)"),
    ("option", "NAME [on|off]", "reports or sets an option of the rules: no-corners, claimed-block (new game)"),
    ("player", "[NAME]", "reports or sets the player: random, greedy, uct or veletas"),
    ("movetime", "SECONDS", "thinking time per move when no clock is set"),
    ("playouts", "N", "a fixed number of playouts per move (0: off)"),
    ("threads", "N", "search threads"),
    ("analyze", "[INTERVAL]", "streams the search's view every INTERVAL centiseconds until the next input"),
    ("solve", "[SECONDS]", "tries to prove the game's outcome: win TURN, loss or unknown"),
    ("memory", "[MB]", "reports or sets the search's memory in MiB, all threads together"),
    ("resign_threshold", "THRESHOLD", "resigns after turns below this win rate (0: never)"),
    ("ponder", "[on|off]", "reports or sets pondering: searching on the opponent's turn"),
    (
        "eval",
        "[hand|learned|net|FILE]",
        "reports or sets the static evaluation: hand, learned (built-in weights), net (built-in network) or a FILE",
    ),
    ("policy", "[builtin|FILE]", "reports or sets the move policy: builtin weights, or a weights or network FILE"),
    ("loadgame", "FILE [TURNS [GAME]]", "loads a game of a record file, up to TURNS turns"),
];

/// The longest `movetime` the protocol accepts, in seconds (one day).
pub const MAX_MOVETIME: f64 = crate::player::time::MAX_THINKING.as_secs_f64();
/// The shortest `movetime` (and `solve` time) the protocol accepts, in seconds: shorter
/// ones round to no time at all.
pub const MIN_MOVETIME: f64 = 0.001;
/// The most search threads the protocol accepts.
pub const MAX_THREADS: u32 = crate::player::search_player::MAX_THREADS as u32;
/// The time of `solve` when none is given, in seconds.
pub const DEFAULT_SOLVE_SECONDS: f64 = 10.0;

/// The interval of `analyze` when none is given, in centiseconds.
pub const DEFAULT_ANALYZE_INTERVAL: u32 = 100;

/// The deepest `perft` the protocol accepts (deeper would run for days).
pub const MAX_PERFT_DEPTH: u32 = 8;

/// A parsed command (without its id).
#[derive(Clone, PartialEq, Debug)]
pub enum Command {
    /// `protocol_version`
    ProtocolVersion,
    /// `name`
    Name,
    /// `version`
    Version,
    /// `known_command NAME`
    KnownCommand(String),
    /// `list_commands`
    ListCommands,
    /// `quit`
    Quit,
    /// `boardsize SIZE` (any unsigned number; values too big for `u32` become `u32::MAX`).
    BoardSize(u32),
    /// `clear_board`
    ClearBoard,
    /// `komi KOMI`
    Komi(f64),
    /// `play COLOR MOVE`
    Play(Color, String),
    /// `genmove COLOR`
    Genmove(Color),
    /// `reg_genmove COLOR`
    RegGenmove(Color),
    /// `genmove_analyze COLOR`
    GenmoveAnalyze(Color),
    /// `genmove_analyze_steps COLOR`
    GenmoveAnalyzeSteps(Color),
    /// `undo`
    Undo,
    /// `showboard`
    Showboard,
    /// `time_settings MAIN BYO_YOMI STONES`
    TimeSettings {
        /// Main time, seconds.
        main_time: f64,
        /// Byo-yomi period, seconds.
        byo_yomi: f64,
        /// Stones per byo-yomi period.
        stones: u32,
    },
    /// `time_left COLOR TIME STONES`
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Seconds left.
        seconds: f64,
        /// Stones left in the period (0 in main time).
        stones: u32,
    },
    /// `final_score`
    FinalScore,
    /// `legal_moves`
    LegalMoves,
    /// `is_legal COLOR MOVE`
    IsLegal(Color, String),
    /// `set_position RANKS SIDE [WORDS]`: the rest of the line, read as a position
    /// string by the engine (which says what is wrong with it).
    SetPosition(String),
    /// `position`
    Position,
    /// `perft DEPTH [THREADS]`: the depth and the threads to count on (1 when not given).
    Perft(u32, u32),
    /// `rules [classic|modern]`: report, or set the rule set.
    Rules(Option<RuleSet>),
    /// `option NAME [VALUE]`: report or set an option (names and values checked by the
    /// engine).
    Option(String, Option<String>),
    /// `player [NAME]` (the name as written; checked by the engine).
    Player(Option<String>),
    /// `movetime SECONDS` ([`MIN_MOVETIME`] to [`MAX_MOVETIME`]).
    MoveTime(f64),
    /// `playouts N` (0: off).
    Playouts(u64),
    /// `threads N` (1 to [`MAX_THREADS`]).
    Threads(u32),
    /// `analyze [INTERVAL]`: the interval in centiseconds (at least 1).
    Analyze(u32),
    /// `solve [SECONDS]` ([`MIN_MOVETIME`] to [`MAX_MOVETIME`]).
    Solve(f64),
    /// `memory [MB]`: report, or set the search's memory (checked by the player).
    Memory(Option<u64>),
    /// `resign_threshold THRESHOLD` (0 to 1).
    ResignThreshold(f64),
    /// `ponder [on|off]`: report, or turn pondering on or off.
    Ponder(Option<bool>),
    /// `eval [hand|learned|net|FILE]`: report, or set the static evaluation (the word as
    /// written; `hand`, `learned` or a weights file, read by the engine).
    Eval(Option<String>),
    /// `policy [builtin|FILE]`: report, or set the move policy's weights (the word as
    /// written; `builtin` or a weights file, read by the engine).
    Policy(Option<String>),
    /// `loadgame FILE [TURNS [GAME]]`
    LoadGame {
        /// The record file (a path without spaces).
        path: String,
        /// Turns to replay; all of them when absent.
        turns: Option<u64>,
        /// Which game of the file, from 1; the first when absent.
        game: Option<u64>,
    },
}

/// Why a line is not a command.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseError {
    /// The line has an id but nothing after it.
    MissingName,
    /// The name is no command.
    Unknown,
    /// A known command with wrong arguments: the name, and the offending word (empty
    /// when an argument is missing).
    Syntax(&'static str, String),
}

impl ParseError {
    /// The error message of the reply.
    pub fn message(&self) -> String {
        match self {
            ParseError::MissingName => "syntax error: missing command name".to_string(),
            ParseError::Unknown => "unknown command".to_string(),
            ParseError::Syntax(name, word) => {
                let usage = usage(name);
                if word.is_empty() {
                    format!("syntax error: missing argument; usage: {usage}")
                } else {
                    format!("syntax error: unexpected '{}'; usage: {usage}", shorten(word))
                }
            }
        }
    }
}

/// `name ARGS`, the usage line of a command.
pub fn usage(name: &str) -> String {
    match COMMANDS.iter().find(|(n, _, _)| *n == name) {
        Some((_, "", _)) | None => name.to_string(),
        Some((_, args, _)) => format!("{name} {args}"),
    }
}

/// At most 40 characters of `text`, for quoting user input in messages.
pub fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push_str("...");
    }
    short
}

/// Whether `name` is a command (case-sensitive).
pub fn is_known(name: &str) -> bool {
    COMMANDS.iter().any(|(n, _, _)| *n == name)
}

/// Splits the optional id off a preprocessed line: digits followed by a space or the end.
pub fn split_id(line: &str) -> (Option<&str>, &str) {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (None, line);
    }
    match line.split_at_checked(digits) {
        Some((id, "")) => (Some(id), ""),
        Some((id, rest)) if rest.starts_with(' ') => (Some(id), rest.get(1..).unwrap_or("")),
        _ => (None, line),
    }
}

type Res<'a, T> = IResult<&'a str, T>;

/// One argument: a space, then a word.
fn word(i: &str) -> Res<'_, &str> {
    preceded(char(' '), take_while1(|c| c != ' ')).parse(i)
}

/// One or more arguments: a space, then the rest of the line (checked by the caller).
fn words(i: &str) -> Res<'_, &str> {
    preceded(char(' '), take_while1(|_| true)).parse(i)
}

fn color(i: &str) -> Res<'_, Color> {
    map_res(word, str::parse::<Color>).parse(i)
}

fn digits(w: &str) -> Result<&str, ()> {
    if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) { Ok(w) } else { Err(()) }
}

fn unsigned(i: &str) -> Res<'_, u32> {
    map_res(word, |w: &str| digits(w).and_then(|d| d.parse::<u32>().map_err(|_| ()))).parse(i)
}

/// An unsigned number of any size, saturated to `u32::MAX`.
fn saturating_unsigned(i: &str) -> Res<'_, u32> {
    map_res(word, |w: &str| digits(w).map(|d| d.parse::<u32>().unwrap_or(u32::MAX))).parse(i)
}

fn finite(i: &str) -> Res<'_, f64> {
    map_res(word, |w: &str| w.parse::<f64>().map_err(|_| ()).and_then(|x| if x.is_finite() { Ok(x) } else { Err(()) }))
        .parse(i)
}

fn unsigned64(i: &str) -> Res<'_, u64> {
    map_res(word, |w: &str| digits(w).and_then(|d| d.parse::<u64>().map_err(|_| ()))).parse(i)
}

fn in_range<T: PartialOrd>(low: T, high: T) -> impl Fn(T) -> Result<T, ()> {
    move |x| if x >= low && x <= high { Ok(x) } else { Err(()) }
}

fn seconds(i: &str) -> Res<'_, f64> {
    map_res(finite, |x| if x >= 0.0 { Ok(x) } else { Err(()) }).parse(i)
}

fn owned(i: &str) -> Res<'_, String> {
    map(word, str::to_string).parse(i)
}

/// A keyword that must be the whole command name, then its arguments under `cut` up to
/// the end of the line.
fn keyword<'a, O>(
    name: &'static str,
    args: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>> {
    preceded(terminated(tag(name), peek(alt((tag(" "), eof)))), cut(terminated(args, eof)))
}

fn command(i: &str) -> Res<'_, Command> {
    alt((
        alt((
            keyword("protocol_version", success(Command::ProtocolVersion)),
            keyword("name", success(Command::Name)),
            keyword("version", success(Command::Version)),
            keyword("known_command", map(owned, Command::KnownCommand)),
            keyword("list_commands", success(Command::ListCommands)),
            keyword("quit", success(Command::Quit)),
            keyword("boardsize", map(saturating_unsigned, Command::BoardSize)),
            keyword("clear_board", success(Command::ClearBoard)),
            keyword("komi", map(finite, Command::Komi)),
            keyword("play", map((color, owned), |(c, m)| Command::Play(c, m))),
            keyword("genmove", map(color, Command::Genmove)),
            keyword("reg_genmove", map(color, Command::RegGenmove)),
            keyword("genmove_analyze", map(color, Command::GenmoveAnalyze)),
            keyword("genmove_analyze_steps", map(color, Command::GenmoveAnalyzeSteps)),
        )),
        alt((
            keyword("undo", success(Command::Undo)),
            keyword("showboard", success(Command::Showboard)),
            keyword(
                "time_settings",
                map((seconds, seconds, unsigned), |(main_time, byo_yomi, stones)| Command::TimeSettings {
                    main_time,
                    byo_yomi,
                    stones,
                }),
            ),
            keyword(
                "time_left",
                map((color, seconds, unsigned), |(color, seconds, stones)| Command::TimeLeft {
                    color,
                    seconds,
                    stones,
                }),
            ),
            keyword("final_score", success(Command::FinalScore)),
            keyword("legal_moves", success(Command::LegalMoves)),
            keyword("is_legal", map((color, owned), |(c, m)| Command::IsLegal(c, m))),
            keyword("set_position", map(words, |text| Command::SetPosition(text.to_string()))),
            keyword("position", success(Command::Position)),
            keyword(
                "perft",
                map((map_res(unsigned, depth), opt(map_res(unsigned, in_range(1, MAX_THREADS)))), |(d, t)| {
                    Command::Perft(d, t.unwrap_or(1))
                }),
            ),
            keyword(
                "rules",
                alt((
                    map(map_res(word, str::parse::<RuleSet>), |r| Command::Rules(Some(r))),
                    success(Command::Rules(None)),
                )),
            ),
            keyword("option", map((owned, opt(owned)), |(name, value)| Command::Option(name, value))),
        )),
        alt((
            keyword("player", alt((map(owned, |n| Command::Player(Some(n))), success(Command::Player(None))))),
            keyword("movetime", map(map_res(finite, positive_seconds), Command::MoveTime)),
            keyword("playouts", map(unsigned64, Command::Playouts)),
            keyword("threads", map(map_res(unsigned, in_range(1, MAX_THREADS)), Command::Threads)),
            keyword(
                "analyze",
                alt((
                    map(map_res(unsigned, in_range(1, u32::MAX)), Command::Analyze),
                    success(Command::Analyze(DEFAULT_ANALYZE_INTERVAL)),
                )),
            ),
            keyword(
                "solve",
                alt((
                    map(map_res(finite, positive_seconds), Command::Solve),
                    success(Command::Solve(DEFAULT_SOLVE_SECONDS)),
                )),
            ),
            keyword("memory", alt((map(unsigned64, |mb| Command::Memory(Some(mb))), success(Command::Memory(None))))),
            keyword("resign_threshold", map(map_res(finite, in_range(0.0, 1.0)), Command::ResignThreshold)),
            keyword("ponder", alt((map(switch, |on| Command::Ponder(Some(on))), success(Command::Ponder(None))))),
            keyword("eval", alt((map(owned, |w| Command::Eval(Some(w))), success(Command::Eval(None))))),
            keyword("policy", alt((map(owned, |w| Command::Policy(Some(w))), success(Command::Policy(None))))),
            keyword(
                "loadgame",
                map((owned, opt((unsigned64, opt(unsigned64)))), |(path, rest)| Command::LoadGame {
                    path,
                    turns: rest.map(|(turns, _)| turns),
                    game: rest.and_then(|(_, game)| game),
                }),
            ),
        )),
    ))
    .parse(i)
}

/// `on` or `off`.
fn switch(i: &str) -> Res<'_, bool> {
    map_res(word, |w: &str| match w {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(()),
    })
    .parse(i)
}

fn positive_seconds(x: f64) -> Result<f64, ()> {
    if (MIN_MOVETIME..=MAX_MOVETIME).contains(&x) { Ok(x) } else { Err(()) }
}

fn depth(d: u32) -> Result<u32, ()> {
    if d <= MAX_PERFT_DEPTH { Ok(d) } else { Err(()) }
}

/// Parses a command (the line without its id).
pub fn parse_command(text: &str) -> Result<Command, ParseError> {
    if text.is_empty() {
        return Err(ParseError::MissingName);
    }
    match command(text) {
        Ok((_, cmd)) => Ok(cmd),
        Err(nom::Err::Failure(e)) => {
            let name = text.split(' ').next().unwrap_or_default();
            let name = COMMANDS.iter().map(|(n, _, _)| *n).find(|n| *n == name).unwrap_or("?");
            let word = e.input.trim_start_matches(' ').split(' ').next().unwrap_or_default();
            Err(ParseError::Syntax(name, word.to_string()))
        }
        Err(_) => Err(ParseError::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_split_off() {
        assert_eq!(split_id("12 name"), (Some("12"), "name"));
        assert_eq!(split_id("12"), (Some("12"), ""));
        assert_eq!(split_id("12name"), (None, "12name"));
        assert_eq!(split_id("name"), (None, "name"));
    }

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command("play B E2-e6/g8"), Ok(Command::Play(Color::Black, "E2-e6/g8".into())));
        assert_eq!(parse_command("boardsize 99999999999999"), Ok(Command::BoardSize(u32::MAX)));
        assert_eq!(
            parse_command("time_left white 0.5 0"),
            Ok(Command::TimeLeft { color: Color::White, seconds: 0.5, stones: 0 })
        );
        assert_eq!(parse_command("set_position 7/7/7/7/7/7/7 b"), Ok(Command::SetPosition("7/7/7/7/7/7/7 b".into())));
        assert_eq!(parse_command("komi -7.5"), Ok(Command::Komi(-7.5)));
        assert_eq!(parse_command("player"), Ok(Command::Player(None)));
        assert_eq!(parse_command("player uct"), Ok(Command::Player(Some("uct".into()))));
        assert_eq!(parse_command("movetime 0.25"), Ok(Command::MoveTime(0.25)));
        assert_eq!(parse_command("playouts 18446744073709551615"), Ok(Command::Playouts(u64::MAX)));
        assert_eq!(parse_command("threads 2"), Ok(Command::Threads(2)));
        assert_eq!(parse_command("analyze"), Ok(Command::Analyze(DEFAULT_ANALYZE_INTERVAL)));
        assert_eq!(parse_command("analyze 5"), Ok(Command::Analyze(5)));
        assert_eq!(parse_command("solve"), Ok(Command::Solve(DEFAULT_SOLVE_SECONDS)));
        assert_eq!(parse_command("solve 0.5"), Ok(Command::Solve(0.5)));
        assert_eq!(parse_command("memory"), Ok(Command::Memory(None)));
        assert_eq!(parse_command("memory 64"), Ok(Command::Memory(Some(64))));
        assert_eq!(parse_command("resign_threshold 0.05"), Ok(Command::ResignThreshold(0.05)));
        assert_eq!(parse_command("ponder"), Ok(Command::Ponder(None)));
        assert_eq!(parse_command("ponder on"), Ok(Command::Ponder(Some(true))));
        assert_eq!(parse_command("ponder off"), Ok(Command::Ponder(Some(false))));
        assert_eq!(parse_command("genmove_analyze_steps w"), Ok(Command::GenmoveAnalyzeSteps(Color::White)));
        assert_eq!(parse_command("eval"), Ok(Command::Eval(None)));
        assert_eq!(parse_command("policy"), Ok(Command::Policy(None)));
        assert_eq!(parse_command("policy p.txt"), Ok(Command::Policy(Some("p.txt".into()))));
        assert_eq!(parse_command("eval weights.txt"), Ok(Command::Eval(Some("weights.txt".into()))));
    }

    #[test]
    fn unknown_and_syntax_errors_differ() {
        assert_eq!(parse_command("Name"), Err(ParseError::Unknown));
        assert_eq!(parse_command("names"), Err(ParseError::Unknown));
        assert_eq!(parse_command("name x"), Err(ParseError::Syntax("name", "x".into())));
        assert_eq!(parse_command("play red e2"), Err(ParseError::Syntax("play", "red".into())));
        assert_eq!(parse_command("play b"), Err(ParseError::Syntax("play", String::new())));
        assert_eq!(parse_command("komi inf"), Err(ParseError::Syntax("komi", "inf".into())));
        assert_eq!(parse_command("player a b"), Err(ParseError::Syntax("player", "b".into())));
        assert_eq!(parse_command("movetime 0"), Err(ParseError::Syntax("movetime", "0".into())));
        assert_eq!(parse_command("movetime 86401"), Err(ParseError::Syntax("movetime", "86401".into())));
        assert_eq!(parse_command("playouts -1"), Err(ParseError::Syntax("playouts", "-1".into())));
        assert_eq!(parse_command("threads 0"), Err(ParseError::Syntax("threads", "0".into())));
        assert_eq!(parse_command("threads 65"), Err(ParseError::Syntax("threads", "65".into())));
        assert_eq!(parse_command("analyze 0"), Err(ParseError::Syntax("analyze", "0".into())));
        assert_eq!(parse_command("analyze b 10"), Err(ParseError::Syntax("analyze", "b".into())));
        assert_eq!(parse_command("solve 0"), Err(ParseError::Syntax("solve", "0".into())));
        assert_eq!(parse_command("memory -1"), Err(ParseError::Syntax("memory", "-1".into())));
        assert_eq!(parse_command("resign_threshold 1.5"), Err(ParseError::Syntax("resign_threshold", "1.5".into())));
        assert_eq!(parse_command("resign_threshold"), Err(ParseError::Syntax("resign_threshold", String::new())));
        assert_eq!(parse_command("time_settings 1 -1 0"), Err(ParseError::Syntax("time_settings", "-1".into())));
        assert_eq!(parse_command("ponder yes"), Err(ParseError::Syntax("ponder", "yes".into())));
        assert_eq!(parse_command("ponder ON"), Err(ParseError::Syntax("ponder", "ON".into())));
        assert_eq!(parse_command("ponder on off"), Err(ParseError::Syntax("ponder", "off".into())));
        assert_eq!(parse_command("eval a b"), Err(ParseError::Syntax("eval", "b".into())));
        assert_eq!(parse_command("policy a b"), Err(ParseError::Syntax("policy", "b".into())));
        assert_eq!(
            parse_command("genmove_analyze_steps b steps"),
            Err(ParseError::Syntax("genmove_analyze_steps", "steps".into()))
        );
        assert_eq!(parse_command("perft 9"), Err(ParseError::Syntax("perft", "9".into())));
        assert_eq!(parse_command("perft 2"), Ok(Command::Perft(2, 1)));
        assert_eq!(parse_command("perft 3 2"), Ok(Command::Perft(3, 2)));
        for bad in ["perft 2 0", "perft 2 65", "perft 2 x", "perft 2 2 2"] {
            assert!(matches!(parse_command(bad), Err(ParseError::Syntax("perft", _))), "{bad}");
        }
        assert_eq!(parse_command("boardsize 10x"), Err(ParseError::Syntax("boardsize", "10x".into())));
        assert_eq!(
            ParseError::Syntax("play", String::new()).message(),
            "syntax error: missing argument; usage: play COLOR MOVE"
        );
    }

    #[test]
    fn every_listed_name_is_parsed() {
        for (name, _, _) in COMMANDS {
            assert_ne!(parse_command(name), Err(ParseError::Unknown), "{name}");
        }
    }
}
