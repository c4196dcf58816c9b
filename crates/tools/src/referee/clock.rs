//! Time controls and the players' clocks.
//!
//! Three time controls exist, each told to engines with GTP's `time_settings` once per
//! game and `time_left` before every `genmove`:
//!
//! | time control | command line | `time_settings` | `time_left COLOR T S` |
//! |---|---|---|---|
//! | fixed time per move | `--movetime 0.5` | `0 0.5 1` | `0.5 1` |
//! | main time + increment (Fischer) | `--clock 60+0.5` | `60 0 0` (absolute) | remaining main time, `0` |
//! | main time + Canadian byo-yomi | `--clock 60 --byoyomi 10/5` | `60 10 5` | main time left and `0`, then period time left and stones left |
//!
//! GTP has no increment, so a Fischer clock is announced as absolute time and the
//! increments show up in the `time_left` sent before each move. The clock runs from
//! sending `genmove` to receiving the complete reply; a move that takes longer than the
//! time left plus the margin loses.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

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

fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds from 0 to {MAX_SECONDS}")),
    }
}

/// Parses a non-negative number of seconds (for `--movetime`, `--margin`).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    seconds(text)
}

impl FromStr for ClockSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<ClockSpec, String> {
        let (main, increment) = match s.split_once('+') {
            Some((main, inc)) => (seconds(main)?, seconds(inc)?),
            None => (seconds(s)?, 0.0),
        };
        Ok(ClockSpec { main, increment })
    }
}

impl FromStr for ByoYomiSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<ByoYomiSpec, String> {
        let err = || format!("expected PERIOD/STONES such as 10/5, not '{s}'");
        let (period, stones) = s.split_once('/').ok_or_else(err)?;
        let period = seconds(period)?;
        let stones: u32 = stones.trim().parse().map_err(|_| err())?;
        if period <= 0.0 || stones == 0 {
            return Err(format!("a byo-yomi period needs time and at least one stone: '{s}'"));
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

impl TimeControl {
    /// The time control from the command-line options; `None` of all gives 1 s per move.
    pub fn from_options(
        movetime: Option<f64>,
        clock: Option<ClockSpec>,
        byoyomi: Option<ByoYomiSpec>,
    ) -> Result<TimeControl, String> {
        match (movetime, clock, byoyomi) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                Err("--movetime cannot be combined with --clock or --byoyomi".into())
            }
            (Some(t), None, None) if t > 0.0 => Ok(TimeControl::MoveTime(t)),
            (Some(_), None, None) => Err("--movetime must be positive".into()),
            (None, None, None) => Ok(TimeControl::MoveTime(1.0)),
            (None, Some(c), None) if c.main + c.increment > 0.0 => {
                Ok(TimeControl::Fischer { main: c.main, increment: c.increment })
            }
            (None, Some(_), None) => Err("--clock needs main time or an increment".into()),
            (None, Some(c), Some(_)) if c.increment > 0.0 => {
                Err("--byoyomi cannot be combined with an increment in --clock".into())
            }
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

/// One player's clock during a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    /// Main time left (Fischer, Canadian), seconds.
    main_left: f64,
    /// Whether a Canadian clock is in byo-yomi.
    in_byoyomi: bool,
    /// Time left in the current period, seconds.
    period_left: f64,
    /// Moves left to play in the current period.
    stones_left: u32,
}

impl Clock {
    /// A full clock for `control`.
    pub fn new(control: TimeControl) -> Clock {
        let (main_left, in_byoyomi, period_left, stones_left) = match control {
            TimeControl::MoveTime(_) => (0.0, false, 0.0, 0),
            TimeControl::Fischer { main, .. } => (main, false, 0.0, 0),
            TimeControl::Canadian { main, period, stones } => (main, main <= 0.0, period, stones),
        };
        Clock { control, main_left, in_byoyomi, period_left, stones_left }
    }

    /// The seconds the next move may take before the flag falls (margin not included).
    pub fn allowed(&self) -> f64 {
        match self.control {
            TimeControl::MoveTime(t) => t,
            TimeControl::Fischer { .. } => self.main_left,
            TimeControl::Canadian { period, .. } if !self.in_byoyomi => self.main_left + period,
            TimeControl::Canadian { .. } => self.period_left,
        }
    }

    /// The read deadline for the next move: the allowed time plus `margin`.
    pub fn deadline(&self, margin: f64) -> Duration {
        Duration::from_secs_f64((self.allowed() + margin).clamp(0.0, 1e9))
    }

    /// The arguments of `time_left COLOR TIME STONES` for the next move.
    pub fn time_left(&self) -> (f64, u32) {
        match self.control {
            TimeControl::MoveTime(t) => (t, 1),
            TimeControl::Fischer { .. } => (self.main_left, 0),
            TimeControl::Canadian { .. } if !self.in_byoyomi => (self.main_left, 0),
            TimeControl::Canadian { .. } => (self.period_left, self.stones_left),
        }
    }

    /// Charges a move that took `elapsed` seconds. Fails (the flag fell) when it took
    /// longer than the time left plus `margin`.
    pub fn spend(&mut self, elapsed: f64, margin: f64) -> Result<(), String> {
        let allowed = self.allowed();
        if elapsed > allowed + margin {
            return Err(format!(
                "the move took {elapsed:.3} s with {} s left (margin {} s)",
                format_seconds(allowed),
                format_seconds(margin)
            ));
        }
        match self.control {
            TimeControl::MoveTime(_) => {}
            TimeControl::Fischer { increment, .. } => self.main_left = (self.main_left - elapsed).max(0.0) + increment,
            TimeControl::Canadian { period, stones, .. } => {
                let mut used = elapsed;
                if !self.in_byoyomi {
                    if used <= self.main_left {
                        self.main_left -= used;
                        return Ok(());
                    }
                    used -= self.main_left;
                    self.main_left = 0.0;
                    self.in_byoyomi = true;
                    self.period_left = period;
                    self.stones_left = stones;
                }
                self.period_left = (self.period_left - used).max(0.0);
                self.stones_left = self.stones_left.saturating_sub(1);
                if self.stones_left == 0 {
                    self.period_left = period;
                    self.stones_left = stones;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(movetime: Option<f64>, clock: Option<&str>, byo: Option<&str>) -> Result<TimeControl, String> {
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
    fn fischer_clock_adds_increments_and_flags() {
        let mut clock = Clock::new(TimeControl::Fischer { main: 1.0, increment: 0.5 });
        clock.spend(0.8, 0.0).unwrap();
        assert!((clock.allowed() - 0.7).abs() < 1e-9);
        assert!(clock.spend(0.75, 0.0).is_err());
        assert!(clock.spend(0.75, 0.1).is_ok());
    }

    #[test]
    fn canadian_clock_moves_into_periods() {
        let mut clock = Clock::new(TimeControl::Canadian { main: 1.0, period: 2.0, stones: 2 });
        assert_eq!(clock.allowed(), 3.0);
        clock.spend(1.5, 0.0).unwrap(); // main time gone, 0.5 s of the first period used
        assert_eq!(clock.time_left(), (1.5, 1));
        clock.spend(1.0, 0.0).unwrap(); // period complete: a fresh one
        assert_eq!(clock.time_left(), (2.0, 2));
        assert!(clock.spend(2.5, 0.0).is_err());
    }
}
