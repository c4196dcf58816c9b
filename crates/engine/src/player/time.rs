//! Time management: how long to think for one move under the [`GtpClock`] in force.
//!
//! The clock is GTP's: main time, then Canadian byo-yomi (`STONES` moves in each period
//! of `BYO_YOMI` seconds), as announced by `time_settings` and `time_left`; a Fischer
//! increment, which GTP cannot announce, is learned from the `time_left` that follows one
//! of our moves ([`observe_time_left`]). The search itself knows nothing of clocks: it
//! gets a plain time limit from [`budget`].
//!
//! Main time is spread over the turns the game will still last for us, estimated from
//! the position ([`crate::player::length`]: the claims still needed and the room of the
//! unclaimed shooters), plus a reserve for games that run longer than the estimate.

use std::time::Duration;

use crate::player::length;
use crate::player::{GtpClock, TimeLeft};
use veletas_rules::{Color, Position};

/// The longest a single move may think, whatever the clock says (one day).
pub const MAX_THINKING: Duration = Duration::from_secs(86_400);

/// How to spend time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePolicy {
    /// Kept back on every move for the process, pipe and controller overhead.
    pub safety_margin: Duration,
    /// The margin is at most this fraction of the planned time (so on moves planned
    /// under `safety_margin / margin_fraction` it is this fraction).
    pub margin_fraction: f64,
    /// In main time, never plan to use more than this fraction of the time there is (a
    /// byo-yomi period comes back after its stones, so it is planned in full, less the
    /// margin).
    pub max_fraction: f64,
}

impl Default for TimePolicy {
    fn default() -> TimePolicy {
        TimePolicy { safety_margin: Duration::from_millis(80), margin_fraction: MARGIN_FRACTION, max_fraction: 0.9 }
    }
}

/// The share of a move's planned time kept back when that is less than the safety
/// margin (moves planned under 0.8 s). The overhead of a reply is
/// a fraction of a millisecond (the time from the command to the reply, less the search's
/// limit: 0.2 ms at 0.1 s a move), so a tenth of 0.1 s is ample and leaves 90 ms to think;
/// v0.1.0 kept a quarter of 90% of the period back, thinking for 68 ms of 100.
pub const MARGIN_FRACTION: f64 = 0.1;

/// Turns added to the estimate of the game's length when spreading main time: a reserve
/// for games longer than the mean (the 90th percentile of the turns still played is
/// about twice the mean from the middle game on; `crates/engine/examples/game_lengths.rs`).
pub const RESERVE_TURNS: f64 = 1.0;

/// On a clock with an increment, main time is spent only down to a bank of this many
/// increments (at most [`BANK_MAIN_FRACTION`] of the main time); below it a move spends
/// the increment alone, less the margin, so the bank refills. A short stall of the machine
/// near the end of a game (a `2+0.1` clock otherwise runs down to about one increment)
/// then costs thinking time, not the game.
pub const BANK_INCREMENTS: f64 = 2.0;

/// The bank is at most this share of the main time (a tenth: 0.2 s of a `2+0.1` clock).
pub const BANK_MAIN_FRACTION: f64 = 0.1;

/// The turns to spread main time over: the mean of our turns still to come, this one
/// included ([`length::expected_turns`]), plus [`RESERVE_TURNS`].
pub fn moves_to_go(position: &Position) -> f64 {
    length::expected_turns(position) + RESERVE_TURNS
}

/// The byo-yomi time per move (0 without byo-yomi).
fn per_stone(clock: &GtpClock) -> f64 {
    if clock.byo_yomi > 0.0 && clock.byo_yomi_stones > 0 {
        clock.byo_yomi / f64::from(clock.byo_yomi_stones)
    } else {
        0.0
    }
}

/// What `color` has left: the last `time_left`, or the start of the time control.
pub fn time_left(clock: &GtpClock, color: Color) -> TimeLeft {
    match clock.time_left(color) {
        Some(left) => left,
        None if clock.main_time > 0.0 => TimeLeft { seconds: clock.main_time, stones: 0 },
        None => TimeLeft { seconds: clock.byo_yomi, stones: clock.byo_yomi_stones },
    }
}

/// How long `color` may think for this move under `clock`, expecting `moves_to_go` more
/// moves of its own, this one included; `None` when the clock sets no limit (no
/// `time_settings`, or GTP's "no limit" form: byo-yomi time with 0 stones).
///
/// - In byo-yomi (`time_left` with stones > 0): the period's time left shared by its stones
///   (all of it for the period's last stone: the next period starts afresh).
/// - In main time: the time left spread over `moves_to_go` (at least 1), plus the
///   increment seen so far (it comes back after the move), but at least the byo-yomi
///   share of a move when a period follows (the time over the main time counts against
///   the period, whose first stone this move then is). With an increment, a bank
///   ([`BANK_INCREMENTS`]) is left out of the time spread.
/// - In main time never more than `max_fraction` of what there is; always `safety_margin`
///   less (on tiny clocks `margin_fraction` of the planned time instead).
pub fn budget(clock: &GtpClock, color: Color, moves_to_go: f64, policy: &TimePolicy) -> Option<Duration> {
    if clock.is_unlimited() {
        return None;
    }
    let left = time_left(clock, color);
    let seconds = left.seconds.max(0.0);
    let planned = if left.stones > 0 {
        seconds / f64::from(left.stones)
    } else {
        let share = per_stone(clock);
        let increment = if clock.increment.is_finite() { clock.increment.max(0.0) } else { 0.0 };
        let turns = if moves_to_go.is_finite() { moves_to_go.max(1.0) } else { 1.0 };
        let main_time = if clock.main_time.is_finite() { clock.main_time.max(0.0) } else { 0.0 };
        let bank = (BANK_INCREMENTS * increment).min(BANK_MAIN_FRACTION * main_time);
        let target = ((seconds - bank).max(0.0) / turns + increment).max(share);
        target.min((seconds + share) * policy.max_fraction)
    };
    let margin = policy.safety_margin.as_secs_f64().min(planned * policy.margin_fraction);
    let thinking = (planned - margin).clamp(0.0, MAX_THINKING.as_secs_f64());
    Some(Duration::try_from_secs_f64(thinking).unwrap_or(Duration::ZERO))
}

/// The clock after `color` spent `seconds` on a move, as a controller that sends no
/// `time_left` would run it: main time first, then byo-yomi periods (a move that runs
/// over the main time is the period's first stone; a period that is done starts anew).
/// A later `time_left` replaces this estimate.
pub fn charge(clock: &mut GtpClock, color: Color, seconds: f64) {
    if clock.is_unlimited() {
        return;
    }
    let left = time_left(clock, color);
    let byo_yomi = clock.byo_yomi > 0.0 && clock.byo_yomi_stones > 0;
    let rest = left.seconds - seconds;
    let next = if left.stones == 0 {
        if rest > 0.0 || !byo_yomi {
            TimeLeft { seconds: rest.max(0.0), stones: 0 }
        } else if clock.byo_yomi_stones == 1 {
            TimeLeft { seconds: clock.byo_yomi, stones: 1 }
        } else {
            TimeLeft { seconds: (clock.byo_yomi + rest).max(0.0), stones: clock.byo_yomi_stones - 1 }
        }
    } else if left.stones == 1 && byo_yomi {
        TimeLeft { seconds: clock.byo_yomi, stones: clock.byo_yomi_stones }
    } else {
        TimeLeft { seconds: rest.max(0.0), stones: left.stones.saturating_sub(1) }
    };
    if let Some(slot) = clock.left.get_mut(color.index()) {
        *slot = Some(next);
    }
    if let Some(slot) = clock.charged.get_mut(color.index()) {
        *slot = (!byo_yomi && next.stones == 0).then_some(next.seconds);
    }
}

/// Takes `time_left` for `color`. When it follows one of our moves on a main-time clock
/// without byo-yomi, what it gives beyond our own account of that clock ([`charge`]) is
/// the increment (less the controller's overhead, so a little on the safe side); it is
/// remembered in `clock.increment` until the next such `time_left`.
pub fn observe_time_left(clock: &mut GtpClock, color: Color, left: TimeLeft) {
    let Some(charged) = clock.charged.get_mut(color.index()) else { return };
    if let Some(ours) = charged.take()
        && left.stones == 0
        && left.seconds.is_finite()
    {
        clock.increment = (left.seconds - ours).max(0.0);
    }
    if let Some(slot) = clock.left.get_mut(color.index()) {
        *slot = Some(left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(main_time: f64, byo_yomi: f64, byo_yomi_stones: u32) -> GtpClock {
        GtpClock { main_time, byo_yomi, byo_yomi_stones, ..GtpClock::default() }
    }

    fn secs(d: Option<Duration>) -> f64 {
        d.expect("a limit").as_secs_f64()
    }

    const P: TimePolicy =
        TimePolicy { safety_margin: Duration::from_millis(80), margin_fraction: 0.1, max_fraction: 0.9 };

    #[test]
    fn main_time_is_spread_over_the_expected_moves() {
        let b = secs(budget(&clock(100.0, 0.0, 0), Color::Black, 25.0, &P));
        assert!((b - (4.0 - 0.08)).abs() < 1e-9, "{b}");
        // Fewer moves to go: more per move, never more than 90% of what is left.
        let b = secs(budget(&clock(100.0, 0.0, 0), Color::Black, 1.0, &P));
        assert!((b - (90.0 - 0.08)).abs() < 1e-9, "{b}");
    }

    #[test]
    fn byo_yomi_shares_the_period_between_its_stones() {
        let mut c = clock(0.0, 10.0, 5);
        let b = secs(budget(&c, Color::White, 25.0, &P));
        assert!((b - (2.0 - 0.08)).abs() < 1e-9, "{b}");
        c.left[Color::White.index()] = Some(TimeLeft { seconds: 3.0, stones: 2 });
        let b = secs(budget(&c, Color::White, 25.0, &P));
        assert!((b - (1.5 - 0.08)).abs() < 1e-9, "{b}");
    }

    #[test]
    fn one_second_per_move_keeps_the_margin() {
        // time_settings 0 1 1: a 1 s period for each move, which comes back after it, so
        // all of it less the margin.
        let b = budget(&clock(0.0, 1.0, 1), Color::Black, 25.0, &P).unwrap();
        assert!((b.as_secs_f64() - (1.0 - 0.08)).abs() < 1e-9, "{b:?}");
    }

    #[test]
    fn the_default_policy_thinks_nine_tenths_of_a_short_period() {
        // time_settings 0 0.1 1 (what `veletas match --movetime 0.1` sends): 90 ms of 100.
        let b = secs(budget(&clock(0.0, 0.1, 1), Color::Black, 25.0, &TimePolicy::default()));
        assert!((b - 0.09).abs() < 1e-9, "{b}");
    }

    #[test]
    fn main_time_running_out_falls_back_on_the_byo_yomi_share() {
        let mut c = clock(60.0, 5.0, 1);
        c.left[0] = Some(TimeLeft { seconds: 0.5, stones: 0 });
        let b = secs(budget(&c, Color::Black, 25.0, &P));
        // At least the period's share (5 s), at most 90% of 0.5 + 5 s, less the margin.
        assert!((b - (4.95 - 0.08)).abs() < 1e-9, "{b}");
    }

    #[test]
    fn tiny_clocks_keep_a_fraction_instead() {
        let mut c = clock(10.0, 0.0, 0);
        c.left[0] = Some(TimeLeft { seconds: 0.05, stones: 0 });
        let b = secs(budget(&c, Color::Black, 25.0, &P));
        assert!(b > 0.0 && b <= 0.002 * 0.9 + 1e-12, "{b}");
        let b = secs(budget(&clock(0.0, 0.1, 1), Color::Black, 25.0, &P));
        assert!((b - 0.1 * 0.9).abs() < 1e-9, "{b}");
        // Nothing left at all: think for no time (the search still does a minimum).
        c.left[0] = Some(TimeLeft { seconds: 0.0, stones: 0 });
        assert_eq!(budget(&c, Color::Black, 25.0, &P), Some(Duration::ZERO));
    }

    #[test]
    fn no_limit_forms_give_no_budget() {
        assert_eq!(budget(&GtpClock::default(), Color::Black, 25.0, &P), None);
        assert_eq!(budget(&clock(0.0, 5.0, 0), Color::Black, 25.0, &P), None);
        assert_eq!(budget(&clock(300.0, 0.5, 0), Color::White, 25.0, &P), None);
    }

    #[test]
    fn huge_clocks_are_capped() {
        let b = budget(&clock(1e300, 0.0, 0), Color::Black, 25.0, &P).unwrap();
        assert_eq!(b, MAX_THINKING);
    }

    #[test]
    fn charging_follows_main_time_then_periods() {
        let mut c = clock(10.0, 3.0, 2);
        charge(&mut c, Color::Black, 4.0);
        assert_eq!(c.time_left(Color::Black), Some(TimeLeft { seconds: 6.0, stones: 0 }));
        charge(&mut c, Color::Black, 7.0);
        assert_eq!(c.time_left(Color::Black), Some(TimeLeft { seconds: 2.0, stones: 1 }));
        charge(&mut c, Color::Black, 1.5);
        assert_eq!(c.time_left(Color::Black), Some(TimeLeft { seconds: 3.0, stones: 2 }));
        charge(&mut c, Color::Black, 1.0);
        assert_eq!(c.time_left(Color::Black), Some(TimeLeft { seconds: 2.0, stones: 1 }));
        assert_eq!(c.time_left(Color::White), None);
        let mut sudden = clock(1.0, 0.0, 0);
        charge(&mut sudden, Color::White, 2.0);
        assert_eq!(sudden.time_left(Color::White), Some(TimeLeft { seconds: 0.0, stones: 0 }));
        let mut none = GtpClock::default();
        charge(&mut none, Color::White, 2.0);
        assert_eq!(none, GtpClock::default());
    }
}

#[cfg(test)]
mod allocation_tests {
    use super::*;
    use veletas_rules::Move;

    const P: TimePolicy =
        TimePolicy { safety_margin: Duration::from_millis(80), margin_fraction: 0.1, max_fraction: 0.9 };

    fn sudden_death(main_time: f64, left: f64, increment: f64) -> GtpClock {
        let mut clock = GtpClock { main_time, increment, ..GtpClock::default() };
        clock.left[Color::Black.index()] = Some(TimeLeft { seconds: left, stones: 0 });
        clock
    }

    #[test]
    fn never_more_than_the_time_left_less_a_margin() {
        for left in [0.0, 0.001, 0.05, 0.1, 0.3, 1.0, 2.0, 10.0, 100.0] {
            for increment in [0.0, 0.1, 1.0, 5.0] {
                for turns in [0.0, 0.5, 1.0, 2.0, 7.5, 30.0, f64::NAN, f64::INFINITY] {
                    let b = budget(&sudden_death(10.0, left, increment), Color::Black, turns, &P).unwrap();
                    let b = b.as_secs_f64();
                    // At most 90% of what is left, less the safety margin (or a tenth
                    // of it on tiny clocks): a move never runs the clock out.
                    let planned = left * P.max_fraction;
                    let margin = P.safety_margin.as_secs_f64().min(planned * P.margin_fraction);
                    assert!(b <= planned - margin + 1e-9, "left {left} inc {increment} turns {turns}: {b}");
                    assert!(b >= 0.0);
                }
            }
        }
    }

    #[test]
    fn the_increment_is_spent_on_top_of_the_share_of_main_time() {
        // 5 s a move, so the margin is the whole 80 ms with the increment or without.
        let without = budget(&sudden_death(100.0, 100.0, 0.0), Color::Black, 20.0, &P).unwrap().as_secs_f64();
        let with = budget(&sudden_death(100.0, 100.0, 0.1), Color::Black, 20.0, &P).unwrap().as_secs_f64();
        // Less the bank of two increments left out of the 20 turns' share.
        assert!((with - without - (0.1 - 0.2 / 20.0)).abs() < 1e-9, "{without} {with}");
        // A nonsensical increment counts as none.
        let nan = budget(&sudden_death(100.0, 100.0, f64::NAN), Color::Black, 20.0, &P).unwrap().as_secs_f64();
        assert!((nan - without).abs() < 1e-12);
    }

    #[test]
    fn an_increment_clock_keeps_a_bank_of_two_increments() {
        // 2+0.1: the bank is 0.2 s (two increments, a tenth of the main time).
        let at = |left: f64| budget(&sudden_death(2.0, left, 0.1), Color::Black, 3.0, &P).unwrap().as_secs_f64();
        // Above the bank, only what is over it is spread: (1.2 - 0.2) / 3 + 0.1, less a tenth.
        assert!((at(1.2) - (1.0 / 3.0 + 0.1) * 0.9).abs() < 1e-9, "{}", at(1.2));
        // At the bank or under it, the increment alone, less its tenth: the bank refills.
        assert!((at(0.2) - 0.09).abs() < 1e-9, "{}", at(0.2));
        assert!((at(0.15) - 0.09).abs() < 1e-9, "{}", at(0.15));
        // A long main time's bank is two increments, not a tenth of it.
        let b = budget(&sudden_death(600.0, 10.0, 1.0), Color::Black, 4.0, &P).unwrap().as_secs_f64();
        assert!((b - (8.0 / 4.0 + 1.0 - 0.08)).abs() < 1e-9, "{b}");
        // Without an increment there is no bank: sudden death spends all it has.
        let b = budget(&sudden_death(10.0, 1.0, 0.0), Color::Black, 2.0, &P).unwrap().as_secs_f64();
        assert!((b - 0.45).abs() < 1e-9, "{b}");
    }

    #[test]
    fn fewer_turns_to_go_give_more_time_per_move() {
        let mut last = 0.0;
        for turns in [40.0, 20.0, 10.0, 5.0, 2.0, 1.0] {
            let b = budget(&sudden_death(10.0, 10.0, 0.0), Color::Black, turns, &P).unwrap().as_secs_f64();
            assert!(b > last, "{turns}: {b}");
            last = b;
        }
    }

    #[test]
    fn the_increment_is_learned_from_the_time_left_after_our_move() {
        let mut clock = GtpClock { main_time: 2.0, ..GtpClock::default() };
        // A time_left before any move of ours teaches nothing.
        observe_time_left(&mut clock, Color::White, TimeLeft { seconds: 2.0, stones: 0 });
        assert_eq!(clock.increment, 0.0);
        charge(&mut clock, Color::White, 0.3);
        assert_eq!(clock.charged[Color::White.index()], Some(1.7));
        // The controller gives 1.79: 0.1 of increment less 0.01 of its own overhead.
        observe_time_left(&mut clock, Color::White, TimeLeft { seconds: 1.79, stones: 0 });
        assert!((clock.increment - 0.09).abs() < 1e-9, "{}", clock.increment);
        assert_eq!(clock.time_left(Color::White), Some(TimeLeft { seconds: 1.79, stones: 0 }));
        assert_eq!(clock.charged, [None, None]);
        // Only once per move: a second time_left changes nothing.
        observe_time_left(&mut clock, Color::White, TimeLeft { seconds: 5.0, stones: 0 });
        assert!((clock.increment - 0.09).abs() < 1e-9);
        // No increment (the controller's overhead only): 0, never negative.
        charge(&mut clock, Color::White, 1.0);
        observe_time_left(&mut clock, Color::White, TimeLeft { seconds: 3.98, stones: 0 });
        assert_eq!(clock.increment, 0.0);
    }

    #[test]
    fn byo_yomi_clocks_learn_no_increment() {
        let mut clock = GtpClock { main_time: 10.0, byo_yomi: 5.0, byo_yomi_stones: 2, ..GtpClock::default() };
        charge(&mut clock, Color::Black, 1.0);
        assert_eq!(clock.charged, [None, None]);
        observe_time_left(&mut clock, Color::Black, TimeLeft { seconds: 9.5, stones: 0 });
        assert_eq!(clock.increment, 0.0);
    }

    /// Plays the clock along a recorded 10x10 game (its play-phase positions), Black
    /// thinking exactly its budget plus `overhead` on each move, the controller adding
    /// `increment` after each; the share of the clock used and the least time left.
    fn replay_clock(main: f64, increment: f64, overhead: f64) -> (f64, f64) {
        let record = &veletas_rules::record::parse_records(GAME).expect("the game parses")[0];
        let game = record.replay(None).expect("the game replays");
        let mut pos = game.start().clone();
        let mut clock = GtpClock { main_time: main, ..GtpClock::default() };
        let (mut used, mut given, mut least) = (0.0, main, main);
        for mv in game.moves().collect::<Vec<Move>>() {
            if pos.phase() == veletas_rules::Phase::Play && pos.side_to_move() == Color::Black {
                let think = budget(&clock, Color::Black, moves_to_go(&pos), &P).unwrap().as_secs_f64();
                let spent = think + overhead;
                let left = time_left(&clock, Color::Black).seconds;
                assert!(spent < left + 0.1, "out of time: {spent} of {left}");
                charge(&mut clock, Color::Black, think);
                let after = left - spent + increment;
                observe_time_left(&mut clock, Color::Black, TimeLeft { seconds: after, stones: 0 });
                used += spent;
                given += increment;
                least = f64::min(least, after);
            }
            pos.play_unchecked(mv);
        }
        (used / given, least)
    }

    /// The first game of the 10x10 self-play records (/work/selfplay/sp10.txt).
    const GAME: &str = "[Size \"10\"]\n\n1. e9,g10,h7 c8,d5,e2,i10 2. h10 g10-a10/b10 3. c8-h8/h9 e2-a2/a9 4. i9 b9 5. a3 \
        c5 6. i7 a1 7. b3 a2-b2/a2 8. i8 b1 9. b2-c3/g7 h8-b8/e8 10. d5-d3/d4 c9 11. b8-b4/c4 d3-d1/c1 \
        12. c3-b2/c3 b2-e2/d2 13. d1-c2/d3 d1 14. b2 b4-b6/c6 15. e3 e9-d10/d9 16. f3 h7-e10/e9 \
        17. e10-g10/f10 g10-g8/f8 18. g8-g10/g8 g10-f9/g10 19. f9-g9/f9 d10-c10/d10 20. h8 b6-a5/b5 \
        21. a5-b4/a5 b4-a4/b4 22. e2-h2/h1 c7 23. g1 d6 24. i1 h6 25. g2 f4 26. h2-i2/j1 j3 27. h2 \
        i2-d7/e7 28. d7-g4/g3 g5 29. h4 d7 30. i10-j10/j9 j10-i10/j10 B+\n";

    #[test]
    fn a_sudden_death_clock_is_spent_without_running_out() {
        let (share, least) = replay_clock(10.0, 0.0, 0.01);
        assert!(share > 0.6, "{share}");
        assert!(least > 0.0, "{least}");
    }

    #[test]
    fn an_increment_clock_is_spent_without_running_out() {
        let (share, least) = replay_clock(2.0, 0.1, 0.01);
        assert!(share > 0.6, "{share}");
        assert!(least > 0.0, "{least}");
    }
}
