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
    GameRecord, RecordError, RecordFileError, parse_complete_records, parse_records, read_record_file,
};

/// Why a record file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read (missing, not a regular file, too big, not UTF-8).
    File(RecordFileError),
    /// A syntax error (with its line), or a file whose only game is unfinished.
    Syntax(RecordError),
}

/// Reads the complete games of the record file `path`, and a warning naming the file and
/// line when its last game is cut short (that game is left out). A file with no complete
/// game before the cut is refused as [`parse_records`] refuses it.
pub fn read_complete(path: &Path) -> Result<(Vec<GameRecord>, Option<String>), ReadError> {
    let text = read_record_file(path).map_err(ReadError::File)?;
    let (games, end) = parse_complete_records(&text).map_err(ReadError::Syntax)?;
    let rest = &text[end..];
    if rest.trim().is_empty() {
        return Ok((games, None));
    }
    // What is left may be no game at all (comments); and a file without a complete game
    // is refused as parse_records refuses it.
    match parse_records(&text) {
        Ok(all) => return Ok((all, None)),
        Err(e) if games.is_empty() => return Err(ReadError::Syntax(e)),
        Err(_) => {}
    }
    let blank = &rest[..rest.len() - rest.trim_start().len()];
    let line = text[..end].matches('\n').count() + blank.matches('\n').count() + 1;
    let warning = format!("{}:{line}: the last game is cut short (an interrupted write): skipped", path.display());
    Ok((games, Some(warning)))
}

/// Finds games recorded twice (see the module documentation).
#[derive(Debug, Default)]
pub struct Duplicates {
    seen: HashSet<(Option<usize>, String, String, String)>,
}

impl Duplicates {
    /// Whether `game`, of the `file`-th file read, is a game seen before.
    pub fn is_repeat(&mut self, file: usize, game: &GameRecord) -> bool {
        let tag = |name: &str| game.tag(name).map(str::trim).unwrap_or("").to_string();
        let key = match game.tag("Game") {
            Some(id) => (None, tag("Event"), tag("Tournament"), id.trim().to_string()),
            None if game.tag("Round").is_some() => (Some(file), tag("Event"), String::new(), tag("Round")),
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
