//! Reading record files, bounded: [`read_record_file`] for the text (what every reader of
//! a record or openings file goes through), [`read_games`] for the complete games of a
//! record file that may end in a game cut short.

use std::io::Read as _;
use std::path::Path;

use super::{GameRecord, RecordError, parse_complete_records, parse_records};

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

/// Reads the games of the record file `path` ([`read_record_file`], bounded) as the
/// readers take them: every complete game, and where a last game cut short begins (text
/// after the last complete game that does not parse as games: an interrupted write). A
/// syntax error before that is an error. The viewer, `ratings`, `train-eval` and the
/// referee's resume read record files through it.
pub fn read_games(path: &Path) -> Result<RecordFile, ReadGamesError> {
    let text = read_record_file(path)?;
    Ok(games_of(&text)?)
}

/// [`read_games`] of a text.
pub fn games_of(text: &str) -> Result<RecordFile, RecordError> {
    let (games, end) = parse_complete_records(text)?;
    let rest = &text[end..];
    if rest.trim().is_empty() {
        return Ok(RecordFile { games, complete_len: end, cut_short: None });
    }
    // What is left may be no game at all (comments, `%` lines).
    if let Ok(all) = parse_records(text) {
        return Ok(RecordFile { games: all, complete_len: text.len(), cut_short: None });
    }
    let blank = &rest[..rest.len() - rest.trim_start().len()];
    let line = text[..end].matches('\n').count() + blank.matches('\n').count() + 1;
    Ok(RecordFile { games, complete_len: end, cut_short: Some(line) })
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
}
