//! The record file of a match or a tournament: one writer, and never half a game.
//!
//! - **One writer.** The referee holds an advisory lock (`flock`, exclusive) on the record
//!   file from before it reads the games already there until it ends. A second referee on
//!   the same file refuses at once, naming the first one's pid (from `/proc/locks`), or
//!   with `--wait` waits for the lock and then resumes from what the first one wrote.
//!   The lock is released explicitly when the [`LockedRecord`] is dropped, not left to the
//!   closing of the file: a `flock` belongs to the open file, which a child forked
//!   meanwhile by any thread of the process (an engine being started, by this run or by
//!   another in the same process) shares until it execs, so closing alone could leave the
//!   file locked for a moment after the run, and a next run on it (a resume, `--overwrite`)
//!   would be refused.
//! - **Whole games.** A game is appended with one `write_all` of its whole text; if that
//!   fails (a full disk, a file size limit), the file is cut back to the length it had
//!   before, so it still ends with the last complete game. A game cut short all the same
//!   (the machine lost power mid-write) is dropped when the file is opened again.
//! - **Only its own bytes.** The lock is advisory: an engine (or anyone) may still write to
//!   the file. The referee knows the length and the last bytes of what it wrote; before each
//!   game and at the end, bytes appended by someone else are moved into `RECORD.foreign-N`
//!   (named in one line on stderr) and the record cut back to what the referee wrote.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::referee::error::RefereeError;
use veletas_rules::record::{GameRecord, check_regular_file, read_games};

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RefereeError + '_ {
    move |source| RefereeError::Io { path: path.to_path_buf(), source }
}

/// A record file open for appending and locked: the lock ends when it is dropped (see the
/// module documentation). It knows what it wrote: the file's length and its last bytes,
/// checked before each game is appended and when it is dropped ([`LockedRecord::set_aside_foreign`]).
#[derive(Debug)]
pub(crate) struct LockedRecord {
    file: File,
    path: std::path::PathBuf,
    /// The length the file has when nobody else wrote to it.
    len: u64,
    /// Its last bytes (at most [`TAIL`]).
    tail: Vec<u8>,
    /// Whether `len` and `tail` have been taken (not before the games there were read).
    known: bool,
}

/// How many of the last bytes written the referee compares with the file.
const TAIL: usize = 64;

impl Drop for LockedRecord {
    fn drop(&mut self) {
        // What an engine appended after the last game goes aside too.
        if let Err(e) = self.set_aside_foreign() {
            eprintln!("veletas: {e}");
        }
        // SAFETY: flock(2) on a descriptor we own, still open.
        unsafe {
            libc::flock(self.file.as_raw_fd(), libc::LOCK_UN);
        }
    }
}

impl LockedRecord {
    fn new(file: File, path: &Path) -> LockedRecord {
        LockedRecord { file, path: path.to_path_buf(), len: 0, tail: Vec::new(), known: false }
    }

    /// Takes the file as it is now as what the referee wrote.
    fn know_current(&mut self) -> io::Result<()> {
        self.len = self.file.metadata()?.len();
        self.tail = self.read_tail(self.len)?;
        self.known = true;
        Ok(())
    }

    /// The [`TAIL`] bytes (fewer at the start of the file) before offset `end`.
    fn read_tail(&self, end: u64) -> io::Result<Vec<u8>> {
        use std::os::unix::fs::FileExt as _;
        let start = end.saturating_sub(TAIL as u64);
        let mut bytes = vec![0; (end - start) as usize];
        let mut read = 0;
        while read < bytes.len() {
            match self.file.read_at(&mut bytes[read..], start + read as u64) {
                Ok(0) => break,
                Ok(n) => read += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        bytes.truncate(read);
        Ok(bytes)
    }

    /// Notes `text` as appended by the referee.
    fn wrote(&mut self, text: &[u8]) {
        self.len += text.len() as u64;
        self.tail.extend_from_slice(text);
        let cut = self.tail.len().saturating_sub(TAIL);
        self.tail.drain(..cut);
    }

    /// Checks that the file is what the referee wrote (its length and last bytes). Bytes
    /// someone else appended (an engine writing to the record) are moved into a new file
    /// beside it, named in one line on stderr, and the record is cut back to what the
    /// referee wrote. A record shorter than that or whose end changed is copied aside and
    /// is an error: what the referee wrote is gone.
    pub(super) fn set_aside_foreign(&mut self) -> Result<(), RefereeError> {
        if !self.known {
            return Ok(());
        }
        let path = self.path.clone();
        let record_error = |detail: String| RefereeError::RecordWrite { path: path.clone(), detail };
        let now = self.file.metadata().map_err(io_error(&path))?.len();
        let ours = now >= self.len && self.read_tail(self.len).map_err(io_error(&path))? == self.tail;
        if ours && now == self.len {
            return Ok(());
        }
        let from = if ours { self.len } else { 0 };
        let aside = copy_aside(&self.file, &path, from, now).map_err(|e| {
            record_error(format!("changed by someone else than the referee, and cannot be copied aside: {e}"))
        })?;
        if !ours {
            // Said once: the file as it is now is the one the run stops on.
            let _ = self.know_current();
            return Err(record_error(format!(
                "changed by someone else than the referee (it is not what the referee wrote): copied to {}",
                aside.display()
            )));
        }
        self.file.set_len(self.len).map_err(io_error(&path))?;
        eprintln!(
            "veletas: {}: {} bytes the referee did not write were appended to the record (by an engine?): moved to {}",
            path.display(),
            now - self.len,
            aside.display()
        );
        Ok(())
    }
}

/// The most bytes [`copy_aside`] copies: those of the largest record file a reader takes.
const MAX_ASIDE: u64 = veletas_rules::record::MAX_RECORD_FILE_BYTES;

/// Copies the bytes `from..to` of `file` (at most [`MAX_ASIDE`]) into a new file beside
/// `path`, `PATH.foreign-N` for the first N free (through a temporary file and a link, so
/// the name appears whole and nothing is overwritten), and returns its path.
fn copy_aside(file: &File, path: &Path, from: u64, to: u64) -> io::Result<std::path::PathBuf> {
    use std::io::{Read as _, Seek as _};
    let mut source = file.try_clone()?;
    source.seek(io::SeekFrom::Start(from))?;
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".foreign.{}.tmp", std::process::id()));
    let temporary = std::path::PathBuf::from(name);
    let copied = (|| {
        let mut out = OpenOptions::new().write(true).create(true).truncate(true).open(&temporary)?;
        io::copy(&mut source.take(to.saturating_sub(from).min(MAX_ASIDE)), &mut out)?;
        out.sync_all()
    })();
    let named = copied.and_then(|()| {
        for n in 1..=10_000 {
            let mut name = path.as_os_str().to_owned();
            name.push(format!(".foreign-{n}"));
            let aside = std::path::PathBuf::from(name);
            match std::fs::hard_link(&temporary, &aside) {
                Ok(()) => return Ok(aside),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("10,000 files of foreign bytes already"))
    });
    let _ = std::fs::remove_file(&temporary);
    named
}

/// The error of `--resume` with a record file `path` that does not exist: a file named to
/// be read, the command line's fault.
pub(crate) fn not_there_to_resume(path: &Path) -> RefereeError {
    RefereeError::Usage(format!("--resume: {} does not exist", path.display()))
}

/// Opens a record file for appending, locked (see the module documentation), and returns
/// the complete games it already holds. A game cut short at the end (an interrupted
/// write) is dropped from the file. With `overwrite` the file is emptied; with
/// `must_exist` a missing file is an error; with `wait` a file another referee writes is
/// waited for rather than refused.
pub(crate) fn open_record_file(
    path: &Path,
    must_exist: bool,
    overwrite: bool,
    wait: bool,
) -> Result<(Vec<GameRecord>, LockedRecord), RefereeError> {
    let record_error = |detail: String| RefereeError::record(path, detail);
    // Never open anything but a regular file: opening a FIFO blocks, and a device or a
    // directory holds no record.
    if path.exists() {
        check_regular_file(path).map_err(|e| record_error(e.to_string()))?;
    } else if must_exist {
        return Err(not_there_to_resume(path));
    }
    let mut record = loop {
        let file = OpenOptions::new().create(true).append(true).read(true).open(path).map_err(io_error(path))?;
        lock(&file, path, wait)?;
        // From here on every way out, an error included, releases the lock.
        let record = LockedRecord::new(file, path);
        // The referee waited for may have removed the file (its engines were refused before
        // the first game): the path's new file is the record then.
        if names_file(path, &record.file) {
            break record;
        }
    };
    if overwrite {
        record.file.set_len(0).map_err(io_error(path))?;
        record.know_current().map_err(io_error(path))?;
        return Ok((Vec::new(), record));
    }
    // Read under the lock: what a referee we waited for wrote is resumed, not replayed.
    let read = read_games(path).map_err(|e| record_error(format!("cannot resume: {e}")))?;
    if read.cut_short.is_some() {
        log::warn!("{}: dropping an incomplete game at the end", path.display());
        record.file.set_len(read.complete_len as u64).map_err(io_error(path))?;
    }
    record.know_current().map_err(io_error(path))?;
    Ok((read.games, record))
}

/// Whether `path` names the open `file` (the same device and inode).
fn names_file(path: &Path, file: &File) -> bool {
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(named), Ok(open)) => named.dev() == open.dev() && named.ino() == open.ino(),
        _ => false,
    }
}

/// Takes the exclusive advisory lock of the record `file`: at once, or after waiting when
/// `wait`; refused in one line naming the holder's pid otherwise.
fn lock(file: &File, path: &Path, wait: bool) -> Result<(), RefereeError> {
    let fd = file.as_raw_fd();
    // SAFETY: flock(2) on a descriptor we own.
    if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    if error.kind() != io::ErrorKind::WouldBlock {
        return Err(RefereeError::Io { path: path.to_path_buf(), source: error });
    }
    let holder = file.metadata().ok().and_then(|meta| lock_holder(meta.dev(), meta.ino()));
    let who = holder.map_or("another referee".to_string(), |pid| format!("another referee (pid {pid})"));
    if !wait {
        return Err(RefereeError::RecordWrite {
            path: path.to_path_buf(),
            detail: format!("{who} is writing this record file; give --wait to wait for it"),
        });
    }
    eprintln!("{}: {who} is writing this record file; waiting for it", path.display());
    loop {
        // SAFETY: as above, blocking until the holder lets go.
        if unsafe { libc::flock(fd, libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(RefereeError::Io { path: path.to_path_buf(), source: error });
        }
    }
}

/// The pid holding a `flock` on the file of device `dev` and inode `ino`, from
/// `/proc/locks` (Linux; `None` elsewhere or when it cannot be told).
fn lock_holder(dev: u64, ino: u64) -> Option<u32> {
    let text = std::fs::read_to_string("/proc/locks").ok()?;
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    text.lines().find_map(|line| {
        // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.get(1) != Some(&"FLOCK") {
            return None;
        }
        let mut file = fields.get(5)?.split(':');
        let file_major = u32::from_str_radix(file.next()?, 16).ok()?;
        let file_minor = u32::from_str_radix(file.next()?, 16).ok()?;
        let file_ino: u64 = file.next()?.parse().ok()?;
        (file_major == major && file_minor == minor && file_ino == ino).then(|| fields.get(4)?.parse().ok())?
    })
}

/// Appends one game's whole `text` to the `record` file at `path`; on failure the file
/// is cut back to its length before, so it never ends in part of a game, and the error
/// (one line) says so.
pub(crate) fn append_game(record: &mut LockedRecord, path: &Path, text: &str) -> Result<(), RefereeError> {
    let record_error = |detail: String| RefereeError::RecordWrite { path: path.to_path_buf(), detail };
    record.set_aside_foreign()?;
    let file = &mut record.file;
    let before = file.metadata().map_err(io_error(path))?.len();
    let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) else {
        record.wrote(text.as_bytes());
        return Ok(());
    };
    Err(record_error(match file.set_len(before) {
        Ok(()) => format!("cannot append a game ({e}); the file ends with the last complete game"),
        Err(cut) => format!("cannot append a game ({e}), nor cut the partial game back ({cut})"),
    }))
}

/// Today's date (UTC) as `YYYY.MM.DD`, as the records' `Date` tag writes it.
pub fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::os::unix::process::CommandExt as _;

    /// A run ends while another thread of the process is starting a child that has forked
    /// but not yet exec'd, so it still holds a copy of the record's descriptor (issue 23's
    /// match test met this under load): the next run on the record gets the lock.
    #[test]
    fn the_lock_ends_with_the_run_though_a_child_forked_meanwhile_still_holds_the_file() {
        let dir = std::env::temp_dir().join(format!("veletas-record-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        let (_, record) = open_record_file(&path, false, false, false).unwrap();

        // The child says it has forked, then waits before its exec until `go` is closed.
        let (mut forked, forked_tx) = std::io::pipe().unwrap();
        let (go_rx, go) = std::io::pipe().unwrap();
        let (forked_fd, go_rx_fd, go_fd) = (forked_tx.as_raw_fd(), go_rx.as_raw_fd(), go.as_raw_fd());
        let mut command = std::process::Command::new("true");
        // SAFETY: only close(2), write(2) and read(2), which are async-signal-safe, on
        // descriptors the child inherited.
        unsafe {
            command.pre_exec(move || {
                libc::close(go_fd);
                libc::write(forked_fd, b"f".as_ptr().cast(), 1);
                let mut byte = 0u8;
                libc::read(go_rx_fd, (&raw mut byte).cast(), 1);
                Ok(())
            });
        }
        // `status` returns once the child has exec'd and ended: on a thread of its own,
        // which holds the pipe ends the child uses (a failed start ends `forked` at once).
        let starter = std::thread::spawn(move || {
            let status = command.status();
            drop((forked_tx, go_rx));
            status
        });
        let mut byte = [0u8];
        forked.read_exact(&mut byte).expect("the child forked");

        drop(record);
        let again = open_record_file(&path, false, false, false).map(|_| ());
        drop(go);
        assert!(starter.join().unwrap().unwrap().success());
        again.unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("veletas-record-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn append_foreign(path: &Path, bytes: &str) {
        let mut file = OpenOptions::new().append(true).open(path).unwrap();
        file.write_all(bytes.as_bytes()).unwrap();
    }

    const GAME: &str = "[Size \"7\"]\n\n1. d4 *\n\n";

    #[test]
    fn bytes_appended_after_the_last_game_go_aside_when_the_run_ends() {
        let dir = scratch("foreign-end");
        let path = dir.join("games.txt");
        let (_, mut record) = open_record_file(&path, false, false, false).unwrap();
        append_game(&mut record, &path, GAME).unwrap();
        append_foreign(&path, "junk\n");
        drop(record);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), GAME);
        assert_eq!(std::fs::read_to_string(dir.join("games.txt.foreign-1")).unwrap(), "junk\n");
        // A second time, the next name.
        let (_, mut record) = open_record_file(&path, false, false, false).unwrap();
        append_foreign(&path, "more\n");
        append_game(&mut record, &path, GAME).unwrap();
        drop(record);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), [GAME, GAME].concat());
        assert_eq!(std::fs::read_to_string(dir.join("games.txt.foreign-2")).unwrap(), "more\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_rewritten_behind_the_referee_is_copied_aside_and_an_error() {
        let dir = scratch("foreign-rewritten");
        let path = dir.join("games.txt");
        let (_, mut record) = open_record_file(&path, false, false, false).unwrap();
        append_game(&mut record, &path, GAME).unwrap();
        std::fs::write(&path, "[Size \"9\"]\n\n1. d4 *\n\n").unwrap();
        let error = append_game(&mut record, &path, GAME).unwrap_err().to_string();
        assert!(error.contains("not what the referee wrote") && error.contains("games.txt.foreign-1"), "{error}");
        assert!(std::fs::read_to_string(dir.join("games.txt.foreign-1")).unwrap().contains("\"9\""));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
