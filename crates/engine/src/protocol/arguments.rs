//! The commands' arguments and their parsers (nom), and the limits the protocol accepts.
//!
//! Each parser reads one argument, a space then a word, and fails (as a nom error) on a
//! word it does not accept; [`super::command`] runs a command's parsers under `cut`, so a
//! known command with bad arguments is a syntax error that names the word. Moves and
//! position strings are kept as text here: reading them depends on the position (see
//! [`veletas_rules::Position::parse_move`]).

use nom::bytes::complete::take_while1;
use nom::character::complete::char;
use nom::combinator::{map, map_res};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use veletas_rules::{Color, RuleSet};

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

/// What a parser returns: the input left and the value, or nom's error.
pub type Res<'a, T> = IResult<&'a str, T>;

/// One argument: a space, then a word.
pub fn word(i: &str) -> Res<'_, &str> {
    preceded(char(' '), take_while1(|c| c != ' ')).parse(i)
}

/// One or more arguments: a space, then the rest of the line (checked by the caller).
pub fn words(i: &str) -> Res<'_, String> {
    map(preceded(char(' '), take_while1(|_| true)), str::to_string).parse(i)
}

/// A colour: `b`, `black`, `w`, `white` (any case).
pub fn color(i: &str) -> Res<'_, Color> {
    map_res(word, str::parse::<Color>).parse(i)
}

/// A rule set: `classic` or `modern`.
pub fn rule_set(i: &str) -> Res<'_, RuleSet> {
    map_res(word, str::parse::<RuleSet>).parse(i)
}

fn digits(w: &str) -> Result<&str, ()> {
    if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) { Ok(w) } else { Err(()) }
}

/// An unsigned number that fits in `u32`.
pub fn unsigned(i: &str) -> Res<'_, u32> {
    map_res(word, |w: &str| digits(w).and_then(|d| d.parse::<u32>().map_err(|_| ()))).parse(i)
}

/// An unsigned number of any size, saturated to `u32::MAX`.
pub fn saturating_unsigned(i: &str) -> Res<'_, u32> {
    map_res(word, |w: &str| digits(w).map(|d| d.parse::<u32>().unwrap_or(u32::MAX))).parse(i)
}

/// A finite number.
pub fn finite(i: &str) -> Res<'_, f64> {
    map_res(word, |w: &str| w.parse::<f64>().map_err(|_| ()).and_then(|x| if x.is_finite() { Ok(x) } else { Err(()) }))
        .parse(i)
}

/// An unsigned number that fits in `u64`.
pub fn unsigned64(i: &str) -> Res<'_, u64> {
    map_res(word, |w: &str| digits(w).and_then(|d| d.parse::<u64>().map_err(|_| ()))).parse(i)
}

/// Accepts a value from `low` to `high`, both included.
pub fn in_range<T: PartialOrd>(low: T, high: T) -> impl Fn(T) -> Result<T, ()> {
    move |x| if x >= low && x <= high { Ok(x) } else { Err(()) }
}

/// A time in seconds: finite, not negative.
pub fn seconds(i: &str) -> Res<'_, f64> {
    map_res(finite, |x| if x >= 0.0 { Ok(x) } else { Err(()) }).parse(i)
}

/// A thinking time: [`MIN_MOVETIME`] to [`MAX_MOVETIME`] seconds.
pub fn thinking_time(i: &str) -> Res<'_, f64> {
    map_res(finite, in_range(MIN_MOVETIME, MAX_MOVETIME)).parse(i)
}

/// A word, kept as text.
pub fn owned(i: &str) -> Res<'_, String> {
    map(word, str::to_string).parse(i)
}

/// `on` or `off`.
pub fn switch(i: &str) -> Res<'_, bool> {
    map_res(word, |w: &str| match w {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(()),
    })
    .parse(i)
}

/// A `perft` depth: up to [`MAX_PERFT_DEPTH`].
pub fn depth(i: &str) -> Res<'_, u32> {
    map_res(unsigned, in_range(0, MAX_PERFT_DEPTH)).parse(i)
}

/// A number of threads: 1 to [`MAX_THREADS`].
pub fn threads(i: &str) -> Res<'_, u32> {
    map_res(unsigned, in_range(1, MAX_THREADS)).parse(i)
}
