//! The schedule of a tournament: which engines meet in game `i`, who has Black, and
//! which opening they play. It is a pure function of the field size, the format and
//! its counts, so the same tournament run in any order, whole or in shards, plays the
//! same games.
//!
//! Games come in *encounters*: two games of one pair on one opening, colours swapped.
//! Round robin and gauntlet interleave the pairs: in each round every pair plays its
//! first encounter before any pair plays its second, so a tournament stopped half-way
//! has given every pair (nearly) the same number of games. Within a block the pairs
//! follow the circle method, so consecutive encounters mostly involve other engines.
//!
//! A field that grew is scheduled in segments ([`Schedule::grown`]): the games of the
//! engines recorded keep their indices, and the new pairs' games come after them.
//!
//! A knockout's later rounds depend on results, so it is not a fixed list: [`bracket`]
//! gives the first round's pairs by seeding and [`knockout_game`] names each game.

use std::fmt;
use std::str::FromStr;

use crate::referee::limits::MAX_GAMES;
use crate::referee::runner::ScheduledGame;

/// The tournament formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair plays.
    RoundRobin,
    /// The first engine plays each other one.
    Gauntlet,
    /// Pairs by seeding; winners go on, losers are out.
    Knockout,
}

impl FromStr for Format {
    type Err = FormatError;

    fn from_str(text: &str) -> Result<Format, FormatError> {
        match text {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            "knockout" | "ko" => Ok(Format::Knockout),
            _ => Err(FormatError(text.to_string())),
        }
    }
}

/// A text that names no [`Format`]: the text as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format '{}': use round-robin, gauntlet or knockout", veletas_rules::quoted(.0))]
pub struct FormatError(String);

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Knockout => "knockout",
        })
    }
}

/// A round robin or gauntlet schedule.
///
/// A tournament whose field grew is played in *segments*: the first field's schedule
/// first, then for each group of engines added, the new pairs only (each newcomer against
/// every engine before it, and the newcomers among themselves; in a gauntlet, the first
/// engine against each newcomer), with the same counts and interleaving. So the games
/// already played keep their indices, and in the end every pair has played as many games
/// as in the whole field's plain schedule. A plain tournament is one segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    segments: Vec<Segment>,
    games_per_pair: usize,
    rounds: usize,
}

/// The games of one field size: its pairs, the index of its first game and the number of
/// its first encounter.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    pairs: Vec<(usize, usize)>,
    start: usize,
    first_encounter: u64,
}

impl Schedule {
    /// The schedule of `format` (not knockout) for `engines` engines. `games_per_pair`
    /// must be even and positive, `rounds` positive.
    pub fn new(
        format: Format,
        engines: usize,
        games_per_pair: usize,
        rounds: usize,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::grown(format, &[engines], games_per_pair, rounds)
    }

    /// The schedule of a field that grew: `segments[0]` engines first, then
    /// `segments[1]` more, and so on (engines numbered in that order). `&[n]` is
    /// [`Schedule::new`]'s schedule.
    pub fn grown(
        format: Format,
        segments: &[usize],
        games_per_pair: usize,
        rounds: usize,
    ) -> Result<Schedule, ScheduleError> {
        let first = segments.first().copied().unwrap_or(0);
        if first < 2 {
            return Err(ScheduleError::TooFewEngines(first));
        }
        if segments.contains(&0) {
            return Err(ScheduleError::EmptyGroup);
        }
        let engines = segments.iter().try_fold(0usize, |sum, &n| sum.checked_add(n)).unwrap_or(usize::MAX);
        check_games_per_pair(games_per_pair)?;
        if rounds == 0 {
            return Err(ScheduleError::NoRounds);
        }
        // Counted before the pairs are made: a field of 100,000 engines is refused, not
        // paired into 5e9 pairs.
        let pair_count = match format {
            Format::RoundRobin => engines.checked_mul(engines - 1).map(|x| x / 2),
            _ => Some(engines - 1),
        };
        let total = pair_count
            .and_then(|p| p.checked_mul(games_per_pair))
            .and_then(|g| g.checked_mul(rounds))
            .unwrap_or(usize::MAX);
        if total > MAX_GAMES {
            return Err(ScheduleError::TooManyGames { engines, games_per_pair, rounds });
        }
        let mut built = Vec::with_capacity(segments.len());
        let (mut low, mut start, mut first_encounter) = (0, 0, 0u64);
        for &added in segments {
            let high = low + added;
            // The pairs with at least one engine of this segment: all of them for the first.
            let pairs: Vec<(usize, usize)> = match format {
                Format::RoundRobin => circle_pairs(high).into_iter().filter(|&(_, b)| b >= low).collect(),
                Format::Gauntlet => (low.max(1)..high).map(|other| (0, other)).collect(),
                Format::Knockout => return Err(ScheduleError::Knockout),
            };
            let games = pairs.len() * games_per_pair * rounds;
            built.push(Segment { pairs, start, first_encounter });
            start += games;
            first_encounter += (games / 2) as u64;
            low = high;
        }
        Ok(Schedule { segments: built, games_per_pair, rounds })
    }

    /// The pairs that meet, in the order of each block (segment after segment).
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.segments.iter().flat_map(|s| s.pairs.iter().copied())
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.segments.last().map_or(0, |s| s.start + s.pairs.len() * self.games_per_pair * self.rounds)
    }

    /// Whether there is no game (never, for a valid schedule).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `index`, or `None` past the end.
    pub fn game(&self, index: usize) -> Option<ScheduledGame> {
        if index >= self.len() {
            return None;
        }
        let segment = &self.segments[self.segments.partition_point(|s| s.start <= index) - 1];
        let pairs = &segment.pairs;
        let per_round = pairs.len() * self.games_per_pair;
        let rest = index - segment.start;
        let (round, rest) = (rest / per_round, rest % per_round);
        let per_block = 2 * pairs.len();
        let (block, within) = (rest / per_block, rest % per_block);
        let (pair_index, second) = (within / 2, within % 2 == 1);
        let (a, b) = pairs[pair_index];
        // Who has Black first alternates from one encounter of a pair to the next.
        let first_black_a = (round * self.games_per_pair / 2 + block).is_multiple_of(2);
        let (black, white) = if first_black_a != second { (a, b) } else { (b, a) };
        let encounters_per_round = pairs.len() * self.games_per_pair / 2;
        let encounter =
            segment.first_encounter + (round * encounters_per_round + block * pairs.len() + pair_index) as u64;
        Some(ScheduledGame { index, id: (index + 1).to_string(), round: round + 1, black, white, encounter })
    }

    /// Every game, in order.
    pub fn games(&self) -> impl Iterator<Item = ScheduledGame> + '_ {
        (0..self.len()).filter_map(|i| self.game(i))
    }
}

/// Checks a knockout's counts: `--games-per-pair` as [`check_games_per_pair`] does, and
/// the games of its `engines - 1` matches (before tie-breaks) at most [`MAX_GAMES`].
pub fn check_knockout(engines: usize, games_per_pair: usize) -> Result<(), KnockoutError> {
    check_games_per_pair(games_per_pair)?;
    if engines.saturating_sub(1).checked_mul(games_per_pair).is_none_or(|games| games > MAX_GAMES) {
        return Err(KnockoutError::TooManyGames { engines, games_per_pair });
    }
    Ok(())
}

/// Checks `--games-per-pair`: even and positive, since each opening is played twice with
/// colours swapped (every format, knockout matches included).
pub fn check_games_per_pair(games_per_pair: usize) -> Result<(), GamesPerPairError> {
    if games_per_pair == 0 || !games_per_pair.is_multiple_of(2) {
        return Err(GamesPerPairError(games_per_pair));
    }
    Ok(())
}

/// Why counts make no round robin or gauntlet schedule ([`Schedule::new`], [`Schedule::grown`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// The first field has fewer than two engines.
    #[error("a tournament needs at least two engines, not {0}")]
    TooFewEngines(usize),
    /// A group of engines added is empty.
    #[error("each group of engines added to a tournament has at least one engine")]
    EmptyGroup,
    /// `--games-per-pair` is odd or zero.
    #[error(transparent)]
    GamesPerPair(#[from] GamesPerPairError),
    /// `--rounds 0`.
    #[error("--rounds must be at least 1")]
    NoRounds,
    /// More than [`MAX_GAMES`] games.
    #[error(
        "{engines} engines, {games_per_pair} games per pair and {rounds} rounds make more than {MAX_GAMES} games: \
         play fewer, or several tournaments"
    )]
    TooManyGames {
        /// The engines.
        engines: usize,
        /// The games per pair.
        games_per_pair: usize,
        /// The rounds.
        rounds: usize,
    },
    /// A knockout's later rounds depend on results.
    #[error("a knockout has no fixed schedule")]
    Knockout,
}

/// Why a knockout's counts are refused ([`check_knockout`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    /// `--games-per-pair` is odd or zero.
    #[error(transparent)]
    GamesPerPair(#[from] GamesPerPairError),
    /// Its matches play more than [`MAX_GAMES`] games.
    #[error("a knockout of {engines} engines with {games_per_pair} games per match plays more than {MAX_GAMES} games")]
    TooManyGames {
        /// The engines.
        engines: usize,
        /// The games per match.
        games_per_pair: usize,
    },
}

/// A `--games-per-pair` that is odd or zero ([`check_games_per_pair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--games-per-pair must be even and positive (openings are played twice, colours swapped), not {0}")]
pub struct GamesPerPairError(usize);

/// Every pair of `n` engines once, ordered by the circle method: rounds in which each
/// engine plays at most once (one sits out when `n` is odd).
pub fn circle_pairs(n: usize) -> Vec<(usize, usize)> {
    let slots = n + n % 2; // an odd field gets a dummy slot: its partner sits out
    let mut ring: Vec<usize> = (0..slots).collect();
    let mut pairs = Vec::with_capacity(n * (n - 1) / 2);
    for _ in 0..slots - 1 {
        for k in 0..slots / 2 {
            let (x, y) = (ring[k], ring[slots - 1 - k]);
            if x < n && y < n {
                pairs.push((x.min(y), x.max(y)));
            }
        }
        // Keep the first slot fixed and rotate the others by one.
        let last = ring.pop().unwrap_or(0);
        ring.insert(1, last);
    }
    pairs
}

/// The first knockout round for `n` engines in seeding order (engine 0 is the top
/// seed): the bracket of the next power of two, seed 1 against the lowest seed and so
/// on, arranged so the top two seeds can only meet in the final. `None` is a bye: the
/// other engine goes through. Byes go to the top seeds.
pub fn bracket(n: usize) -> Vec<(usize, Option<usize>)> {
    let size = n.max(2).next_power_of_two();
    let mut order = vec![0usize];
    while order.len() < size {
        let m = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, m - 1 - s]).collect();
    }
    order
        .chunks(2)
        .map(|slot| {
            let (x, y) = (slot[0], slot[1]);
            match (x < n, y < n) {
                (true, true) => (x.min(y), Some(x.max(y))),
                (true, false) => (x, None),
                (false, true) => (y, None),
                (false, false) => (x.min(y), None), // cannot happen: at most one bye per slot
            }
        })
        .collect()
}

/// Game `game` (from 0) of match `slot` (from 0) in knockout round `round` (from 1)
/// between seeds `a` and `b` (`a` the higher seed): `a` has Black in the first game of
/// each encounter. The encounter number is unique in the tournament.
pub fn knockout_game(round: usize, slot: usize, game: usize, a: usize, b: usize) -> ScheduledGame {
    let (black, white) = if game.is_multiple_of(2) { (a, b) } else { (b, a) };
    let encounter = ((round as u64) << 40) | ((slot as u64) << 20) | (game as u64 / 2);
    ScheduledGame { index: 0, id: format!("{round}.{}.{}", slot + 1, game + 1), round, black, white, encounter }
}

/// FNV-1a, 64 bits: a stable fingerprint of the schedule's description.
pub(super) fn fnv1a(text: &str) -> String {
    use std::hash::Hasher as _;
    // The bytes alone (not `text.hash()`, which appends a terminator): the same values as
    // the hand-written FNV-1a this replaced, so fingerprints in existing records still match.
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(text.as_bytes());
    format!("{:016x}", hasher.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn the_fingerprint_is_stable_and_sensitive() {
        assert_eq!(fnv1a(""), "cbf29ce484222325");
        assert_eq!(fnv1a("a"), "af63dc4c8601ec8c");
        assert_ne!(fnv1a("format=round-robin"), fnv1a("format=gauntlet"));
    }

    #[test]
    fn the_circle_method_gives_every_pair_once() {
        for n in 2..=9 {
            let pairs = circle_pairs(n);
            assert_eq!(pairs.len(), n * (n - 1) / 2, "{n}");
            let mut seen = std::collections::HashSet::new();
            assert!(pairs.iter().all(|&(a, b)| a < b && b < n && seen.insert((a, b))), "{n}: {pairs:?}");
        }
        assert_eq!(circle_pairs(4), [(0, 3), (1, 2), (0, 2), (1, 3), (0, 1), (2, 3)]);
    }

    #[test]
    fn a_round_robin_gives_each_pair_its_games_with_colours_and_openings_paired() {
        for (n, g, r) in [(2, 2, 1), (3, 4, 2), (4, 2, 3), (5, 6, 1), (6, 2, 1)] {
            let schedule = Schedule::new(Format::RoundRobin, n, g, r).unwrap();
            let games: Vec<_> = schedule.games().collect();
            assert_eq!(games.len(), n * (n - 1) / 2 * g * r);
            let mut per_pair: HashMap<(usize, usize), Vec<&ScheduledGame>> = HashMap::new();
            for game in &games {
                per_pair.entry((game.black.min(game.white), game.black.max(game.white))).or_default().push(game);
            }
            assert_eq!(per_pair.len(), n * (n - 1) / 2);
            for ((a, _), list) in &per_pair {
                assert_eq!(list.len(), g * r);
                let black_a = list.iter().filter(|x| x.black == *a).count();
                assert_eq!(black_a * 2, list.len(), "colours balanced");
                let mut by_encounter: HashMap<u64, Vec<usize>> = HashMap::new();
                list.iter().for_each(|x| by_encounter.entry(x.encounter).or_default().push(x.black));
                assert!(
                    by_encounter.values().all(|b| b.len() == 2 && b[0] != b[1]),
                    "openings paired, colours swapped"
                );
            }
            // Every engine has as many Blacks as Whites.
            for e in 0..n {
                let black = games.iter().filter(|x| x.black == e).count();
                let white = games.iter().filter(|x| x.white == e).count();
                assert_eq!(black, white);
            }
            // Encounters are distinct across pairs: each opening is played by one pair.
            let mut owners: HashMap<u64, (usize, usize)> = HashMap::new();
            for x in &games {
                let pair = (x.black.min(x.white), x.black.max(x.white));
                assert_eq!(*owners.entry(x.encounter).or_insert(pair), pair);
            }
        }
    }

    #[test]
    fn a_tournament_stopped_half_way_is_fair() {
        let schedule = Schedule::new(Format::RoundRobin, 4, 8, 1).unwrap();
        let pairs = schedule.pairs().count();
        for stop in (2 * pairs..schedule.len()).step_by(2 * pairs) {
            let mut count: HashMap<(usize, usize), usize> = HashMap::new();
            for x in schedule.games().take(stop) {
                *count.entry((x.black.min(x.white), x.black.max(x.white))).or_default() += 1;
            }
            assert!(count.values().all(|&c| c == stop / pairs), "{stop}: {count:?}");
        }
    }

    #[test]
    fn a_gauntlet_pits_the_first_engine_against_each_other() {
        let schedule = Schedule::new(Format::Gauntlet, 4, 2, 2).unwrap();
        let games: Vec<_> = schedule.games().collect();
        assert_eq!(games.len(), 3 * 2 * 2);
        assert!(games.iter().all(|x| (x.black == 0) != (x.white == 0)));
        assert_eq!(games.iter().filter(|x| x.black == 0).count(), 6);
        for other in 1..4 {
            assert_eq!(games.iter().filter(|x| x.black == other || x.white == other).count(), 4);
        }
    }

    #[test]
    fn the_schedule_is_a_function_of_the_index() {
        let schedule = Schedule::new(Format::RoundRobin, 5, 4, 2).unwrap();
        let again = Schedule::new(Format::RoundRobin, 5, 4, 2).unwrap();
        for i in (0..schedule.len()).rev() {
            assert_eq!(schedule.game(i), again.game(i));
            assert_eq!(schedule.game(i).map(|g| g.index), Some(i));
        }
        assert_eq!(schedule.game(schedule.len()), None);
    }

    /// Each pair's games of `schedule`, by pair.
    fn per_pair(schedule: &Schedule) -> HashMap<(usize, usize), Vec<ScheduledGame>> {
        let mut per_pair: HashMap<(usize, usize), Vec<ScheduledGame>> = HashMap::new();
        for game in schedule.games() {
            per_pair.entry((game.black.min(game.white), game.black.max(game.white))).or_default().push(game);
        }
        per_pair
    }

    #[test]
    fn a_grown_field_plays_every_pair_as_often_as_a_plain_one() {
        for (format, segments, g, r) in [
            (Format::RoundRobin, &[3, 1][..], 2, 1),
            (Format::RoundRobin, &[4, 2], 4, 2),
            (Format::RoundRobin, &[2, 1, 1, 3], 2, 3),
            (Format::Gauntlet, &[3, 1], 2, 2),
            (Format::Gauntlet, &[2, 2, 1], 4, 1),
        ] {
            let n: usize = segments.iter().sum();
            let grown = Schedule::grown(format, segments, g, r).unwrap();
            let plain = Schedule::new(format, n, g, r).unwrap();
            assert_eq!(grown.len(), plain.len(), "{segments:?}");
            let pairs = per_pair(&grown);
            assert_eq!(pairs.len(), if format == Format::RoundRobin { n * (n - 1) / 2 } else { n - 1 });
            for ((a, _), list) in &pairs {
                assert_eq!(list.len(), g * r, "{segments:?}");
                assert_eq!(list.iter().filter(|x| x.black == *a).count() * 2, list.len(), "colours balanced");
            }
            // Each opening belongs to one pair and is played twice, colours swapped.
            let mut by_encounter: HashMap<u64, Vec<&ScheduledGame>> = HashMap::new();
            pairs.values().flatten().for_each(|x| by_encounter.entry(x.encounter).or_default().push(x));
            assert_eq!(by_encounter.len(), grown.len() / 2, "{segments:?}: encounters distinct");
            assert!(by_encounter.values().all(|e| e.len() == 2 && e[0].black == e[1].white));
            // The first segment is the recorded field's own schedule, index for index.
            let first = Schedule::new(format, segments[0], g, r).unwrap();
            assert!(first.games().all(|x| grown.game(x.index) == Some(x.clone())), "{segments:?}");
            assert_eq!(Schedule::grown(format, &[n], g, r), Ok(plain));
        }
    }

    #[test]
    fn growing_again_keeps_the_earlier_segments() {
        let once = Schedule::grown(Format::RoundRobin, &[3, 1], 2, 2).unwrap();
        let twice = Schedule::grown(Format::RoundRobin, &[3, 1, 2], 2, 2).unwrap();
        assert!(once.games().all(|x| twice.game(x.index) == Some(x.clone())));
        // The added segment holds only pairs with a newcomer, engine 4 or 5.
        assert!(twice.games().skip(once.len()).all(|x| x.black.max(x.white) >= 4));
        assert_eq!(twice.game(twice.len()), None);
    }

    #[test]
    fn a_grown_segment_follows_the_circle() {
        // Engine 3 joins 0, 1, 2: it meets them in circle order, one encounter each per block.
        let grown = Schedule::grown(Format::RoundRobin, &[3, 1], 4, 1).unwrap();
        let added: Vec<(usize, usize)> = grown.pairs().skip(3).collect();
        assert_eq!(added, [(0, 3), (1, 3), (2, 3)]);
        let blocks: Vec<usize> = grown.games().skip(12).map(|x| x.black.min(x.white)).collect();
        assert_eq!(blocks, [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2]);
        assert!(Schedule::grown(Format::RoundRobin, &[1, 3], 2, 1).unwrap_err().to_string().contains("two engines"));
        assert!(Schedule::grown(Format::RoundRobin, &[3, 0], 2, 1).unwrap_err().to_string().contains("at least one"));
    }

    #[test]
    fn bad_counts_are_refused() {
        assert!(Schedule::new(Format::RoundRobin, 1, 2, 1).unwrap_err().to_string().contains("two engines"));
        assert!(Schedule::new(Format::RoundRobin, 3, 3, 1).unwrap_err().to_string().contains("even"));
        assert!(Schedule::new(Format::RoundRobin, 3, 0, 1).unwrap_err().to_string().contains("even"));
        assert!(Schedule::new(Format::Gauntlet, 3, 2, 0).unwrap_err().to_string().contains("rounds"));
        assert!("swiss".parse::<Format>().unwrap_err().to_string().contains("unknown format"));
    }

    #[test]
    fn brackets_seed_the_top_against_the_bottom_and_give_byes_to_the_top() {
        assert_eq!(bracket(2), [(0, Some(1))]);
        assert_eq!(bracket(4), [(0, Some(3)), (1, Some(2))]);
        assert_eq!(bracket(8), [(0, Some(7)), (3, Some(4)), (1, Some(6)), (2, Some(5))]);
        assert_eq!(bracket(3), [(0, None), (1, Some(2))]);
        assert_eq!(bracket(5), [(0, None), (3, Some(4)), (1, None), (2, None)]);
        for n in 2..=17 {
            let slots = bracket(n);
            let mut seen: Vec<usize> = slots.iter().flat_map(|&(a, b)| std::iter::once(a).chain(b)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "{n}");
        }
    }

    #[test]
    fn knockout_games_alternate_colours_and_have_unique_encounters() {
        let g: Vec<_> = (0..4).map(|i| knockout_game(2, 1, i, 0, 3)).collect();
        assert_eq!(g.iter().map(|x| x.black).collect::<Vec<_>>(), [0, 3, 0, 3]);
        assert_eq!(g[0].encounter, g[1].encounter);
        assert_ne!(g[1].encounter, g[2].encounter);
        assert_eq!(g[3].id, "2.2.4");
        assert_ne!(knockout_game(1, 1, 0, 0, 1).encounter, knockout_game(2, 1, 0, 0, 1).encounter);
    }
}
