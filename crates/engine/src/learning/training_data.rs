//! What the training commands share (`veletas train-eval`, [`super::eval_trainer`],
//! `veletas train-policy`, [`super::policy_trainer`], and `veletas train-net`,
//! [`super::net_trainer`]): the games they learn from, streamed a game at a time by the
//! bounded record reader, numbered in file order and held out the same way, and replayed
//! turn by turn. Writing the weights file is the command line's part (a weights file is an
//! output like any other: written whole, never over an input).

use std::path::{Path, PathBuf};

use veletas_rules::Position;
use veletas_rules::record::{GameRecord, MAX_STREAMED_RECORD_FILE_BYTES, read_games_streamed};

/// The games a training command learns from: its record files, which games are held out,
/// and the L2 penalty of its fit.
#[derive(Debug, Clone)]
pub struct TrainingData {
    /// Record files of the training games.
    pub files: Vec<PathBuf>,
    /// Every N-th game (N at least 2) is held out for testing, see
    /// [`TrainingData::for_each_game`].
    pub holdout: u64,
    /// L2 penalty on the weights, per sample (see [`parse_l2`]).
    pub l2: f64,
}

/// `--l2`: a finite number from 0 to 1e6.
pub fn parse_l2(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1e6).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 1e6")),
    }
}

/// Why the games of the training files could not be read: a file, a game's start or one
/// of its moves (each message begins with the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GamesError {
    /// The file cannot be read as records.
    #[error("{file}: {detail}")]
    Unreadable {
        /// The file.
        file: String,
        /// The reader's error.
        detail: String,
    },
    /// A game's start position does not set up.
    #[error("{file}: {detail}")]
    Start {
        /// The file.
        file: String,
        /// Why.
        detail: String,
    },
    /// A game's move does not parse or cannot be played.
    #[error("{file}: '{text}': {detail}")]
    Move {
        /// The file.
        file: String,
        /// The move as recorded.
        text: String,
        /// Why.
        detail: String,
    },
}

/// A path as messages give it.
fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// One game of the training files, as [`TrainingData::for_each_game`] gives it.
#[derive(Debug, Clone, Copy)]
pub struct TrainingGame<'a> {
    /// The file it was read from (for messages).
    pub file: &'a Path,
    /// Its number among the games kept, from 0, in file order.
    pub number: u64,
    /// Whether it is held out: its number is a multiple of `holdout`.
    pub held_out: bool,
    /// The record.
    pub record: &'a GameRecord,
}

impl TrainingData {
    /// Gives `visit` every game of the files that `keep` keeps, in file order, numbered
    /// from 0 among those kept, and returns how many were not kept. The files are read a
    /// game at a time (none is kept: a file may hold up to
    /// [`MAX_STREAMED_RECORD_FILE_BYTES`], and the memory is one game's), and a game cut
    /// short at the end of a file still being written is left out; a file that cannot be
    /// read, or an error of `visit` (which stops the reading), is the error (a
    /// [`GamesError`] of the files, converted into the visitor's).
    pub fn for_each_game<E: From<GamesError>>(
        &self,
        keep: impl Fn(&GameRecord) -> bool,
        mut visit: impl FnMut(TrainingGame<'_>) -> Result<(), E>,
    ) -> Result<usize, E> {
        let (mut number, mut left_out) = (0u64, 0usize);
        for path in &self.files {
            let mut failed = None;
            read_games_streamed(path, MAX_STREAMED_RECORD_FILE_BYTES, |record| {
                if !keep(&record) {
                    left_out += 1;
                    return true;
                }
                let held_out = number.is_multiple_of(self.holdout.max(1));
                match visit(TrainingGame { file: path, number, held_out, record: &record }) {
                    Ok(()) => {
                        number += 1;
                        true
                    }
                    Err(e) => {
                        failed = Some(e);
                        false
                    }
                }
            })
            .map_err(|e| GamesError::Unreadable { file: shown(path), detail: e.to_string() })?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Ok(left_out)
    }
}

impl TrainingGame<'_> {
    /// The game's start position; a start that does not set up is an error naming the file.
    pub fn start(&self) -> Result<Position, GamesError> {
        self.record.start_position().map_err(|e| GamesError::Start { file: shown(self.file), detail: e.to_string() })
    }

    /// Replays the game from its start: `visit(i, position)` with the position before each
    /// turn `i`, and once more after the last turn (`i` the number of turns). A start or a
    /// turn that does not replay is an error naming the file.
    pub fn replay(&self, mut visit: impl FnMut(usize, &Position)) -> Result<(), GamesError> {
        let mut position = self.start()?;
        for (i, text) in self.record.moves().iter().enumerate() {
            visit(i, &position);
            let refused = |e: &dyn std::fmt::Display| GamesError::Move {
                file: shown(self.file),
                text: text.to_string(),
                detail: e.to_string(),
            };
            let mv = position.parse_move(text.as_str()).map_err(|e| refused(&e))?;
            position.play(mv).map_err(|e| refused(&e))?;
        }
        visit(self.record.moves().len(), &position);
        Ok(())
    }
}

/// What a training command made: its report, and the text of its weights file (provenance
/// in the first lines) for the command line to write.
#[derive(Debug, Clone)]
pub struct Trained {
    /// The report for the user (stdout).
    pub report: String,
    /// The weights file's text.
    pub weights: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"t\"]\n[Size \"7\"]\n\n1. d4 b2,f6 2. d4-d6/d5\nf6-f3/e4 B+\n\n";

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("veletas-training-data-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn games_are_numbered_across_files_held_out_in_turn_and_a_game_cut_short_left_out() {
        let dir = scratch("numbered");
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        std::fs::write(&a, GAME.repeat(3)).unwrap();
        let other = GAME.replace("\"t\"", "\"other\"");
        std::fs::write(&b, format!("{GAME}{other}{GAME}[Event \"cut\"]\n\n1. d4 b2")).unwrap();
        let data = TrainingData { files: vec![a.clone(), b.clone()], holdout: 2, l2: 0.0 };
        let mut seen = Vec::new();
        let left_out = data
            .for_each_game(
                |record| record.tag("Event") == Some("t"),
                |game| {
                    let mut turns = 0;
                    game.replay(|i, _| turns = i)?;
                    seen.push((game.file.to_path_buf(), game.number, game.held_out, turns));
                    Ok::<(), GamesError>(())
                },
            )
            .unwrap();
        assert_eq!(left_out, 1, "the game of another event is left out, and not numbered");
        let expected: Vec<_> = [(&a, 0, true), (&a, 1, false), (&a, 2, true), (&b, 3, false), (&b, 4, true)]
            .into_iter()
            .map(|(file, number, held_out)| (file.clone(), number, held_out, 4))
            .collect();
        assert_eq!(seen, expected);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_visitors_error_stops_the_reading_and_is_returned() {
        let dir = scratch("stops");
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        std::fs::write(&a, GAME.repeat(3)).unwrap();
        std::fs::write(&b, GAME).unwrap();
        let data = TrainingData { files: vec![a, b], holdout: 5, l2: 0.0 };
        let mut visited = 0;
        let result = data.for_each_game(
            |_| true,
            |game| {
                visited += 1;
                if game.number == 1 {
                    return Err(GamesError::Start { file: "x".into(), detail: "stop".into() });
                }
                Ok(())
            },
        );
        assert_eq!(result.unwrap_err().to_string(), "x: stop");
        assert_eq!(visited, 2, "no game is read after the error");
        let missing = TrainingData { files: vec![dir.join("missing.txt")], holdout: 5, l2: 0.0 };
        let err = missing.for_each_game(|_| true, |_| Ok::<(), GamesError>(())).unwrap_err();
        assert!(matches!(err, GamesError::Unreadable { .. }), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
