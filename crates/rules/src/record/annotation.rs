//! Per-turn annotations: an optional comment after a turn's move in the move text, as
//! cutechess writes `{+0.35/12 0.8s}` after a PGN move. Its words, in any order:
//!
//! - `54.12%/1200`: the win rate the engine that played the turn gave it (the chance that
//!   the side that played it wins, as the protocol's `analyze` reports `winrate` for the
//!   move it would play; 0% to 100%, in hundredths of a percent) and the visits (playouts)
//!   behind it;
//! - `0.832s`: the time the turn took (the referee's timing of `genmove`, to the millisecond);
//! - `pv=d4-d6/d5;a1-a3/b2`: the engine's best line from the position before the turn (its
//!   principal variation, starting with the turn it found best), the turns joined by `;`
//!   (at most [`BestLine::MAX_TURNS`] turns of at most [`BestLine::MAX_TURN_CHARS`]
//!   characters each, of letters, digits, `-`, `/` and `,`);
//! - `steps=d4-d7:230,-:40`: the playouts of each first step at the engine's root.
//!
//! `1. d4 {0.012s} b2,f6 {0.5s} 2. d4-d6/d5 {54.12%/1200 0.832s}`. A comment of other words is
//! an ordinary comment: readers ignore it, as they ignore every comment in older records.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::Square;

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

/// A text that is not a win rate (the text quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a win rate (0% to 100%, at most two decimals)")]
pub struct ParseWinRateError(String);

impl FromStr for WinRate {
    type Err = ParseWinRateError;
    /// `54.12%` (at most two decimals, 0 to 100).
    fn from_str(s: &str) -> Result<WinRate, ParseWinRateError> {
        let bad = || ParseWinRateError(crate::quoted(s));
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

/// A first step of a turn: a shooter's move from, to, or none (`None`).
pub type FirstStep = Option<(Square, Square)>;

/// The playouts an engine's search gave each first step of a turn at its root (the
/// shooter moves, and not moving), the steps without playouts left out: what the move
/// policy is trained on. At most [`FirstSteps::MAX_ENTRIES`] steps, each once, each with
/// at least one playout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FirstSteps(Vec<(FirstStep, u64)>);

/// Entries that are not a list of first steps.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FirstStepsError {
    /// No entries.
    #[error("no first steps")]
    Empty,
    /// More than [`FirstSteps::MAX_ENTRIES`] entries (this many).
    #[error("{0} first steps, more than {max}", max = FirstSteps::MAX_ENTRIES)]
    TooMany(usize),
    /// A step (its word) without playouts.
    #[error("the first step {0} has no playouts")]
    NoPlayouts(String),
    /// A step (its word) given twice.
    #[error("the first step {0} is given twice")]
    Twice(String),
}

/// `STEP:PLAYOUTS` words that are not a list of first steps.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFirstStepsError {
    /// More than [`FirstSteps::MAX_ENTRIES`] words (read no further).
    #[error("more than {max} first steps", max = FirstSteps::MAX_ENTRIES)]
    TooMany,
    /// A word (quoted) that is not `STEP:PLAYOUTS`.
    #[error("'{0}' is not STEP:PLAYOUTS")]
    NotStep(String),
    /// The words are steps but not a list of them.
    #[error(transparent)]
    Steps(#[from] FirstStepsError),
}

impl FirstSteps {
    /// The most steps an annotation holds: a position of the game has at most 246 first
    /// steps (10x10: no move, and 7 shooters reaching at most 35 squares each).
    pub const MAX_ENTRIES: usize = 512;

    /// The steps and their playouts, in the order given; an error for none, more than
    /// [`FirstSteps::MAX_ENTRIES`], a step given twice or one without playouts.
    pub fn new(entries: Vec<(FirstStep, u64)>) -> Result<FirstSteps, FirstStepsError> {
        if entries.is_empty() {
            return Err(FirstStepsError::Empty);
        }
        if entries.len() > FirstSteps::MAX_ENTRIES {
            return Err(FirstStepsError::TooMany(entries.len()));
        }
        for (i, (step, visits)) in entries.iter().enumerate() {
            if *visits == 0 {
                return Err(FirstStepsError::NoPlayouts(step_word(*step)));
            }
            if entries[..i].iter().any(|(other, _)| other == step) {
                return Err(FirstStepsError::Twice(step_word(*step)));
            }
        }
        Ok(FirstSteps(entries))
    }

    /// Reads the entries of the protocol's `steps` line: `STEP:PLAYOUTS` words (`FROM-TO`
    /// or `-`), as [`FirstSteps::new`] checks them.
    pub fn from_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<FirstSteps, ParseFirstStepsError> {
        let mut entries = Vec::new();
        for word in words {
            if entries.len() >= FirstSteps::MAX_ENTRIES {
                return Err(ParseFirstStepsError::TooMany);
            }
            let bad = || ParseFirstStepsError::NotStep(crate::quoted(word));
            let (step, visits) = word.split_once(':').ok_or_else(bad)?;
            let step = match step {
                "-" => None,
                _ => {
                    let (from, to) = step.split_once('-').ok_or_else(bad)?;
                    Some((from.parse().map_err(|_| bad())?, to.parse().map_err(|_| bad())?))
                }
            };
            let digits = !visits.is_empty() && visits.len() <= 20 && visits.bytes().all(|b| b.is_ascii_digit());
            let visits: u64 = if digits { visits.parse().map_err(|_| bad())? } else { return Err(bad()) };
            entries.push((step, visits));
        }
        Ok(FirstSteps::new(entries)?)
    }

    /// The steps and their playouts.
    pub fn entries(&self) -> &[(FirstStep, u64)] {
        &self.0
    }

    /// The playouts of all the steps together (those through the root).
    pub fn total(&self) -> u64 {
        self.0.iter().map(|(_, v)| v).fold(0u64, |a, b| a.saturating_add(*b))
    }
}

/// A first step as records and the protocol write it: `FROM-TO`, or `-` for no move.
pub fn step_word(step: FirstStep) -> String {
    match step {
        None => "-".to_string(),
        Some((from, to)) => format!("{from}-{to}"),
    }
}

impl fmt::Display for FirstSteps {
    /// The annotation word: `steps=d4-d7:230,-:40`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("steps=")?;
        for (i, (step, visits)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{visits}", step_word(*step))?;
        }
        Ok(())
    }
}

/// An engine's best line from a position (its principal variation): turns in notation,
/// from the turn it found best. Only their spelling is checked (a record's annotation is
/// read without its position): at least one turn and at most [`BestLine::MAX_TURNS`], each
/// of 1 to [`BestLine::MAX_TURN_CHARS`] characters among ASCII letters, digits, `-`, `/`
/// and `,`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BestLine(Vec<String>);

/// Turns that are not a best line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BestLineError {
    /// No turns.
    #[error("an empty line")]
    Empty,
    /// More than [`BestLine::MAX_TURNS`] turns (this many).
    #[error("a line of {0} turns, more than {max}", max = BestLine::MAX_TURNS)]
    TooLong(usize),
    /// A turn (quoted) not spelled as one.
    #[error("'{0}' is not a turn of a line")]
    NotTurn(String),
}

impl BestLine {
    /// The most turns a line keeps.
    pub const MAX_TURNS: usize = 32;

    /// The longest turn of a line, in characters (a 10x10 setup lists 7 squares).
    pub const MAX_TURN_CHARS: usize = 40;

    /// The line of `turns`, checked; an error for none, too many, or one that is not spelled
    /// as a turn.
    pub fn new(turns: Vec<String>) -> Result<BestLine, BestLineError> {
        if turns.is_empty() {
            return Err(BestLineError::Empty);
        }
        if turns.len() > BestLine::MAX_TURNS {
            return Err(BestLineError::TooLong(turns.len()));
        }
        for turn in &turns {
            let spelled = turn.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'/' | b','));
            if turn.is_empty() || turn.len() > BestLine::MAX_TURN_CHARS || !spelled {
                return Err(BestLineError::NotTurn(crate::quoted_to(turn, 20)));
            }
        }
        Ok(BestLine(turns))
    }

    /// The first [`BestLine::MAX_TURNS`] turns of `turns` that read as turns, up to the first
    /// that does not; `None` when not even the first does (an engine's line, kept as far as
    /// it is sound).
    pub fn lenient<S: AsRef<str>>(turns: &[S]) -> Option<BestLine> {
        let kept: Vec<String> = turns
            .iter()
            .take(BestLine::MAX_TURNS)
            .map(|t| t.as_ref().to_string())
            .take_while(|t| BestLine::new(vec![t.clone()]).is_ok())
            .collect();
        BestLine::new(kept).ok()
    }

    /// The turns, the best first.
    pub fn turns(&self) -> &[String] {
        &self.0
    }
}

impl fmt::Display for BestLine {
    /// The annotation word: `pv=d4-d6/d5;a1-a3/b2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pv={}", self.0.join(";"))
    }
}

/// What a record says about one turn besides its move: each part optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Annotation {
    /// The time the turn took, to the millisecond.
    pub time: Option<Duration>,
    /// The engine's win rate and visits, when it reported them.
    pub evaluation: Option<Evaluation>,
    /// The playouts of each first step at the engine's root, when it reported them.
    pub first_steps: Option<FirstSteps>,
    /// The engine's best line from the position before the turn, when it reported one.
    pub best_line: Option<BestLine>,
}

impl Annotation {
    /// An annotation of the time a turn took (rounded to the millisecond).
    pub fn of_time(time: Duration) -> Annotation {
        let millis = (time.as_secs_f64() * 1000.0).round().min(MAX_SECONDS * 1000.0) as u64;
        Annotation { time: Some(Duration::from_millis(millis)), ..Annotation::default() }
    }

    /// Whether it says nothing (then no comment is written).
    pub fn is_empty(&self) -> bool {
        self.time.is_none() && self.evaluation.is_none() && self.first_steps.is_none() && self.best_line.is_none()
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
        if let Some(line) = &self.best_line {
            words.push(line.to_string());
        }
        if let Some(steps) = &self.first_steps {
            words.push(steps.to_string());
        }
        f.write_str(&words.join(" "))
    }
}

/// A comment that is not an annotation (then it is an ordinary comment).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseAnnotationError {
    /// A word (quoted) that is none of an annotation's.
    #[error("'{0}' is not an annotation word")]
    NotWord(String),
    /// A `steps=` word that is not a list of first steps.
    #[error(transparent)]
    FirstSteps(#[from] ParseFirstStepsError),
    /// A `pv=` word that is not a best line.
    #[error(transparent)]
    BestLine(#[from] BestLineError),
    /// A `RATE/VISITS` word whose rate is not a win rate.
    #[error(transparent)]
    WinRate(#[from] ParseWinRateError),
    /// Two `steps=` words.
    #[error("two lists of first steps")]
    TwoFirstSteps,
    /// Two `pv=` words.
    #[error("two best lines")]
    TwoBestLines,
    /// Two `RATE/VISITS` words.
    #[error("two win rates")]
    TwoWinRates,
    /// Two times.
    #[error("two times")]
    TwoTimes,
    /// No words.
    #[error("an empty comment")]
    Empty,
}

impl FromStr for Annotation {
    type Err = ParseAnnotationError;
    /// A comment's text as [`Annotation`]'s `Display` writes it (words in any order, each
    /// at most once); anything else is an error (an ordinary comment).
    fn from_str(s: &str) -> Result<Annotation, ParseAnnotationError> {
        let mut annotation = Annotation::default();
        for word in s.split_whitespace() {
            let bad = || ParseAnnotationError::NotWord(crate::quoted(word));
            if let Some(list) = word.strip_prefix("steps=") {
                let steps = FirstSteps::from_words(list.split(','))?;
                if annotation.first_steps.replace(steps).is_some() {
                    return Err(ParseAnnotationError::TwoFirstSteps);
                }
            } else if let Some(turns) = word.strip_prefix("pv=") {
                let line = BestLine::new(turns.split(';').map(str::to_string).collect())?;
                if annotation.best_line.replace(line).is_some() {
                    return Err(ParseAnnotationError::TwoBestLines);
                }
            } else if let Some((rate, visits)) = word.split_once('/') {
                let winrate: WinRate = rate.parse()?;
                let visits: u64 = visits.parse().map_err(|_| bad())?;
                if annotation.evaluation.replace(Evaluation { winrate, visits }).is_some() {
                    return Err(ParseAnnotationError::TwoWinRates);
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
                    return Err(ParseAnnotationError::TwoTimes);
                }
            } else {
                return Err(bad());
            }
        }
        if annotation.is_empty() { Err(ParseAnnotationError::Empty) } else { Ok(annotation) }
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
    fn first_steps_read_back_as_written() {
        for text in
            ["steps=d4-d7:230,-:40,c3-c1:30", "54.12%/1200 0.832s steps=-:1", "0.5s steps=j10-a1:18446744073709551615"]
        {
            let annotation: Annotation = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(annotation.to_string(), text);
        }
        let read: Annotation = "steps=D4-D7:230,-:40 1s".parse().unwrap();
        assert_eq!(read.to_string(), "1s steps=d4-d7:230,-:40", "canonical squares, the words in order");
        let steps = read.first_steps.unwrap();
        assert_eq!(steps.total(), 270);
        let d4: Square = "d4".parse().unwrap();
        assert_eq!(steps.entries()[0], (Some((d4, "d7".parse().unwrap())), 230));
        assert_eq!(steps.entries()[1], (None, 40));
    }

    #[test]
    fn first_steps_are_bounded_and_checked() {
        for text in [
            "steps=",
            "steps=-:0",
            "steps=-:1,-:2",
            "steps=d4-d7:1,d4-d7:2",
            "steps=d4:1",
            "steps=d4-k1:1",
            "steps=d4-d7:x",
            "steps=d4-d7:-1",
            "steps=d4-d7:99999999999999999999",
            "steps=d4-d7",
            "steps=-:1 steps=-:1",
            "steps=-:1,",
        ] {
            assert!(text.parse::<Annotation>().is_err(), "{text}");
        }
        let squares: Vec<Square> = (0..10).flat_map(|r| (0..10).filter_map(move |f| Square::new(f, r))).collect();
        let many: Vec<String> =
            squares.iter().flat_map(|a| squares.iter().map(move |b| format!("{a}-{b}:1"))).collect();
        let at_most = |n: usize| format!("steps={}", many[..n].join(","));
        assert!(at_most(FirstSteps::MAX_ENTRIES).parse::<Annotation>().is_ok());
        assert!(
            at_most(FirstSteps::MAX_ENTRIES + 1)
                .parse::<Annotation>()
                .unwrap_err()
                .to_string()
                .contains("more than 512")
        );
        assert!(FirstSteps::new(Vec::new()).is_err());
    }

    #[test]
    fn best_lines_read_back_as_written() {
        for text in ["pv=d4-d6/d5", "54.12%/1200 0.832s pv=d4-d6/d5;a1-a3/b2 steps=-:1", "pv=b2,f6;swap;c3/d4"] {
            let annotation: Annotation = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(annotation.to_string(), text);
        }
        let read: Annotation = "pv=d4-d6/d5;a1-a3/b2 40%/10".parse().unwrap();
        assert_eq!(read.to_string(), "40%/10 pv=d4-d6/d5;a1-a3/b2", "the words in order");
        assert_eq!(read.best_line.unwrap().turns(), ["d4-d6/d5", "a1-a3/b2"]);
    }

    #[test]
    fn best_lines_are_bounded_and_checked() {
        let long = format!("pv={}", vec!["d4"; BestLine::MAX_TURNS + 1].join(";"));
        let wide = format!("pv={}", "d".repeat(BestLine::MAX_TURN_CHARS + 1));
        for text in ["pv=", "pv=d4;", "pv=;d4", "pv=d4;;d5", "pv=d4}", "pv=d4 pv=d5", "pv=d4%", &long, &wide] {
            assert!(text.parse::<Annotation>().is_err(), "{text}");
        }
        let most = format!("pv={}", vec!["d4"; BestLine::MAX_TURNS].join(";"));
        assert!(most.parse::<Annotation>().is_ok());
        let kept = BestLine::lenient(&["d4-d6/d5", "a1", "bad move", "c3"]).unwrap();
        assert_eq!(kept.turns(), ["d4-d6/d5", "a1"], "kept up to the first turn that is not one");
        assert_eq!(BestLine::lenient(&["?"]), None);
        assert_eq!(BestLine::lenient(&vec!["d4"; 50]).unwrap().turns().len(), BestLine::MAX_TURNS);
    }

    #[test]
    fn refusals_name_the_word_at_fault() {
        let err = |text: &str| text.parse::<Annotation>().unwrap_err().to_string();
        assert_eq!(err("good"), "'good' is not an annotation word");
        assert_eq!(err("101%/1"), "'101%' is not a win rate (0% to 100%, at most two decimals)");
        assert_eq!(err("steps=d4"), "'d4' is not STEP:PLAYOUTS");
        assert_eq!(err("steps=-:0"), "the first step - has no playouts");
        assert_eq!(err("steps=d4-d7:1,d4-d7:2"), "the first step d4-d7 is given twice");
        assert_eq!(err("pv=d4%"), "'d4%' is not a turn of a line");
        assert_eq!(err("pv=d4 pv=d5"), "two best lines");
        assert_eq!(err("steps=-:1 steps=-:1"), "two lists of first steps");
        assert_eq!(err("1%/1 2%/1"), "two win rates");
        assert_eq!(err("1s 2s"), "two times");
        assert_eq!(err(" "), "an empty comment");
        assert_eq!(FirstSteps::new(Vec::new()).unwrap_err().to_string(), "no first steps");
        assert_eq!(FirstSteps::new(vec![(None, 1); 513]).unwrap_err().to_string(), "513 first steps, more than 512");
        let long = format!("pv={}", vec!["d4"; 33].join(";"));
        assert_eq!(err(&long), "a line of 33 turns, more than 32");
        assert_eq!(err("pv="), "'' is not a turn of a line");
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
