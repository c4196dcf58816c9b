//! Engine processes and the GTP transport the referee uses to talk to them.
//!
//! An engine is started directly (no shell) from its command line split by
//! [`split_command`], in a process group of its own (see the `process` module); its stderr
//! goes to a log file (or nowhere), never to the terminal. A reader thread turns its
//! stdout into lines on a channel, so that every read the referee makes has a deadline:
//! an engine that does not answer in time is killed, its whole process group with it.
//! Writes have the same deadline: the engine's stdin is non-blocking, and an engine that
//! stops reading is treated as one that stops answering.
//!
//! Everything an engine sends is bounded, whenever it sends it: a reply holds at most
//! [`MAX_REPLY`] bytes (no line longer than [`MAX_LINE`]), and output the referee has not
//! asked for yet (written between commands, or while the other engine thinks) may wait
//! unread up to [`MAX_UNREAD`] bytes, each line counted at least [`LINE_COST`] bytes.
//! Past either, the engine's reply is malformed: it is killed and loses the game. Past
//! [`MAX_UNREAD`] the reader stops reading, keeping the pipe open (so the engine blocks on
//! a full pipe rather than die of a closed one before it is judged), until the engine is
//! killed. An engine's output therefore costs the referee at most about
//! `MAX_UNREAD + MAX_REPLY + MAX_LINE` bytes (6 MiB), whatever it writes.
//!
//! [`Engine`] wraps a process that is restarted on demand after a crash or a kill.

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use crate::referee::process::{kill_group, register_group, set_nonblocking, unregister_group, write_all_before};
use crate::referee::traffic::{Traffic, forward_stderr};
use crate::referee::words::{SplitError, split_command};

/// The longest reply line accepted, in bytes; a longer one is a malformed reply.
pub const MAX_LINE: usize = 1 << 20;

/// The longest reply accepted, in bytes (its lines and their separators); a longer one
/// is a malformed reply.
pub const MAX_REPLY: usize = 1 << 20;

/// The most output an engine may leave unread (sent before the referee asks for it),
/// in bytes with every line counted at least [`LINE_COST`]; past it the engine's next
/// reply is malformed.
pub const MAX_UNREAD: usize = 4 << 20;

/// What a line costs at least against [`MAX_UNREAD`]: its text's size plus this, so
/// that empty lines are bounded too.
pub const LINE_COST: usize = 64;

/// The most lines a single reply may have.
const MAX_REPLY_LINES: usize = 10_000;

/// The longest engine name or version (the `name` and `version` replies) kept, in
/// characters, after [`clean_text`].
pub const MAX_NAME: usize = 64;

/// The longest piece of other engine text (a refusal's reason, a `final_score` answer, a
/// reply that is not a move) kept in records, on screens and in reports, in characters,
/// after [`clean_text`].
pub const MAX_SHOWN: usize = 120;

/// Engine text as it may reach a record, a terminal, CSV or HTML: every control
/// character (line breaks, tabs, escapes, C1 controls) and every bidirectional override
/// becomes a space, runs of spaces one space, the ends trimmed, and the text cut to `max`
/// characters (the cut marked with `...`).
pub fn clean_text(text: &str, max: usize) -> String {
    let mut cleaned = String::with_capacity(text.len().min(max * 4 + 3));
    let mut chars = 0;
    let mut space = false;
    for c in text.chars() {
        let c = if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') { ' ' } else { c };
        if c.is_whitespace() {
            space = !cleaned.is_empty();
            continue;
        }
        if chars + usize::from(space) >= max {
            cleaned.push_str("...");
            return cleaned;
        }
        if space {
            cleaned.push(' ');
            chars += 1;
            space = false;
        }
        cleaned.push(c);
        chars += 1;
    }
    cleaned
}

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
    /// The engine did not take the command before the deadline (it stopped reading its
    /// input); it has been killed.
    NotReading,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout => f.write_str("no reply before the deadline"),
            Failure::Exited(detail) => write!(f, "the engine ended ({detail})"),
            Failure::Malformed(detail) => write!(f, "malformed reply: {detail}"),
            Failure::NotReading => f.write_str("the engine stopped reading its input"),
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

/// A reply with the lines it was read from, as the engine wrote them (without the empty
/// line that ends it), for checks of the framing itself (`veletas check`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The reply.
    pub reply: Reply,
    /// Its lines, the first one with its `=id` or `?id`.
    pub lines: Vec<String>,
}

enum Event {
    Line(String),
    TooLong,
    /// More than [`MAX_UNREAD`] bytes waiting: the reader has stopped.
    Flood,
    Eof,
    ReadError(String),
}

/// What a line costs against [`MAX_UNREAD`].
fn line_cost(line: &str) -> usize {
    line.len() + LINE_COST
}

/// What the reader thread and the referee share about an engine's output.
#[derive(Default)]
struct Output {
    /// The bytes of lines on the channel, as [`line_cost`] counts them.
    unread: AtomicUsize,
    /// Set when the unread output passed [`MAX_UNREAD`] and the reader stopped.
    flooded: AtomicBool,
}

/// One running engine process (the leader of its own process group).
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    output: Arc<Output>,
    /// Dropped with the process: tells a reader that stopped on a flood to let the pipe go.
    _release: Sender<()>,
    /// The engine's name and game, for the protocol log.
    traffic: Traffic,
    next_id: u64,
    running: bool,
    /// Whether the process group has been killed and the leader reaped.
    reaped: bool,
    /// The first line of a reply cut short by the last deadline (no empty line ended it).
    unterminated: Option<String>,
}

fn read_lines(stdout: ChildStdout, tx: Sender<Event>, output: Arc<Output>, release: Receiver<()>) {
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
                let line = String::from_utf8_lossy(&buf).into_owned();
                let cost = line_cost(&line);
                if output.unread.fetch_add(cost, Ordering::SeqCst) + cost > MAX_UNREAD {
                    output.flooded.store(true, Ordering::SeqCst);
                    let _ = tx.send(Event::Flood);
                    // Hold the pipe, unread, until the engine has been judged and killed.
                    let _ = release.recv();
                    return;
                } else {
                    Event::Line(line)
                }
            }
            Err(e) => Event::ReadError(e.to_string()),
        };
        let last = !matches!(event, Event::Line(_));
        if tx.send(event).is_err() || last {
            return;
        }
        if buf.capacity() > 1 << 16 {
            buf = Vec::new();
        }
    }
}

impl EngineProcess {
    /// Starts `command` with stdin and stdout piped and stderr appended to `log`
    /// (discarded without a log).
    pub fn spawn(command: &EngineCommand, log: Option<&Path>) -> io::Result<EngineProcess> {
        EngineProcess::spawn_logged(command, log, Traffic::new(&command.text, None))
    }

    /// [`EngineProcess::spawn`], with every line of stderr prefixed with the name that
    /// `traffic` holds and every protocol line noted in its protocol log.
    pub fn spawn_logged(command: &EngineCommand, log: Option<&Path>, traffic: Traffic) -> io::Result<EngineProcess> {
        let stderr = match log {
            Some(path) => {
                // Opened here too, so that a log that cannot be written is an error at start.
                OpenOptions::new().create(true).append(true).open(path).map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot open the engine log {}: {e}", path.display()))
                })?;
                Stdio::piped()
            }
            None => Stdio::null(),
        };
        let mut process = Command::new(&command.program);
        if let Some(dir) = &command.dir {
            process.current_dir(dir);
        }
        // A group of its own: the engine and whatever it starts are killed together.
        process.process_group(0);
        let mut child =
            process.args(&command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr).spawn().map_err(
                |e| {
                    let place = command.dir.as_ref().map(|d| format!(" in {}", d.display())).unwrap_or_default();
                    io::Error::new(e.kind(), format!("cannot start {}{place}: {e}", command.program))
                },
            )?;
        let pgid = child.id() as i32;
        register_group(pgid);
        if let (Some(path), Some(stderr)) = (log, child.stderr.take())
            && let Err(e) = forward_stderr(stderr, path, traffic.clone())
        {
            log::warn!("{}: {e}", path.display());
        }
        let give_up = |mut child: Child, e: io::Error| {
            kill_group(pgid);
            let _ = child.wait();
            unregister_group(pgid);
            Err(e)
        };
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            return give_up(child, io::Error::other("the engine's pipes are missing"));
        };
        if let Err(e) = set_nonblocking(&stdin) {
            return give_up(child, e);
        }
        let (tx, rx) = channel();
        let (release, released) = channel();
        let output = Arc::new(Output::default());
        let shared = Arc::clone(&output);
        let reader =
            thread::Builder::new().name("engine-reader".into()).spawn(move || read_lines(stdout, tx, shared, released));
        if let Err(e) = reader {
            return give_up(child, e);
        }
        Ok(EngineProcess {
            child,
            stdin: Some(stdin),
            lines: rx,
            output,
            _release: release,
            traffic,
            next_id: 1,
            running: true,
            reaped: false,
            unterminated: None,
        })
    }

    /// Whether the process is believed to be running (not killed, no end of output seen).
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Sends `command` (with a fresh numeric id) and waits at most `timeout` for the
    /// reply, the write included. On [`Failure::Timeout`] and [`Failure::Malformed`] the
    /// engine is killed.
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<Reply, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        self.exchange(&format!("{id} {command}"), &id.to_string(), timeout).map(|e| e.reply)
    }

    /// Writes `line` exactly as given (a newline is added) and waits at most `timeout` for
    /// a reply carrying the id `id` (empty: a reply without an id), the write included.
    /// For checks of the framing; [`EngineProcess::command`] is the ordinary way. On
    /// [`Failure::Timeout`] and [`Failure::Malformed`] the engine is killed.
    pub fn exchange(&mut self, line: &str, id: &str, timeout: Duration) -> Result<Exchange, Failure> {
        if !self.running {
            return Err(Failure::Exited("it is not running".into()));
        }
        if self.output.flooded.load(Ordering::SeqCst) {
            self.kill();
            return Err(flooded());
        }
        let deadline = Instant::now() + timeout;
        log::debug!("engine {} <- {line}", self.child.id());
        self.traffic.sent(line);
        let written = match self.stdin.as_mut() {
            Some(stdin) => write_all_before(stdin, format!("{line}\n").as_bytes(), deadline),
            None => Err(io::Error::other("stdin is closed")),
        };
        let reply = match written {
            Ok(()) => self.read_reply(id, deadline),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => Err(Failure::NotReading),
            Err(e) => return Err(self.ended(&format!("writing failed: {e}"))),
        };
        match &reply {
            Ok(e) => log::debug!("engine {} -> {}", self.child.id(), e.lines.join("\n")),
            Err(Failure::Exited(_)) => {}
            Err(failure) => {
                log::debug!("engine {}: {failure}; killing it", self.child.id());
                self.kill();
            }
        }
        reply
    }

    /// Sends a streaming command (such as `analyze`, which reports until the next input)
    /// and hands each line of its reply to `on_line` for `duration` or until `on_line`
    /// returns `false`; then sends an empty line to stop it and reads the rest of the reply
    /// (within `timeout`), which is returned. The first line must come within `timeout`.
    /// On [`Failure::Timeout`], [`Failure::NotReading`] and [`Failure::Malformed`] the
    /// engine is killed.
    pub fn stream(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        let result = self.stream_inner(command, duration, timeout, on_line);
        if matches!(result, Err(Failure::Timeout | Failure::NotReading | Failure::Malformed(_))) {
            self.kill();
        }
        result
    }

    fn stream_inner(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        if !self.running {
            return Err(Failure::Exited("it is not running".into()));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.write_line(&format!("{id} {command}"), Instant::now() + timeout)?;
        let mut reply = loop {
            match self.next_line(Instant::now() + timeout)? {
                line if line.trim().is_empty() => continue,
                line => break parse_first_line(&line, &id.to_string())?,
            }
        };
        let stop_at = Instant::now() + duration;
        let mut ended = false;
        let mut lines = 0;
        while Instant::now() < stop_at {
            let line = match self.next_line(stop_at) {
                Ok(line) => line,
                Err(Failure::Timeout) => break,
                Err(failure) => return Err(failure),
            };
            if line.trim().is_empty() {
                ended = true;
                break;
            }
            lines += 1;
            if lines > MAX_REPLY_LINES {
                return Err(Failure::Malformed(format!("a reply of more than {MAX_REPLY_LINES} lines")));
            }
            if !on_line(&line) {
                break;
            }
            reply.text = line;
        }
        if !ended {
            let deadline = Instant::now() + timeout;
            self.write_line("", deadline)?;
            loop {
                let line = self.next_line(deadline)?;
                if line.trim().is_empty() {
                    break;
                }
                on_line(&line);
                reply.text = line;
            }
        }
        Ok(reply)
    }

    /// Writes `line` and a newline by `deadline`.
    fn write_line(&mut self, line: &str, deadline: Instant) -> Result<(), Failure> {
        self.traffic.sent(line);
        let written = match self.stdin.as_mut() {
            Some(stdin) => write_all_before(stdin, format!("{line}\n").as_bytes(), deadline),
            None => Err(io::Error::other("stdin is closed")),
        };
        match written {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => Err(Failure::NotReading),
            Err(e) => Err(self.ended(&format!("writing failed: {e}"))),
        }
    }

    /// The next line of output, by `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let event = match self.lines.recv_timeout(wait) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Event::Eof,
        };
        match event {
            Event::Line(line) => {
                self.output.unread.fetch_sub(line_cost(&line), Ordering::SeqCst);
                self.traffic.received(&line);
                Ok(line)
            }
            Event::TooLong => Err(Failure::Malformed(format!("a line longer than {MAX_LINE} bytes"))),
            Event::Flood => Err(flooded()),
            Event::Eof => Err(self.ended("end of output")),
            Event::ReadError(e) => Err(self.ended(&format!("reading failed: {e}"))),
        }
    }

    fn read_reply(&mut self, id: &str, deadline: Instant) -> Result<Exchange, Failure> {
        let mut reply: Option<Exchange> = None;
        let mut lines = 0;
        self.unterminated = None;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let event = match self.lines.recv_timeout(wait) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => {
                    self.unterminated = reply.and_then(|r| r.lines.into_iter().next());
                    return Err(Failure::Timeout);
                }
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            let line = match event {
                Event::Line(line) => {
                    self.output.unread.fetch_sub(line_cost(&line), Ordering::SeqCst);
                    self.traffic.received(&line);
                    line
                }
                Event::TooLong => return Err(Failure::Malformed(format!("a line longer than {MAX_LINE} bytes"))),
                Event::Flood => return Err(flooded()),
                Event::Eof => return Err(self.ended("end of output")),
                Event::ReadError(e) => return Err(self.ended(&format!("reading failed: {e}"))),
            };
            if self.output.flooded.load(Ordering::SeqCst) {
                return Err(flooded());
            }
            let blank = line.trim().is_empty();
            match reply.as_mut() {
                None if blank => {}
                None => reply = Some(Exchange { reply: parse_first_line(&line, id)?, lines: vec![line] }),
                Some(_) if blank => return reply.ok_or_else(|| Failure::Malformed("empty reply".into())),
                Some(r) => {
                    lines += 1;
                    if lines > MAX_REPLY_LINES {
                        return Err(Failure::Malformed(format!("a reply of more than {MAX_REPLY_LINES} lines")));
                    }
                    if r.reply.text.len() + 1 + line.len() > MAX_REPLY {
                        return Err(Failure::Malformed(format!("a reply longer than {MAX_REPLY} bytes")));
                    }
                    r.reply.text.push('\n');
                    r.reply.text.push_str(&line);
                    r.lines.push(line);
                }
            }
        }
    }

    /// Marks the engine as ended and describes how (with its exit status if it has one);
    /// whatever is left of its process group is killed.
    fn ended(&mut self, what: &str) -> Failure {
        self.running = false;
        self.stdin = None;
        let start = Instant::now();
        let status = loop {
            // Waiting for the status without reaping keeps the group id reserved until
            // the group has been killed.
            match self.leader_exited() {
                Ok(true) => {
                    self.end_group();
                    break self.child.wait().map_or_else(|e| e.to_string(), |status| status.to_string());
                }
                Ok(false) if start.elapsed() < REAP_WAIT => thread::sleep(Duration::from_millis(5)),
                Ok(false) => {
                    self.end_group();
                    break "still running; killed".to_string();
                }
                Err(e) => {
                    self.end_group();
                    break e.to_string();
                }
            }
        };
        Failure::Exited(format!("{what}; {status}"))
    }

    /// Whether the group leader has exited (a zombie), without reaping it.
    fn leader_exited(&self) -> io::Result<bool> {
        if self.reaped {
            return Ok(true);
        }
        // SAFETY: waitid(2) with WNOWAIT only inspects our own child; the zeroed siginfo
        // is filled in by the kernel.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            if libc::waitid(libc::P_PID, self.child.id(), &mut info, flags) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(info.si_pid() != 0)
        }
    }

    /// Kills the whole process group, then reaps the leader (once).
    fn end_group(&mut self) {
        if self.reaped {
            return;
        }
        let pgid = self.child.id() as i32;
        kill_group(pgid);
        let _ = self.child.wait();
        unregister_group(pgid);
        self.reaped = true;
    }

    /// Kills the process and its whole group (if they still run) and reaps it.
    pub fn kill(&mut self) {
        self.running = false;
        self.stdin = None;
        self.end_group();
    }

    /// After a [`Failure::Timeout`]: the first line of the reply that had begun but was not
    /// ended by an empty line before the deadline, if one had.
    pub fn unterminated(&self) -> Option<&str> {
        self.unterminated.as_deref()
    }

    /// Closes the engine's input (its end of input), as the protocol's other way to end it.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits at most `timeout` for the process to exit and returns its status (`None` if
    /// it is still running then; it is left running). Once it has exited, what is left
    /// of its process group is ended.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        loop {
            match self.leader_exited() {
                Ok(true) => {
                    self.running = false;
                    self.stdin = None;
                    // The group first (its id stays reserved until the leader is reaped);
                    // the status is kept by the child handle, so a second wait gets it.
                    self.end_group();
                    return self.child.wait().ok();
                }
                Ok(false) if start.elapsed() < timeout => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Sends `quit`, waits up to `timeout` for the reply and the exit, then kills.
    pub fn quit(&mut self, timeout: Duration) {
        if self.running && self.command("quit", timeout).is_ok() {
            self.stdin = None;
            let start = Instant::now();
            while start.elapsed() < timeout {
                if let Ok(true) = self.leader_exited() {
                    break;
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

/// The failure of an engine that wrote more than [`MAX_UNREAD`] bytes not asked for.
fn flooded() -> Failure {
    Failure::Malformed(format!("more than {MAX_UNREAD} bytes of output not asked for"))
}

/// Reads `=id text` or `?id text`, checking the id (`id` empty: no id).
fn parse_first_line(line: &str, id: &str) -> Result<Reply, Failure> {
    let shown = || clean_text(line, 60);
    let success = match line.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return Err(Failure::Malformed(format!("expected '=' or '?', got '{}'", shown()))),
    };
    let rest = &line[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if &rest[..digits] != id {
        let which =
            if id.is_empty() { "a reply without an id".to_string() } else { format!("the reply to command {id}") };
        return Err(Failure::Malformed(format!("expected {which}, got '{}'", shown())));
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
    /// Whether the running process lists `genmove_analyze` (asked once per process, before
    /// its first game): its moves are then asked for with it, and their win rates recorded.
    pub analyzes: bool,
    /// Whether the process was started and its start-up commands were not sent yet.
    init_pending: bool,
    /// Its name and game, for the logs.
    traffic: Traffic,
}

impl Engine {
    /// An engine not started yet.
    pub fn new(command: EngineCommand, log: Option<PathBuf>) -> Engine {
        let traffic = Traffic::new(&command.text, None);
        Engine { command, log, process: None, starts: 0, timed: true, analyzes: false, init_pending: false, traffic }
    }

    /// The engine with `traffic` for its name, game and protocol log.
    pub fn with_traffic(mut self, traffic: Traffic) -> Engine {
        self.traffic = traffic;
        self
    }

    /// Its name and game, for the logs.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
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
        self.process = Some(EngineProcess::spawn_logged(&self.command, self.log.as_deref(), self.traffic.clone())?);
        self.starts += 1;
        self.init_pending = true;
        Ok(true)
    }

    /// Whether the running process has not been sent its start-up commands
    /// ([`EngineCommand::init`]) yet; they count as sent from now on.
    pub fn take_init_pending(&mut self) -> bool {
        std::mem::take(&mut self.init_pending)
    }

    /// Sends a raw line to the running engine (see [`EngineProcess::exchange`]).
    pub fn exchange(&mut self, line: &str, id: &str, timeout: Duration) -> Result<Exchange, Failure> {
        match self.process.as_mut() {
            Some(process) => process.exchange(line, id, timeout),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// The running process, if any (to close its input or wait for its exit).
    pub fn process_mut(&mut self) -> Option<&mut EngineProcess> {
        self.process.as_mut()
    }

    /// Sends a command to the running engine (see [`EngineProcess::command`]).
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<Reply, Failure> {
        match self.process.as_mut() {
            Some(process) => process.command(command, timeout),
            None => Err(Failure::Exited("it is not running".into())),
        }
    }

    /// Sends a streaming command to the running engine (see [`EngineProcess::stream`]).
    pub fn stream(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        match self.process.as_mut() {
            Some(process) => process.stream(command, duration, timeout, on_line),
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
    fn engine_text_is_cleaned_of_controls_and_cut() {
        assert_eq!(clean_text("\x1b]0;pwned\x07 red\x1b[31m  x\n\ty", 100), "]0;pwned red [31m x y");
        assert_eq!(clean_text("abc\u{202e}def\u{85}", 100), "abc def");
        assert_eq!(clean_text("abcdef", 3), "abc...");
        assert_eq!(clean_text("ab cdef", 3), "ab...");
        assert_eq!(clean_text(&"x".repeat(1 << 20), MAX_NAME).chars().count(), MAX_NAME + 3);
        assert_eq!(clean_text(" \r\n", 10), "");
    }

    #[test]
    fn first_reply_lines_are_checked() {
        assert_eq!(parse_first_line("=3 e2-e6/g8", "3"), Ok(Reply { success: true, text: "e2-e6/g8".into() }));
        assert_eq!(parse_first_line("=3", "3"), Ok(Reply { success: true, text: String::new() }));
        assert_eq!(
            parse_first_line("?12 illegal move", "12"),
            Ok(Reply { success: false, text: "illegal move".into() })
        );
        for bad in ["= e2", "=4 e2", "info junk", "=3e2", "", "=03 e2"] {
            assert!(matches!(parse_first_line(bad, "3"), Err(Failure::Malformed(_))), "{bad}");
        }
        assert_eq!(parse_first_line("= 2", ""), Ok(Reply { success: true, text: "2".into() }));
        assert!(matches!(parse_first_line("=1 2", ""), Err(Failure::Malformed(_))));
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
    fn raw_exchanges_keep_their_lines_and_want_the_id_as_written() {
        let mut e =
            sh(r"read x; printf '= 2\n\n'; read y; printf '=7 \nmore\n\n'; read z; printf '=8 x\n\n'; exec sleep 5");
        let got = e.exchange("protocol_version", "", SHORT).unwrap();
        assert_eq!((got.lines, got.reply.text), (vec!["= 2".to_string()], "2".to_string()));
        let got = e.exchange("7 list", "7", SHORT).unwrap();
        assert_eq!(got.lines, ["=7 ", "more"]);
        assert_eq!(e.unterminated(), None);
        assert!(matches!(e.exchange("9 x", "9", SHORT), Err(Failure::Malformed(_))));
        assert!(!e.is_running());
    }

    #[test]
    fn a_reply_without_its_empty_line_times_out_and_is_noted() {
        let mut e = sh(r"read x; printf '=1 2\n'; exec sleep 5");
        assert_eq!(e.command("protocol_version", SHORT), Err(Failure::Timeout));
        assert_eq!(e.unterminated(), Some("=1 2"));
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
    fn a_streaming_reply_is_handed_over_line_by_line_and_stopped_by_an_empty_line() {
        let script = r"read x; printf '=1 \n'; i=0; while [ $i -lt 3 ]; do echo info $i; i=$((i+1)); done; \
                       read y; echo last; echo; read z; printf '=2 ok\n\n'; exec sleep 5";
        let mut e = sh(script);
        let mut seen = Vec::new();
        let reply = e.stream("analyze", Duration::from_millis(300), Duration::from_secs(2), &mut |line| {
            seen.push(line.to_string());
            true
        });
        assert_eq!(reply.map(|r| r.text), Ok("last".to_string()));
        assert_eq!(seen, ["info 0", "info 1", "info 2", "last"]);
        assert_eq!(e.command("name", SHORT), Ok(Reply { success: true, text: "ok".into() }));
    }

    #[test]
    fn a_command_the_engine_does_not_read_in_time_is_not_reading() {
        // 200 kB is more than a pipe holds: the write itself must give up at the deadline.
        let mut deaf = sh("exec sleep 10");
        assert_eq!(deaf.command(&"x".repeat(200_000), SHORT), Err(Failure::NotReading));
        assert!(!deaf.is_running());
    }

    #[test]
    fn a_flood_past_the_unread_cap_is_malformed() {
        let mut flood = sh("read x; printf '=1\\n\\n'; yes flood; exec sleep 5");
        assert_eq!(flood.command("name", Duration::from_secs(5)), Ok(Reply { success: true, text: String::new() }));
        // Whether the reader has passed the cap yet or not, the flood is no reply.
        assert!(matches!(flood.command("name", Duration::from_secs(5)), Err(Failure::Malformed(_))));
        assert!(flood.output.unread.load(Ordering::SeqCst) <= MAX_UNREAD + MAX_LINE + LINE_COST);
    }

    #[test]
    fn junk_and_endless_lines_are_malformed() {
        let mut junk = sh("read x; echo thinking; exec sleep 5");
        assert!(matches!(junk.command("genmove b", SHORT), Err(Failure::Malformed(_))));
        let mut long = sh("read x; head -c 2000000 /dev/zero | tr '\\0' x; exec sleep 5");
        assert!(matches!(long.command("genmove b", Duration::from_secs(5)), Err(Failure::Malformed(_))));
    }
}
