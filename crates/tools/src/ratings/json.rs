//! `veletas ratings --format json`: the standings as typed structs serialized by serde_json
//! (and read back by the tests with the same structs), laid out one engine, one matrix
//! row, one pair per line.

use serde::{Deserialize, Serialize};

use super::Standings;

/// The whole JSON object (see docs/ratings.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingsJson {
    /// Games rated.
    pub games: u64,
    /// The anchor, when one was asked for.
    pub anchor: Option<AnchorJson>,
    /// Groups of engines with no games between them.
    pub groups: usize,
    /// The engines, best first.
    pub engines: Vec<EngineJson>,
    /// `crosstable[i][j]`: engine `i`'s games against engine `j` (`null` on the diagonal).
    pub crosstable: Vec<Vec<Option<CellJson>>>,
    /// `los[i][j]`, to 4 decimals.
    pub los: Vec<Vec<f64>>,
    /// With `--head-to-head`: every pair that met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<Vec<PairJson>>,
    /// The notes under the tables.
    pub notes: Vec<String>,
}

/// The anchor: an engine and its rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnchorJson {
    /// The engine.
    pub name: String,
    /// Its rating.
    pub rating: Option<f64>,
}

/// Wins of one engine, and games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColourJson {
    /// Wins with the colour.
    pub wins: u64,
    /// Games with the colour.
    pub games: u64,
}

/// One engine's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineJson {
    /// Rank, from 1.
    pub rank: usize,
    /// Name.
    pub name: String,
    /// Elo, one decimal (`null` if not finite).
    pub rating: Option<f64>,
    /// Its error, one decimal.
    pub error: Option<f64>,
    /// `""`, `">"`, `"<"` or `"~"`.
    pub mark: String,
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Score, percent, one decimal.
    pub score: Option<f64>,
    /// With Black.
    pub black: ColourJson,
    /// With White.
    pub white: ColourJson,
}

/// A crosstable cell.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellJson {
    /// The row engine's wins.
    pub wins: u64,
    /// Its losses.
    pub losses: u64,
}

/// A pair's own Elo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairJson {
    /// The better-ranked engine.
    pub first: String,
    /// The other.
    pub second: String,
    /// The first's wins.
    pub wins: u64,
    /// Its losses.
    pub losses: u64,
    /// Elo of the first over the second.
    pub elo: Option<f64>,
    /// Lower bound (95%).
    pub lower: Option<f64>,
    /// Upper bound (95%).
    pub upper: Option<f64>,
    /// The first's likelihood of superiority from these games alone, to 4 decimals (as
    /// `veletas match` computes it).
    #[serde(default)]
    pub los: f64,
    /// Whether half a game was added to each side.
    pub adjusted: bool,
}

impl RatingsJson {
    /// The JSON view of `standings`.
    pub fn of(s: &Standings, head_to_head: bool) -> RatingsJson {
        let colour = |score: crate::stats::Score| ColourJson { wins: score.wins, games: score.games() };
        RatingsJson {
            games: s.games,
            anchor: s
                .anchor
                .as_ref()
                .map(|(name, rating)| AnchorJson { name: name.clone(), rating: tenths_value(*rating) }),
            groups: s.groups,
            engines: s
                .engines
                .iter()
                .map(|e| EngineJson {
                    rank: e.rank,
                    name: e.name.clone(),
                    rating: tenths_value(e.rating),
                    error: tenths_value(e.error),
                    mark: e.mark.symbol().to_string(),
                    games: e.games(),
                    wins: e.score().wins,
                    score: tenths_value(e.score_percent()),
                    black: colour(e.as_black),
                    white: colour(e.as_white),
                })
                .collect(),
            crosstable: s
                .crosstable
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    let cell = |(j, c): (usize, &crate::stats::Score)| {
                        (i != j).then_some(CellJson { wins: c.wins, losses: c.losses })
                    };
                    row.iter().enumerate().map(cell).collect()
                })
                .collect(),
            los: s.los.iter().map(|row| row.iter().map(|p| (p * 1e4).round() / 1e4).collect()).collect(),
            head_to_head: head_to_head.then(|| {
                s.head_to_head()
                    .iter()
                    .map(|p| PairJson {
                        first: s.engines[p.first].name.clone(),
                        second: s.engines[p.second].name.clone(),
                        wins: p.score.wins,
                        losses: p.score.losses,
                        elo: tenths_value(p.interval.elo),
                        lower: tenths_value(p.interval.lower),
                        upper: tenths_value(p.interval.upper),
                        los: (p.los() * 1e4).round() / 1e4,
                        adjusted: p.interval.adjusted,
                    })
                    .collect()
            }),
            notes: s.notes.clone(),
        }
    }

    /// The text: one member a line, and one element a line in the lists of engines,
    /// crosstable and LOS rows and pairs; each element as serde_json writes it, with a
    /// space after every `:` and `,`.
    pub fn text(&self) -> Result<String, serde_json::Error> {
        let mut members = vec![
            ("games", spaced(&self.games)?),
            ("anchor", spaced(&self.anchor)?),
            ("groups", spaced(&self.groups)?),
            ("engines", lines(&self.engines)?),
            ("crosstable", lines(&self.crosstable)?),
            ("los", lines(&self.los)?),
        ];
        if let Some(pairs) = &self.head_to_head {
            members.push(("head_to_head", lines(pairs)?));
        }
        members.push(("notes", spaced(&self.notes)?));
        let members: Vec<String> = members.into_iter().map(|(name, value)| format!("  \"{name}\": {value}")).collect();
        Ok(format!("{{\n{}\n}}\n", members.join(",\n")))
    }
}

/// A list with one element a line.
fn lines<T: Serialize>(items: &[T]) -> Result<String, serde_json::Error> {
    if items.is_empty() {
        return Ok("[]".into());
    }
    let items: Result<Vec<String>, _> = items.iter().map(|item| spaced(item).map(|t| format!("    {t}"))).collect();
    Ok(format!("[\n{}\n  ]", items?.join(",\n")))
}

/// serde_json's compact text with a space after `:` and `,`.
fn spaced<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, Spaced))?;
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// The formatter of [`spaced`].
struct Spaced;

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

/// A JSON number with one decimal (halves away from zero, never `-0.0`), or `None`
/// (`null`) for infinities and NaN (JSON has neither).
pub(crate) fn tenths_value(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 10.0).round() / 10.0 + 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::{RatedGame, RatingOptions, rate};

    #[test]
    fn the_text_reads_back_as_the_same_structs() {
        let games = [("a\"<x>", "b"), ("a\"<x>", "b"), ("b", "a\"<x>"), ("c\n", "a\"<x>"), ("b", "c\n")]
            .iter()
            .map(|&(black, white)| RatedGame::new(black, white, veletas_rules::Color::Black))
            .collect::<Vec<_>>();
        let standings = rate(&games, &RatingOptions::default()).unwrap();
        for head_to_head in [false, true] {
            let json = RatingsJson::of(&standings, head_to_head);
            let text = json.text().unwrap();
            let read: RatingsJson = serde_json::from_str(&text).unwrap();
            assert_eq!(read, json, "{text}");
            assert_eq!(read.head_to_head.is_some(), head_to_head);
            assert_eq!(read.engines.len(), 3);
            assert!(text.contains("\"name\": \"a\\\"<x>\""), "{text}");
        }
    }
}
