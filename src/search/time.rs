//! Time management: how long to think for a move under the clock in force.

use std::time::Duration;

/// The clock for one player, as GTP's `time_settings` and `time_left` describe it:
/// main time, then Canadian byo-yomi (`stones` moves in each `byo_yomi` period).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Main time for the game, seconds.
    pub main: f64,
    /// Length of a byo-yomi period, seconds (0: none, sudden death).
    pub byo_yomi: f64,
    /// Moves to play in each byo-yomi period (0 with `byo_yomi` > 0 means no time limit).
    pub stones: u32,
    /// Time left now, seconds: of the main time, or of the period once in byo-yomi.
    pub left: f64,
    /// Moves left in the current byo-yomi period; 0 while in main time.
    pub stones_left: u32,
}

impl Clock {
    /// A fresh clock from `time_settings`.
    pub fn new(main: f64, byo_yomi: f64, stones: u32) -> Clock {
        if main > 0.0 {
            Clock { main, byo_yomi, stones, left: main, stones_left: 0 }
        } else {
            Clock { main, byo_yomi, stones, left: byo_yomi, stones_left: stones }
        }
    }

    /// Whether the clock imposes no limit (GTP: byo-yomi time > 0 with 0 stones).
    pub fn is_unlimited(&self) -> bool {
        self.byo_yomi > 0.0 && self.stones == 0
    }

    /// Updates from `time_left` (`stones` is 0 in main time).
    pub fn update(&mut self, left: f64, stones: u32) {
        self.left = left;
        self.stones_left = stones;
    }
}

/// Settings for spending time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePolicy {
    /// Kept back on every move for the protocol and process overhead.
    pub safety_margin: Duration,
    /// Moves the main time is spread over (the game's expected remaining length).
    pub moves_to_go: u32,
}

impl Default for TimePolicy {
    fn default() -> TimePolicy {
        TimePolicy { safety_margin: Duration::from_millis(60), moves_to_go: 25 }
    }
}

/// How long to think for this move under `clock`, or `None` when the clock sets no limit.
pub fn budget(clock: &Clock, policy: &TimePolicy) -> Option<Duration> {
    if clock.is_unlimited() {
        return None;
    }
    let margin = policy.safety_margin.as_secs_f64();
    let seconds = if clock.stones_left > 0 {
        // In byo-yomi: the period's time shared by its remaining stones.
        clock.left / f64::from(clock.stones_left)
    } else {
        let per_period = if clock.stones > 0 { clock.byo_yomi / f64::from(clock.stones) } else { 0.0 };
        (clock.left / f64::from(policy.moves_to_go.max(1))).max(per_period.min(clock.left))
    };
    // Never plan to use more than 90% of what is there, and keep the margin back.
    let seconds = (seconds.min(clock.left * 0.9) - margin).max(0.005);
    Some(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_time_is_spread_over_the_expected_moves() {
        let clock = Clock::new(100.0, 0.0, 0);
        let b = budget(&clock, &TimePolicy::default()).unwrap();
        assert!(b < Duration::from_secs(5) && b > Duration::from_secs(3));
    }

    #[test]
    fn byo_yomi_shares_the_period_between_its_stones() {
        let mut clock = Clock::new(0.0, 10.0, 5);
        clock.update(10.0, 5);
        let b = budget(&clock, &TimePolicy::default()).unwrap();
        assert!(b < Duration::from_secs(2) && b > Duration::from_millis(1800));
    }

    #[test]
    fn almost_no_time_left_still_leaves_a_margin() {
        let mut clock = Clock::new(10.0, 0.0, 0);
        clock.update(0.05, 0);
        let b = budget(&clock, &TimePolicy::default()).unwrap();
        assert!(b <= Duration::from_millis(45));
    }

    #[test]
    fn byo_yomi_without_stones_means_no_limit() {
        assert_eq!(budget(&Clock::new(0.0, 5.0, 0), &TimePolicy::default()), None);
    }
}
