//! Output files: written whole or not at all, never replaced, never one of the inputs.
//!
//! Every file the tools write as a whole (pictures, pages, reports, ratings tables) goes
//! through [`write_output`]:
//!
//! - a regular file (or a name that does not exist yet) is written to a temporary file
//!   beside it and renamed over it, so a reader sees the old file or the new one, never
//!   half of one; a symbolic link is followed and its *target* is written that way (the
//!   link stays a link), and the target keeps its permissions;
//! - anything else that exists (a FIFO, a terminal, `/dev/stdout`, a device node) is
//!   opened and written in place: it is never replaced by a regular file.
//!
//! A file size limit (`ulimit -f`) makes a write fail with `EFBIG` instead of killing the
//! program by SIGXFSZ part way through ([`ignore_file_size_signal`]): the writer then removes
//! its temporary file and says so in one line.
//!
//! [`check_not_input`] refuses, in one line and before anything is written, an output that
//! is the same file as an input (the record, the engine log, a file to read), compared by
//! device and inode rather than by name, so links and `./` spellings are caught too.
//!
//! [`FilesError`] is the one error of the commands that read files and write one (`render`,
//! `view`, `ratings`): the options, a file to read, or the output.

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

/// Why a command that reads files and writes one (`render`, `view`, `ratings`) wrote
/// nothing. Each is one line.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// The options are wrong (a position that is not one, no files, an output that is an
    /// input, a bad or unknown anchor): the command line's fault.
    #[error("{0}")]
    Options(String),
    /// A file to read cannot be read, or does not hold what is asked of it (a game, games
    /// that can be rated): the fault of the command line, which names the file.
    #[error("{0}")]
    Input(String),
    /// The output cannot be written (or, for `view`, which reads its games as it writes,
    /// a record file failed part way: then [`FilesError::Input`]).
    #[error(transparent)]
    Output(#[from] WriteError),
}

impl FilesError {
    /// Whether the command line is at fault: the options, or the files it names to read;
    /// only the output is written at run time.
    pub fn is_usage(&self) -> bool {
        !matches!(self, FilesError::Output(_))
    }

    /// The same error, its control characters (of file names, tags or arguments) spaces.
    pub fn without_controls(self) -> FilesError {
        let clean = |e: String| e.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        match self {
            FilesError::Options(e) => FilesError::Options(clean(e)),
            FilesError::Input(e) => FilesError::Input(clean(e)),
            // Its file name is the command line's, shown as the command line shows it.
            FilesError::Output(e) => FilesError::Output(e),
        }
    }
}

/// Why an output could not be written ([`write_output`]): one line naming it,
/// `stdout: cannot write: ...` or `PATH: ...`.
#[derive(Debug, thiserror::Error)]
#[error("{target}: {cause}")]
pub struct WriteError {
    target: String,
    #[source]
    cause: WriteFailure,
}

/// What went wrong writing an output ([`WriteError`] names the output).
#[derive(Debug, thiserror::Error)]
pub enum WriteFailure {
    /// A write, a flush, the temporary file or the rename failed.
    #[error(transparent)]
    Write(#[from] CannotWrite),
    /// The output is a directory.
    #[error("is a directory")]
    Directory,
    /// What the output is could not be found out (its metadata, a link's target).
    #[error("{0}")]
    Inspect(#[source] std::io::Error),
    /// More than 40 symbolic links in a row (as the kernel's `ELOOP`).
    #[error("too many levels of symbolic links")]
    Links,
    /// The output's path has no file name (`..`, `/`).
    #[error("not a file name")]
    NoFileName,
    /// What the writer of the content gave up on (a record read as a page is written).
    #[error(transparent)]
    Content(Box<dyn std::error::Error + Send + Sync>),
}

/// A write that failed: `cannot write: ...`, the error of the writers of
/// [`write_output_with`] (wrapped into theirs).
#[derive(Debug, thiserror::Error)]
#[error("cannot write: {0}")]
pub struct CannotWrite(#[from] pub std::io::Error);

impl WriteError {
    fn stdout(cause: WriteFailure) -> WriteError {
        WriteError { target: "stdout".into(), cause }
    }

    fn file(path: &Path, cause: WriteFailure) -> WriteError {
        WriteError { target: path.display().to_string(), cause }
    }

    /// What could not be written: `stdout` or the file's name.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// What went wrong.
    pub fn cause(&self) -> &WriteFailure {
        &self.cause
    }
}

impl From<WriteError> for String {
    fn from(e: WriteError) -> String {
        e.to_string()
    }
}

/// An output that is the same file as an input ([`check_not_input`]): `--report g.txt is
/// the same file as --record g.txt: refusing to overwrite it`.
#[derive(Debug, thiserror::Error)]
#[error("{option} {} is the same file as {input_option}{}: refusing to overwrite it", .output.display(), .input.display())]
pub struct SameFileError {
    option: String,
    output: PathBuf,
    /// The input's option and a space, or nothing for an input named without one.
    input_option: String,
    input: PathBuf,
}

impl From<SameFileError> for String {
    fn from(e: SameFileError) -> String {
        e.to_string()
    }
}

impl From<SameFileError> for FilesError {
    fn from(e: SameFileError) -> FilesError {
        FilesError::Options(e.to_string())
    }
}

/// How many symbolic links are followed before giving up (as the kernel's `ELOOP`).
const MAX_LINKS: usize = 40;

/// Writes `bytes` to `path` (see the module documentation); without a path, to stdout.
/// Errors are one line naming the path.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), WriteError> {
    write_output_with(path, |out| out.write_all(bytes).map_err(CannotWrite))
}

/// [`write_output`] of what `write` writes, as it writes it (a page made as its games are
/// read): to a file, whole or not at all as [`write_output`] writes it; to stdout as it
/// comes. `write`'s error is one line ([`CannotWrite`] for a failed write, or its own);
/// the path is put before it here.
pub fn write_output_with<E>(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), WriteError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    ignore_file_size_signal();
    let write = |out: &mut dyn Write| write(out).map_err(|e| WriteFailure::Content(Box::new(e)));
    let Some(path) = path else {
        let mut out = std::io::BufWriter::new(Stdout(std::io::stdout().lock()));
        let written = write(&mut out).and_then(|()| out.flush().map_err(|e| CannotWrite(e).into()));
        return written.map_err(WriteError::stdout);
    };
    let failed = |e| WriteError::file(path, e);
    // The kernel follows links (`/dev/stdout` is one into /proc) to say what is there.
    let existing = match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(failed(WriteFailure::Directory)),
        Ok(meta) if !meta.is_file() => return write_in_place(path, write).map_err(failed),
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(failed(WriteFailure::Inspect(e))),
    };
    let target = resolve_links(path).map_err(failed)?;
    replace_regular(&target, write, existing).map_err(failed)
}

/// Ignores SIGXFSZ where it has its default action (which kills the process, leaving a
/// temporary file and no message), so that a write past the file size limit fails with
/// `EFBIG` and is answered as any failed write. A child started afterwards gets the
/// default back when it needs it (the referee's engines do).
pub fn ignore_file_size_signal() {
    // SAFETY: sigaction(2) with zeroed structures reads the current action, then sets
    // SIG_IGN, which needs no handler.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGXFSZ, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_DFL {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_IGN;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGXFSZ, &action, std::ptr::null_mut());
        }
    }
}

/// Follows `path` while it is a symbolic link; the final name need not exist (a link to
/// a file not created yet names the file to create).
fn resolve_links(path: &Path) -> Result<PathBuf, WriteFailure> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current).map_err(WriteFailure::Inspect)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(WriteFailure::Links)
}

/// Stdout for [`write_output_with`]: a reader that went away (`| head`) is no error, and
/// the rest is dropped.
struct Stdout<'a>(std::io::StdoutLock<'a>);

impl Write for Stdout<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.0.write(bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(bytes.len()),
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }
}

/// Writes into an existing non-regular file (FIFO, terminal, device) without replacing it.
fn write_in_place(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), WriteFailure>,
) -> Result<(), WriteFailure> {
    let file = fs::OpenOptions::new().write(true).open(path).map_err(CannotWrite)?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)?;
    Ok(out.flush().map_err(CannotWrite)?)
}

/// Writes a regular file through a temporary file in its directory and a rename.
fn replace_regular(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), WriteFailure>,
    permissions: Option<fs::Permissions>,
) -> Result<(), WriteFailure> {
    let file_name = path.file_name().ok_or(WriteFailure::NoFileName)?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp: PathBuf = path.with_file_name(temp_name);
    let failed = |e: std::io::Error| WriteFailure::Write(CannotWrite(e));
    let written = fs::File::create_new(&temp).map_err(failed).and_then(|file| {
        if let Some(permissions) = permissions {
            file.set_permissions(permissions).map_err(failed)?;
        }
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| failed(e.into_error()))?;
        file.sync_all().map_err(failed)?;
        fs::rename(&temp, path).map_err(failed)
    });
    written.inspect_err(|_| {
        let _ = fs::remove_file(&temp);
    })
}

/// Whether `a` and `b` name the same file: the same device and inode when both exist
/// (links followed), else the same absolute path once the directories are resolved.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        (Err(_), Err(_)) => match (absolute(a), absolute(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
        _ => false,
    }
}

/// `path` with its links and its directory resolved, for a file that need not exist.
fn absolute(path: &Path) -> Option<PathBuf> {
    let path = resolve_links(path).ok()?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(path.file_name()?))
}

/// Refuses an output that is the same file as one of the inputs: `Err` is one line, e.g.
/// `--report g.txt is the same file as --record g.txt: refusing to overwrite it`.
/// `output` and each input are `(option, path)`; a `/dev/null`-like device shared by two
/// options is no conflict (nothing is read from it).
pub fn check_not_input(output: (&str, &Path), inputs: &[(&str, &Path)]) -> Result<(), SameFileError> {
    let (option, path) = output;
    if fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir()) {
        return Ok(());
    }
    for (input_option, input) in inputs {
        if same_file(path, input) {
            return Err(SameFileError {
                option: option.to_string(),
                output: path.to_path_buf(),
                input_option: if input_option.is_empty() { String::new() } else { format!("{input_option} ") },
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("veletas-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_link_is_kept_and_its_target_written() {
        let dir = temp_dir("link");
        fs::write(dir.join("real"), "old").unwrap();
        std::os::unix::fs::symlink("real", dir.join("link")).unwrap();
        write_output(Some(&dir.join("link")), b"new").unwrap();
        assert!(fs::symlink_metadata(dir.join("link")).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(dir.join("real")).unwrap(), "new");
        // A dangling link names the file to create.
        std::os::unix::fs::symlink("later", dir.join("dangling")).unwrap();
        write_output(Some(&dir.join("dangling")), b"made").unwrap();
        assert_eq!(fs::read_to_string(dir.join("later")).unwrap(), "made");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_same_file_is_recognised_through_links_and_spellings() {
        let dir = temp_dir("same");
        fs::write(dir.join("g.txt"), "x").unwrap();
        std::os::unix::fs::symlink("g.txt", dir.join("alias")).unwrap();
        assert!(same_file(&dir.join("g.txt"), &dir.join("alias")));
        assert!(same_file(&dir.join("new.txt"), &dir.join(".").join("new.txt")));
        assert!(!same_file(&dir.join("g.txt"), &dir.join("new.txt")));
        let refused = check_not_input(("-o", &dir.join("alias")), &[("--record", &dir.join("g.txt"))]);
        assert!(refused.unwrap_err().to_string().contains("same file as --record"));
        assert!(check_not_input(("-o", Path::new("/dev/null")), &[("--record", Path::new("/dev/null"))]).is_ok());
        let _ = fs::remove_dir_all(&dir);
    }
}
