//! Game records: a PGN-like text format (documented in `docs/records.md`) and its parser.
//!
//! A record file holds games one after the other. A game is a block of tag lines
//! `[Name "value"]`, then the moves in the project's notation, with optional move
//! numbers (`1.`, `1...`), `{comments}` and per-turn annotations (`{0.8s}`, see
//! [`Annotation`]), ended by the result token `B+`, `W+` or `*`:
//!
//! ```text
//! [Event "veletas match"]
//! [Size "7"]
//! [Result "B+"]
//!
//! 1. d4 b2,f6 2. d4-d6/d5 f6-f3/e4 3. d6-c7/c6 B+
//! ```
//!
//! The parser is what the engine's `loadgame FILE [N]` uses: [`read_record_file`] reads
//! a file (bounded: see [`MAX_RECORD_FILE_BYTES`]), [`parse_records`] parses its text,
//! [`GameRecord::position_after`] replays a game up to a turn; [`read_games`] reads the
//! complete games of a file as every other reader does (the viewer, `ratings`,
//! `train-eval`, resume), and [`GameRecord::check_result`] replays a game to check its
//! result.
//!
//! A [`GameRecord`] keeps its tags in file order, with their text as written, so that a
//! game read and written again is the same text byte for byte, unknown tags included;
//! the tags the project knows are named in [`tag`] and read and written through their
//! types ([`GameRecord::termination`], [`GameRecord::time_controls`], [`GameRecord::rules`],
//! [`GameRecord::player`], ...).
//!
//! ```
//! use std::time::Duration;
//! use veletas_rules::Color;
//! use veletas_rules::record::{Annotation, GameRecord, RecordMove, Termination, parse_records, tag};
//!
//! let mut record = GameRecord::default();
//! record.set_tag(tag::SIZE, "7");
//! record.set_player(Color::Black, "alice");
//! let moves = ["d4", "b2,f6", "d4-d6/d5"].map(RecordMove::new);
//! record.set_moves(moves.into_iter().collect::<Result<_, _>>()?)?;
//! record.set_annotation(2, Annotation::of_time(Duration::from_millis(830)));
//! record.set_result(None);
//! let text = record.to_string();
//! assert!(text.contains("2. d4-d6/d5 {0.83s} *"), "{text}");
//! let read = parse_records(&text)?.remove(0);
//! assert_eq!(read, record);
//! assert_eq!(read.termination()?, None::<Termination>);
//! assert_eq!(read.annotation(2).time, Some(Duration::from_millis(830)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod annotation;
mod check;
mod file;
mod moves;
mod tags;
pub mod time;

use std::fmt::{self, Write as _};

pub use annotation::{
    Annotation, BestLine, BestLineError, Evaluation, FirstStep, FirstSteps, FirstStepsError, ParseAnnotationError,
    ParseFirstStepsError, ParseWinRateError, WinRate, step_word,
};
pub use check::ResultCheck;
pub use file::{
    MAX_RECORD_FILE_BYTES, MAX_RECORD_LINE_BYTES, MAX_SMALL_FILE_BYTES, MAX_STREAMED_RECORD_FILE_BYTES, ReadGamesError,
    RecordEnd, RecordFile, RecordFileError, RecordItem, check_regular_file, games_of, read_bounded, read_games,
    read_games_each, read_games_streamed, read_games_until, read_record_file,
};
pub use moves::{RecordMove, RecordMoveError};
pub use tags::{ParseTerminationError, Termination, tag};
pub use time::{TimeControl, TimeControls};

use crate::{Color, Game, Position, RuleSet, Rules, Variant};

/// Why a record cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct RecordError {
    /// The line (from 1) where the problem is, when there is one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    fn at(line: usize, message: impl Into<String>) -> RecordError {
        RecordError { line: Some(line), message: message.into() }
    }

    fn game(message: impl Into<String>) -> RecordError {
        RecordError { line: None, message: message.into() }
    }
}

/// The result token of `winner`: `B+`, `W+`, or `*` for a game without a result.
pub fn result_token(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Black) => "B+",
        Some(Color::White) => "W+",
        None => "*",
    }
}

/// The winner a result token names (`None` for `*`); `Err` for anything else.
pub fn parse_result_token(text: &str) -> Result<Option<Color>, RecordError> {
    match text.trim() {
        "B+" => Ok(Some(Color::Black)),
        "W+" => Ok(Some(Color::White)),
        "*" => Ok(None),
        other => Err(RecordError::game(format!("'{}' is not a result (B+, W+ or *)", crate::quoted(other)))),
    }
}

/// More moves than a game of a record may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than {MAX_MOVES} moves in one game")]
pub struct TooManyMoves;

/// One game of a record file: its tags in order, its moves, their annotations, its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in file order, names without brackets, values unescaped.
    tags: Vec<(String, String)>,
    /// The moves in notation, from the start position: at most [`MAX_MOVES`].
    moves: Vec<RecordMove>,
    /// The annotations of the first moves (`annotations[i]` is move `i`'s); shorter than
    /// `moves` when the last ones have none, and never ending in an empty one.
    annotations: Vec<Annotation>,
    /// The result token: the winner, or `None` for `*` (a game without a result).
    pub result: Option<Color>,
}

impl GameRecord {
    /// The value of tag `name`, if present (the first one if repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Every tag, in file order: name and value.
    pub fn tags(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Sets tag `name`, replacing its value or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// A tag read through its type: `None` when absent, an error naming the tag when its
    /// value does not parse.
    fn typed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, RecordError>
    where
        T::Err: fmt::Display,
    {
        self.tag(name)
            .map(|text| {
                text.parse().map_err(|e| RecordError::game(format!("bad {name} tag '{}': {e}", crate::quoted(text))))
            })
            .transpose()
    }

    /// The moves in notation, from the start position.
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// Sets the moves; an error (and no change) for more than [`MAX_MOVES`], which a
    /// reader would refuse.
    pub fn set_moves(&mut self, moves: Vec<RecordMove>) -> Result<(), TooManyMoves> {
        if moves.len() > MAX_MOVES {
            return Err(TooManyMoves);
        }
        self.moves = moves;
        Ok(())
    }

    /// Sets the moves to the turns played in `game`, from its start position, as [`Move`]
    /// prints them (`c3,f6,h8`, `swap`): legal turns, so fewer than a board has squares
    /// besides the setups, each a [`RecordMove`].
    ///
    /// [`Move`]: crate::Move
    pub fn set_moves_of(&mut self, game: &Game) {
        self.moves = game.moves().map(RecordMove::of_legal).collect();
    }

    /// The winner the result token names.
    pub fn winner(&self) -> Option<Color> {
        self.result
    }

    /// Sets the result token and the `Result` tag to `winner` (`None`: `*`).
    pub fn set_result(&mut self, winner: Option<Color>) {
        self.result = winner;
        self.set_tag(tag::RESULT, result_token(winner));
    }

    /// Whether the game is void: it has no result (`*`) although it ended, as its
    /// `Termination` tag (other than `normal`) says: the referee writes this for a game that
    /// ended by a failure before any engine had moved, which counts for no one (see
    /// `docs/records.md`). A `*` game without `Termination` is merely without a result.
    pub fn is_void(&self) -> bool {
        self.result.is_none() && matches!(self.termination(), Ok(Some(t)) if t != Termination::Normal)
    }

    /// The `Termination` tag.
    pub fn termination(&self) -> Result<Option<Termination>, RecordError> {
        self.typed(tag::TERMINATION)
    }

    /// Sets the `Termination` tag.
    pub fn set_termination(&mut self, termination: Termination) {
        self.set_tag(tag::TERMINATION, termination.as_str());
    }

    /// The `TimeControl` tag.
    pub fn time_controls(&self) -> Result<Option<TimeControls>, RecordError> {
        self.typed(tag::TIME_CONTROL)
    }

    /// Sets the `TimeControl` tag.
    pub fn set_time_controls(&mut self, controls: &TimeControls) {
        self.set_tag(tag::TIME_CONTROL, controls.to_string());
    }

    /// The name of the player of `color` (the `Black` or `White` tag).
    pub fn player(&self, color: Color) -> Option<&str> {
        self.tag(player_tag(color))
    }

    /// Sets the `Black` or `White` tag.
    pub fn set_player(&mut self, color: Color, name: impl Into<String>) {
        self.set_tag(player_tag(color), name);
    }

    /// The `Round` tag: a match game's number (from 1) or a tournament game's round.
    pub fn round(&self) -> Result<Option<usize>, RecordError> {
        self.typed(tag::ROUND)
    }

    /// The `Opening` tag (the openings-file form, read against the openings of a match).
    pub fn opening(&self) -> Option<&str> {
        self.tag(tag::OPENING)
    }

    /// The seconds the engine of `color` spent on `genmove` (`TimeUsedBlack`/`White`).
    pub fn time_used(&self, color: Color) -> Result<Option<f64>, RecordError> {
        self.typed(time_used_tag(color))
    }

    /// Sets `TimeUsedBlack` or `TimeUsedWhite` (seconds, 3 decimals).
    pub fn set_time_used(&mut self, color: Color, seconds: f64) {
        self.set_tag(time_used_tag(color), format!("{seconds:.3}"));
    }

    /// The annotation of move `index` (from 0): empty when it has none.
    pub fn annotation(&self, index: usize) -> Annotation {
        self.annotations.get(index).cloned().unwrap_or_default()
    }

    /// Sets the annotation of move `index` (an empty one removes it). Annotations of
    /// moves beyond `moves` are kept but not written.
    pub fn set_annotation(&mut self, index: usize, annotation: Annotation) {
        if self.annotations.len() <= index {
            self.annotations.resize(index + 1, Annotation::default());
        }
        self.annotations[index] = annotation;
        while self.annotations.last().is_some_and(Annotation::is_empty) {
            self.annotations.pop();
        }
    }

    /// Whether any move has an annotation.
    pub fn has_annotations(&self) -> bool {
        !self.annotations.is_empty()
    }

    /// The rules of the `Rules` tag (`classic` without one): the rule set, then
    /// optionally the options `no-corners` and `claimed-block` (modern only), as in
    /// `modern no-corners claimed-block`.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let Some(text) = self.tag(tag::RULES) else { return Ok(Rules::CLASSIC) };
        let mut words = text.split_whitespace();
        let set: Option<RuleSet> = words.next().and_then(|w| w.parse().ok());
        let rules = set.and_then(|set| Rules::from_words(std::iter::once(set.name()).chain(words)));
        rules.ok_or_else(|| RecordError::game(format!("bad Rules tag '{}'", crate::quoted(text))))
    }

    /// The position the moves start from: the `Start` tag (a position string, which
    /// carries its rules) if present, else the empty board of the `Size` tag (10
    /// without one) under the `Rules` tag (classic without one).
    pub fn start_position(&self) -> Result<Position, RecordError> {
        if let Some(start) = self.tag(tag::START) {
            return start.parse().map_err(|e| RecordError::game(format!("bad Start tag: {e}")));
        }
        let size = match self.tag(tag::SIZE) {
            Some(size) => size.trim().parse::<u8>().ok(),
            None => Some(10),
        };
        let variant = size.and_then(Variant::from_size).ok_or_else(|| {
            RecordError::game(format!("bad Size tag '{}'", crate::quoted(self.tag(tag::SIZE).unwrap_or(""))))
        })?;
        Ok(Position::with_rules(variant, self.rules()?))
    }

    /// Replays the first `turns` moves (all of them with `None`), checking each.
    pub fn replay(&self, turns: Option<usize>) -> Result<Game, RecordError> {
        self.replay_each(turns, |_, _| {})
    }

    /// [`GameRecord::replay`], calling `visit` with the game before each move and the move
    /// (what the viewer draws).
    pub fn replay_each(
        &self,
        turns: Option<usize>,
        mut visit: impl FnMut(&Game, crate::Move),
    ) -> Result<Game, RecordError> {
        let mut game = Game::from_position(self.start_position()?);
        let turns = turns.unwrap_or(self.moves.len());
        if turns > self.moves.len() {
            return Err(RecordError::game(format!("the game has only {} turns, not {turns}", self.moves.len())));
        }
        for (i, text) in self.moves[..turns].iter().enumerate() {
            let mv = game
                .position()
                .parse_move(text.as_str())
                .map_err(|e| RecordError::game(format!("turn {}: {e}", i + 1)))?;
            visit(&game, mv);
            game.play(mv).map_err(|e| RecordError::game(format!("turn {} ({text}): illegal move: {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// The position after `turns` turns (the final position with `None`), each move
    /// checked as [`GameRecord::replay`] checks it, without keeping the history.
    pub fn position_after(&self, turns: Option<usize>) -> Result<Position, RecordError> {
        let mut position = self.start_position()?;
        let turns = turns.unwrap_or(self.moves.len());
        if turns > self.moves.len() {
            return Err(RecordError::game(format!("the game has only {} turns, not {turns}", self.moves.len())));
        }
        for (i, text) in self.moves[..turns].iter().enumerate() {
            let mv =
                position.parse_move(text.as_str()).map_err(|e| RecordError::game(format!("turn {}: {e}", i + 1)))?;
            position.play(mv).map_err(|e| RecordError::game(format!("turn {} ({text}): illegal move: {e}", i + 1)))?;
        }
        Ok(position)
    }

    fn first_mover(&self) -> Color {
        self.start_position().map_or(Color::Black, |p| p.side_to_move())
    }
}

fn player_tag(color: Color) -> &'static str {
    match color {
        Color::Black => tag::BLACK,
        Color::White => tag::WHITE,
    }
}

fn time_used_tag(color: Color) -> &'static str {
    match color {
        Color::Black => tag::TIME_USED_BLACK,
        Color::White => tag::TIME_USED_WHITE,
    }
}

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

impl fmt::Display for GameRecord {
    /// The game as record text, ending with an empty line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        let mut tokens = Vec::with_capacity(self.moves.len() * 3 / 2 + 1);
        let mut number = 1;
        let mut mover = self.first_mover();
        for (i, mv) in self.moves.iter().enumerate() {
            // A move number stays on the line of its move.
            let mut token = if mover == Color::Black {
                format!("{number}. {mv}")
            } else if i == 0 {
                format!("{number}... {mv}")
            } else {
                mv.to_string()
            };
            // An annotation stays on the line of its move.
            let annotation = self.annotation(i);
            if !annotation.is_empty() {
                let _ = write!(token, " {{{annotation}}}");
            }
            tokens.push(token);
            // White's swap leaves White to move: the same turn number goes on.
            if mv.is_swap() {
                continue;
            }
            if mover == Color::White {
                number += 1;
            }
            mover = !mover;
        }
        tokens.push(result_token(self.result).to_string());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")?;
        writeln!(f)
    }
}

fn parse_tag(line: &str, number: usize) -> Result<(String, String), RecordError> {
    let bad = |what: &str| RecordError::at(number, format!("bad tag line: {what}"));
    let inner =
        line.strip_prefix('[').and_then(|l| l.strip_suffix(']')).ok_or_else(|| bad("expected [Name \"value\"]"))?;
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace()).ok_or_else(|| bad("expected a space"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad("the name must be letters, digits or _"));
    }
    let rest = rest.trim();
    let quoted =
        rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or_else(|| bad("expected a quoted value"))?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(|| bad("a backslash ends the value"))?),
            '"' => return Err(bad("an unescaped quote inside the value")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Games read so far and the parser's place in the text.
#[derive(Default)]
struct Parser {
    games: Vec<GameRecord>,
    /// The byte offset just past the last complete game.
    complete_end: usize,
    current: Option<GameRecord>,
    in_moves: bool,
    in_comment: bool,
    start_line: usize,
    /// The move (index) a comment right after it would annotate: set by a move, cleared
    /// by any other token and by a comment.
    annotates: Option<usize>,
    /// The open comment's move, and its text so far (cut at [`MAX_ANNOTATION_BYTES`]).
    comment: Option<(usize, String)>,
    /// What was cut since the caller last took them (tags past [`MAX_TAG_VALUE_BYTES`]).
    warnings: Vec<RecordError>,
}

/// The longest tag value kept, in bytes: a longer one is cut, with a warning (real values,
/// names and command lines, take a few dozen).
pub const MAX_TAG_VALUE_BYTES: usize = 4 * 1024;

/// The most tags a game may have (a match's games have about 25).
pub const MAX_TAGS: usize = 256;

/// The most moves a game may have (a 10x10 game fills its board in about a hundred).
pub const MAX_MOVES: usize = 2_000;

/// The longest move token, in bytes (`j10-a1/j1` takes 9): [`RecordMove::MAX_BYTES`].
pub const MAX_MOVE_BYTES: usize = RecordMove::MAX_BYTES;

/// The longest comment read as an annotation: longer ones are ordinary comments (room for
/// [`FirstSteps::MAX_ENTRIES`] first steps of 10x10 with their playouts).
const MAX_ANNOTATION_BYTES: usize = 16 * 1024;

impl Parser {
    fn game(&mut self, line: usize) -> &mut GameRecord {
        if self.current.is_none() {
            self.start_line = line;
        }
        self.current.get_or_insert_with(GameRecord::default)
    }

    fn line(&mut self, text: &str, number: usize, end: usize) -> Result<(), RecordError> {
        let trimmed = text.trim();
        if !self.in_comment {
            if trimmed.is_empty() || trimmed.starts_with('%') {
                return Ok(());
            }
            if trimmed.starts_with('[') {
                if self.in_moves {
                    return Err(RecordError::at(number, "a tag inside the moves (is a result token missing?)"));
                }
                let (name, value) = parse_tag(trimmed, number)?;
                return self.tag(name, value, number);
            }
        }
        let mut rest = trimmed;
        while !rest.is_empty() {
            if self.in_comment {
                let close = rest.find('}');
                if let Some((_, text)) = &mut self.comment {
                    let part = &rest[..close.unwrap_or(rest.len())];
                    if text.len() + part.len() < MAX_ANNOTATION_BYTES {
                        text.push(' ');
                        text.push_str(part);
                    } else {
                        self.comment = None;
                    }
                }
                match close {
                    Some(close) => {
                        self.in_comment = false;
                        rest = rest[close + 1..].trim_start();
                        self.end_comment();
                    }
                    None => return Ok(()),
                }
                continue;
            }
            if let Some(after) = rest.strip_prefix('{') {
                self.in_comment = true;
                self.comment = self.annotates.take().map(|index| (index, String::new()));
                rest = after;
                continue;
            }
            let len = rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
            let token = &rest[..len];
            rest = rest[len..].trim_start();
            self.in_moves = true;
            self.annotates = None;
            let game = self.game(number);
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let token = if digits > 0 && token[digits..].starts_with('.') {
                token[digits..].trim_start_matches('.')
            } else {
                token
            };
            match token {
                "" => {}
                "B+" | "W+" | "*" => {
                    game.result = parse_result_token(token).map_err(|e| RecordError::at(number, e.message))?;
                    if !rest.is_empty() {
                        return Err(RecordError::at(number, "text after the result on the same line"));
                    }
                    if let Some(done) = self.current.take() {
                        self.games.push(done);
                    }
                    self.in_moves = false;
                    self.complete_end = end;
                }
                mv => {
                    let mv = RecordMove::new(mv).map_err(|e| RecordError::at(number, e.to_string()))?;
                    if game.moves.len() == MAX_MOVES {
                        return Err(RecordError::at(number, TooManyMoves.to_string()));
                    }
                    let index = game.moves.len();
                    game.moves.push(mv);
                    self.annotates = Some(index);
                }
            }
        }
        Ok(())
    }

    /// Adds the tag `name` to the game of line `number`: its value cut at
    /// [`MAX_TAG_VALUE_BYTES`] (with a warning), at most [`MAX_TAGS`] tags a game.
    fn tag(&mut self, name: String, mut value: String, number: usize) -> Result<(), RecordError> {
        if self.in_moves {
            return Err(RecordError::at(number, "a tag inside the moves (is a result token missing?)"));
        }
        if value.len() > MAX_TAG_VALUE_BYTES {
            let mut cut = MAX_TAG_VALUE_BYTES;
            while !value.is_char_boundary(cut) {
                cut -= 1;
            }
            value.truncate(cut);
            let message = format!("the {} tag is longer than {MAX_TAG_VALUE_BYTES} bytes: cut", crate::quoted(&name));
            self.warnings.push(RecordError::at(number, message));
        }
        let game = self.game(number);
        if game.tags.len() == MAX_TAGS {
            return Err(RecordError::at(number, format!("more than {MAX_TAGS} tags in one game")));
        }
        game.tags.push((name, value));
        Ok(())
    }

    /// A comment closed: if it followed a move and reads as an annotation, it is that
    /// move's; otherwise it is an ordinary comment, ignored.
    fn end_comment(&mut self) {
        if let (Some((index, text)), Some(game)) = (self.comment.take(), self.current.as_mut())
            && let Ok(annotation) = text.parse::<Annotation>()
        {
            game.set_annotation(index, annotation);
        }
    }

    fn run(text: &str) -> Result<Parser, RecordError> {
        let mut parser = Parser::default();
        let mut offset = 0;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            offset += line.len();
            parser.line(line, i + 1, offset)?;
        }
        Ok(parser)
    }
}

/// Reads every game of a record file. A game not ended by a result token is an error.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let parser = Parser::run(text)?;
    if parser.current.is_some() || parser.in_comment {
        return Err(RecordError::at(parser.start_line, "the game starting here has no result token"));
    }
    Ok(parser.games)
}

/// Reads the complete games of a record file that may end in the middle of a game (as
/// after an interrupted write), returning them with the byte length of the text they
/// take; the incomplete rest is not an error, nor is a last line cut short (no line
/// break at its end) that does not parse. Other syntax errors still are.
pub fn parse_complete_records(text: &str) -> Result<(Vec<GameRecord>, usize), RecordError> {
    let mut parser = Parser::default();
    let mut offset = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        offset += line.len();
        if let Err(e) = parser.line(line, i + 1, offset) {
            if i + 1 == lines.len() && !line.ends_with('\n') {
                break; // the last line of an interrupted write
            }
            return Err(e);
        }
    }
    Ok((parser.games, parser.complete_end))
}

/// Writes a tag line: `[Name "value"]` with `\` and `"` escaped.
pub fn tag_line(name: &str, value: &str) -> String {
    let mut line = String::new();
    let _ = write!(line, "[{name} \"{}\"]", escape(value));
    line
}

#[cfg(test)]
mod tests;
