//! `veletas ratings FILE...`: the standings of the games in record files.
//!
//! Engines are told apart by the `Black` and `White` tags; the result token decides the
//! game (games without a result, `*`, are skipped and counted in a note, and so are games
//! of an engine against itself). Files of different tournaments are refused unless
//! `--mix` is given: games are grouped by their `Event` tag and their `Tournament` tag
//! (the fingerprint of a tournament's schedule, absent in `veletas match` records), and
//! the files must hold a single group.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use veletas_rules::Color;

use super::{RatedGame, RatingOptions, RatingsError, StandingsFormat, rate};
use crate::output::FilesError;
use veletas_rules::record::{GameRecord, ReadGamesError, tag};

/// What `veletas ratings` rates and how it prints them (the command line's `RatingsSettings`
/// become these).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingsSettings {
    /// Record files: of tournaments, matches or shards of one tournament.
    pub files: Vec<PathBuf>,
    /// What is written: the standings as text, CSV or JSON, or the HTML page.
    pub format: RatingsFormat,
    /// Pins one engine's rating (`NAME=RATING`) instead of a field mean of 0.
    pub anchor: Option<String>,
    /// Also print each pair's own Elo from its games against each other.
    pub head_to_head: bool,
    /// Rate records of different tournaments together.
    pub mix: bool,
    /// Write the output to this file (whole or not at all) instead of stdout.
    pub output: Option<PathBuf>,
}

/// What `veletas ratings --format` writes: the standings in one of the forms of
/// [`StandingsFormat`], or the self-contained HTML page of the report
/// (`crate::report::ratings_html`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RatingsFormat {
    /// Aligned tables for people.
    #[default]
    Text,
    /// `rank,name,rating,error,games,score`, one line per engine.
    Csv,
    /// One JSON object.
    Json,
    /// One HTML page: standings, crosstable, LOS and the games in the viewer.
    Html,
}

impl RatingsFormat {
    /// The form of the standings, or `None` for the HTML page (which is not a rendering of
    /// the standings alone: it shows the games too).
    pub fn standings(self) -> Option<StandingsFormat> {
        match self {
            RatingsFormat::Text => Some(StandingsFormat::Text),
            RatingsFormat::Csv => Some(StandingsFormat::Csv),
            RatingsFormat::Json => Some(StandingsFormat::Json),
            RatingsFormat::Html => None,
        }
    }
}

/// A `--format` that names no format of [`RatingsFormat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format '{}': expected text, csv, json or html", veletas_rules::quoted(.0))]
pub struct UnknownFormat(String);

impl FromStr for RatingsFormat {
    type Err = UnknownFormat;
    /// `text`, `csv`, `json` or `html`.
    fn from_str(s: &str) -> Result<RatingsFormat, UnknownFormat> {
        match s {
            "text" => Ok(RatingsFormat::Text),
            "csv" => Ok(RatingsFormat::Csv),
            "json" => Ok(RatingsFormat::Json),
            "html" => Ok(RatingsFormat::Html),
            _ => Err(UnknownFormat(s.to_string())),
        }
    }
}

/// The largest anchor rating, in absolute value: ratings far beyond it would print as
/// nonsense (`+9223372036854775807`) and mean nothing.
pub const MAX_ANCHOR: f64 = 100_000.0;

/// An `--anchor` that is not `NAME=RATING` with a rating within [`MAX_ANCHOR`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the anchor must be NAME=RATING with a rating from -{MAX} to {MAX}, not '{}'", veletas_rules::quoted(.0), MAX = MAX_ANCHOR)]
pub struct BadAnchor(String);

impl From<BadAnchor> for String {
    fn from(e: BadAnchor) -> String {
        e.to_string()
    }
}

/// Parses `NAME=RATING` (split at the last `=`: names may hold one, ratings never do).
pub fn parse_anchor(text: &str) -> Result<(String, f64), BadAnchor> {
    let bad = || BadAnchor(text.to_string());
    let (name, rating) = text.rsplit_once('=').ok_or_else(bad)?;
    let rating: f64 = rating.trim().parse().map_err(|_| bad())?;
    if name.is_empty() || !rating.is_finite() || rating.abs() > MAX_ANCHOR {
        return Err(bad());
    }
    Ok((name.to_string(), rating))
}

/// The games of one tournament: the `Event` tag and the `Tournament` fingerprint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Group {
    event: Option<String>,
    tournament: Option<String>,
}

impl Group {
    fn of(game: &GameRecord) -> Group {
        let text = |name: &str| game.tag(name).map(str::to_string);
        Group { event: text(tag::EVENT), tournament: text(tag::TOURNAMENT) }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.event {
            Some(event) => write!(f, "event \"{}\"", veletas_rules::quoted(event))?,
            None => write!(f, "no Event tag")?,
        }
        match &self.tournament {
            Some(t) => write!(f, " with tournament {}", veletas_rules::quoted(t)),
            None => write!(f, " without a Tournament tag"),
        }
    }
}

/// A record file's name (as given) and its games.
pub type NamedFile = (String, Vec<GameRecord>);

/// Games read from the files, and what was skipped.
#[derive(Debug, Default)]
struct Collected {
    games: Vec<RatedGame>,
    unfinished: usize,
    /// Void games (ended by a failure before any engine moved): played, counted for no one.
    void: usize,
    self_play: usize,
    /// Files whose last game was cut short (skipped).
    cut_short: usize,
    /// Games recorded twice (skipped).
    repeated: usize,
    /// Games whose result their moves or tags contradict (skipped, with a warning).
    contradicted: usize,
    /// Games whose moves do not replay (skipped, with a warning).
    unreplayable: usize,
    /// Each group seen, with the first file that holds it.
    groups: Vec<(Group, PathBuf)>,
    /// Every file's name and games, in the order given (its games only when kept).
    files: Vec<NamedFile>,
}

/// Why the games of the files cannot be rated ([`collect`]): one line naming the file.
#[derive(Debug, thiserror::Error)]
enum CollectError {
    /// A file given twice.
    #[error("{0}: given twice (its games would count twice)")]
    Twice(String),
    /// A file that cannot be read, or holds what is not a record: `FILE: cannot read: ...`
    /// or `FILE:LINE: ...`.
    #[error("{shown}{}", read_detail(.error))]
    Read {
        shown: String,
        #[source]
        error: ReadGamesError,
    },
    /// A game without a player's name.
    #[error("{shown}: game {number} has no {tag} tag")]
    NoPlayer { shown: String, number: usize, tag: &'static str },
}

/// What follows a file's name in [`CollectError::Read`].
fn read_detail(error: &ReadGamesError) -> String {
    match error {
        ReadGamesError::File(e) => format!(": cannot read: {e}"),
        ReadGamesError::Syntax(e) => match e.line {
            Some(line) => format!(":{line}: {}", e.message),
            None => format!(": {}", e.message),
        },
    }
}

/// Reads the games of `files` a game at a time: each is counted as it is read, and kept
/// (in `Collected::files`) only when `keep` (the HTML page shows them), so that the
/// memory is the games kept, not the bytes read.
fn collect(files: &[PathBuf], keep: bool) -> Result<Collected, CollectError> {
    let mut collected = Collected::default();
    let mut seen = HashSet::new();
    let mut repeats = crate::records::Duplicates::default();
    for path in files {
        let shown = path.display().to_string();
        if !seen.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.clone())) {
            return Err(CollectError::Twice(shown));
        }
        let index = collected.files.len();
        let (mut records, mut twice, mut failed) = (Vec::new(), 0, None);
        let cut = crate::records::read_each(path, |number, game| {
            if failed.is_some() {
                return;
            }
            if repeats.is_repeat(index, &game) {
                twice += 1;
                return;
            }
            if let Err(e) = count_game(&mut collected, path, &shown, number, &game) {
                failed = Some(e);
            } else if keep {
                records.push(game);
            }
        })
        .map_err(|error| CollectError::Read { shown: shown.clone(), error })?;
        if let Some(e) = failed {
            return Err(e);
        }
        if cut {
            collected.cut_short += 1;
        }
        if twice > 0 {
            crate::records::warn(&format!("{shown}: {twice} games recorded twice (the same game id): skipped"));
            collected.repeated += twice;
        }
        collected.files.push((shown, records));
    }
    Ok(collected)
}

/// Counts game `number` of the file `path` (shown as `shown`) in `collected`. The replay
/// decides its result: what a record claims against its moves is warned about, and a
/// claim it contradicts is not counted. A game without a player's name is the error.
fn count_game(
    collected: &mut Collected,
    path: &Path,
    shown: &str,
    number: usize,
    game: &GameRecord,
) -> Result<(), CollectError> {
    let player = |color: Color| match game.player(color).map(str::trim) {
        Some(value) if !value.is_empty() => Ok(value.to_string()),
        _ => {
            let tag = if color == Color::Black { tag::BLACK } else { tag::WHITE };
            Err(CollectError::NoPlayer { shown: shown.to_string(), number, tag })
        }
    };
    let (black, white) = (player(Color::Black)?, player(Color::White)?);
    let group = Group::of(game);
    if !collected.groups.iter().any(|(g, _)| *g == group) {
        collected.groups.push((group, path.to_path_buf()));
    }
    let check = match crate::records::check_result(shown, number, game) {
        Ok(check) => check,
        Err(e) => {
            crate::records::warn(&format!("{shown}: {e}: not counted"));
            collected.unreplayable += 1;
            return Ok(());
        }
    };
    if check.warning.is_some() && check.counted.is_none() {
        collected.contradicted += 1;
        return Ok(());
    }
    match check.counted {
        None if game.is_void() => collected.void += 1,
        None => collected.unfinished += 1,
        Some(_) if black == white => collected.self_play += 1,
        Some(winner) => collected.games.push(RatedGame { black, white, winner }),
    }
    Ok(())
}

/// Runs `veletas ratings` for the standings (text, CSV or JSON; the HTML page is
/// `crate::report::ratings_html`'s): the whole output, or the one-line error (without the
/// `veletas ratings:` prefix; control characters of file names, tags or arguments become
/// spaces). Nothing is printed here.
pub fn run_ratings(args: &RatingsSettings) -> Result<String, FilesError> {
    ratings(args).map_err(FilesError::without_controls)
}

fn ratings(args: &RatingsSettings) -> Result<String, FilesError> {
    let format = args
        .format
        .standings()
        .ok_or_else(|| FilesError::Options("the HTML page is written by the report, not as standings".to_string()))?;
    let (standings, _) = rate_files(args)?;
    Ok(standings.render(format, args.head_to_head))
}

/// The standings of the games of `args.files` (as `veletas ratings` rates them, notes
/// included) and every file's name and games, for pages that show both.
pub fn rate_files(args: &RatingsSettings) -> Result<(super::Standings, Vec<NamedFile>), FilesError> {
    use FilesError::{Input, Options};
    if args.files.is_empty() {
        return Err(Options("no record files given (usage: veletas ratings FILE...)".to_string()));
    }
    if let Some(output) = &args.output {
        let inputs: Vec<(&str, &Path)> = args.files.iter().map(|path| ("", path.as_path())).collect();
        crate::output::check_not_input(("-o", output), &inputs)?;
    }
    let anchor = args.anchor.as_deref().map(parse_anchor).transpose().map_err(|e| Options(e.to_string()))?;
    let mut collected = collect(&args.files, args.format == RatingsFormat::Html).map_err(|e| Input(e.to_string()))?;
    if collected.groups.len() > 1 && !args.mix {
        let (first, first_file) = &collected.groups[0];
        let (second, second_file) = &collected.groups[1];
        let second_place =
            if first_file == second_file { "also".to_string() } else { format!("{} has", second_file.display()) };
        return Err(Input(format!(
            "records of different tournaments: {} has {}, {second_place} {} (give --mix to rate them together)",
            first_file.display(),
            first,
            second
        )));
    }
    let skipped =
        collected.unfinished + collected.void + collected.self_play + collected.contradicted + collected.unreplayable;
    if collected.games.is_empty() {
        let files = args.files.len();
        return Err(Input(match skipped {
            0 => format!("no games in the {}", if files == 1 { "file" } else { "files" }),
            _ => format!("no decided games between two engines ({skipped} skipped)"),
        }));
    }
    let options = RatingOptions { anchor };
    let mut standings = rate(&collected.games, &options).map_err(|e| match e {
        RatingsError::UnknownAnchor(_) | RatingsError::BadAnchorRating(_) => Options(e.to_string()),
        e => Input(e.to_string()),
    })?;
    if collected.void > 0 {
        standings.notes.push(format!("{} void games (no engine moved) skipped", collected.void));
    }
    if collected.unfinished > 0 {
        standings.notes.push(format!("{} games without a result (*) skipped", collected.unfinished));
    }
    if collected.repeated > 0 {
        standings.notes.push(format!("{} games recorded twice skipped", collected.repeated));
    }
    if collected.contradicted > 0 {
        let n = collected.contradicted;
        standings.notes.push(format!("{n} games whose result their record contradicts skipped (warned above)"));
    }
    if collected.unreplayable > 0 {
        standings.notes.push(format!("{} games whose moves do not replay skipped", collected.unreplayable));
    }
    if collected.cut_short > 0 {
        standings.notes.push(format!("{} files end in a game cut short (skipped)", collected.cut_short));
    }
    if collected.self_play > 0 {
        standings.notes.push(format!("{} games of an engine against itself skipped", collected.self_play));
    }
    if collected.groups.len() > 1 {
        standings.notes.push(format!("games of {} tournaments mixed (--mix)", collected.groups.len()));
    }
    Ok((standings, std::mem::take(&mut collected.files)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_split_at_the_last_equals_sign() {
        assert_eq!(parse_anchor("random=0"), Ok(("random".into(), 0.0)));
        assert_eq!(parse_anchor("a=b=-12.5"), Ok(("a=b".into(), -12.5)));
        for bad in ["random", "=5", "x=", "x=inf", "x=NaN", "x=1e999"] {
            assert!(parse_anchor(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn formats_are_the_standings_three_and_the_page() {
        let parsed: Vec<RatingsFormat> = ["text", "csv", "json", "html"].iter().map(|s| s.parse().unwrap()).collect();
        assert_eq!(parsed, [RatingsFormat::Text, RatingsFormat::Csv, RatingsFormat::Json, RatingsFormat::Html]);
        let standings: Vec<Option<StandingsFormat>> = parsed.iter().map(|f| f.standings()).collect();
        assert_eq!(
            standings,
            [Some(StandingsFormat::Text), Some(StandingsFormat::Csv), Some(StandingsFormat::Json), None]
        );
        assert_eq!(
            "xml".parse::<RatingsFormat>().map_err(|e| e.to_string()),
            Err("unknown format 'xml': expected text, csv, json or html".into())
        );
        assert_eq!("HTML".parse::<RatingsFormat>().map_err(|_| ()), Err(()));
    }

    #[test]
    fn groups_name_event_and_tournament() {
        let g = Group { event: Some("t".into()), tournament: None };
        assert_eq!(g.to_string(), "event \"t\" without a Tournament tag");
        let g = Group { event: None, tournament: Some("ab12".into()) };
        assert_eq!(g.to_string(), "no Event tag with tournament ab12");
    }
}
