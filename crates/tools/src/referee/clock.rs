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

use std::time::Duration;

pub use veletas_rules::record::time::{ByoYomiSpec, ClockSpec, TimeControl, format_seconds, parse_seconds};

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
    pub fn spend(&mut self, elapsed: f64, margin: f64) -> Result<(), Overtime> {
        let allowed = self.allowed();
        if elapsed > allowed + margin {
            return Err(Overtime { elapsed, allowed, margin });
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

/// A move that took longer than its clock allowed ([`Clock::spend`]): the flag fell.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("the move took {elapsed:.3} s with {} s left (margin {} s)", format_seconds(*.allowed), format_seconds(*.margin))]
pub struct Overtime {
    /// The seconds the move took.
    elapsed: f64,
    /// The seconds it was allowed.
    allowed: f64,
    /// The margin past them.
    margin: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

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
