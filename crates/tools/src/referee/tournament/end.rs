//! The end of a tournament: the standings, crosstable and LOS matrix from
//! [`crate::ratings`], the knockout bracket, engines that could not start, and how games
//! ended.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::ratings::files::{BadAnchor, parse_anchor};
use crate::ratings::{RatedGame, RatingOptions, RatingsError, Standings, rate};
use crate::referee::tournament::{GameResult, TournamentReport};

/// The standings of `results` between the engines `names` (`None` without games);
/// `anchor` is `--anchor NAME=RATING`.
pub fn standings(
    names: &[String],
    results: &[GameResult],
    anchor: Option<&str>,
) -> Result<Option<Standings>, StandingsError> {
    let games: Vec<RatedGame> = results
        .iter()
        .filter_map(|r| Some(RatedGame::new(names[r.black].clone(), names[r.white].clone(), r.winner?)))
        .collect();
    let anchor = anchor.map(parse_anchor).transpose()?;
    if let Some((name, _)) = &anchor
        && !names.contains(name)
    {
        return Err(StandingsError::NoSuchEngine(name.clone()));
    }
    if games.is_empty() {
        return Ok(None);
    }
    Ok(Some(rate(&games, &RatingOptions { anchor })?))
}

/// Why a tournament's games give no standings (`standings`, `summary`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StandingsError {
    /// `--anchor` does not read.
    #[error(transparent)]
    Anchor(#[from] BadAnchor),
    /// `--anchor` names no engine of the field.
    #[error("--anchor: no engine is named '{}'", veletas_rules::quoted(.0))]
    NoSuchEngine(String),
    /// The games cannot be rated.
    #[error(transparent)]
    Ratings(#[from] RatingsError),
}

/// The summary printed at the end: `anchor` is `--anchor NAME=RATING`, `head_to_head`
/// adds every pair's own Elo.
pub fn summary(report: &TournamentReport, anchor: Option<&str>, head_to_head: bool) -> Result<String, StandingsError> {
    let mut out = String::new();
    let names = &report.names;
    // Void games (no engine moved) are not games played: they are counted apart, as in a
    // match's summary.
    let voided = report.results.iter().filter(|r| r.winner.is_none()).count();
    let played = report.results.len() - voided;
    let voided = if voided > 0 { format!(", and {voided} void") } else { String::new() };
    let _ = match report.shard {
        Some(((k, n), whole)) => writeln!(
            out,
            "Tournament {}, shard {k} of {n}: {played} of the shard's {} games played{voided} ({whole} in the whole tournament)",
            report.fingerprint, report.planned
        ),
        None => writeln!(out, "Tournament {}: {played} of {} games played{voided}", report.fingerprint, report.planned),
    };
    if let Some(knockout) = &report.knockout {
        let _ = write!(out, "{}", knockout.display(names));
    }
    match standings(names, &report.results, anchor)? {
        None => {
            let _ = writeln!(out, "No games: nothing to rate.");
        }
        Some(standings) => out.push_str(&standings.text(head_to_head)),
    }
    if let Some(sprt) = &report.sprt {
        let _ = writeln!(out, "{}", sprt.line());
    }
    let (mut endings, mut void): (BTreeMap<&str, usize>, BTreeMap<&str, usize>) = Default::default();
    for r in &report.results {
        let counts = if r.winner.is_some() { &mut endings } else { &mut void };
        *counts.entry(r.termination.as_str()).or_default() += 1;
    }
    let line = |counts: &BTreeMap<&str, usize>| counts.iter().map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>();
    if !endings.is_empty() {
        let _ = writeln!(out, "Games ended: {}", line(&endings).join(", "));
    }
    if !void.is_empty() {
        let total: usize = void.values().sum();
        let _ = writeln!(out, "Void games: {total} ({}): no engine moved; not counted", line(&void).join(", "));
    }
    let disagreements = report.results.iter().filter(|r| r.disagreement).count();
    if disagreements > 0 {
        let _ = writeln!(out, "final_score disagreements: {disagreements} (see the records' Disagreement tags)");
    }
    Ok(out)
}
