//! Time controls as records name them (the `TimeControl` tag) and as GTP announces them.
//!
//! Three time controls exist:
//!
//! | time control | tag form | `time_settings` |
//! |---|---|---|
//! | fixed time per move | `movetime 0.5` | `0 0.5 1` |
//! | main time + increment (Fischer) | `clock 60+0.5` | `60 0 0` (absolute) |
//! | main time + Canadian byo-yomi | `clock 60 byoyomi 10/5` | `60 10 5` |
//!
//! A game's `TimeControl` tag holds one of them, or one per side ([`TimeControls`]).
//!
//! The seconds are parsed and printed here, not by a duration crate (humantime and the
//! like): they are GTP numbers (`0.5`, `60`, at most 3 decimals, no units), the form
//! `time_settings` and the records share, and a crate's `1m 30s` forms would be a second
//! notation for the same field.
//! The clocks that run them are the referee's (`veletas_tools::referee::clock`).

use std::fmt;
use std::str::FromStr;

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed number of seconds for every move; unused time is lost.
    MoveTime(f64),
    /// Main time in seconds plus an increment after every move.
    Fischer {
        /// Main time, seconds.
        main: f64,
        /// Added after each move, seconds.
        increment: f64,
    },
    /// Main time, then periods of `period` seconds for `stones` moves each.
    Canadian {
        /// Main time, seconds.
        main: f64,
        /// Length of a byo-yomi period, seconds.
        period: f64,
        /// Moves to play in each period.
        stones: u32,
    },
}

/// `MAIN+INC` or `MAIN` (seconds, decimals allowed) as given to `--clock`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockSpec {
    /// Main time, seconds.
    pub main: f64,
    /// Increment per move, seconds.
    pub increment: f64,
}

/// `PERIOD/STONES` as given to `--byoyomi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ByoYomiSpec {
    /// Period length, seconds.
    pub period: f64,
    /// Moves per period.
    pub stones: u32,
}

/// The longest time any time option takes (about 11.6 days): longer ones are refused at
/// once rather than overflowing a clock later.
pub const MAX_SECONDS: f64 = 1e6;

/// A text that is not a number of seconds from 0 to [`MAX_SECONDS`] (the text quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a number of seconds from 0 to {MAX_SECONDS}")]
pub struct ParseSecondsError(String);

fn seconds(text: &str) -> Result<f64, ParseSecondsError> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Ok(s),
        _ => Err(ParseSecondsError(crate::quoted(text))),
    }
}

/// Parses a non-negative number of seconds (for `--movetime`, `--margin`).
pub fn parse_seconds(text: &str) -> Result<f64, ParseSecondsError> {
    seconds(text)
}

/// A text that is not `MAIN+INC` or `MAIN`: one of its times is not a number of seconds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct ParseClockSpecError(#[from] ParseSecondsError);

impl FromStr for ClockSpec {
    type Err = ParseClockSpecError;
    fn from_str(s: &str) -> Result<ClockSpec, ParseClockSpecError> {
        let (main, increment) = match s.split_once('+') {
            Some((main, inc)) => (seconds(main)?, seconds(inc)?),
            None => (seconds(s)?, 0.0),
        };
        Ok(ClockSpec { main, increment })
    }
}

/// A text that is not `PERIOD/STONES` (the text quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseByoYomiError {
    /// No `/`, or the stones are not a number.
    #[error("expected PERIOD/STONES such as 10/5, not '{0}'")]
    NotPeriodStones(String),
    /// The period is not a number of seconds.
    #[error(transparent)]
    Period(#[from] ParseSecondsError),
    /// A period of no time, or of no stones.
    #[error("a byo-yomi period needs time and at least one stone: '{0}'")]
    Empty(String),
}

impl FromStr for ByoYomiSpec {
    type Err = ParseByoYomiError;
    fn from_str(s: &str) -> Result<ByoYomiSpec, ParseByoYomiError> {
        let err = || ParseByoYomiError::NotPeriodStones(crate::quoted(s));
        let (period, stones) = s.split_once('/').ok_or_else(err)?;
        let period = seconds(period)?;
        let stones: u32 = stones.trim().parse().map_err(|_| err())?;
        if period <= 0.0 || stones == 0 {
            return Err(ParseByoYomiError::Empty(crate::quoted(s)));
        }
        Ok(ByoYomiSpec { period, stones })
    }
}

/// Seconds as GTP numbers: integers without a decimal point, else up to 3 decimals.
pub fn format_seconds(s: f64) -> String {
    let s = s.max(0.0);
    if s.fract() == 0.0 && s < 1e15 {
        format!("{s:.0}")
    } else {
        let text = format!("{s:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Time options that make no time control together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeOptionsError {
    /// `--movetime` with `--clock` or `--byoyomi`.
    #[error("--movetime cannot be combined with --clock or --byoyomi")]
    MoveTimeWithClock,
    /// `--movetime 0`.
    #[error("--movetime must be positive")]
    NoMoveTime,
    /// `--clock 0+0` without `--byoyomi`.
    #[error("--clock needs main time or an increment")]
    NoClockTime,
    /// `--byoyomi` with a `--clock` increment.
    #[error("--byoyomi cannot be combined with an increment in --clock")]
    ByoYomiWithIncrement,
}

impl TimeControl {
    /// The time control from the command-line options; `None` of all gives 1 s per move.
    pub fn from_options(
        movetime: Option<f64>,
        clock: Option<ClockSpec>,
        byoyomi: Option<ByoYomiSpec>,
    ) -> Result<TimeControl, TimeOptionsError> {
        match (movetime, clock, byoyomi) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(TimeOptionsError::MoveTimeWithClock),
            (Some(t), None, None) if t > 0.0 => Ok(TimeControl::MoveTime(t)),
            (Some(_), None, None) => Err(TimeOptionsError::NoMoveTime),
            (None, None, None) => Ok(TimeControl::MoveTime(1.0)),
            (None, Some(c), None) if c.main + c.increment > 0.0 => {
                Ok(TimeControl::Fischer { main: c.main, increment: c.increment })
            }
            (None, Some(_), None) => Err(TimeOptionsError::NoClockTime),
            (None, Some(c), Some(_)) if c.increment > 0.0 => Err(TimeOptionsError::ByoYomiWithIncrement),
            (None, c, Some(b)) => {
                Ok(TimeControl::Canadian { main: c.map_or(0.0, |c| c.main), period: b.period, stones: b.stones })
            }
        }
    }

    /// This time control with every time multiplied by `factor` (time odds).
    pub fn scaled(&self, factor: f64) -> TimeControl {
        match *self {
            TimeControl::MoveTime(t) => TimeControl::MoveTime(t * factor),
            TimeControl::Fischer { main, increment } => {
                TimeControl::Fischer { main: main * factor, increment: increment * factor }
            }
            TimeControl::Canadian { main, period, stones } => {
                TimeControl::Canadian { main: main * factor, period: period * factor, stones }
            }
        }
    }

    /// The `time_settings` command announcing this time control.
    pub fn time_settings_command(&self) -> String {
        let (main, byo, stones) = match *self {
            TimeControl::MoveTime(t) => (0.0, t, 1),
            TimeControl::Fischer { main, .. } => (main, 0.0, 0),
            TimeControl::Canadian { main, period, stones } => (main, period, stones),
        };
        format!("time_settings {} {} {stones}", format_seconds(main), format_seconds(byo))
    }
}

impl fmt::Display for TimeControl {
    /// The form used in the `TimeControl` record tag: `movetime 0.5`, `clock 60+0.5`
    /// or `clock 60 byoyomi 10/5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::MoveTime(t) => write!(f, "movetime {}", format_seconds(t)),
            TimeControl::Fischer { main, increment } => {
                write!(f, "clock {}+{}", format_seconds(main), format_seconds(increment))
            }
            TimeControl::Canadian { main, period, stones } => {
                write!(f, "clock {} byoyomi {}/{stones}", format_seconds(main), format_seconds(period))
            }
        }
    }
}

/// A text that is not a time control's tag form (the text quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a time control (movetime S, clock MAIN+INC or clock MAIN byoyomi P/S)")]
pub struct ParseTimeControlError(String);

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;
    /// Reads the tag form that [`TimeControl`]'s `Display` writes.
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let bad = || ParseTimeControlError(crate::quoted(s));
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["movetime", t] => match seconds(t) {
                Ok(t) if t > 0.0 => Ok(TimeControl::MoveTime(t)),
                _ => Err(bad()),
            },
            ["clock", spec] => {
                let c: ClockSpec = spec.parse().map_err(|_| bad())?;
                Ok(TimeControl::Fischer { main: c.main, increment: c.increment })
            }
            ["clock", main, "byoyomi", byo] => {
                let main = seconds(main).map_err(|_| bad())?;
                let b: ByoYomiSpec = byo.parse().map_err(|_| bad())?;
                Ok(TimeControl::Canadian { main, period: b.period, stones: b.stones })
            }
            _ => Err(bad()),
        }
    }
}

/// A game's `TimeControl` tag: one time control for both sides, or one per side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControls {
    /// Both sides on the same time control: `movetime 1`.
    Same(TimeControl),
    /// A match with time odds: engine 1 (`--engine` given first) plays on `control`
    /// scaled by `factor`, engine 2 on `control`: `movetime 1; engine 1 x2`.
    Odds {
        /// Engine 2's time control.
        control: TimeControl,
        /// The factor of engine 1's times.
        factor: f64,
    },
    /// A tournament game between engines of different time controls:
    /// `black movetime 1; white clock 60+1`.
    PerColor {
        /// Black's time control (the engine that played Black at the start).
        black: TimeControl,
        /// White's.
        white: TimeControl,
    },
}

impl TimeControls {
    /// Whether a clock (not a fixed time per move) ran for either side: then the
    /// referee records what each side spent.
    pub fn any_clock(&self) -> bool {
        let clock = |c: &TimeControl| !matches!(c, TimeControl::MoveTime(_));
        match self {
            TimeControls::Same(c) | TimeControls::Odds { control: c, .. } => clock(c),
            TimeControls::PerColor { black, white } => clock(black) || clock(white),
        }
    }
}

impl fmt::Display for TimeControls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControls::Same(c) => write!(f, "{c}"),
            TimeControls::Odds { control, factor } => write!(f, "{control}; engine 1 x{}", format_seconds(*factor)),
            TimeControls::PerColor { black, white } => write!(f, "black {black}; white {white}"),
        }
    }
}

/// A `TimeControl` tag's text that is not one or two time controls.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseTimeControlsError {
    /// A time control of the tag is not one.
    #[error(transparent)]
    Control(#[from] ParseTimeControlError),
    /// Two parts that are neither odds nor one per colour (the text quoted).
    #[error("'{0}' is not a time control (expected '; engine 1 xFACTOR' or 'black ...; white ...')")]
    NotTwoControls(String),
}

impl FromStr for TimeControls {
    type Err = ParseTimeControlsError;
    /// Reads the tag form that [`TimeControls`]'s `Display` writes.
    fn from_str(s: &str) -> Result<TimeControls, ParseTimeControlsError> {
        let Some((first, second)) = s.split_once(';') else { return Ok(TimeControls::Same(s.parse()?)) };
        if let (Some(black), Some(white)) = (first.trim().strip_prefix("black "), second.trim().strip_prefix("white "))
        {
            return Ok(TimeControls::PerColor { black: black.parse()?, white: white.parse()? });
        }
        let factor = second.trim().strip_prefix("engine 1 x").map(seconds);
        match factor {
            Some(Ok(factor)) if factor > 0.0 => Ok(TimeControls::Odds { control: first.parse()?, factor }),
            _ => Err(ParseTimeControlsError::NotTwoControls(crate::quoted(s))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(movetime: Option<f64>, clock: Option<&str>, byo: Option<&str>) -> Result<TimeControl, TimeOptionsError> {
        TimeControl::from_options(movetime, clock.map(|c| c.parse().unwrap()), byo.map(|b| b.parse().unwrap()))
    }

    #[test]
    fn options_give_time_controls() {
        assert_eq!(tc(None, None, None), Ok(TimeControl::MoveTime(1.0)));
        assert_eq!(tc(Some(0.2), None, None), Ok(TimeControl::MoveTime(0.2)));
        assert_eq!(tc(None, Some("60+0.5"), None), Ok(TimeControl::Fischer { main: 60.0, increment: 0.5 }));
        assert_eq!(
            tc(None, Some("60"), Some("10/5")),
            Ok(TimeControl::Canadian { main: 60.0, period: 10.0, stones: 5 })
        );
        assert!(tc(Some(1.0), Some("60"), None).is_err());
        assert!(tc(None, Some("60+1"), Some("10/5")).is_err());
        assert!("x+1".parse::<ClockSpec>().is_err());
        assert!("10/0".parse::<ByoYomiSpec>().is_err());
    }

    #[test]
    fn refusals_say_what_was_wrong_with_the_text_quoted() {
        let err = |r: Result<TimeControl, TimeOptionsError>| r.unwrap_err().to_string();
        assert_eq!(err(tc(Some(1.0), Some("60"), None)), "--movetime cannot be combined with --clock or --byoyomi");
        assert_eq!(err(tc(Some(0.0), None, None)), "--movetime must be positive");
        assert_eq!(err(tc(None, Some("0+0"), None)), "--clock needs main time or an increment");
        assert_eq!(
            err(tc(None, Some("60+1"), Some("10/5"))),
            "--byoyomi cannot be combined with an increment in --clock"
        );
        assert_eq!(
            parse_seconds("-1\n").unwrap_err().to_string(),
            "'-1\\n' is not a number of seconds from 0 to 1000000"
        );
        assert_eq!(
            "60+x".parse::<ClockSpec>().unwrap_err().to_string(),
            "'x' is not a number of seconds from 0 to 1000000"
        );
        assert_eq!(
            "10".parse::<ByoYomiSpec>().unwrap_err().to_string(),
            "expected PERIOD/STONES such as 10/5, not '10'"
        );
        assert_eq!(
            "0/5".parse::<ByoYomiSpec>().unwrap_err().to_string(),
            "a byo-yomi period needs time and at least one stone: '0/5'"
        );
        assert_eq!(
            "clock".parse::<TimeControls>().unwrap_err().to_string(),
            "'clock' is not a time control (movetime S, clock MAIN+INC or clock MAIN byoyomi P/S)"
        );
        assert_eq!(
            "movetime 1; x2".parse::<TimeControls>().unwrap_err().to_string(),
            "'movetime 1; x2' is not a time control (expected '; engine 1 xFACTOR' or 'black ...; white ...')"
        );
    }

    #[test]
    fn time_settings_and_tags() {
        let canadian = TimeControl::Canadian { main: 60.0, period: 10.0, stones: 5 };
        assert_eq!(canadian.time_settings_command(), "time_settings 60 10 5");
        assert_eq!(canadian.to_string(), "clock 60 byoyomi 10/5");
        assert_eq!(TimeControl::MoveTime(0.25).time_settings_command(), "time_settings 0 0.25 1");
        let fischer = TimeControl::Fischer { main: 1.5, increment: 0.1 };
        assert_eq!(fischer.time_settings_command(), "time_settings 1.5 0 0");
        assert_eq!(fischer.to_string(), "clock 1.5+0.1");
    }

    #[test]
    fn tag_texts_read_back_as_written() {
        for text in [
            "movetime 1",
            "movetime 0.25",
            "clock 60+0.5",
            "clock 0+1",
            "clock 60 byoyomi 10/5",
            "movetime 1; engine 1 x2",
            "clock 1.5+0.1; engine 1 x0.5",
            "black movetime 1; white clock 10+0.1",
        ] {
            let controls: TimeControls = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(controls.to_string(), text);
        }
        for bad in ["", "movetime", "movetime 0", "movetime x", "clock", "clock 1 byoyomi 1/0", "movetime 1; x2"] {
            assert!(bad.parse::<TimeControls>().is_err(), "{bad}");
        }
        assert!(!"movetime 1; engine 1 x2".parse::<TimeControls>().unwrap().any_clock());
        assert!("black movetime 1; white clock 10+0".parse::<TimeControls>().unwrap().any_clock());
    }
}
