//! Record files as the readers (`view`, `render`, `ratings`) take them: a file whose last
//! game was cut short by an interrupted write, and a game recorded twice, are warned
//! about and skipped, not refused or counted twice.
//!
//! A game is the same game as another when both have a `Game` tag (tournaments) and the
//! same `Event`, `Tournament` and `Game` tags, in any of the files read; or, without a
//! `Game` tag (matches), when one file holds two games of the same `Event` and `Round`
//! (a match's record file holds one match, and every round once).

use std::collections::HashSet;
use std::path::Path;

use veletas_rules::record::{
    GameRecord, ReadGamesError, RecordError, RecordItem, ResultCheck, read_games, read_games_each, tag,
};

/// Reads the complete games of the record file `path` ([`read_games`]: bounded), and a
/// warning naming the file and line when its last game is cut short (that game is left
/// out). A file with no complete game before the cut is refused.
pub fn read_complete(path: &Path) -> Result<(Vec<GameRecord>, Option<String>), ReadGamesError> {
    let file = read_games(path)?;
    let Some(line) = file.cut_short else { return Ok((file.games, None)) };
    if file.games.is_empty() {
        return Err(ReadGamesError::Syntax(RecordError {
            line: Some(line),
            message: "the game starting here has no result token".into(),
        }));
    }
    let warning = format!("{}:{line}: the last game is cut short (an interrupted write): skipped", path.display());
    Ok((file.games, Some(warning)))
}

/// Reads the record file `path` a game at a time ([`read_games_each`]: its memory is one
/// line and one game, whatever the file holds), handing each complete game and its number
/// in the file to `each`; what was cut on the way (a tag too long) and a last game cut
/// short (skipped) are warned about on stderr, naming the file and the line. A file with
/// no complete game before the cut is refused. Returns whether the last game was cut short.
pub fn read_each(path: &Path, mut each: impl FnMut(usize, GameRecord)) -> Result<bool, ReadGamesError> {
    let mut games = 0;
    let end = read_games_each(path, |item| match item {
        RecordItem::Game(game) => {
            games += 1;
            each(games, game);
        }
        RecordItem::Warning(e) => {
            warn(&format!("{}:{}: {}", path.display(), e.line.unwrap_or(0), e.message));
        }
    })?;
    let Some(line) = end.cut_short else { return Ok(false) };
    if games == 0 {
        return Err(ReadGamesError::Syntax(RecordError {
            line: Some(line),
            message: "the game starting here has no result token".into(),
        }));
    }
    warn(&format!("{}:{line}: the last game is cut short (an interrupted write): skipped", path.display()));
    Ok(true)
}

/// A game whose moves do not replay ([`check_result`]): `game 3 (round 2), a vs b: ...`.
#[derive(Debug, thiserror::Error)]
#[error("{game}: {error}")]
pub struct UnreplayableGame {
    /// The game as [`GameRecord::describe`] names it.
    game: String,
    #[source]
    error: RecordError,
}

/// Checks the result of game `number` of the file `name` against its moves (see
/// [`check_results`]), warning about a claim they contradict.
pub fn check_result(name: &str, number: usize, game: &GameRecord) -> Result<ResultCheck, UnreplayableGame> {
    let check = game.check_result().map_err(|error| UnreplayableGame { game: game.describe(number), error })?;
    if let Some(warning) = &check.warning {
        warn(&format!("{name}: {}: {warning}", game.describe(number)));
    }
    Ok(check)
}

/// Checks the result of every game of the file `name` against its moves
/// ([`GameRecord::check_result`]: the replay decides) and warns on stderr, naming the
/// file and the game, about every claim the moves or the tags contradict. A game that
/// does not replay is `Err` with the one-line reason (not warned about here).
pub fn check_results(name: &str, games: &[GameRecord]) -> Vec<Result<ResultCheck, UnreplayableGame>> {
    games.iter().enumerate().map(|(i, game)| check_result(name, i + 1, game)).collect()
}

/// Finds games recorded twice (see the module documentation).
#[derive(Debug, Default)]
pub struct Duplicates {
    seen: HashSet<(Option<usize>, String, String, String)>,
}

impl Duplicates {
    /// Whether `game`, of the `file`-th file read, is a game seen before.
    pub fn is_repeat(&mut self, file: usize, game: &GameRecord) -> bool {
        let text = |name: &str| game.tag(name).map(str::trim).unwrap_or("").to_string();
        let key = match game.tag(tag::GAME) {
            Some(id) => (None, text(tag::EVENT), text(tag::TOURNAMENT), id.trim().to_string()),
            None if game.tag(tag::ROUND).is_some() => (Some(file), text(tag::EVENT), String::new(), text(tag::ROUND)),
            None => return false,
        };
        !self.seen.insert(key)
    }
}

/// Prints a reader's warning: one line on stderr, control characters as spaces.
pub fn warn(message: &str) {
    let line: String = message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    eprintln!("warning: {line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(tags: &[(&str, &str)]) -> GameRecord {
        let mut record = GameRecord::default();
        for (name, value) in tags {
            record.set_tag(name, *value);
        }
        record
    }

    #[test]
    fn repeats_are_tournament_game_ids_anywhere_and_match_rounds_within_a_file() {
        let mut seen = Duplicates::default();
        let g1 = game(&[("Event", "e"), ("Tournament", "t"), ("Game", "1-2")]);
        assert!(!seen.is_repeat(0, &g1));
        assert!(seen.is_repeat(1, &g1));
        let other_event = game(&[("Event", "f"), ("Tournament", "t"), ("Game", "1-2")]);
        assert!(!seen.is_repeat(1, &other_event));
        let round = game(&[("Event", "m"), ("Round", "3")]);
        assert!(!seen.is_repeat(0, &round));
        assert!(seen.is_repeat(0, &round));
        assert!(!seen.is_repeat(1, &round), "another match's round 3");
        let bare = game(&[("Event", "m")]);
        assert!(!seen.is_repeat(0, &bare) && !seen.is_repeat(0, &bare));
    }
}
