//! Engine processes and the GTP transport the referee uses to talk to them.
//!
//! An engine is started directly (no shell) from its command line split by
//! [`split_command`]; its stderr goes to a log file (or nowhere), never to the terminal.
//! A reader thread turns its stdout into lines on a channel, so that every read the
//! referee makes has a deadline: an engine that does not answer in time is killed.
//! [`Engine`] wraps a process that is restarted on demand after a crash or a kill.

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use crate::referee::words::{SplitError, split_command};

/// The longest reply line accepted, in bytes; a longer one is a malformed reply.
pub const MAX_LINE: usize = 1 << 20;

/// The most lines a single reply may have.
const MAX_REPLY_LINES: usize = 10_000;

/// How long to wait for an engine's exit status after its output ended.
const REAP_WAIT: Duration = Duration::from_millis(300);

/// An engine command line: the text as given and its split words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The command line as given, e.g. `./veletas --seed 3`.
    pub text: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory it starts in (the referee's own when `None`).
    pub dir: Option<PathBuf>,
    /// Protocol commands sent after every start, before anything else (e.g. `threads 2`).
    pub init: Vec<String>,
}

impl EngineCommand {
    /// Splits `text` into program and arguments with [`split_command`].
    pub fn parse(text: &str) -> Result<EngineCommand, SplitError> {
        let mut words = split_command(text)?;
        let program = words.remove(0);
        Ok(EngineCommand { text: text.to_string(), program, args: words, dir: None, init: Vec::new() })
    }
}

/// Why a command did not get a well-formed reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No complete reply before the deadline; the engine has been killed.
    Timeout,
    /// The engine closed its output or could not be written to: it has ended.
    Exited(String),
    /// The engine wrote something that is not a reply to the command; it has been killed.
    Malformed(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout => f.write_str("no reply before the deadline"),
            Failure::Exited(detail) => write!(f, "the engine ended ({detail})"),
            Failure::Malformed(detail) => write!(f, "malformed reply: {detail}"),
        }
    }
}

/// A well-formed reply: success (`=`) or failure (`?`) and the text after the id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// `true` for `=`, `false` for `?`.
    pub success: bool,
    /// The reply text, lines joined by `\n`, without the `=id ` prefix.
    pub text: String,
}

enum Event {
    Line(String),
    TooLong,
    Eof,
    ReadError(String),
}

/// One running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    next_id: u64,
    running: bool,
}

fn read_lines(stdout: ChildStdout, tx: Sender<Event>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = MAX_LINE as u64 + 1;
        let event = match reader.by_ref().take(limit).read_until(b'\n', &mut buf) {
            Ok(0) => Event::Eof,
            Ok(_) if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE => Event::TooLong,
            Ok(_) => {
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                Event::Line(String::from_utf8_lossy(&buf).into_owned())
            }
            Err(e) => Event::ReadError(e.to_string()),
        };
        let last = !matches!(event, Event::Line(_));
        if tx.send(event).is_err() || last {
            return;
        }
    }
}

impl EngineProcess {
    /// Starts `command` with stdin and stdout piped and stderr appended to `log`
    /// (discarded without a log).
    pub fn spawn(command: &EngineCommand, log: Option<&Path>) -> io::Result<EngineProcess> {
        let stderr = match log {
            Some(path) => Stdio::from(OpenOptions::new().create(true).append(true).open(path)?),
            None => Stdio::null(),
        };
        let mut process = Command::new(&command.program);
        if let Some(dir) = &command.dir {
            process.current_dir(dir);
        }
        let mut child =
            process.args(&command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr).spawn().map_err(
                |e| {
                    let place = command.dir.as_ref().map(|d| format!(" in {}", d.display())).unwrap_or_default();
                    io::Error::new(e.kind(), format!("cannot start {}{place}: {e}", command.program))
                },
            )?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the engine's pipes are missing"));
        };
        let (tx, rx) = channel();
        let reader = thread::Builder::new().name("engine-reader".into()).spawn(move || read_lines(stdout, tx));
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        Ok(EngineProcess { child, stdin: Some(stdin), lines: rx, next_id: 1, running: true })
    }

    /// Whether the process is believed to be running (not killed, no end of output seen).
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Sends `command` (with a fresh numeric id) and waits at most `timeout` for the
    /// reply. On [`Failure::Timeout`] and [`Failure::Malformed`] the engine is killed.
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<Reply, Failure> {
        if !self.running {
            return Err(Failure::Exited("it is not running".into()));
        }
        let deadline = Instant::now() + timeout;
        let id = self.next_id;
        self.next_id += 1;
        log::debug!("engine {} <- {id} {command}", self.child.id());
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{id} {command}").and_then(|()| stdin.flush()),
            None => Err(io::Error::other("stdin is closed")),
        };
        if let Err(e) = written {
            return Err(self.ended(&format!("writing failed: {e}")));
        }
        let reply = self.read_reply(id, deadline);
        match &reply {
            Ok(r) => log::debug!("engine {} -> {}{id} {}", self.child.id(), if r.success { '=' } else { '?' }, r.text),
            Err(Failure::Exited(_)) => {}
            Err(failure) => {
                log::debug!("engine {}: {failure}; killing it", self.child.id());
                self.kill();
            }
        }
        reply
    }

    fn read_reply(&mut self, id: u64, deadline: Instant) -> Result<Reply, Failure> {
        let mut reply: Option<Reply> = None;
        let mut lines = 0;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let event = match self.lines.recv_timeout(wait) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            let line = match event {
                Event::Line(line) => line,
                Event::TooLong => return Err(Failure::Malformed(format!("a line longer than {MAX_LINE} bytes"))),
                Event::Eof => return Err(self.ended("end of output")),
                Event::ReadError(e) => return Err(self.ended(&format!("reading failed: {e}"))),
            };
            let blank = line.trim().is_empty();
            match reply.as_mut() {
                None if blank => {}
                None => reply = Some(parse_first_line(&line, id)?),
                Some(_) if blank => return reply.ok_or_else(|| Failure::Malformed("empty reply".into())),
                Some(r) => {
                    lines += 1;
                    if lines > MAX_REPLY_LINES {
                        return Err(Failure::Malformed(format!("a reply of more than {MAX_REPLY_LINES} lines")));
                    }
                    r.text.push('\n');
                    r.text.push_str(&line);
                }
            }
        }
    }

    /// Marks the engine as ended and describes how (with its exit status if it has one).
    fn ended(&mut self, what: &str) -> Failure {
        self.running = false;
        self.stdin = None;
        let start = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.to_string(),
                Ok(None) if start.elapsed() < REAP_WAIT => thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break "still running; killed".to_string();
                }
                Err(e) => break e.to_string(),
            }
        };
        Failure::Exited(format!("{what}; {status}"))
    }

    /// Kills the process (if it still runs) and reaps it.
    pub fn kill(&mut self) {
        self.running = false;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `quit`, waits up to `timeout` for the reply and the exit, then kills.
    pub fn quit(&mut self, timeout: Duration) {
        if self.running && self.command("quit", timeout).is_ok() {
            self.stdin = None;
            let start = Instant::now();
            while start.elapsed() < timeout {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.running = false;
                    return;
                }
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads `=id text` or `?id text`, checking the id.
fn parse_first_line(line: &str, id: u64) -> Result<Reply, Failure> {
    let shown = || line.chars().take(60).collect::<String>();
    let success = match line.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(Failure::Malformed(format!("expected '=' or '?', got '{}'", shown()))),
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let got: Option<u64> = rest[..digits].parse().ok();
    if got != Some(id) {
        return Err(Failure::Malformed(format!("expected the reply to command {id}, got '{}'", shown())));
    }
    let text = &rest[digits..];
    if !text.is_empty() && !text.starts_with([' ', '\t']) {
        return Err(Failure::Malformed(format!("no space after the id in '{}'", shown())));
    }
    Ok(Reply { success, text: text.trim().to_string() })
}

/// An engine that can be restarted: the command, the log, and the current process.
pub struct Engine {
    command: EngineCommand,
    log: Option<PathBuf>,
    process: Option<EngineProcess>,
    /// How many times the engine has been started.
    pub starts: u32,
    /// Whether the engine accepted this game's `time_settings`: one that answered `?` (it
    /// knows no time commands) plays on, timed by the referee alone, and gets no `time_left`.
    pub timed: bool,
}

impl Engine {
    /// An engine not started yet.
    pub fn new(command: EngineCommand, log: Option<PathBuf>) -> Engine {
        Engine { command, log, process: None, starts: 0, timed: true }
    }

    /// The command line.
    pub fn command_line(&self) -> &EngineCommand {
        &self.command
    }

    /// Starts the engine unless it is running; `true` when it was started now (its
    /// start-up commands, [`EngineCommand::init`], are then still to be sent).
    pub fn ensure_running(&mut self) -> io::Result<bool> {
        if self.process.as_ref().is_some_and(EngineProcess::is_running) {
            return Ok(false);
        }
        self.process = None;
        self.process = Some(EngineProcess::spawn(&self.command, self.log.as_deref())?);
        self.starts += 1;
        Ok(true)
    }

    /// Sends a command to the running engine (see [`EngineProcess::command`]).
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<Reply, Failure> {
        match self.process.as_mut() {
            Some(process) => process.command(command, timeout),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// Whether a process is running.
    pub fn is_running(&self) -> bool {
        self.process.as_ref().is_some_and(EngineProcess::is_running)
    }

    /// Kills the process, if any.
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// Asks the engine to quit (killing it if it does not within `timeout`).
    pub fn quit(&mut self, timeout: Duration) {
        if let Some(mut process) = self.process.take() {
            process.quit(timeout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_reply_lines_are_checked() {
        assert_eq!(parse_first_line("=3 e2-e6/g8", 3), Ok(Reply { success: true, text: "e2-e6/g8".into() }));
        assert_eq!(parse_first_line("=3", 3), Ok(Reply { success: true, text: String::new() }));
        assert_eq!(parse_first_line("?12 illegal move", 12), Ok(Reply { success: false, text: "illegal move".into() }));
        for bad in ["= e2", "=4 e2", "info junk", "=3e2", ""] {
            assert!(matches!(parse_first_line(bad, 3), Err(Failure::Malformed(_))), "{bad}");
        }
    }

    fn sh(script: &str) -> EngineProcess {
        let command = EngineCommand {
            text: script.into(),
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
            init: Vec::new(),
        };
        EngineProcess::spawn(&command, None).unwrap()
    }

    const SHORT: Duration = Duration::from_millis(200);

    #[test]
    fn replies_are_read_with_multiple_lines_and_invalid_utf8() {
        let mut e = sh(r"read x; printf '=1 a\nb\377\n\n'; read y; printf '\n?2 no\r\n\n'; exec sleep 5");
        assert_eq!(e.command("list", SHORT), Ok(Reply { success: true, text: "a\nb\u{fffd}".into() }));
        assert_eq!(e.command("x", SHORT), Ok(Reply { success: false, text: "no".into() }));
        assert_eq!(e.command("x", SHORT), Err(Failure::Timeout));
        assert!(!e.is_running());
    }

    #[test]
    fn silence_times_out_and_an_ended_engine_is_reported() {
        let mut hung = sh("exec sleep 10");
        assert_eq!(hung.command("name", SHORT), Err(Failure::Timeout));
        let mut gone = sh("exit 7");
        let failure = gone.command("name", Duration::from_secs(5));
        assert!(matches!(&failure, Err(Failure::Exited(d)) if d.contains('7')), "{failure:?}");
        assert!(matches!(gone.command("name", SHORT), Err(Failure::Exited(_))));
    }

    #[test]
    fn junk_and_endless_lines_are_malformed() {
        let mut junk = sh("read x; echo thinking; exec sleep 5");
        assert!(matches!(junk.command("genmove b", SHORT), Err(Failure::Malformed(_))));
        let mut long = sh("read x; head -c 2000000 /dev/zero | tr '\\0' x; exec sleep 5");
        assert!(matches!(long.command("genmove b", Duration::from_secs(5)), Err(Failure::Malformed(_))));
    }
}
