//! The commands, each declared once: its name, arguments and summary (the table that
//! `list_commands` prints and syntax errors quote), its [`Command`] variant, the parser of
//! its arguments, and the handler that executes it ([`Engine::execute`]).
//!
//! A preprocessed line is `[id] name [args...]` with single spaces between words. The
//! first word names the command; its arguments are then parsed under `cut`, so a known
//! command with bad arguments is a *syntax error* while an unknown name is an *unknown
//! command*. The handlers live by concern in the engine's rooms (`engine/`); the session's
//! own (names, the table) are here.

use nom::Parser;
use nom::combinator::{cut, eof, map, map_res, opt, success};
use nom::sequence::terminated;

use veletas_rules::{Color, RuleSet};

use crate::protocol::arguments::{
    DEFAULT_ANALYZE_INTERVAL, DEFAULT_SOLVE_SECONDS, Res, color, depth, finite, in_range, owned, rule_set,
    saturating_unsigned, seconds, switch, thinking_time, threads, unsigned, unsigned64, words,
};
use crate::protocol::engine::{Engine, Flow, IntoReply, Outcome};
use crate::protocol::error::{CommandError, ParseError};

/// Declares the commands: for each, the [`Command`] variant (its fields named), its
/// name, arguments and summary, the parser of its fields (one value, or a tuple of them
/// in order) and its handler (called with the engine and the fields in order). Generates
/// the enum, [`COMMANDS`], the parser's dispatch on the name and [`Engine::execute`].
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident
            $( ( $($tf:ident : $tt:ty),* ) )?
            $( { $( $(#[doc = $fdoc:literal])* $sf:ident : $st:ty ),* $(,)? } )?
        = $name:literal, $args:literal, $summary:literal;
        parse $parser:expr;
        run $run:path;
    )*) => {
        /// A parsed command (without its id).
        #[derive(Clone, PartialEq, Debug)]
        pub enum Command {
            $(
                $(#[doc = $doc])*
                $variant
                    $( ( $($tt),* ) )?
                    $( { $( $(#[doc = $fdoc])* $sf: $st ),* } )?,
            )*
        }

        /// Every command: name, arguments, and a one-line summary. `list_commands` prints
        /// the names in this order; syntax errors quote the usage.
        pub const COMMANDS: &[(&str, &str, &str)] = &[$(($name, $args, $summary)),*];

        /// Parses the arguments (`rest`: the line after the name, from its space) of the
        /// command `name`: its name and arguments' words, and the parse; `None` for no
        /// command.
        #[allow(unused_parens)]
        fn parse_arguments<'a>(name: &str, rest: &'a str) -> Option<(&'static str, &'static str, Res<'a, Command>)> {
            match name {
                $(
                    $name => Some((
                        $name,
                        $args,
                        whole(map($parser, |( $($($tf),*)? $($($sf),*)? )| {
                            Command::$variant $( ( $($tf),* ) )? $( { $($sf),* } )?
                        }))
                        .parse(rest),
                    )),
                )*
                _ => None,
            }
        }

        impl Engine {
            /// Executes `command`: its handler's reply, or why it refused (the state is
            /// then unchanged).
            pub fn execute(&mut self, command: Command) -> Outcome {
                match command {
                    $(
                        Command::$variant $( ( $($tf),* ) )? $( { $($sf),* } )? => {
                            $run(self $( $(, $tf)* )? $( $(, $sf)* )?).map(IntoReply::into_reply)
                        }
                    )*
                }
            }
        }
    };
}

commands! {
    /// `protocol_version`
    ProtocolVersion = "protocol_version", "", "the GTP version: 2";
        parse success(());
        run protocol_version;
    /// `name`
    Name = "name", "", "the engine's name";
        parse success(());
        run name;
    /// `version`
    Version = "version", "", "the engine's version";
        parse success(());
        run version;
    /// `known_command NAME`
    KnownCommand(name: String) = "known_command", "NAME", "whether NAME is a command";
        parse owned;
        run known_command;
    /// `list_commands`
    ListCommands = "list_commands", "", "every command, one per line";
        parse success(());
        run list_commands;
    /// `quit`
    Quit = "quit", "", "ends the session";
        parse success(());
        run quit;
    /// `boardsize SIZE` (any unsigned number; values too big for `u32` become `u32::MAX`).
    BoardSize(size: u32) = "boardsize", "SIZE", "7, 9 or 10: chooses the variant and clears the board";
        parse saturating_unsigned;
        run Engine::boardsize;
    /// `clear_board`
    ClearBoard = "clear_board", "", "starts a new game of the variant in force";
        parse success(());
        run Engine::clear_board;
    /// `komi KOMI`
    Komi(komi: f64) = "komi", "KOMI", "accepted and ignored";
        parse finite;
        run Engine::set_komi;
    /// `play COLOR MOVE`
    Play(color: Color, text: String) = "play", "COLOR MOVE", "plays a move for the side to move";
        parse (color, owned);
        run Engine::play;
    /// `genmove COLOR`
    Genmove(color: Color) = "genmove", "COLOR", "the engine chooses a move and plays it";
        parse color;
        run Engine::genmove;
    /// `reg_genmove COLOR`
    RegGenmove(color: Color) = "reg_genmove", "COLOR", "the engine chooses a move without playing it";
        parse color;
        run Engine::reg_genmove;
    /// `genmove_analyze COLOR`
    GenmoveAnalyze(color: Color) = "genmove_analyze", "COLOR",
        "as genmove, with the search's final view: an info line, then play MOVE";
        parse color;
        run Engine::genmove_analyze;
    /// `genmove_analyze_steps COLOR`
    GenmoveAnalyzeSteps(color: Color) = "genmove_analyze_steps", "COLOR",
        "as genmove_analyze, with a steps line before play MOVE: the playouts of each first step at the root";
        parse color;
        run Engine::genmove_analyze_steps;
    /// `undo`
    Undo = "undo", "", "takes back the last move";
        parse success(());
        run Engine::undo;
    /// `showboard`
    Showboard = "showboard", "", "a diagram of the position";
        parse success(());
        run Engine::showboard;
    /// `time_settings MAIN BYO_YOMI STONES`
    TimeSettings {
        /// Main time, seconds.
        main_time: f64,
        /// Byo-yomi period, seconds.
        byo_yomi: f64,
        /// Stones per byo-yomi period.
        stones: u32,
    } = "time_settings", "MAIN BYO_YOMI STONES", "sets the time control";
        parse (seconds, seconds, unsigned);
        run Engine::time_settings;
    /// `time_left COLOR TIME STONES`
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Seconds left.
        seconds: f64,
        /// Stones left in the period (0 in main time).
        stones: u32,
    } = "time_left", "COLOR TIME STONES", "the time left on a clock";
        parse (color, seconds, unsigned);
        run Engine::time_left;
    /// `final_score`
    FinalScore = "final_score", "", "the result once the game is over";
        parse success(());
        run Engine::final_score;
    /// `legal_moves`
    LegalMoves = "legal_moves", "", "every legal move";
        parse success(());
        run Engine::legal_moves;
    /// `is_legal COLOR MOVE`
    IsLegal(color: Color, text: String) = "is_legal", "COLOR MOVE", "whether a move is legal";
        parse (color, owned);
        run Engine::is_legal;
    /// `set_position RANKS SIDE [WORDS]`: the rest of the line, read as a position
    /// string by the engine (which says what is wrong with it).
    SetPosition(text: String) = "set_position", "POSITION", "sets up a position string";
        parse words;
        run Engine::set_position;
    /// `position`
    Position = "position", "", "the position string";
        parse success(());
        run Engine::position_string;
    /// `perft DEPTH [THREADS]`: the depth and the threads to count on (1 when not given).
    Perft(depth: u32, threads: u32) = "perft", "DEPTH [THREADS]", "the number of move sequences of DEPTH moves";
        parse map((depth, opt(threads)), |(d, t)| (d, t.unwrap_or(1)));
        run Engine::perft;
    /// `rules [classic|modern]`: report, or set the rule set.
    Rules(set: Option<RuleSet>) = "rules", "[classic|modern]",
        "reports the variant and rules in force, or sets the rules (new game)";
        parse opt(rule_set);
        run Engine::rules;
    /// `option NAME [VALUE]`: report or set an option (names and values checked by the
    /// engine).
    Option(name: String, value: Option<String>) = "option", "NAME [on|off]",
        "reports or sets an option of the rules: no-corners, claimed-block (new game)";
        parse (owned, opt(owned));
        run Engine::option;
    /// `player [NAME]` (the name as written; checked by the engine).
    Player(name: Option<String>) = "player", "[NAME]", "reports or sets the player: random, greedy, uct or veletas";
        parse opt(owned);
        run Engine::player;
    /// `movetime SECONDS` ([`MIN_MOVETIME`](crate::protocol::arguments::MIN_MOVETIME) to
    /// [`MAX_MOVETIME`](crate::protocol::arguments::MAX_MOVETIME)).
    MoveTime(seconds: f64) = "movetime", "SECONDS", "thinking time per move when no clock is set";
        parse thinking_time;
        run Engine::movetime;
    /// `playouts N` (0: off).
    Playouts(n: u64) = "playouts", "N", "a fixed number of playouts per move (0: off)";
        parse unsigned64;
        run Engine::playouts;
    /// `threads N` (1 to [`MAX_THREADS`](crate::protocol::arguments::MAX_THREADS)).
    Threads(n: u32) = "threads", "N", "search threads";
        parse threads;
        run Engine::threads;
    /// `analyze [INTERVAL]`: the interval in centiseconds (at least 1).
    Analyze(centiseconds: u32) = "analyze", "[INTERVAL]",
        "streams the search's view every INTERVAL centiseconds until the next input";
        parse map(opt(map_res(unsigned, in_range(1, u32::MAX))), |c| {
            c.unwrap_or(DEFAULT_ANALYZE_INTERVAL)
        });
        run analyze;
    /// `solve [SECONDS]` ([`MIN_MOVETIME`](crate::protocol::arguments::MIN_MOVETIME) to
    /// [`MAX_MOVETIME`](crate::protocol::arguments::MAX_MOVETIME)).
    Solve(seconds: f64) = "solve", "[SECONDS]", "tries to prove the game's outcome: win TURN, loss or unknown";
        parse map(opt(thinking_time), |s| s.unwrap_or(DEFAULT_SOLVE_SECONDS));
        run Engine::solve;
    /// `memory [MB]`: report, or set the search's memory (checked by the player).
    Memory(mb: Option<u64>) = "memory", "[MB]", "reports or sets the search's memory in MiB, all threads together";
        parse opt(unsigned64);
        run Engine::memory;
    /// `resign_threshold THRESHOLD` (0 to 1).
    ResignThreshold(threshold: f64) = "resign_threshold", "THRESHOLD",
        "resigns after turns below this win rate (0: never)";
        parse map_res(finite, in_range(0.0, 1.0));
        run Engine::resign_threshold;
    /// `ponder [on|off]`: report, or turn pondering on or off.
    Ponder(on: Option<bool>) = "ponder", "[on|off]",
        "reports or sets pondering: searching on the opponent's turn";
        parse opt(switch);
        run Engine::ponder_command;
    /// `eval [hand|learned|net|FILE]`: report, or set the static evaluation (the word as
    /// written; `hand`, `learned` or a weights file, read by the engine).
    Eval(word: Option<String>) = "eval", "[hand|learned|net|FILE]",
        "reports or sets the static evaluation: hand, learned (built-in weights), net (built-in network) or a FILE";
        parse opt(owned);
        run Engine::eval;
    /// `policy [builtin|FILE]`: report, or set the move policy's weights (the word as
    /// written; `builtin` or a weights file, read by the engine).
    Policy(word: Option<String>) = "policy", "[builtin|FILE]",
        "reports or sets the move policy: builtin weights, or a weights or network FILE";
        parse opt(owned);
        run Engine::policy;
    /// `loadgame FILE [TURNS [GAME]]`
    LoadGame {
        /// The record file (a path without spaces).
        path: String,
        /// Turns to replay; all of them when absent.
        turns: Option<u64>,
        /// Which game of the file, from 1; the first when absent.
        game: Option<u64>,
    } = "loadgame", "FILE [TURNS [GAME]]", "loads a game of a record file, up to TURNS turns";
        parse map((owned, opt((unsigned64, opt(unsigned64)))), |(path, rest)| {
            (path, rest.map(|(turns, _)| turns), rest.and_then(|(_, game)| game))
        });
        run Engine::loadgame;
}

/// A command's arguments under `cut`, up to the end of the line.
fn whole<'a, O>(
    args: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>> {
    cut(terminated(args, eof))
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

/// Parses a command (the line without its id).
pub fn parse_command(text: &str) -> Result<Command, ParseError> {
    if text.is_empty() {
        return Err(ParseError::MissingName);
    }
    let name = text.split(' ').next().unwrap_or_default();
    let rest = text.get(name.len()..).unwrap_or_default();
    let (name, args, parsed) = parse_arguments(name, rest).ok_or(ParseError::Unknown)?;
    match parsed {
        Ok((_, command)) => Ok(command),
        Err(nom::Err::Failure(e) | nom::Err::Error(e)) => {
            let word = e.input.trim_start_matches(' ').split(' ').next().unwrap_or_default();
            Err(ParseError::Syntax { name, args, word: word.to_string() })
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError::Syntax { name, args, word: String::new() }),
    }
}

// The session's own handlers.

fn protocol_version(_: &mut Engine) -> Result<String, CommandError> {
    Ok("2".to_string())
}

fn name(_: &mut Engine) -> Result<String, CommandError> {
    Ok("veletas".to_string())
}

fn version(_: &mut Engine) -> Result<String, CommandError> {
    Ok(env!("CARGO_PKG_VERSION").to_string())
}

fn known_command(_: &mut Engine, name: String) -> Result<String, CommandError> {
    Ok(is_known(&name).to_string())
}

fn list_commands(_: &mut Engine) -> Result<String, CommandError> {
    Ok(COMMANDS.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join("\n"))
}

fn quit(_: &mut Engine) -> Result<(String, Flow), CommandError> {
    Ok((String::new(), Flow::Quit))
}

/// The session loop streams analyses itself (see [`crate::protocol::run`]).
fn analyze(_: &mut Engine, _: u32) -> Result<String, CommandError> {
    Err(CommandError::AnalyzeOutsideSession)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The syntax error of the command `name` at `word`.
    fn syntax(name: &'static str, word: String) -> ParseError {
        let args = COMMANDS.iter().find(|(n, _, _)| *n == name).map(|(_, args, _)| *args).expect("a command");
        ParseError::Syntax { name, args, word }
    }

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
        assert_eq!(parse_command("name x"), Err(syntax("name", "x".into())));
        assert_eq!(parse_command("play red e2"), Err(syntax("play", "red".into())));
        assert_eq!(parse_command("play b"), Err(syntax("play", String::new())));
        assert_eq!(parse_command("komi inf"), Err(syntax("komi", "inf".into())));
        assert_eq!(parse_command("player a b"), Err(syntax("player", "b".into())));
        assert_eq!(parse_command("movetime 0"), Err(syntax("movetime", "0".into())));
        assert_eq!(parse_command("movetime 86401"), Err(syntax("movetime", "86401".into())));
        assert_eq!(parse_command("playouts -1"), Err(syntax("playouts", "-1".into())));
        assert_eq!(parse_command("threads 0"), Err(syntax("threads", "0".into())));
        assert_eq!(parse_command("threads 65"), Err(syntax("threads", "65".into())));
        assert_eq!(parse_command("analyze 0"), Err(syntax("analyze", "0".into())));
        assert_eq!(parse_command("analyze b 10"), Err(syntax("analyze", "b".into())));
        assert_eq!(parse_command("solve 0"), Err(syntax("solve", "0".into())));
        assert_eq!(parse_command("memory -1"), Err(syntax("memory", "-1".into())));
        assert_eq!(parse_command("resign_threshold 1.5"), Err(syntax("resign_threshold", "1.5".into())));
        assert_eq!(parse_command("resign_threshold"), Err(syntax("resign_threshold", String::new())));
        assert_eq!(parse_command("time_settings 1 -1 0"), Err(syntax("time_settings", "-1".into())));
        assert_eq!(parse_command("ponder yes"), Err(syntax("ponder", "yes".into())));
        assert_eq!(parse_command("ponder ON"), Err(syntax("ponder", "ON".into())));
        assert_eq!(parse_command("ponder on off"), Err(syntax("ponder", "off".into())));
        assert_eq!(parse_command("eval a b"), Err(syntax("eval", "b".into())));
        assert_eq!(parse_command("policy a b"), Err(syntax("policy", "b".into())));
        assert_eq!(
            parse_command("genmove_analyze_steps b steps"),
            Err(syntax("genmove_analyze_steps", "steps".into()))
        );
        assert_eq!(parse_command("perft 9"), Err(syntax("perft", "9".into())));
        assert_eq!(parse_command("perft 2"), Ok(Command::Perft(2, 1)));
        assert_eq!(parse_command("perft 3 2"), Ok(Command::Perft(3, 2)));
        for bad in ["perft 2 0", "perft 2 65", "perft 2 x", "perft 2 2 2"] {
            assert!(matches!(parse_command(bad), Err(ParseError::Syntax { name: "perft", .. })), "{bad}");
        }
        assert_eq!(parse_command("boardsize 10x"), Err(syntax("boardsize", "10x".into())));
        assert_eq!(syntax("play", String::new()).to_string(), "syntax error: missing argument; usage: play COLOR MOVE");
    }

    #[test]
    fn each_command_parses_to_its_own_variant_and_prints_its_usage_in_syntax_errors() {
        // Every declared name parses (with or without arguments) to a different variant;
        // a word too many is a syntax error that quotes the declared usage.
        let mut variants = std::collections::HashSet::new();
        for (name, args, _) in COMMANDS {
            if *name != "set_position" {
                let error = parse_command(&format!("{name} a b c d e")).expect_err(name);
                let usage = if args.is_empty() { name.to_string() } else { format!("{name} {args}") };
                assert!(error.to_string().ends_with(&format!("; usage: {usage}")), "{name}: {error}");
            }
            let example = match *name {
                "play" | "is_legal" => format!("{name} b d4"),
                "time_settings" => format!("{name} 1 0 0"),
                "time_left" => format!("{name} b 1 0"),
                "boardsize" | "komi" | "movetime" | "playouts" | "threads" | "perft" => format!("{name} 1"),
                "resign_threshold" => format!("{name} 0.5"),
                "known_command" | "set_position" | "loadgame" | "option" => format!("{name} x"),
                "genmove" | "reg_genmove" | "genmove_analyze" | "genmove_analyze_steps" => format!("{name} w"),
                _ => name.to_string(),
            };
            let command = parse_command(&example).unwrap_or_else(|e| panic!("{example}: {e}"));
            assert!(variants.insert(std::mem::discriminant(&command)), "{example}");
        }
        assert_eq!(variants.len(), COMMANDS.len());
    }

    #[test]
    fn every_listed_name_is_parsed() {
        for (name, _, _) in COMMANDS {
            assert_ne!(parse_command(name), Err(ParseError::Unknown), "{name}");
        }
    }
}
