//! Reading record files, bounded: [`read_record_file`] for the text (what every reader of
//! a record or openings file goes through), [`read_games`] for the complete games of a
//! record file that may end in a game cut short.

use std::io::Read as _;
use std::path::Path;

use super::{GameRecord, RecordError};

/// The most bytes a record file (or an openings file) may hold: 256 MiB, far above any
/// real file (a 10x10 game takes about 2 kB, so a million games fit). Bigger files,
/// like `/dev/zero`, are refused rather than read without end.
pub const MAX_RECORD_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The most bytes of a record file read a game at a time by a reader that keeps none of
/// them, [`read_games_streamed`] (the training commands): 16 GiB, about eight million
/// 10x10 games, or a million with their first steps. The reader's memory is one line and
/// one game whatever the file holds; the bound is one of time (a few minutes of reading).
pub const MAX_STREAMED_RECORD_FILE_BYTES: u64 = 16 * 1024 * 1024 * 1024;

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

/// Opens a regular file of at most `limit` bytes for reading (see [`read_bounded`]).
fn open_bounded(path: &Path, limit: u64) -> Result<std::fs::File, RecordFileError> {
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
    Ok(file)
}

/// Reads a text file of at most `limit` bytes: the one bounded reader of every file the
/// program reads (records, openings, `--engines`, weights, bench positions, train-eval's
/// games). Only a regular file (checked before opening, so a FIFO never blocks the
/// reader; `/dev/zero` and other devices are refused unread), valid UTF-8.
pub fn read_bounded(path: &Path, limit: u64) -> Result<String, RecordFileError> {
    let file = open_bounded(path, limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(RecordFileError::TooLarge { limit });
    }
    String::from_utf8(bytes).map_err(|e| RecordFileError::NotUtf8(e.utf8_error().valid_up_to()))
}

/// Why a record file's games cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadGamesError {
    /// The file could not be read (missing, not a regular file, too big, not UTF-8).
    #[error("cannot read: {0}")]
    File(#[from] RecordFileError),
    /// A syntax error (with its line).
    #[error("{0}")]
    Syntax(#[from] RecordError),
}

/// The complete games of a record file, and where a game cut short begins, if one is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordFile {
    /// The complete games, in file order.
    pub games: Vec<GameRecord>,
    /// The byte length of the text up to the end of the last complete game (what a writer
    /// cuts the file back to before appending, when `cut_short` is set).
    pub complete_len: usize,
    /// When the file ends in a game cut short (an interrupted write): the line where
    /// that game's text begins. The game is not in `games`.
    pub cut_short: Option<usize>,
}

/// Reads the games of the record file `path` as the readers take them: every complete
/// game, and where a last game cut short begins (text after the last complete game that
/// does not parse as games: an interrupted write). A syntax error before that is an
/// error. The referee's resume and `train-eval` read record files through it; the
/// viewer and `ratings` through [`read_games_each`], which keeps no game itself.
pub fn read_games(path: &Path) -> Result<RecordFile, ReadGamesError> {
    let mut games = Vec::new();
    let end = read_games_each(path, |item| {
        if let RecordItem::Game(game) = item {
            games.push(game);
        }
    })?;
    Ok(RecordFile { games, complete_len: end.complete_len, cut_short: end.cut_short })
}

/// [`read_games`] of a text.
pub fn games_of(text: &str) -> Result<RecordFile, RecordError> {
    let mut games = Vec::new();
    let each = |item| {
        if let RecordItem::Game(game) = item {
            games.push(game);
        }
        true
    };
    match stream_games(text.as_bytes(), u64::MAX, each) {
        Ok(end) => Ok(RecordFile { games, complete_len: end.complete_len, cut_short: end.cut_short }),
        Err(ReadGamesError::Syntax(e)) => Err(e),
        Err(e) => Err(RecordError { line: None, message: e.to_string() }),
    }
}

/// The longest line of a record file, in bytes. A longer tag line has its value cut (a
/// tag value is cut at [`super::MAX_TAG_VALUE_BYTES`] anyway), with a warning; any other
/// longer line is an error. Real lines take at most 80 bytes, or one move with its
/// annotation (at most 16 KiB).
pub const MAX_RECORD_LINE_BYTES: usize = 64 * 1024;

/// What [`read_games_each`] hands over, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordItem {
    /// A complete game.
    Game(GameRecord),
    /// Something cut on the way (a tag too long), with its line.
    Warning(RecordError),
}

/// How a record file read by [`read_games_each`] ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordEnd {
    /// The byte length of the text up to the end of the last complete game (what a writer
    /// cuts the file back to before appending, when `cut_short` is set).
    pub complete_len: usize,
    /// When the file ends in a game cut short: the line where that game's text begins.
    pub cut_short: Option<usize>,
}

/// Reads the record file `path` a line at a time (bounded: a regular file of at most
/// [`MAX_RECORD_FILE_BYTES`], valid UTF-8, lines of at most [`MAX_RECORD_LINE_BYTES`]),
/// handing each complete game to `each` as soon as it is read, and each warning about
/// what was cut. Its memory is one line and one game, whatever the file holds.
pub fn read_games_each(path: &Path, mut each: impl FnMut(RecordItem)) -> Result<RecordEnd, ReadGamesError> {
    let file = open_bounded(path, MAX_RECORD_FILE_BYTES)?;
    stream_games(std::io::BufReader::new(file), MAX_RECORD_FILE_BYTES, |item| {
        each(item);
        true
    })
}

/// Reads the games of the record file `path` as [`read_games_each`] does, until `each`
/// returns `false` (the rest of the file is not read); warnings are dropped.
pub fn read_games_until(path: &Path, each: impl FnMut(GameRecord) -> bool) -> Result<(), ReadGamesError> {
    read_games_streamed(path, MAX_RECORD_FILE_BYTES, each).map(|_| ())
}

/// Reads the complete games of the record file `path` one at a time, handing each to
/// `each` until it returns `false` ([`read_games_until`] is this at
/// [`MAX_RECORD_FILE_BYTES`]), for a reader that keeps no game (the training commands):
/// the file may hold up to `limit` bytes (for them
/// [`MAX_STREAMED_RECORD_FILE_BYTES`]) where a reader holding the file's games or text
/// stops at [`MAX_RECORD_FILE_BYTES`]. Warnings are dropped; a last game cut short (a file
/// still being written) is left out, as [`read_games`] leaves it.
pub fn read_games_streamed(
    path: &Path,
    limit: u64,
    mut each: impl FnMut(GameRecord) -> bool,
) -> Result<RecordEnd, ReadGamesError> {
    let file = open_bounded(path, limit)?;
    stream_games(std::io::BufReader::new(file), limit, |item| match item {
        RecordItem::Game(game) => each(game),
        RecordItem::Warning(_) => true,
    })
}

/// The reader of [`read_games_each`] over any input of at most `limit` bytes.
fn stream_games(
    mut input: impl std::io::BufRead,
    limit: u64,
    mut each: impl FnMut(RecordItem) -> bool,
) -> Result<RecordEnd, ReadGamesError> {
    let mut parser = super::Parser::default();
    let mut line = Vec::new();
    let (mut number, mut offset) = (0usize, 0usize);
    // The first line holding text after the last complete game.
    let mut text_after: Option<usize> = None;
    loop {
        line.clear();
        let (read, ended, long) = read_line(&mut input, &mut line)?;
        if read == 0 {
            break;
        }
        number += 1;
        let start = offset;
        offset += read;
        if offset as u64 > limit {
            return Err(RecordFileError::TooLarge { limit }.into());
        }
        let text = match std::str::from_utf8(&line) {
            Ok(text) => text,
            // A long line's kept part may end inside a character.
            Err(e) if long.is_some() && e.error_len().is_none() => {
                std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or("")
            }
            Err(e) => return Err(RecordFileError::NotUtf8(start + e.valid_up_to()).into()),
        };
        if text_after.is_none() && !text.trim().is_empty() {
            text_after = Some(number);
        }
        let parsed = match long {
            Some(tail_ok) => long_line(&mut parser, text, tail_ok, number),
            None => parser.line(text, number, offset),
        };
        if let Err(e) = parsed {
            if !ended {
                break; // the last line of an interrupted write
            }
            return Err(e.into());
        }
        let mut go_on = true;
        for warning in parser.warnings.drain(..) {
            go_on &= each(RecordItem::Warning(warning));
        }
        for game in parser.games.drain(..) {
            text_after = None;
            go_on &= each(RecordItem::Game(game));
        }
        if !go_on {
            return Ok(RecordEnd { complete_len: parser.complete_end, cut_short: None });
        }
    }
    let complete = parser.current.is_none() && !parser.in_comment;
    let end = match (complete, text_after) {
        (true, None) => RecordEnd { complete_len: parser.complete_end, cut_short: None },
        // What follows the last game is no game at all (comments, `%` lines).
        (true, Some(_)) => RecordEnd { complete_len: offset, cut_short: None },
        (false, line) => RecordEnd { complete_len: parser.complete_end, cut_short: Some(line.unwrap_or(number)) },
    };
    Ok(end)
}

/// Reads one line (with its `\n`) into `line`, keeping at most [`MAX_RECORD_LINE_BYTES`]
/// of it: the bytes read, whether a `\n` ended it, and for a line longer than that,
/// `Some(whether it ends in "]`, as a tag line does)` (the rest is read and dropped).
fn read_line(
    input: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
) -> Result<(usize, bool, Option<bool>), ReadGamesError> {
    use std::io::{BufRead as _, Read as _};
    let kept =
        input.by_ref().take(MAX_RECORD_LINE_BYTES as u64 + 1).read_until(b'\n', line).map_err(RecordFileError::Io)?;
    if kept <= MAX_RECORD_LINE_BYTES || line.last() == Some(&b'\n') {
        return Ok((kept, line.last() == Some(&b'\n'), None));
    }
    line.truncate(MAX_RECORD_LINE_BYTES);
    let mut read = kept;
    let mut tail: Vec<u8> = Vec::new();
    let ended = loop {
        let chunk = input.fill_buf().map_err(RecordFileError::Io)?;
        if chunk.is_empty() {
            break false;
        }
        let (used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        tail.extend_from_slice(&chunk[used.saturating_sub(8)..used]);
        let cut = tail.len().saturating_sub(8);
        tail.drain(..cut);
        input.consume(used);
        read += used;
        if ended {
            break true;
        }
    };
    let tail_ok = tail.trim_ascii_end().ends_with(b"\"]");
    Ok((read, ended, Some(tail_ok)))
}

/// A line longer than [`MAX_RECORD_LINE_BYTES`], of which `text` is the start: a tag
/// line (`tail_ok`: it ends as one) gets its value cut, with a warning; anything else is
/// an error.
fn long_line(parser: &mut super::Parser, text: &str, tail_ok: bool, number: usize) -> Result<(), RecordError> {
    let too_long = || RecordError {
        line: Some(number),
        message: format!("a line longer than {MAX_RECORD_LINE_BYTES} bytes that is no tag line"),
    };
    let start = text.trim_start();
    if parser.in_comment || !start.starts_with('[') || !tail_ok {
        return Err(too_long());
    }
    let inner = &start[1..];
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace()).ok_or_else(too_long)?;
    let quoted = rest.trim_start().strip_prefix('"').ok_or_else(too_long)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(too_long());
    }
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if value.len() >= super::MAX_TAG_VALUE_BYTES {
            break;
        }
        match c {
            '\\' => value.extend(chars.next()),
            '"' => return Err(too_long()),
            c => value.push(c),
        }
    }
    // Over the bound by construction: [`Parser::tag`] cuts it and warns.
    value.push_str("...");
    parser.tag(name.to_string(), value, number)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = super::super::tests::SAMPLE;

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
    fn streamed_games_come_one_at_a_time_within_their_own_limit() {
        let dir = scratch("streamed");
        let path = dir.join("games.txt");
        let text = format!("{SAMPLE}{SAMPLE}{SAMPLE}[Event \"cut\"]\n\n1. d4 b2");
        std::fs::write(&path, &text).unwrap();
        let whole = read_games(&path).unwrap();
        assert_eq!(whole.games.len(), 3);
        let mut seen = Vec::new();
        let end = read_games_streamed(&path, text.len() as u64, |game| {
            seen.push(game);
            true
        })
        .unwrap();
        assert_eq!((seen, end.complete_len, end.cut_short), (whole.games.clone(), whole.complete_len, whole.cut_short));
        assert!(end.cut_short.is_some());
        // Stopped after the second game: the third is not handed over.
        let mut count = 0;
        read_games_streamed(&path, text.len() as u64, |_| {
            count += 1;
            count < 2
        })
        .unwrap();
        assert_eq!(count, 2);
        // Its own limit, not the whole-file reader's: one byte short is refused unread.
        let err = read_games_streamed(&path, text.len() as u64 - 1, |_| panic!("read a game")).unwrap_err();
        assert!(matches!(err, ReadGamesError::File(RecordFileError::TooLarge { .. })), "{err}");
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
    fn a_game_cut_short_is_located_and_left_out() {
        let cut = format!("{SAMPLE}[Event \"cut\"]\n\n1. d4 b2");
        let file = games_of(&cut).unwrap();
        assert_eq!((file.games.len(), file.complete_len, file.cut_short), (1, SAMPLE.len() - 1, Some(8)));
        let commented = format!("{SAMPLE}% a comment\n");
        let file = games_of(&commented).unwrap();
        assert_eq!((file.games.len(), file.complete_len, file.cut_short), (1, commented.len(), None));
        assert!(games_of("[Size \"7\"]\n1. d4 B+ d5\n").is_err());
    }

    #[test]
    fn long_tags_are_cut_with_a_warning_and_long_lines_that_are_no_tag_refused() {
        let long = format!(
            "[Event \"{}\"]\n[Site \"{}\"]\n[Size \"7\"]\n\n1. d4 *\n\n",
            "e".repeat(100_000),
            "s".repeat(5000)
        );
        let mut items = Vec::new();
        let end = stream_games(long.as_bytes(), u64::MAX, |item| {
            items.push(item);
            true
        })
        .unwrap();
        assert_eq!(end.cut_short, None);
        let warnings: Vec<String> = items
            .iter()
            .filter_map(|item| match item {
                RecordItem::Warning(e) => Some(e.to_string()),
                RecordItem::Game(_) => None,
            })
            .collect();
        assert_eq!(
            warnings,
            [
                "line 1: the Event tag is longer than 4096 bytes: cut",
                "line 2: the Site tag is longer than 4096 bytes: cut"
            ]
        );
        let Some(RecordItem::Game(game)) = items.last() else { panic!("no game") };
        assert_eq!(game.tag("Event"), Some("e".repeat(super::super::MAX_TAG_VALUE_BYTES).as_str()));
        assert_eq!(game.tag("Size"), Some("7"));
        let junk = format!("[Size \"7\"]\n\n1. {} *\n", "a ".repeat(40_000));
        let error = games_of(&junk).unwrap_err();
        assert_eq!(error.to_string(), "line 3: a line longer than 65536 bytes that is no tag line");
        let many = format!("[Size \"7\"]\n\n{} *\n", "d4 ".repeat(2001));
        assert!(games_of(&many).unwrap_err().to_string().contains("more than 2000 moves"));
    }
}
