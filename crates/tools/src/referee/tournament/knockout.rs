//! Knockouts: round by round, each match plays `--games-per-pair` games; a level match
//! plays tie-break pairs (one opening, colours swapped) until one engine leads after a
//! pair. The winners meet in bracket order; byes (odd fields) go to the top seeds.
//!
//! Void games (no engine moved) count for neither engine. Games that decide nothing
//! cannot break a tie: a level match whose last games (its base games, or its last
//! tie-break pair) were all void plays no more tie-breaks, and the higher seed goes
//! through, as when the tie-breaks run out.

use std::fmt;

use crate::referee::error::RefereeError;
use crate::referee::runner::{GameResult, Runner, ScheduledGame};
use crate::referee::tournament::schedule::{bracket, knockout_game};

/// Tie-break pairs a level match may play before the higher seed goes through.
pub const MAX_TIE_BREAK_PAIRS: usize = 50;

/// One knockout match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockoutMatch {
    /// The round, from 1.
    pub round: usize,
    /// The higher seed (field index) and the other engine; `None` for a bye.
    pub engines: (usize, Option<usize>),
    /// Games won by each.
    pub score: (usize, usize),
    /// Void games (counted for neither).
    pub void: usize,
    /// Tie-break pairs played.
    pub tie_breaks: usize,
    /// Whether the tie-breaks ran out and the higher seed went through.
    pub by_seed: bool,
    /// The engine that goes through.
    pub winner: usize,
}

/// A knockout's matches, round by round, and the champion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockoutReport {
    /// Every match, in order.
    pub matches: Vec<KnockoutMatch>,
    /// The winner of the final.
    pub champion: usize,
}

impl KnockoutReport {
    /// The report as text, with engine names.
    pub fn display<'a>(&'a self, names: &'a [String]) -> impl fmt::Display + 'a {
        KnockoutText { report: self, names }
    }
}

struct KnockoutText<'a> {
    report: &'a KnockoutReport,
    names: &'a [String],
}

impl fmt::Display for KnockoutText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut round = 0;
        for m in &self.report.matches {
            if m.round != round {
                round = m.round;
                writeln!(f, "Knockout round {round}:")?;
            }
            let a = &self.names[m.engines.0];
            match m.engines.1 {
                None => writeln!(f, "  {a}: bye")?,
                Some(b) => {
                    let b = &self.names[b];
                    let mut line =
                        format!("  {a} {}-{} {b}: {} goes through", m.score.0, m.score.1, self.names[m.winner]);
                    if m.void > 0 {
                        line.push_str(&format!(" ({} void)", m.void));
                    }
                    if m.tie_breaks > 0 {
                        line.push_str(&format!(
                            " ({} tie-break pair{})",
                            m.tie_breaks,
                            if m.tie_breaks == 1 { "" } else { "s" }
                        ));
                    }
                    if m.by_seed && m.score == (0, 0) {
                        line.push_str(" (no game decided: the higher seed goes through)");
                    } else if m.by_seed {
                        line.push_str(" (still level: the higher seed goes through)");
                    }
                    writeln!(f, "{line}")?;
                }
            }
        }
        writeln!(f, "Champion: {}", self.names[self.report.champion])
    }
}

struct Live {
    round: usize,
    slot: usize,
    a: usize,
    b: usize,
    /// Games planned so far (the base games plus tie-break pairs).
    target: usize,
    results: Vec<GameResult>,
}

impl Live {
    fn score(&self) -> (usize, usize) {
        let a = self.results.iter().filter(|r| r.winner_engine() == Some(self.a)).count();
        let b = self.results.iter().filter(|r| r.winner_engine() == Some(self.b)).count();
        (a, b)
    }

    fn void(&self) -> usize {
        self.results.iter().filter(|r| r.winner.is_none()).count()
    }

    /// Whether the games played since the target last grew (the base games, or the
    /// last tie-break pair) were all void: more tie-breaks would decide nothing.
    fn last_games_void(&self, base: usize) -> bool {
        let from = if self.target > base { self.target - 2 } else { 0 };
        self.results.get(from..).is_some_and(|last| !last.is_empty() && last.iter().all(|r| r.winner.is_none()))
    }
}

/// The games of one match still to play in a round: its games `from..to`.
struct Span {
    round: usize,
    slot: usize,
    a: usize,
    b: usize,
    from: usize,
    to: usize,
}

impl Span {
    /// The games of `m` past those it has counted, up to its target.
    fn of(m: &Live) -> Span {
        Span { round: m.round, slot: m.slot, a: m.a, b: m.b, from: m.results.len(), to: m.target }
    }
}

/// The games of `spans`, interleaved across matches: every match's game 1, then game 2, ...
fn round_games(spans: &[Span]) -> impl Iterator<Item = ScheduledGame> + '_ {
    let longest = spans.iter().map(|s| s.to).max().unwrap_or(0);
    (0..longest).flat_map(move |game| {
        spans
            .iter()
            .filter(move |s| (s.from..s.to).contains(&game))
            .map(move |s| knockout_game(s.round, s.slot, game, s.a, s.b))
    })
}

/// Plays the knockout round by round, each match `base` games before tie-breaks, and
/// returns its matches (`None` when a signal stopped it).
pub(crate) fn play_knockout(runner: &mut Runner, base: usize) -> Result<Option<KnockoutReport>, RefereeError> {
    let field = runner.field().defs.len();
    let mut slots = bracket(field);
    let mut matches = Vec::new();
    let mut round = 1;
    loop {
        let mut live: Vec<Live> = slots
            .iter()
            .enumerate()
            .filter_map(|(slot, &(a, b))| b.map(|b| Live { round, slot, a, b, target: base, results: Vec::new() }))
            .collect();
        runner.plan_games(live.len() * base);
        loop {
            // The games still to play in this round: the recorded ones counted, the others
            // made one by one as workers take them. Both go to their matches below.
            let spans: Vec<Span> = live.iter().map(Span::of).collect();
            let before = runner.results().len();
            let done = runner.resume_all(round_games(&spans))?;
            let left = spans.iter().map(|s| s.to - s.from).sum::<usize>() - done.len();
            runner.play(round_games(&spans).filter(|game| !done.contains(&game.id)), left)?;
            if runner.interrupted() {
                return Ok(None);
            }
            for result in runner.results()[before..].iter().cloned() {
                if let Some(m) = live.iter_mut().find(|m| {
                    let (x, y) = (result.black.min(result.white), result.black.max(result.white));
                    (x, y) == (m.a.min(m.b), m.a.max(m.b)) && result.round == m.round
                }) {
                    m.results.push(result);
                }
            }
            let mut more = false;
            for m in &mut live {
                let (x, y) = m.score();
                let tie_breaks = (m.target - base) / 2;
                if m.results.len() >= m.target && x == y && tie_breaks < MAX_TIE_BREAK_PAIRS && !m.last_games_void(base)
                {
                    m.target += 2;
                    runner.plan_games(2);
                    more = true;
                }
            }
            if !more {
                break;
            }
        }
        let mut winners = Vec::new();
        for &(a, b) in &slots {
            let Some(b) = b else {
                matches.push(KnockoutMatch {
                    round,
                    engines: (a, None),
                    score: (0, 0),
                    void: 0,
                    tie_breaks: 0,
                    by_seed: false,
                    winner: a,
                });
                winners.push(a);
                continue;
            };
            let Some(m) = live.iter().find(|m| m.a == a && m.b == b) else { continue };
            let (x, y) = m.score();
            let winner = if x >= y { a } else { b };
            matches.push(KnockoutMatch {
                round,
                engines: (a, Some(b)),
                score: (x, y),
                void: m.void(),
                tie_breaks: (m.target - base) / 2,
                by_seed: x == y,
                winner,
            });
            winners.push(winner);
        }
        if winners.len() <= 1 {
            let champion = winners.first().copied().unwrap_or(0);
            return Ok(Some(KnockoutReport { matches, champion }));
        }
        slots = winners
            .chunks(2)
            .map(|pair| match *pair {
                [x, y] => (x.min(y), Some(x.max(y))),
                [x] => (x, None),
                _ => (0, None),
            })
            .collect();
        round += 1;
    }
}
