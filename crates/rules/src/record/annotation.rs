//! Per-turn annotations: an optional comment after a turn's move in the move text, as
//! cutechess writes `{+0.35/12 0.8s}` after a PGN move. Its words, in any order:
//!
//! - `54.12%/1200`: the win rate the engine that played the turn gave it (the chance that
//!   the side that played it wins, as the protocol's `analyze` reports `winrate` for the
//!   move it would play; 0% to 100%, in hundredths of a percent) and the visits (playouts)
//!   behind it;
//! - `0.832s`: the time the turn took (the referee's timing of `genmove`, to the millisecond).
//!
//! `1. d4 {0.012s} b2,f6 {0.5s} 2. d4-d6/d5 {54.12%/1200 0.832s}`. A comment of other words is
//! an ordinary comment: readers ignore it, as they ignore every comment in older records.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

// The longest turn time an annotation holds: the longest time option.
use super::time::MAX_SECONDS;

/// A win rate in hundredths of a percent, 0 to 10000 (as the protocol's `analyze`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WinRate(u16);

impl WinRate {
    /// The win rate of `hundredths` hundredths of a percent; `None` above 10000.
    pub fn from_hundredths(hundredths: u16) -> Option<WinRate> {
        (hundredths <= 10_000).then_some(WinRate(hundredths))
    }

    /// In hundredths of a percent, 0 to 10000.
    pub fn hundredths(self) -> u16 {
        self.0
    }

    /// As a probability, 0.0 to 1.0.
    pub fn probability(self) -> f64 {
        f64::from(self.0) / 10_000.0
    }

    /// The same estimate from the other side's point of view.
    pub fn other_side(self) -> WinRate {
        WinRate(10_000 - self.0)
    }
}

impl fmt::Display for WinRate {
    /// `54.12%`, `50%`, `0.5%`: percent with at most two decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, part) = (self.0 / 100, self.0 % 100);
        match part {
            0 => write!(f, "{whole}%"),
            p if p % 10 == 0 => write!(f, "{whole}.{}%", p / 10),
            p => write!(f, "{whole}.{p:02}%"),
        }
    }
}

impl FromStr for WinRate {
    type Err = String;
    /// `54.12%` (at most two decimals, 0 to 100).
    fn from_str(s: &str) -> Result<WinRate, String> {
        let bad = || format!("'{s}' is not a win rate (0% to 100%, at most two decimals)");
        let number = s.strip_suffix('%').ok_or_else(bad)?;
        let (whole, part) = number.split_once('.').unwrap_or((number, ""));
        let digits = |t: &str| !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || (!part.is_empty() && (part.len() > 2 || !digits(part))) || number.ends_with('.') {
            return Err(bad());
        }
        let whole: u16 = whole.parse().map_err(|_| bad())?;
        let part: u16 = if part.is_empty() { 0 } else { format!("{part:0<2}").parse().map_err(|_| bad())? };
        whole.checked_mul(100).and_then(|w| WinRate::from_hundredths(w + part)).ok_or_else(bad)
    }
}

/// An engine's view of the turn it played: its win rate and the visits behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// The chance the engine gave the side that played the turn.
    pub winrate: WinRate,
    /// The playouts behind the estimate (0 for a turn chosen without search).
    pub visits: u64,
}

/// What a record says about one turn besides its move: each part optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Annotation {
    /// The time the turn took, to the millisecond.
    pub time: Option<Duration>,
    /// The engine's win rate and visits, when it reported them.
    pub evaluation: Option<Evaluation>,
}

impl Annotation {
    /// An annotation of the time a turn took (rounded to the millisecond).
    pub fn of_time(time: Duration) -> Annotation {
        let millis = (time.as_secs_f64() * 1000.0).round().min(MAX_SECONDS * 1000.0) as u64;
        Annotation { time: Some(Duration::from_millis(millis)), evaluation: None }
    }

    /// Whether it says nothing (then no comment is written).
    pub fn is_empty(&self) -> bool {
        self.time.is_none() && self.evaluation.is_none()
    }
}

impl fmt::Display for Annotation {
    /// The comment's words, without the braces: `54.12%/1200 0.832s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Vec::new();
        if let Some(Evaluation { winrate, visits }) = self.evaluation {
            words.push(format!("{winrate}/{visits}"));
        }
        if let Some(time) = self.time {
            let text = format!("{:.3}", time.as_millis() as f64 / 1000.0);
            words.push(format!("{}s", text.trim_end_matches('0').trim_end_matches('.')));
        }
        f.write_str(&words.join(" "))
    }
}

impl FromStr for Annotation {
    type Err = String;
    /// A comment's text as [`Annotation`]'s `Display` writes it (words in any order, each
    /// at most once); anything else is an error (an ordinary comment).
    fn from_str(s: &str) -> Result<Annotation, String> {
        let mut annotation = Annotation::default();
        for word in s.split_whitespace() {
            let bad = || format!("'{word}' is not an annotation word");
            if let Some((rate, visits)) = word.split_once('/') {
                let winrate: WinRate = rate.parse()?;
                let visits: u64 = visits.parse().map_err(|_| bad())?;
                if annotation.evaluation.replace(Evaluation { winrate, visits }).is_some() {
                    return Err("two win rates".into());
                }
            } else if let Some(seconds) = word.strip_suffix('s') {
                let ok = !seconds.is_empty()
                    && !seconds.ends_with('.')
                    && seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.');
                let seconds: f64 = if ok { seconds.parse().map_err(|_| bad())? } else { return Err(bad()) };
                if !(0.0..=MAX_SECONDS).contains(&seconds) {
                    return Err(bad());
                }
                let time = Annotation::of_time(Duration::from_secs_f64(seconds)).time;
                if std::mem::replace(&mut annotation.time, time).is_some() {
                    return Err("two times".into());
                }
            } else {
                return Err(bad());
            }
        }
        if annotation.is_empty() { Err("an empty comment".into()) } else { Ok(annotation) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_read_back_as_written() {
        for text in ["0.832s", "1s", "0s", "0.5s", "54.12%/1200 0.832s", "50%/0", "100%/7 12.3s", "0.5%/3", "0.05%/3"] {
            let annotation: Annotation = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(annotation.to_string(), text);
        }
        let reordered: Annotation = "2s 40%/10".parse().unwrap();
        assert_eq!(reordered.to_string(), "40%/10 2s");
        assert_eq!(reordered.evaluation.map(|e| e.winrate.hundredths()), Some(4000));
    }

    #[test]
    fn other_comments_are_not_annotations() {
        for text in [
            "",
            "a comment",
            "1s 2s",
            "x s",
            "s",
            "-1s",
            "1e3s",
            "101%/1",
            "50.123%/1",
            "50%",
            "50%/x",
            "50%/1 50%/1",
            "1.s",
            "50.%/1",
            "1s good",
        ] {
            assert!(text.parse::<Annotation>().is_err(), "{text}");
        }
    }

    #[test]
    fn win_rates_are_bounded_and_turn_around() {
        assert_eq!(WinRate::from_hundredths(10_001), None);
        let w = WinRate::from_hundredths(5412).unwrap();
        assert_eq!(w.other_side().hundredths(), 4588);
        assert!((w.probability() - 0.5412).abs() < 1e-12);
        assert_eq!(Annotation::of_time(Duration::from_micros(1_234_567)).to_string(), "1.235s");
    }
}
