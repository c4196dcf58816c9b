//! Game records: a PGN-like text format (documented in `docs/records.md`) and its parser.
//!
//! A record file holds games one after the other. A game is a block of tag lines
//! `[Name "value"]`, then the moves in the project's notation, with optional move
//! numbers (`1.`, `1...`) and `{comments}`, ended by the result token `B+`, `W+` or `*`:
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
//! [`GameRecord::position_after`] replays a game up to a turn.

use std::fmt::{self, Write as _};
use std::io::Read as _;
use std::path::Path;

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

/// The most bytes a record file (or an openings file) may hold: 256 MiB, far above any
/// real file (a 10x10 game takes about 2 kB, so a million games fit). Bigger files,
/// like `/dev/zero`, are refused rather than read without end.
pub const MAX_RECORD_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The most bytes of the program's smaller input files, read with [`read_bounded`]: an
/// engines file (`--engines`), a weights file (`--eval FILE`), bench positions
/// (`bench --file`). 16 MiB, thousands of times any real one.
pub const MAX_SMALL_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a record file cannot be read (before its text is parsed).
#[derive(Debug, thiserror::Error)]
pub enum RecordFileError {
    /// The path names no regular file: a directory, a FIFO, a device...
    #[error("not a regular file (a {0})")]
    NotAFile(&'static str),
    /// The file holds more than the limit.
    #[error("larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("not UTF-8 text (invalid byte at offset {0})")]
    NotUtf8(usize),
    /// The file cannot be opened or read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Reads a record file as text: only a regular file (checked before opening, so a FIFO
/// never blocks the reader), at most [`MAX_RECORD_FILE_BYTES`], valid UTF-8.
pub fn read_record_file(path: &Path) -> Result<String, RecordFileError> {
    read_bounded(path, MAX_RECORD_FILE_BYTES)
}

/// Checks that `path` names a regular file (following symbolic links) without opening
/// it: what to do before opening a record file, for reading or for writing.
pub fn check_regular_file(path: &Path) -> Result<(), RecordFileError> {
    let kind = std::fs::metadata(path)?.file_type();
    if kind.is_file() { Ok(()) } else { Err(RecordFileError::NotAFile(file_kind(kind))) }
}

/// What kind of file a non-regular file is, for messages.
fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "FIFO";
        }
        if kind.is_char_device() {
            return "character device";
        }
        if kind.is_block_device() {
            return "block device";
        }
        if kind.is_socket() {
            return "socket";
        }
    }
    if kind.is_dir() { "directory" } else { "special file" }
}

/// Reads a text file of at most `limit` bytes: the one bounded reader of every file the
/// program reads (records, openings, `--engines`, weights, bench positions, train-eval's
/// games). Only a regular file (checked before opening, so a FIFO never blocks the
/// reader; `/dev/zero` and other devices are refused unread), valid UTF-8.
pub fn read_bounded(path: &Path, limit: u64) -> Result<String, RecordFileError> {
    // Check what the path is before opening it: opening a FIFO for reading blocks until
    // a writer comes.
    check_regular_file(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the path be replaced by a FIFO after the check, the open does not block
        // (the flag means nothing for a regular file).
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(RecordFileError::NotAFile(file_kind(meta.file_type())));
    }
    // Refuse a file known to be too big at once; `take` bounds one that grows meanwhile.
    if meta.len() > limit {
        return Err(RecordFileError::TooLarge { limit });
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(RecordFileError::TooLarge { limit });
    }
    String::from_utf8(bytes).map_err(|e| RecordFileError::NotUtf8(e.utf8_error().valid_up_to()))
}

/// One game of a record file: its tags in order, its moves, its result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in file order, names without brackets, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The moves in notation, from the start position.
    pub moves: Vec<String>,
    /// `B+`, `W+`, or `*` for a game without a result.
    pub result: String,
}

impl GameRecord {
    /// The value of tag `name`, if present (the first one if repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing its value or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The winner the result token names.
    pub fn winner(&self) -> Option<Color> {
        match self.result.as_str() {
            "B+" => Some(Color::Black),
            "W+" => Some(Color::White),
            _ => None,
        }
    }

    /// The rules of the `Rules` tag (`classic` without one): the rule set, then
    /// optionally the options `no-corners` and `claimed-block` (modern only), as in
    /// `modern no-corners claimed-block`.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let Some(text) = self.tag("Rules") else { return Ok(Rules::CLASSIC) };
        let mut words = text.split_whitespace();
        let set: Option<RuleSet> = words.next().and_then(|w| w.parse().ok());
        let rules = set.and_then(|set| Rules::from_words(std::iter::once(set.name()).chain(words)));
        rules.ok_or_else(|| RecordError::game(format!("bad Rules tag '{text}'")))
    }

    /// The position the moves start from: the `Start` tag (a position string, which
    /// carries its rules) if present, else the empty board of the `Size` tag (10
    /// without one) under the `Rules` tag (classic without one).
    pub fn start_position(&self) -> Result<Position, RecordError> {
        if let Some(start) = self.tag("Start") {
            return start.parse().map_err(|e| RecordError::game(format!("bad Start tag: {e}")));
        }
        let size = match self.tag("Size") {
            Some(size) => size.trim().parse::<u8>().ok(),
            None => Some(10),
        };
        let variant = size
            .and_then(Variant::from_size)
            .ok_or_else(|| RecordError::game(format!("bad Size tag '{}'", self.tag("Size").unwrap_or(""))))?;
        Ok(Position::with_rules(variant, self.rules()?))
    }

    /// Replays the first `turns` moves (all of them with `None`), checking each.
    pub fn replay(&self, turns: Option<usize>) -> Result<Game, RecordError> {
        let mut game = Game::from_position(self.start_position()?);
        let turns = turns.unwrap_or(self.moves.len());
        if turns > self.moves.len() {
            return Err(RecordError::game(format!("the game has only {} turns, not {turns}", self.moves.len())));
        }
        for (i, text) in self.moves[..turns].iter().enumerate() {
            let mv = game.position().parse_move(text).map_err(|e| RecordError::game(format!("turn {}: {e}", i + 1)))?;
            game.play(mv).map_err(|e| RecordError::game(format!("turn {} ({text}): illegal move: {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// The position after `turns` turns (the final position with `None`): `loadgame`.
    pub fn position_after(&self, turns: Option<usize>) -> Result<Position, RecordError> {
        Ok(self.replay(turns)?.position().clone())
    }

    fn first_mover(&self) -> Color {
        self.start_position().map_or(Color::Black, |p| p.side_to_move())
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
            if mover == Color::Black {
                tokens.push(format!("{number}. {mv}"));
            } else if i == 0 {
                tokens.push(format!("{number}... {mv}"));
            } else {
                tokens.push(mv.clone());
            }
            // White's swap leaves White to move: the same turn number goes on.
            if mv.eq_ignore_ascii_case("swap") {
                continue;
            }
            if mover == Color::White {
                number += 1;
            }
            mover = !mover;
        }
        tokens.push(if self.result.is_empty() { "*".to_string() } else { self.result.clone() });
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
}

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
                let tag = parse_tag(trimmed, number)?;
                self.game(number).tags.push(tag);
                return Ok(());
            }
        }
        let mut rest = trimmed;
        while !rest.is_empty() {
            if self.in_comment {
                match rest.find('}') {
                    Some(close) => {
                        self.in_comment = false;
                        rest = rest[close + 1..].trim_start();
                    }
                    None => return Ok(()),
                }
                continue;
            }
            if let Some(after) = rest.strip_prefix('{') {
                self.in_comment = true;
                rest = after;
                continue;
            }
            let len = rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
            let token = &rest[..len];
            rest = rest[len..].trim_start();
            self.in_moves = true;
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
                    game.result = token.to_string();
                    if !rest.is_empty() {
                        return Err(RecordError::at(number, "text after the result on the same line"));
                    }
                    if let Some(done) = self.current.take() {
                        self.games.push(done);
                    }
                    self.in_moves = false;
                    self.complete_end = end;
                }
                mv => game.moves.push(mv.to_string()),
            }
        }
        Ok(())
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
mod tests {
    use super::*;

    #[test]
    fn modern_records_carry_the_rules_and_number_around_the_swap() {
        let mut record = GameRecord::default();
        record.set_tag("Size", "7");
        record.set_tag("Rules", "modern no-corners");
        record.moves = ["d4/b1", "swap", "c5,e3/g6", "d4-f4/c4"].map(String::from).to_vec();
        record.result = "*".into();
        let text = record.to_string();
        assert!(text.contains("1. d4/b1 swap c5,e3/g6 2. d4-f4/c4 *"), "{text}");
        assert_eq!(parse_records(&text).unwrap(), vec![record.clone()]);
        let end = record.position_after(None).unwrap();
        assert_eq!(end.to_string(), "7/6w/2s4/2b2s1/4s2/7/1b5 w modern no-corners");
        record.set_tag("Rules", "modern corners");
        assert!(record.start_position().is_err());
        record.set_tag("Rules", "classic");
        assert!(record.position_after(None).is_err());
    }

    const SAMPLE: &str = "[Event \"test \\\"quoted\\\"\"]\n[Size \"7\"]\n\n1. d4 b2,f6 {a comment\nover lines} 2. d4-d6/d5\nf6-f3/e4 B+\n\n";

    #[test]
    fn parses_tags_moves_comments_and_result() {
        let games = parse_records(SAMPLE).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("test \"quoted\""));
        assert_eq!(g.moves, ["d4", "b2,f6", "d4-d6/d5", "f6-f3/e4"]);
        assert_eq!(g.winner(), Some(Color::Black));
        assert_eq!(g.position_after(Some(2)).unwrap().to_string().split(' ').nth(1), Some("b"));
    }

    #[test]
    fn writing_then_reading_gives_the_same_game() {
        let mut g = parse_records(SAMPLE).unwrap().remove(0);
        g.set_tag("Reason", "back\\slash and \"quotes\"");
        let text = g.to_string();
        assert_eq!(parse_records(&text).unwrap(), vec![g.clone()]);
        let twice = format!("{text}{text}");
        assert_eq!(parse_records(&twice).unwrap().len(), 2);
    }

    #[test]
    fn white_first_games_number_with_dots() {
        let g = GameRecord {
            tags: vec![("Start".into(), "7/7/7/3s3/7/7/7 w".into())],
            moves: vec!["b2,f6".into(), "d4-d6/d5".into()],
            result: "*".into(),
        };
        assert!(g.to_string().contains("1... b2,f6 2. d4-d6/d5 *"));
        assert_eq!(parse_records(&g.to_string()).unwrap(), vec![g.clone()]);
        assert!(g.replay(None).is_ok());
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("veletas-record-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn record_files_are_read_within_the_limit_only() {
        let dir = scratch("limit");
        let path = dir.join("games.txt");
        std::fs::write(&path, SAMPLE).unwrap();
        assert_eq!(read_record_file(&path).unwrap(), SAMPLE);
        assert_eq!(read_bounded(&path, SAMPLE.len() as u64).unwrap(), SAMPLE);
        let err = read_bounded(&path, SAMPLE.len() as u64 - 1).unwrap_err();
        assert!(matches!(err, RecordFileError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("larger than the limit of"), "{err}");
        std::fs::write(&path, b"[Event \"\xff\"]\n").unwrap();
        let err = read_record_file(&path).unwrap_err();
        assert_eq!(err.to_string(), "not UTF-8 text (invalid byte at offset 8)");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn special_files_are_refused_without_reading() {
        let dir = scratch("special");
        assert_eq!(read_record_file(&dir).unwrap_err().to_string(), "not a regular file (a directory)");
        #[cfg(unix)]
        {
            let err = read_record_file(Path::new("/dev/zero")).unwrap_err();
            assert_eq!(err.to_string(), "not a regular file (a character device)");
            let fifo = dir.join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status().map(|s| s.success());
            if made.unwrap_or(false) {
                // Opening it would block: refused before that.
                assert_eq!(read_record_file(&fifo).unwrap_err().to_string(), "not a regular file (a FIFO)");
            }
        }
        assert!(matches!(read_record_file(&dir.join("missing")), Err(RecordFileError::Io(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn incomplete_tails_are_cut_and_errors_located() {
        let partial = format!("{SAMPLE}[Event \"cut\"]\n\n1. d4 b2");
        assert!(parse_records(&partial).is_err());
        let (games, end) = parse_complete_records(&partial).unwrap();
        assert_eq!((games.len(), end), (1, SAMPLE.len() - 1));
        // Cut inside a tag line: the cut line is dropped with its game.
        let cut_tag = format!("{SAMPLE}[Event \"cu");
        let (games, end) = parse_complete_records(&cut_tag).unwrap();
        assert_eq!((games.len(), end), (1, SAMPLE.len() - 1));
        // The same bad line with its line break is an error.
        assert!(parse_complete_records(&format!("{cut_tag}\n")).is_err());
        let err = parse_records("1. d4 B+\n[Bad tag]\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(parse_records("[Size \"7\"]\n1. d4 B+ d5\n").is_err());
        let bad_move = parse_records("[Size \"7\"]\n1. d4 d4 B+\n").unwrap().remove(0);
        assert!(bad_move.replay(None).unwrap_err().message.contains("turn 2"));
    }
}
