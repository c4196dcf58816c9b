//! A program run to its end with bounds on what it may cost: its stdout and its stderr are
//! each read up to [`MAX_OUTPUT_BYTES`], and its run up to a time limit; past either bound the
//! program is killed and the run refused. `bench --compare` runs the other binary through it,
//! so a binary that prints without end or never ends cannot fill the memory or hang the
//! comparison.

use std::io::{self, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// The most bytes read from each of a program's stdout and stderr (a bench run prints a few
/// hundred).
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// How long the program's output may stay open after the program ended (a child of its own
/// still holding it).
const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// How often the running program is looked at.
const POLL: Duration = Duration::from_millis(5);

/// A program that ran to its end within the bounds.
#[derive(Debug)]
pub struct Finished {
    /// Whether it exited with status 0.
    pub success: bool,
    /// What it printed on stdout (invalid UTF-8 replaced).
    pub stdout: String,
    /// What it printed on stderr (invalid UTF-8 replaced).
    pub stderr: String,
    /// From its start to its end.
    pub elapsed: Duration,
}

/// Why a program's run was refused.
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    /// It could not be started.
    #[error("cannot run it: {0}")]
    Start(io::Error),
    /// It printed more than [`MAX_OUTPUT_BYTES`] on one stream (named); it was killed.
    #[error("it printed more than {MAX_OUTPUT_BYTES} bytes on {0}; killed")]
    TooMuch(&'static str),
    /// It ran past the limit; it was killed.
    #[error("still running after {} s; killed", .0.as_secs_f64())]
    TooLong(Duration),
    /// Its output stayed open [`CLOSE_GRACE`] after it ended.
    #[error("its output stayed open after it ended")]
    LeftOpen,
    /// Waiting for it failed.
    #[error("cannot wait for it: {0}")]
    Wait(io::Error),
}

/// One stream read to its end or to one byte past the bound.
struct Read1 {
    stream: &'static str,
    bytes: Vec<u8>,
}

/// Runs `command` (stdin empty) to its end, within [`MAX_OUTPUT_BYTES`] a stream and, if
/// given, `limit` from its start.
pub fn run(mut command: Command, limit: Option<Duration>) -> Result<Finished, ChildError> {
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = command.spawn().map_err(ChildError::Start)?;
    let (sender, streams) = mpsc::channel();
    read_in_background(child.stdout.take(), "stdout", &sender);
    read_in_background(child.stderr.take(), "stderr", &sender);
    drop(sender);
    let (mut stdout, mut stderr) = (None, None);
    let mut ended: Option<(bool, Duration)> = None;
    loop {
        if let Some(read) = receive(&streams) {
            if read.bytes.len() > MAX_OUTPUT_BYTES {
                kill(&mut child);
                return Err(ChildError::TooMuch(read.stream));
            }
            let text = String::from_utf8_lossy(&read.bytes).into_owned();
            match read.stream {
                "stdout" => stdout = Some(text),
                _ => stderr = Some(text),
            }
        }
        if ended.is_none() {
            match child.try_wait() {
                Ok(Some(status)) => ended = Some((status.success(), start.elapsed())),
                Ok(None) => {}
                Err(e) => {
                    kill(&mut child);
                    return Err(ChildError::Wait(e));
                }
            }
        }
        match (ended, stdout.is_some() && stderr.is_some()) {
            (Some((success, elapsed)), true) => {
                let (stdout, stderr) = (stdout.unwrap_or_default(), stderr.unwrap_or_default());
                return Ok(Finished { success, stdout, stderr, elapsed });
            }
            (Some((_, elapsed)), false) if start.elapsed() > elapsed + CLOSE_GRACE => {
                return Err(ChildError::LeftOpen);
            }
            (None, _) if limit.is_some_and(|limit| start.elapsed() > limit) => {
                kill(&mut child);
                return Err(ChildError::TooLong(limit.unwrap_or_default()));
            }
            _ => {}
        }
    }
}

/// Reads `stream` on a thread of its own, up to one byte past the bound, and sends it.
fn read_in_background<R: Read + Send + 'static>(stream: Option<R>, name: &'static str, sender: &Sender<Read1>) {
    let sender = sender.clone();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(stream) = stream {
            // A read error ends the stream: what was read is what it printed.
            let _ = stream.take(MAX_OUTPUT_BYTES as u64 + 1).read_to_end(&mut bytes);
        }
        let _ = sender.send(Read1 { stream: name, bytes });
    });
}

/// The next stream read to its end, waiting at most [`POLL`].
fn receive(streams: &Receiver<Read1>) -> Option<Read1> {
    match streams.recv_timeout(POLL) {
        Ok(read) => Some(read),
        Err(mpsc::RecvTimeoutError::Timeout) => None,
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // Both streams were received: the loop only waits for the program now.
            thread::sleep(POLL);
            None
        }
    }
}

/// Kills the program and reaps it (it may have ended already).
fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_program_that_ends_gives_its_status_and_both_streams() {
        let done = run(sh("echo out; echo err >&2; exit 3"), Some(Duration::from_secs(600))).unwrap();
        assert!(!done.success);
        assert_eq!((done.stdout.as_str(), done.stderr.as_str()), ("out\n", "err\n"));
        let done = run(sh("printf 'a\\377b'"), None).unwrap();
        assert!(done.success && done.stdout == "a\u{fffd}b" && done.stderr.is_empty(), "{done:?}");
    }

    #[test]
    fn a_program_that_prints_without_end_is_killed_at_the_bound() {
        // `yes` never ends on its own: only the bound stops it.
        let err = run(Command::new("yes"), None).unwrap_err();
        assert!(matches!(err, ChildError::TooMuch("stdout")), "{err}");
        let err = run(sh("exec yes >&2"), None).unwrap_err();
        assert!(matches!(err, ChildError::TooMuch("stderr")), "{err}");
    }

    #[test]
    fn a_program_past_its_limit_is_killed() {
        let err = run(sh("exec sleep 600"), Some(Duration::from_millis(50))).unwrap_err();
        assert!(matches!(err, ChildError::TooLong(_)), "{err}");
        assert!(err.to_string().contains("still running after 0.05 s"), "{err}");
    }

    #[test]
    fn a_program_that_cannot_start_says_so() {
        let err = run(Command::new("/nonexistent/program"), None).unwrap_err();
        assert!(matches!(err, ChildError::Start(_)) && err.to_string().starts_with("cannot run it: "), "{err}");
    }
}
