//! Growing a tournament: what a record file says about the schedule its games were
//! played under (the `Schedule` tag, [`Settings`]), and whether a recorded game keeps
//! its place when the tournament is resumed with other counts ([`check_place`]).
//!
//! The schedule is a pure function of the game's index, so a recorded game is kept when
//! the old schedule and the new one agree on its index: same round, same engines on each
//! colour, same encounter (hence the same opening). Raising `--rounds` appends whole
//! rounds, and raising `--games-per-pair` with one round appends blocks of encounters:
//! both keep every recorded game in place. A bigger field is played in segments
//! ([`Schedule::grown`]): the recorded field's schedule first, then the new pairs, so the
//! recorded games keep their places too ([`Settings::grown`]; [`check_field`] checks that
//! the record's engines are this run's first ones). Anything else that moves a recorded
//! game is refused, with the setting that differs, its old and new values, and why.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::str::FromStr;

use veletas_rules::record::{GameRecord, tag};

use crate::referee::openings::OpeningBook;
use crate::referee::runner::ScheduledGame;
use crate::referee::tournament::schedule::{Format, Schedule, ScheduleError};

/// The settings that fix a tournament's schedule (the `Schedule` tag's value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Settings {
    pub format: Format,
    /// The field's engines by segment: those it started with, then each group added
    /// (`engines 3+1`: three, then a fourth).
    pub engines: Vec<usize>,
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
        Settings { format, engines: vec![engines], games_per_pair, rounds, openings }
    }

    /// The number of engines, all segments together.
    pub fn engine_count(&self) -> usize {
        self.engines.iter().sum()
    }

    /// These settings (a run's, of one segment) for the tournament `recorded` (the record
    /// file's last game's settings) grows: the recorded segments, and this run's engines
    /// beyond them as a new one. Refused when this run has fewer engines than recorded.
    pub fn grown(self, recorded: Option<&Settings>) -> Result<Settings, GrowError> {
        let Some(recorded) = recorded else { return Ok(self) };
        if recorded.format != self.format {
            // No game keeps its place in another format (a knockout's are not even numbered alike).
            return Err(GrowError::OtherFormat { diff: difference(recorded, &self).unwrap_or_default() });
        }
        if self.format == Format::Knockout {
            return Ok(self);
        }
        let (had, has) = (recorded.engine_count(), self.engine_count());
        let mut engines = recorded.engines.clone();
        match has.checked_sub(had) {
            None => return Err(GrowError::Shrunk { had, has }),
            Some(0) => {}
            Some(added) => engines.push(added),
        }
        Ok(Settings { engines, ..self })
    }

    /// The schedule these settings make (`None` for a knockout).
    pub(super) fn schedule(&self) -> Result<Option<Schedule>, ScheduleError> {
        match self.format {
            Format::Knockout => Ok(None),
            format => Schedule::grown(format, &self.engines, self.games_per_pair, self.rounds).map(Some),
        }
    }
}

/// Why a run cannot grow the tournament a record file holds ([`Settings::grown`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GrowError {
    /// Another format ([`difference`] says which settings differ).
    #[error("{diff}: no recorded game has a place in another format; use --overwrite or another --record")]
    OtherFormat {
        /// The settings that differ.
        diff: String,
    },
    /// The grown settings make no schedule.
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    /// Fewer engines than recorded.
    #[error(
        "the record was made with {had} engines, this run has {has} engines: a tournament's field can grow but \
         not shrink (the record holds games of all {had}); give all {had}, or use --overwrite or another --record"
    )]
    Shrunk {
        /// The engines recorded.
        had: usize,
        /// This run's.
        has: usize,
    },
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let engines: Vec<String> = self.engines.iter().map(usize::to_string).collect();
        write!(
            f,
            "{}; engines {}; games-per-pair {}; rounds {}; openings {}",
            self.format,
            engines.join("+"),
            self.games_per_pair,
            self.rounds,
            self.openings
        )
    }
}

impl FromStr for Settings {
    type Err = ScheduleTagError;

    fn from_str(text: &str) -> Result<Settings, ScheduleTagError> {
        let bad = || ScheduleTagError(text.to_string());
        let parts: Vec<&str> = text.split("; ").collect();
        let [format, engines, games, rounds, openings] = parts.as_slice() else { return Err(bad()) };
        let count = |part: &str, name: &str| -> Result<usize, ScheduleTagError> {
            part.strip_prefix(name).and_then(|n| n.strip_prefix(' ')).and_then(|n| n.parse().ok()).ok_or_else(bad)
        };
        let engines = engines.strip_prefix("engines ").ok_or_else(bad)?;
        let engines: Vec<usize> =
            engines.split('+').map(|n| n.parse().ok().filter(|&n| n > 0)).collect::<Option<_>>().ok_or_else(bad)?;
        Ok(Settings {
            format: format.parse().map_err(|_| bad())?,
            engines,
            games_per_pair: count(games, "games-per-pair")?,
            rounds: count(rounds, "rounds")?,
            openings: openings.strip_prefix("openings ").ok_or_else(bad)?.to_string(),
        })
    }
}

/// A `Schedule` tag that does not read as [`Settings`]: the tag's value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "its Schedule tag '{}' is not FORMAT; engines N[+N...]; games-per-pair N; rounds N; openings ...",
    veletas_rules::quoted(.0)
)]
pub struct ScheduleTagError(String);

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
    differ(format!("{} engines", old.engine_count()), format!("{} engines", new.engine_count()));
    differ(format!("--games-per-pair {}", old.games_per_pair), format!("--games-per-pair {}", new.games_per_pair));
    differ(format!("--rounds {}", old.rounds), format!("--rounds {}", new.rounds));
    // The record's openings setting is a file's text: quoted, as every outside input in a message.
    let openings = |o: &Settings| format!("openings '{}'", veletas_rules::quoted_to(&o.openings, 60));
    differ(openings(old), openings(new));
    (!was.is_empty())
        .then(|| format!("the record was made with {}, this run has {}", was.join(" and "), now.join(" and ")))
}

/// Checks that a game recorded as game `scheduled.index` under `old` is the game this
/// run's schedule (`new`) plays there: `scheduled` is that game.
pub(super) fn check_place(old: &Settings, new: &Settings, scheduled: &ScheduledGame) -> Result<(), MovedError> {
    let Some(diff) = difference(old, new) else { return Ok(()) };
    if old.format != new.format || old.openings != new.openings {
        return Err(MovedError::Differs(diff));
    }
    let old_schedule = match old.schedule() {
        Ok(Some(schedule)) => schedule,
        Ok(None) => return Err(MovedError::Knockout(diff)),
        Err(e) => return Err(MovedError::Impossible(e)),
    };
    let index = scheduled.index;
    let Some(recorded) = old_schedule.game(index) else {
        return Err(MovedError::NotScheduled { diff, id: scheduled.id.clone() });
    };
    if (recorded.round, recorded.black, recorded.white, recorded.encounter)
        == (scheduled.round, scheduled.black, scheduled.white, scheduled.encounter)
    {
        return Ok(());
    }
    let shown =
        |g: &ScheduledGame| format!("round {}, engine {} (black) against {}", g.round, g.black + 1, g.white + 1);
    let why = if !new.engines.starts_with(&old.engines) {
        "a grown field plays the recorded engines' schedule first and the newcomers' games after it, so \
         another field renumbers the games played: keep the record's engines first, in their order"
    } else if old.engines.len() > 1 {
        "the games of engines added to a tournament come after every round of the engines before them, so \
         changing --rounds or --games-per-pair moves them: keep the counts the record was made with"
    } else if old.games_per_pair != new.games_per_pair {
        "with more than one round, changing --games-per-pair moves the later rounds' games: change --rounds \
         instead"
    } else {
        "the recorded games are not the first ones of this run's schedule"
    };
    Err(MovedError::Moved { diff, id: scheduled.id.clone(), recorded: shown(&recorded), this: shown(scheduled), why })
}

/// Why a recorded game does not keep its place in this run's schedule ([`check_place`]);
/// `diff` is what [`difference`] says differs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovedError {
    /// Another format or other openings: no game keeps its place.
    #[error("{0}")]
    Differs(String),
    /// A knockout's counts changed.
    #[error("{0}: a knockout's matches cannot grow")]
    Knockout(String),
    /// The recorded settings make no schedule.
    #[error("its Schedule tag is impossible: {0}")]
    Impossible(#[source] ScheduleError),
    /// The game is not in the recorded schedule.
    #[error("{diff}: game {id} is not in the schedule the record names")]
    NotScheduled {
        /// The settings that differ.
        diff: String,
        /// The game.
        id: String,
    },
    /// The game is another one in this run's schedule.
    #[error("{diff}, which moves game {id} (recorded: {recorded}; this run: {this}): {why}")]
    Moved {
        /// The settings that differ.
        diff: String,
        /// The game.
        id: String,
        /// Its round and engines as recorded.
        recorded: String,
        /// Its round and engines in this run.
        this: String,
        /// Why the settings move it.
        why: &'static str,
    },
}

/// Checks that the engines the record's games name (by their `Schedule`, `Game`, `Swap`,
/// `Black` and `White` tags) are this run's first ones, `names`, in the same order: a grown
/// field adds its newcomers after them. Games whose tags do not say are left to the
/// game-by-game resume check.
pub(super) fn check_field<'g>(
    names: &[String],
    games: impl Iterator<Item = &'g GameRecord>,
) -> Result<(), FieldOrderError> {
    let mut schedules: HashMap<&str, Option<Schedule>> = HashMap::new();
    let mut recorded: BTreeMap<usize, &str> = BTreeMap::new();
    for game in games {
        let Some(text) = game.tag(tag::SCHEDULE) else { continue };
        let schedule = schedules
            .entry(text)
            .or_insert_with(|| text.parse::<Settings>().ok().and_then(|s| s.schedule().ok().flatten()));
        let index = game.tag(tag::GAME).and_then(|id| id.parse::<usize>().ok()).and_then(|id| id.checked_sub(1));
        let Some(scheduled) = schedule.as_ref().zip(index).and_then(|(s, index)| s.game(index)) else { continue };
        let (black, white) = crate::referee::runner::played_engines(&scheduled, game.tag(tag::SWAP).is_some());
        for (engine, side) in [(black, tag::BLACK), (white, tag::WHITE)] {
            if let Some(name) = game.tag(side) {
                recorded.entry(engine).or_insert(name);
            }
        }
    }
    let Some((engine, name, ours)) = recorded.into_iter().find_map(|(engine, name)| {
        (names.get(engine).map(String::as_str) != Some(name)).then(|| (engine, name, names.get(engine)))
    }) else {
        return Ok(());
    };
    Err(FieldOrderError {
        engine: engine + 1,
        recorded: name.to_string(),
        ours: ours.cloned(),
        elsewhere: names.iter().position(|n| n == name).map(|at| at + 1),
    })
}

/// [`FieldOrderError`] as a resume refuses it: with what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}; use --overwrite or another --record")]
pub(super) struct FieldRefused(#[source] pub(super) FieldOrderError);

/// A record whose engines are not this run's first ones in their order ([`check_field`]):
/// the first engine that differs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "engine {engine} of the record is '{}', this run's engine {engine} is '{}' ({}): a grown field keeps the \
     record's engines first, in their order, and adds the newcomers after them",
    veletas_rules::quoted(.recorded),
    .ours.as_deref().map_or_else(|| "missing".to_string(), veletas_rules::quoted),
    .elsewhere.map_or_else(|| "this run does not have it".to_string(), |at| format!("this run has it as engine {at}"))
)]
pub struct FieldOrderError {
    /// The engine's number, from 1.
    engine: usize,
    /// Its name in the record.
    recorded: String,
    /// This run's engine of that number, if it has one.
    ours: Option<String>,
    /// Where this run has the recorded engine, from 1, if it has it.
    elsewhere: Option<usize>,
}

/// The error for a recorded game this run's schedule does not have, recorded under `old`.
pub(super) fn not_scheduled(old: Option<&Settings>, new: &Settings, id: &str) -> String {
    match old.and_then(|old| difference(old, new)) {
        Some(diff) => {
            format!(
                "{diff}: the record holds game '{}', which this run's schedule does not have",
                veletas_rules::quoted(id)
            )
        }
        None => format!("holds game '{}', which this tournament does not have", veletas_rules::quoted(id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(format: Format, engines: usize, games_per_pair: usize, rounds: usize) -> Settings {
        grown(format, &[engines], games_per_pair, rounds)
    }

    fn grown(format: Format, engines: &[usize], games_per_pair: usize, rounds: usize) -> Settings {
        Settings { format, engines: engines.to_vec(), games_per_pair, rounds, openings: "random seed 1".into() }
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
            assert!(bad.parse::<Settings>().unwrap_err().to_string().contains("Schedule tag"), "{bad}");
        }
    }

    #[test]
    fn a_records_openings_setting_is_quoted_cut_and_escaped_in_the_difference() {
        let run = settings(Format::RoundRobin, 3, 2, 1);
        let hostile = format!("file \u{1b}[2J\u{202e}{}", "x".repeat(10_000));
        let recorded = Settings { openings: hostile, ..run.clone() };
        let diff = difference(&recorded, &run).unwrap();
        assert!(diff.starts_with("the record was made with openings 'file \\u{1b}[2J\\u{202e}xxx"), "{diff}");
        assert!(diff.ends_with("...', this run has openings 'random seed 1'"), "{diff}");
        assert!(diff.len() < 200 && !diff.contains(['\u{1b}', '\u{202e}']), "{diff}");
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
        let message = refused.into_iter().next().unwrap().to_string();
        assert!(message.starts_with("the record was made with --games-per-pair 2, this run has --games-per-pair 4"));
        assert!(message.contains("change --rounds instead"), "{message}");
    }

    #[test]
    fn a_grown_schedule_tag_names_its_segments_and_old_tags_are_one_segment() {
        let s = grown(Format::RoundRobin, &[4, 1, 2], 2, 1);
        assert_eq!(s.to_string(), "round-robin; engines 4+1+2; games-per-pair 2; rounds 1; openings random seed 1");
        assert_eq!(s.to_string().parse::<Settings>(), Ok(s));
        let old: Settings =
            "round-robin; engines 4; games-per-pair 2; rounds 1; openings random seed 1".parse().unwrap();
        assert_eq!(old.engines, [4]);
        for bad in ["4+", "+1", "4+0", "4++1", "4 + 1"] {
            let text = format!("round-robin; engines {bad}; games-per-pair 2; rounds 1; openings x");
            assert!(text.parse::<Settings>().is_err(), "{text}");
        }
    }

    #[test]
    fn a_bigger_field_grows_by_a_segment_and_keeps_every_recorded_game() {
        let run = |n| settings(Format::RoundRobin, n, 2, 1);
        let recorded = run(3);
        let grown = run(4).grown(Some(&recorded)).unwrap();
        assert_eq!(grown.engines, [3, 1]);
        assert!(keeps_all(&recorded, &grown));
        // Growing again adds a segment; the same field keeps the record's segments.
        let again = run(6).grown(Some(&grown)).unwrap();
        assert_eq!(again.engines, [3, 1, 2]);
        assert!(keeps_all(&grown, &again) && keeps_all(&recorded, &again));
        assert_eq!(run(6).grown(Some(&again)).unwrap().engines, [3, 1, 2]);
        // No record or a knockout: as given; another format has no game in place.
        assert_eq!(run(4).grown(None).unwrap().engines, [4]);
        let gauntlet = settings(Format::Gauntlet, 3, 2, 1);
        assert_eq!(
            run(4).grown(Some(&gauntlet)).unwrap_err().to_string(),
            "the record was made with --format gauntlet and 3 engines, this run has --format round-robin and 4 \
             engines: no recorded game has a place in another format; use --overwrite or another --record"
        );
        let knockout = settings(Format::Knockout, 3, 2, 1);
        assert_eq!(settings(Format::Knockout, 4, 2, 1).grown(Some(&knockout)).unwrap().engines, [4]);
        let gauntlet = settings(Format::Gauntlet, 3, 2, 2).grown(Some(&settings(Format::Gauntlet, 2, 2, 2))).unwrap();
        assert!(keeps_all(&settings(Format::Gauntlet, 2, 2, 2), &gauntlet));
        assert_eq!(
            run(2).grown(Some(&recorded)).unwrap_err().to_string(),
            "the record was made with 3 engines, this run has 2 engines: a tournament's field can grow but not \
             shrink (the record holds games of all 3); give all 3, or use --overwrite or another --record"
        );
    }

    #[test]
    fn more_rounds_with_a_bigger_field_keep_the_games_of_a_field_that_never_grew() {
        let recorded = settings(Format::RoundRobin, 3, 2, 1);
        let grown = settings(Format::RoundRobin, 4, 2, 2).grown(Some(&recorded)).unwrap();
        assert!(keeps_all(&recorded, &grown));
        // Once grown, more rounds would put the first field's round 2 where the newcomer's
        // games are: refused, saying why.
        let once = settings(Format::RoundRobin, 4, 2, 1).grown(Some(&recorded)).unwrap();
        let more = Settings { rounds: 2, ..once.clone() };
        assert!(!keeps_all(&once, &more));
        let schedule = more.schedule().unwrap().unwrap();
        let message =
            (0..12).find_map(|i| check_place(&once, &more, &schedule.game(i).unwrap()).err()).unwrap().to_string();
        assert!(message.starts_with("the record was made with --rounds 1, this run has --rounds 2"), "{message}");
        assert!(message.contains("keep the counts the record was made with"), "{message}");
    }

    #[test]
    fn another_field_is_refused_with_the_reason() {
        let (old, new) = (settings(Format::RoundRobin, 3, 2, 1), settings(Format::RoundRobin, 4, 2, 1));
        let schedule = new.schedule().unwrap().unwrap();
        let message =
            (0..6).find_map(|i| check_place(&old, &new, &schedule.game(i).unwrap()).err()).unwrap().to_string();
        assert!(message.starts_with("the record was made with 3 engines, this run has 4 engines"), "{message}");
        assert!(message.contains("keep the record's engines first"), "{message}");
        let seed2 = Settings { openings: "random seed 2".into(), ..old.clone() };
        assert_eq!(
            check_place(&old, &seed2, &schedule.game(0).unwrap()).unwrap_err().to_string(),
            "the record was made with openings 'random seed 1', this run has openings 'random seed 2'"
        );
        let knockout = |g| settings(Format::Knockout, 4, g, 1);
        let e = check_place(&knockout(2), &knockout(4), &schedule.game(0).unwrap()).unwrap_err();
        assert!(e.to_string().contains("knockout"), "{e}");
    }

    /// A record of game `id` of `settings` between `black` and `white`.
    fn record(settings: &Settings, id: usize, black: &str, white: &str) -> GameRecord {
        let text = format!(
            "[Game \"{id}\"]\n[Schedule \"{settings}\"]\n[Black \"{black}\"]\n[White \"{white}\"]\n[Result \"B+\"]\n\nB+\n"
        );
        veletas_rules::record::parse_records(&text).unwrap().remove(0)
    }

    #[test]
    fn the_record_s_engines_must_come_first_in_their_order() {
        let recorded = settings(Format::RoundRobin, 3, 2, 1);
        let schedule = recorded.schedule().unwrap().unwrap();
        let names = ["a", "b", "c"];
        let games: Vec<GameRecord> =
            schedule.games().map(|g| record(&recorded, g.index + 1, names[g.black], names[g.white])).collect();
        let field = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(check_field(&field(&["a", "b", "c", "d"]), games.iter()), Ok(()));
        assert_eq!(
            check_field(&field(&["b", "a", "c", "d"]), games.iter()).unwrap_err().to_string(),
            "engine 1 of the record is 'a', this run's engine 1 is 'b' (this run has it as engine 2): a grown field \
             keeps the record's engines first, in their order, and adds the newcomers after them"
        );
        let message = check_field(&field(&["a", "b", "x", "d"]), games.iter()).unwrap_err().to_string();
        assert!(
            message
                .starts_with("engine 3 of the record is 'c', this run's engine 3 is 'x' (this run does not have it)")
        );
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
