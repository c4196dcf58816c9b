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
/// module documentation).
#[derive(Debug)]
pub(super) struct LockedRecord {
    file: File,
}

impl Drop for LockedRecord {
    fn drop(&mut self) {
        // SAFETY: flock(2) on a descriptor we own, still open.
        unsafe {
            libc::flock(self.file.as_raw_fd(), libc::LOCK_UN);
        }
    }
}

/// Opens a record file for appending, locked (see the module documentation), and returns
/// the complete games it already holds. A game cut short at the end (an interrupted
/// write) is dropped from the file. With `overwrite` the file is emptied; with
/// `must_exist` a missing file is an error; with `wait` a file another referee writes is
/// waited for rather than refused.
pub(super) fn open_record_file(
    path: &Path,
    must_exist: bool,
    overwrite: bool,
    wait: bool,
) -> Result<(Vec<GameRecord>, LockedRecord), RefereeError> {
    let record_error = |detail: String| RefereeError::Record { path: path.to_path_buf(), detail };
    // Never open anything but a regular file: opening a FIFO blocks, and a device or a
    // directory holds no record.
    if path.exists() {
        check_regular_file(path).map_err(|e| record_error(e.to_string()))?;
    } else if must_exist {
        return Err(RefereeError::Usage(format!("--resume: {} does not exist", path.display())));
    }
    let file = OpenOptions::new().create(true).append(true).open(path).map_err(io_error(path))?;
    lock(&file, path, wait)?;
    // From here on every way out, an error included, releases the lock.
    let record = LockedRecord { file };
    if overwrite {
        record.file.set_len(0).map_err(io_error(path))?;
        return Ok((Vec::new(), record));
    }
    // Read under the lock: what a referee we waited for wrote is resumed, not replayed.
    let read = read_games(path).map_err(|e| record_error(format!("cannot resume: {e}")))?;
    if read.cut_short.is_some() {
        log::warn!("{}: dropping an incomplete game at the end", path.display());
        record.file.set_len(read.complete_len as u64).map_err(io_error(path))?;
    }
    Ok((read.games, record))
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
        return Err(RefereeError::Record {
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
pub(super) fn append_game(record: &mut LockedRecord, path: &Path, text: &str) -> Result<(), RefereeError> {
    let record_error = |detail: String| RefereeError::Record { path: path.to_path_buf(), detail };
    let file = &mut record.file;
    let before = file.metadata().map_err(io_error(path))?.len();
    let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) else {
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
}
