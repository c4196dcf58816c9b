//! Match statistics from game outcomes, built on [`crate::stats`], and their reports:
//! the final summary and the live progress line.
//!
//! The progress line is written here rather than with a progress-bar crate (indicatif and
//! the like): it is one line of statistics (score, Elo, LLR, ETA) that must read the same
//! in a log file or a Slurm job's output as on a terminal, where only its redrawing
//! differs; a bar adds nothing a tournament log can keep.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::referee::game::Termination;
use crate::stats::{EloInterval, Pentanomial, Score, Sprt, SprtDecision};
use veletas_rules::Color;

/// What the statistics need to know of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// The game number in the match, from 0; games `2k` and `2k + 1` form pair `k`.
    pub round: usize,
    /// Whether the first engine played Black.
    pub engine1_black: bool,
    /// The winner; `None` for a void game (no engine moved), which counts for no one.
    pub winner: Option<Color>,
    /// How the game ended.
    pub termination: Termination,
    /// Whether an engine's `final_score` disagreed with the result.
    pub disagreement: bool,
}

impl GameOutcome {
    /// Whether the first engine won; `None` for a void game.
    pub fn engine1_won(&self) -> Option<bool> {
        self.winner.map(|winner| (winner == Color::Black) == self.engine1_black)
    }
}

/// SPRT bounds as given to `--sprt ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl SprtSpec {
    /// The test (valid by construction).
    pub fn sprt(&self) -> Option<Sprt> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta)
    }
}

/// The largest SPRT Elo bound, in absolute value (a win rate of 99.7%).
pub const MAX_SPRT_ELO: f64 = 1000.0;

impl FromStr for SprtSpec {
    type Err = SprtSpecError;
    fn from_str(s: &str) -> Result<SprtSpec, SprtSpecError> {
        let numbers: Result<Vec<f64>, _> = s.split(',').map(|x| x.trim().parse::<f64>()).collect();
        let spec = match numbers.as_deref() {
            Ok(&[elo0, elo1]) => SprtSpec { elo0, elo1, alpha: 0.05, beta: 0.05 },
            Ok(&[elo0, elo1, alpha, beta]) => SprtSpec { elo0, elo1, alpha, beta },
            _ => return Err(SprtSpecError::Shape(s.to_string())),
        };
        if [spec.elo0, spec.elo1].iter().any(|elo| !elo.is_finite() || elo.abs() > MAX_SPRT_ELO) {
            return Err(SprtSpecError::EloRange(s.to_string()));
        }
        match spec.sprt() {
            Some(_) => Ok(spec),
            None => Err(SprtSpecError::Bounds(s.to_string())),
        }
    }
}

/// Why a text is no [`SprtSpec`] (the text as given, quoted when shown).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtSpecError {
    /// Not two or four numbers joined by commas.
    #[error("expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, not '{}'", veletas_rules::quoted(.0))]
    Shape(String),
    /// An Elo bound beyond [`MAX_SPRT_ELO`].
    #[error("invalid SPRT '{}': the Elo bounds must be from -{MAX_SPRT_ELO} to {MAX_SPRT_ELO}", veletas_rules::quoted(.0))]
    EloRange(String),
    /// Bounds that make no test.
    #[error("invalid SPRT '{}': need elo0 < elo1, 0 < alpha, beta and alpha + beta < 1", veletas_rules::quoted(.0))]
    Bounds(String),
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtReport {
    /// The bounds asked for.
    pub spec: SprtSpec,
    /// The log-likelihood ratio over the complete pairs (pentanomial).
    pub llr: f64,
    /// The lower and upper LLR bounds.
    pub bounds: (f64, f64),
    /// The decision at this LLR.
    pub decision: SprtDecision,
    /// The complete pairs the LLR is computed from.
    pub pairs: u64,
}

/// The statistics of a match, from the first engine's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// The engines' names (first and second `--engine`).
    pub names: [String; 2],
    /// Games planned (`--games`).
    pub planned: usize,
    /// Games finished and counted (void games are not).
    pub games: u64,
    /// Void games (no engine moved before the failure that ended them), by how they
    /// ended; they count nowhere else.
    pub void: Vec<(Termination, u64)>,
    /// The first engine's wins and losses.
    pub score: Score,
    /// The first engine's wins and losses with Black.
    pub as_black: Score,
    /// The first engine's wins and losses with White.
    pub as_white: Score,
    /// Games won by Black and by White, whoever played them.
    pub colour_wins: [u64; 2],
    /// Complete pairs by the first engine's points: `[0, 0.5, 1, 1.5, 2]`.
    pub pentanomial: Pentanomial,
    /// Elo of the first engine from single games, with its 95% interval.
    pub elo: Option<EloInterval>,
    /// Elo from the pair statistics, with its 95% interval.
    pub pair_elo: Option<EloInterval>,
    /// Likelihood that the first engine is stronger.
    pub los: f64,
    /// The SPRT, if one was asked for.
    pub sprt: Option<SprtReport>,
    /// Counted games by how they ended (only terminations that occurred).
    pub terminations: Vec<(Termination, u64)>,
    /// Games where an engine's `final_score` disagreed with the result.
    pub disagreements: u64,
}

/// Running totals of a match, updated game by game: what the progress line and the
/// SPRT stopping rule need, in constant time per game.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// The first engine's wins and losses.
    pub score: Score,
    /// Complete pairs by the first engine's points (a pair with a void game is never
    /// complete).
    pub pentanomial: Pentanomial,
    /// Void games: finished, counted nowhere.
    pub void: u64,
    /// Finished games whose partner (round `r ^ 1`) is not finished yet: round -> won
    /// (`None`: void).
    pending: HashMap<usize, Option<bool>>,
    seen: HashSet<usize>,
}

impl Tally {
    /// Counts a game; a round already counted is ignored (returns `false`).
    pub fn add(&mut self, outcome: &GameOutcome) -> bool {
        if !self.seen.insert(outcome.round) {
            return false;
        }
        let won = outcome.engine1_won();
        match won {
            Some(won) => self.score.add(won),
            None => self.void += 1,
        }
        match (self.pending.remove(&(outcome.round ^ 1)), won) {
            (Some(Some(partner)), Some(won)) if outcome.round % 2 == 1 => self.pentanomial.add_games(partner, won),
            (Some(Some(partner)), Some(won)) => self.pentanomial.add_games(won, partner),
            (Some(_), _) => {} // a pair with a void game is never complete
            (None, _) => {
                self.pending.insert(outcome.round, won);
            }
        }
        true
    }

    /// The SPRT over the complete pairs.
    pub fn sprt(&self, spec: Option<SprtSpec>) -> Option<SprtReport> {
        let spec = spec?;
        let test = spec.sprt()?;
        let llr = test.llr(&self.pentanomial);
        let pairs = self.pentanomial.pairs();
        let decision = test.decision(llr);
        Some(SprtReport { spec, llr, bounds: test.bounds(), decision, pairs })
    }

    /// The live progress line: games done, score, Elo so far, LLR, and the ETA if known.
    pub fn progress_line(
        &self,
        names: &[String; 2],
        planned: usize,
        sprt: Option<SprtSpec>,
        eta: Option<Duration>,
    ) -> String {
        let mut line = format!(
            "[{}/{planned}] {} {} - {} {}",
            self.score.games() + self.void,
            names[0],
            self.score.wins,
            self.score.losses,
            names[1]
        );
        if self.void > 0 {
            line.push_str(&format!(" ({} void)", self.void));
        }
        if let Some(elo) = self.score.elo_interval() {
            line.push_str(&format!(", Elo {}", format_elo(elo)));
        }
        if let Some(s) = self.sprt(sprt) {
            line.push_str(&format!(", LLR {:.2}", s.llr));
        }
        if let Some(eta) = eta {
            let secs = eta.as_secs();
            line.push_str(&format!(", ETA {}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60));
        }
        line
    }
}

impl MatchSummary {
    /// The statistics of `outcomes` (in any order; for a round listed twice the first counts).
    pub fn new(names: [String; 2], planned: usize, outcomes: &[GameOutcome], sprt: Option<SprtSpec>) -> MatchSummary {
        let mut tally = Tally::default();
        let (mut as_black, mut as_white) = (Score::default(), Score::default());
        let mut colour_wins = [0u64; 2];
        let mut counts = [0u64; Termination::ALL.len()];
        let mut void_counts = [0u64; Termination::ALL.len()];
        let mut disagreements = 0;
        for o in outcomes {
            if !tally.add(o) {
                continue;
            }
            let i = Termination::ALL.iter().position(|&t| t == o.termination).unwrap_or(0);
            let (Some(winner), Some(won)) = (o.winner, o.engine1_won()) else {
                void_counts[i] += 1;
                continue;
            };
            if o.engine1_black {
                as_black.add(won)
            } else {
                as_white.add(won)
            }
            colour_wins[winner.index()] += 1;
            disagreements += u64::from(o.disagreement);
            counts[i] += 1;
        }
        let occurred = |counts: [u64; Termination::ALL.len()]| {
            Termination::ALL.into_iter().zip(counts).filter(|&(_, n)| n > 0).collect::<Vec<_>>()
        };
        let (terminations, void) = (occurred(counts), occurred(void_counts));
        let (score, pentanomial) = (tally.score, tally.pentanomial);
        MatchSummary {
            names,
            planned,
            games: score.games(),
            void,
            score,
            as_black,
            as_white,
            colour_wins,
            pentanomial,
            elo: score.elo_interval(),
            pair_elo: pentanomial.elo_interval(),
            los: score.los(),
            sprt: tally.sprt(sprt),
            terminations,
            disagreements,
        }
    }

    /// The summary's sentences, each a label and what it says: the text summary writes each
    /// as a line `LABEL: VALUE`, the HTML report as a labelled line ([`MatchSummary::panel`]),
    /// so that both say the same in the same words.
    pub fn sentences(&self) -> Vec<(String, String)> {
        let [a, b] = &self.names;
        let pct = self.score.fraction().map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        let elo = match self.elo {
            Some(elo) => {
                let note = game_note(elo).map_or(String::new(), |note| format!(", {note}"));
                format!("{} (95%{note}), LOS {:.1}%", format_elo(elo), 100.0 * self.los)
            }
            None => "no games".to_string(),
        };
        let pair_elo =
            self.pair_elo.map_or(String::new(), |elo| format!(", pair Elo {}{}", format_elo(elo), pair_note(elo)));
        let ends: Vec<String> = self.terminations.iter().map(|(t, n)| format!("{t} {n}")).collect();
        let mut sentences = vec![
            (
                "Match".to_string(),
                format!(
                    "{a} (engine 1) vs {b} (engine 2), {} of {} games{}",
                    self.games,
                    self.planned,
                    self.void_note()
                ),
            ),
            (format!("Score of {a} vs {b}"), format!("{} - {} ({pct})", self.score.wins, self.score.losses)),
            (
                format!("{a} with Black"),
                format!(
                    "{} - {}; with White: {} - {}; Black won {}, White won {}",
                    self.as_black.wins,
                    self.as_black.losses,
                    self.as_white.wins,
                    self.as_white.losses,
                    self.colour_wins[0],
                    self.colour_wins[1]
                ),
            ),
            ("Elo difference".to_string(), elo),
            (
                "Pairs".to_string(),
                format!("{} [{}]{pair_elo}", self.pentanomial.pairs(), pair_buckets(&self.pentanomial)),
            ),
            ("Endings".to_string(), if ends.is_empty() { "-".to_string() } else { ends.join(", ") }),
        ];
        if self.disagreements > 0 {
            sentences.push(("final_score disagreements".to_string(), self.disagreements.to_string()));
        }
        if let Some(s) = self.sprt {
            sentences.push(s.sentence());
        }
        sentences
    }

    /// The summary as the HTML report shows it: its [sentences](MatchSummary::sentences) as
    /// labelled lines; `engines` are the names the records hold.
    pub fn panel(&self, engines: [String; 2]) -> crate::report::MatchPanel {
        crate::report::MatchPanel { engines, lines: self.sentences(), notes: Vec::new() }
    }

    /// `, and 3 void (timeout 3): not counted`, or nothing without void games.
    fn void_note(&self) -> String {
        let total: u64 = self.void.iter().map(|(_, n)| n).sum();
        if total == 0 {
            return String::new();
        }
        let kinds: Vec<String> = self.void.iter().map(|(t, n)| format!("{t} {n}")).collect();
        format!(", and {total} void ({}: no engine moved; not counted)", kinds.join(", "))
    }

    /// Whether the SPRT has reached a decision.
    pub fn sprt_decided(&self) -> bool {
        self.sprt.is_some_and(|s| s.decision != SprtDecision::Continue)
    }
}

fn signed(x: f64) -> String {
    let x = x + 0.0; // no "-0.0"
    if x.is_infinite() { if x > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{x:+.1}") }
}

/// `+12.3 ± 45.6 [-33.3, +57.9]`: the estimate, half the interval's width, the interval.
/// The interval is Wilson's turned into Elo, so it is not symmetric around the estimate:
/// `±` is only half its width; the bounds are the figures to read. They are finite
/// (see [`crate::stats`]).
pub fn format_elo(elo: EloInterval) -> String {
    let half = (elo.upper - elo.lower) / 2.0;
    let half = if half.is_finite() { format!("{half:.1}") } else { "inf".into() };
    format!("{} ± {half} [{}, {}]", signed(elo.elo), signed(elo.lower), signed(elo.upper))
}

/// What the single-game Elo of a perfect or zero score says of its correction.
fn game_note(elo: EloInterval) -> Option<&'static str> {
    elo.adjusted.then_some("half a game added to each side")
}

/// What the pair Elo of pairs all in one bucket says of its correction.
fn pair_note(elo: EloInterval) -> &'static str {
    if elo.adjusted { " (half a pair added to LL and to WW)" } else { "" }
}

impl fmt::Display for MatchSummary {
    /// The final summary, a line a [sentence](MatchSummary::sentences).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (label, value) in self.sentences() {
            writeln!(f, "{label}: {value}")?;
        }
        Ok(())
    }
}

impl SprtReport {
    /// The summary's SPRT sentence: the test, then the LLR, its bounds and the decision.
    pub fn sentence(&self) -> (String, String) {
        let decision = match self.decision {
            SprtDecision::Continue => "continue (no decision yet)",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        };
        let s = self;
        (
            format!("SPRT elo0 {} elo1 {} alpha {} beta {}", s.spec.elo0, s.spec.elo1, s.spec.alpha, s.spec.beta),
            format!("LLR {:.3} bounds [{:.3}, {:.3}]: {decision}", s.llr, s.bounds.0, s.bounds.1),
        )
    }

    /// The summary's SPRT line: [`SprtReport::sentence`] as `LABEL: VALUE`.
    pub fn line(&self) -> String {
        let (label, value) = self.sentence();
        format!("{label}: {value}")
    }
}

/// The complete pairs by engine 1's points: `LL 10, WL 20, WW 20` (both games lost, one
/// each, both won). A Veletas game has no draws, so the pentanomial's draw buckets (LD,
/// WD, and DD beside WL) are shown only if a pair ever lands in them.
fn pair_buckets(pentanomial: &Pentanomial) -> String {
    let [ll, ld, wl, wd, ww] = pentanomial.counts;
    let mut parts = vec![format!("LL {ll}")];
    if ld > 0 {
        parts.push(format!("LD {ld}"));
    }
    parts.push(if ld + wd > 0 { format!("WL/DD {wl}") } else { format!("WL {wl}") });
    if wd > 0 {
        parts.push(format!("WD {wd}"));
    }
    parts.push(format!("WW {ww}"));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_specs_parse_and_validate() {
        let s: SprtSpec = "0,10".parse().unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        let s: SprtSpec = "-5, 5, 0.1, 0.2".parse().unwrap();
        assert_eq!((s.elo0, s.beta), (-5.0, 0.2));
        let shape = |s: &str| SprtSpecError::Shape(s.to_string());
        let bounds = |s: &str| SprtSpecError::Bounds(s.to_string());
        for (bad, why) in [
            ("10,0", bounds("10,0")),
            ("1", shape("1")),
            ("a,b", shape("a,b")),
            ("0,5,0.6,0.5", bounds("0,5,0.6,0.5")),
            ("0,5,0.1", shape("0,5,0.1")),
            ("0,2000", SprtSpecError::EloRange("0,2000".into())),
        ] {
            assert_eq!(bad.parse::<SprtSpec>(), Err(why), "{bad}");
        }
    }
}
