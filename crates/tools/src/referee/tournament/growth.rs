//! Growing a tournament: what a record file says about the schedule its games were
//! played under (the `Schedule` tag, [`Settings`]), and whether a recorded game keeps
//! its place when the tournament is resumed with other counts ([`check_place`]).
//!
//! The schedule is a pure function of the game's index, so a recorded game is kept when
//! the old schedule and the new one agree on its index: same round, same engines on each
//! colour, same encounter (hence the same opening). Raising `--rounds` appends whole
//! rounds, and raising `--games-per-pair` with one round appends blocks of encounters:
//! both keep every recorded game in place. Anything else that moves a recorded game is
//! refused, with the setting that differs, its old and new values, and why.

use std::fmt;
use std::str::FromStr;

use crate::referee::openings::OpeningBook;
use crate::referee::tournament::schedule::{Format, Schedule, ScheduledGame};

/// The settings that fix a tournament's schedule (the `Schedule` tag's value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Settings {
    pub format: Format,
    pub engines: usize,
    pub games_per_pair: usize,
    pub rounds: usize,
    /// The openings: `random seed S`, `random-setup seed S`, or `file HASH` (a hash of the
    /// file's openings and the order, start and plies read from it).
    pub openings: String,
}

impl Settings {
    /// The settings of a tournament of `engines` engines playing `book`'s openings.
    pub fn new(format: Format, engines: usize, games_per_pair: usize, rounds: usize, book: &OpeningBook) -> Settings {
        let described = book.describe();
        let openings = match described.strip_prefix("file:") {
            Some(_) => format!("file {}", super::schedule::fnv1a(&described)),
            None => described,
        };
        Settings { format, engines, games_per_pair, rounds, openings }
    }

    /// The schedule these settings make (`None` for a knockout).
    fn schedule(&self) -> Result<Option<Schedule>, String> {
        match self.format {
            Format::Knockout => Ok(None),
            format => Schedule::new(format, self.engines, self.games_per_pair, self.rounds).map(Some),
        }
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; engines {}; games-per-pair {}; rounds {}; openings {}",
            self.format, self.engines, self.games_per_pair, self.rounds, self.openings
        )
    }
}

impl FromStr for Settings {
    type Err = String;

    fn from_str(text: &str) -> Result<Settings, String> {
        let bad =
            || format!("its Schedule tag '{text}' is not FORMAT; engines N; games-per-pair N; rounds N; openings ...");
        let parts: Vec<&str> = text.split("; ").collect();
        let [format, engines, games, rounds, openings] = parts.as_slice() else { return Err(bad()) };
        let count = |part: &str, name: &str| -> Result<usize, String> {
            part.strip_prefix(name).and_then(|n| n.strip_prefix(' ')).and_then(|n| n.parse().ok()).ok_or_else(bad)
        };
        Ok(Settings {
            format: format.parse().map_err(|_| bad())?,
            engines: count(engines, "engines")?,
            games_per_pair: count(games, "games-per-pair")?,
            rounds: count(rounds, "rounds")?,
            openings: openings.strip_prefix("openings ").ok_or_else(bad)?.to_string(),
        })
    }
}

/// What differs between the settings a record was made with and this run's, as options:
/// `the record was made with --rounds 1, this run has --rounds 3` (`None` when equal).
pub(super) fn difference(old: &Settings, new: &Settings) -> Option<String> {
    let mut was = Vec::new();
    let mut now = Vec::new();
    let mut differ = |a: String, b: String| {
        if a != b {
            was.push(a);
            now.push(b);
        }
    };
    differ(format!("--format {}", old.format), format!("--format {}", new.format));
    differ(format!("{} engines", old.engines), format!("{} engines", new.engines));
    differ(format!("--games-per-pair {}", old.games_per_pair), format!("--games-per-pair {}", new.games_per_pair));
    differ(format!("--rounds {}", old.rounds), format!("--rounds {}", new.rounds));
    differ(format!("openings '{}'", old.openings), format!("openings '{}'", new.openings));
    (!was.is_empty())
        .then(|| format!("the record was made with {}, this run has {}", was.join(" and "), now.join(" and ")))
}

/// Checks that a game recorded as game `scheduled.index` under `old` is the game this
/// run's schedule (`new`) plays there: `scheduled` is that game.
pub(super) fn check_place(old: &Settings, new: &Settings, scheduled: &ScheduledGame) -> Result<(), String> {
    let Some(diff) = difference(old, new) else { return Ok(()) };
    if old.format != new.format || old.openings != new.openings {
        return Err(diff);
    }
    let old_schedule = match old.schedule() {
        Ok(Some(schedule)) => schedule,
        Ok(None) => return Err(format!("{diff}: a knockout's matches cannot grow")),
        Err(e) => return Err(format!("its Schedule tag is impossible: {e}")),
    };
    let index = scheduled.index;
    let Some(recorded) = old_schedule.game(index) else {
        return Err(format!("{diff}: game {} is not in the schedule the record names", scheduled.id));
    };
    if (recorded.round, recorded.black, recorded.white, recorded.encounter)
        == (scheduled.round, scheduled.black, scheduled.white, scheduled.encounter)
    {
        return Ok(());
    }
    let shown =
        |g: &ScheduledGame| format!("round {}, engine {} (black) against {}", g.round, g.black + 1, g.white + 1);
    let why = if old.engines != new.engines {
        "a round robin's or gauntlet's pairs take turns in every block, so another field renumbers the games \
         played: keep the field, or play the newcomer in a tournament of its own (another --record) and rate \
         the files together with veletas ratings --mix"
    } else if old.games_per_pair != new.games_per_pair {
        "with more than one round, changing --games-per-pair moves the later rounds' games: change --rounds \
         instead"
    } else {
        "the recorded games are not the first ones of this run's schedule"
    };
    Err(format!(
        "{diff}, which moves game {} (recorded: {}; this run: {}): {why}",
        scheduled.id,
        shown(&recorded),
        shown(scheduled)
    ))
}

/// The error for a recorded game this run's schedule does not have, recorded under `old`.
pub(super) fn not_scheduled(old: Option<&Settings>, new: &Settings, id: &str) -> String {
    match old.and_then(|old| difference(old, new)) {
        Some(diff) => format!("{diff}: the record holds game '{id}', which this run's schedule does not have"),
        None => format!("holds game '{id}', which this tournament does not have"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(format: Format, engines: usize, games_per_pair: usize, rounds: usize) -> Settings {
        Settings { format, engines, games_per_pair, rounds, openings: "random seed 1".into() }
    }

    /// Whether every game of `old` keeps its place in `new` (the slow way: game by game).
    fn keeps_all(old: &Settings, new: &Settings) -> bool {
        let (a, b) = (old.schedule().unwrap().unwrap(), new.schedule().unwrap().unwrap());
        (0..a.len()).all(|i| b.game(i).is_some_and(|g| check_place(old, new, &g).is_ok()))
    }

    #[test]
    fn the_schedule_tag_reads_back_what_it_writes() {
        let s = settings(Format::Gauntlet, 5, 4, 3);
        assert_eq!(s.to_string(), "gauntlet; engines 5; games-per-pair 4; rounds 3; openings random seed 1");
        assert_eq!(s.to_string().parse::<Settings>(), Ok(s));
        for bad in [
            "",
            "gauntlet; engines 5",
            "swiss; engines 5; games-per-pair 4; rounds 3; openings x",
            "gauntlet; engines five; games-per-pair 4; rounds 3; openings x",
        ] {
            assert!(bad.parse::<Settings>().unwrap_err().contains("Schedule tag"), "{bad}");
        }
    }

    #[test]
    fn more_rounds_keep_every_recorded_game() {
        for (format, n, g) in [(Format::RoundRobin, 3, 2), (Format::RoundRobin, 4, 4), (Format::Gauntlet, 5, 2)] {
            for (from, to) in [(1, 2), (2, 5)] {
                assert!(keeps_all(&settings(format, n, g, from), &settings(format, n, g, to)), "{format} {n} {g}");
            }
        }
    }

    #[test]
    fn more_games_per_pair_keep_the_recorded_games_only_in_one_round() {
        let one = |g| settings(Format::RoundRobin, 4, g, 1);
        assert!(keeps_all(&one(2), &one(4)) && keeps_all(&one(2), &one(10)));
        let two = |g| settings(Format::RoundRobin, 4, g, 2);
        assert!(!keeps_all(&two(2), &two(4)));
        let refused = (0..24).filter_map(|i| {
            let game = two(4).schedule().unwrap().unwrap().game(i).unwrap();
            check_place(&two(2), &two(4), &game).err()
        });
        let message = refused.into_iter().next().unwrap();
        assert!(message.starts_with("the record was made with --games-per-pair 2, this run has --games-per-pair 4"));
        assert!(message.contains("change --rounds instead"), "{message}");
    }

    #[test]
    fn another_field_is_refused_with_the_reason() {
        let (old, new) = (settings(Format::RoundRobin, 3, 2, 1), settings(Format::RoundRobin, 4, 2, 1));
        let schedule = new.schedule().unwrap().unwrap();
        let message = (0..6).find_map(|i| check_place(&old, &new, &schedule.game(i).unwrap()).err()).unwrap();
        assert!(message.starts_with("the record was made with 3 engines, this run has 4 engines"), "{message}");
        assert!(message.contains("ratings --mix"), "{message}");
        let seed2 = Settings { openings: "random seed 2".into(), ..old.clone() };
        assert_eq!(
            check_place(&old, &seed2, &schedule.game(0).unwrap()).unwrap_err(),
            "the record was made with openings 'random seed 1', this run has openings 'random seed 2'"
        );
        let knockout = |g| settings(Format::Knockout, 4, g, 1);
        assert!(check_place(&knockout(2), &knockout(4), &schedule.game(0).unwrap()).unwrap_err().contains("knockout"));
    }

    #[test]
    fn fewer_rounds_name_the_setting() {
        let (old, new) = (settings(Format::RoundRobin, 3, 2, 3), settings(Format::RoundRobin, 3, 2, 2));
        assert_eq!(
            not_scheduled(Some(&old), &new, "13"),
            "the record was made with --rounds 3, this run has --rounds 2: the record holds game '13', which this \
             run's schedule does not have"
        );
    }
}
