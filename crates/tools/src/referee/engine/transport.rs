//! One engine process and the GTP exchange with it: started from its command line without a
//! shell, in a process group of its own, its stderr to a log, every read and write with a
//! deadline and bounded (the bounds are the parent module's story), killed whole. The
//! client, the controller and the tools above them talk to engines through this room.

use std::fs::OpenOptions;
use std::io;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use super::reader::{Event, MAX_LINE, MAX_UNREAD, Output, line_cost, read_lines};

use crate::referee::orphans;
use crate::referee::process::{
    kill_group, register_group, restore_default_signals, set_nonblocking, unregister_group, write_all_before,
};
use crate::referee::traffic::{StderrTail, Traffic, forward_stderr};
use crate::referee::words::{SplitError, split_command};
use veletas_rules::record::time::MAX_SECONDS;

/// The target of the engines' log lines (`RUST_LOG=veletas_tools::referee::engine=debug`): the
/// engine module's name, as it was before this room was split from it, so the log reads the same.
const LOG_TARGET: &str = "veletas_tools::referee::engine";

/// The longest reply accepted, in bytes (its lines and their separators); a longer one
/// is a malformed reply.
pub const MAX_REPLY: usize = 1 << 20;

/// The most lines a single reply may have.
const MAX_REPLY_LINES: usize = 10_000;

/// The deadline of an engine's reply to a command without a clock, for
/// `--command-timeout SECONDS`: from 1 ms (a deadline of 0 would be over before the engine
/// could answer) to [`MAX_SECONDS`], the bound of every time option; not a number gives 1 ms.
pub fn command_deadline(seconds: f64) -> Duration {
    Duration::from_secs_f64(if seconds >= 0.001 { seconds.min(MAX_SECONDS) } else { 0.001 })
}

/// How often [`EngineProcess::stream_until`] asks whether to stop while it waits.
pub const STOP_POLL: Duration = Duration::from_millis(20);

/// The detail of the `Failure::Exited` of a stream stopped by its caller.
pub const STOPPED: &str = "stopped";

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
    /// The working directory it starts in; when `None`, a fresh temporary directory of
    /// its own, removed after it (so that it cannot write to the referee's files by their
    /// relative names).
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

/// Kills an engine's process group from any thread ([`EngineProcess::killer`]).
#[derive(Clone, Debug)]
pub struct Killer(Arc<std::sync::Mutex<Option<i32>>>);

impl Killer {
    /// Kills the engine's process group, if it has not been reaped yet.
    pub fn kill(&self) {
        if let Some(pgid) = *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            kill_group(pgid);
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

/// One running engine process (the leader of its own process group).
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    output: Arc<Output>,
    /// Dropped with the process: tells a reader that stopped on a flood to let the pipe go.
    _release: Sender<()>,
    /// The thread that reads stderr, copying it to the engine log (waited for a moment at
    /// the end, so that its last line, the count of the lines the log's cap dropped, is
    /// written, and its last lines are kept).
    stderr_copier: Option<thread::JoinHandle<()>>,
    /// The last lines of its stderr.
    stderr_tail: StderrTail,
    /// The engine's name and game, for the protocol log.
    traffic: Traffic,
    next_id: u64,
    running: bool,
    /// Whether the process group has been killed and the leader reaped.
    reaped: bool,
    /// The process group while it may be signalled (emptied before the leader is reaped).
    group: Arc<std::sync::Mutex<Option<i32>>>,
    /// The first line of a reply cut short by the last deadline (no empty line ended it).
    unterminated: Option<String>,
    /// The directory the engine started in when it has no `dir`: removed after it (a
    /// field, so dropped after the process has been killed).
    _own_dir: Option<EngineDir>,
}

/// The fresh directory an engine without a `dir` starts in (`veletas-engine-PID-N` in the
/// temporary directory, readable by its owner only), removed with what the engine left in
/// it when dropped.
#[derive(Debug)]
struct EngineDir(PathBuf);

impl EngineDir {
    fn create() -> io::Result<EngineDir> {
        use std::os::unix::fs::DirBuilderExt as _;
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let base = std::env::temp_dir();
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = base.join(format!("veletas-engine-{}-{n}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => return Ok(EngineDir(dir)),
                // Left by an earlier process of the same pid: the next name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1_000_000 => {}
                Err(e) => {
                    return Err(io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display())));
                }
            }
        }
    }
}

impl Drop for EngineDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl EngineProcess {
    /// Starts `command` with stdin and stdout piped and stderr appended to `log` (read and
    /// dropped without a log), its last lines kept ([`EngineProcess::stderr_tail`]).
    pub fn spawn(command: &EngineCommand, log: Option<&Path>) -> io::Result<EngineProcess> {
        EngineProcess::spawn_logged(command, log, Traffic::new(&command.text, None))
    }

    /// [`EngineProcess::spawn`], with every line of stderr prefixed with the name that
    /// `traffic` holds and every protocol line noted in its protocol log.
    pub fn spawn_logged(command: &EngineCommand, log: Option<&Path>, traffic: Traffic) -> io::Result<EngineProcess> {
        if let Some(path) = log {
            // Opened here too, so that a log that cannot be written is an error at start.
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("cannot open the engine log {}: {e}", path.display())))?;
        }
        // An engine without a `dir` of its own starts in a fresh directory of its own, not
        // in the referee's (where it could write to the record); a relative program path
        // is the referee's still.
        let (mut process, own_dir) = match &command.dir {
            Some(dir) => {
                let mut process = Command::new(&command.program);
                process.current_dir(dir);
                (process, None)
            }
            None => {
                let own = EngineDir::create()?;
                let program = Path::new(&command.program);
                let mut process = if command.program.contains('/') && program.is_relative() {
                    Command::new(std::env::current_dir()?.join(program))
                } else {
                    Command::new(program)
                };
                process.current_dir(&own.0);
                (process, Some(own))
            }
        };
        // A group of its own: the engine and whatever it starts are killed together.
        process.process_group(0);
        // SAFETY: the closure only calls signal(2), which is async-signal-safe.
        unsafe {
            process.pre_exec(restore_default_signals);
        }
        process.args(&command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = orphans::start_engine(|| {
            let child = process.spawn().map_err(|e| {
                let place = command.dir.as_ref().map(|d| format!(" in {}", d.display())).unwrap_or_default();
                io::Error::new(e.kind(), format!("cannot start {}{place}: {e}", command.program))
            })?;
            let pid = child.id() as i32;
            Ok((child, pid))
        })?;
        let pgid = child.id() as i32;
        register_group(pgid);
        let stderr_tail = StderrTail::default();
        let stderr_copier = child.stderr.take().and_then(|stderr| {
            forward_stderr(stderr, child.id(), log, traffic.clone(), stderr_tail.clone())
                .map_err(|e| log::warn!(target: LOG_TARGET, "the engine's stderr: {e}"))
                .ok()
        });
        let give_up = |mut child: Child, e: io::Error| {
            kill_group(pgid);
            let _ = child.wait();
            orphans::engine_reaped(pgid);
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
            stderr_copier,
            stderr_tail,
            traffic,
            next_id: 1,
            running: true,
            reaped: false,
            group: Arc::new(std::sync::Mutex::new(Some(pgid))),
            unterminated: None,
            _own_dir: own_dir,
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
        log::debug!(target: LOG_TARGET, "engine {} (pid {}) <- {line}", self.traffic.name(), self.child.id());
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
            Ok(e) => {
                log::debug!(target: LOG_TARGET, "engine {} (pid {}) -> {}", self.traffic.name(), self.child.id(), e.lines.join("\n"))
            }
            Err(Failure::Exited(_)) => {}
            Err(failure) => {
                log::debug!(target: LOG_TARGET, "engine {} (pid {}): {failure}; killing it", self.traffic.name(), self.child.id());
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
        self.stream_until(command, duration, timeout, &|| false, on_line)
    }

    /// [`EngineProcess::stream`] that also ends as soon as `stop` says so: `stop` is asked
    /// at least every [`STOP_POLL`] while the engine is waited for (silent or not), and
    /// once it returns `true` the engine is killed and reaped at once and
    /// `Failure::Exited` ([`STOPPED`]) is returned.
    pub fn stream_until(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        let result = self.stream_inner(command, duration, timeout, stop, on_line);
        let stopped = matches!(&result, Err(Failure::Exited(detail)) if detail == STOPPED);
        if stopped || matches!(result, Err(Failure::Timeout | Failure::NotReading | Failure::Malformed(_))) {
            self.kill();
        }
        result
    }

    fn stream_inner(
        &mut self,
        command: &str,
        duration: Duration,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
        on_line: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Reply, Failure> {
        if !self.running {
            return Err(Failure::Exited("it is not running".into()));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.write_line(&format!("{id} {command}"), Instant::now() + timeout)?;
        let mut reply = loop {
            match self.next_line_unless(Instant::now() + timeout, stop)? {
                line if line.trim().is_empty() => continue,
                line => break parse_first_line(&line, &id.to_string())?,
            }
        };
        let stop_at = Instant::now() + duration;
        let mut ended = false;
        let mut lines = 0;
        while Instant::now() < stop_at {
            let line = match self.next_line_unless(stop_at, stop) {
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
                let line = self.next_line_unless(deadline, stop)?;
                if line.trim().is_empty() {
                    break;
                }
                on_line(&line);
                reply.text = line;
            }
        }
        Ok(reply)
    }

    /// The next line of output, by `deadline`, unless `stop` says to stop first (asked
    /// every [`STOP_POLL`]): then `Failure::Exited` ([`STOPPED`]).
    fn next_line_unless(&mut self, deadline: Instant, stop: &dyn Fn() -> bool) -> Result<String, Failure> {
        loop {
            if stop() {
                return Err(Failure::Exited(STOPPED.into()));
            }
            let slice = deadline.min(Instant::now() + STOP_POLL);
            match self.next_line(slice) {
                Err(Failure::Timeout) if Instant::now() < deadline => continue,
                other => return other,
            }
        }
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
        // The group is dead: its stderr ends, and its last lines are kept for the caller.
        self.wait_for_stderr();
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
        // Held while the group is ended and reaped: a Killer never signals a reused id.
        let mut group = self.group.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        group.take();
        kill_group(pgid);
        let _ = self.child.wait();
        orphans::engine_reaped(pgid);
        drop(group);
        unregister_group(pgid);
        self.reaped = true;
        end_left_processes(pgid);
    }

    /// A handle that kills this process's group from another thread, even while a command
    /// waits for the engine (which then sees the engine end); it does nothing once the
    /// process has been reaped.
    pub fn killer(&self) -> Killer {
        Killer(Arc::clone(&self.group))
    }

    /// Kills the process and its whole group (if they still run) and reaps it.
    pub fn kill(&mut self) {
        self.running = false;
        self.stdin = None;
        self.end_group();
    }

    /// Waits a moment ([`REAP_WAIT`] at most) for the end of the stderr of a process whose
    /// group is dead (it ends unless a process that left the group holds it).
    fn wait_for_stderr(&self) {
        let give_up = Instant::now() + REAP_WAIT;
        while self.stderr_copier.as_ref().is_some_and(|copier| !copier.is_finished()) && Instant::now() < give_up {
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// The last lines of its stderr so far (all of them once it has ended).
    pub fn stderr_tail(&self) -> &StderrTail {
        &self.stderr_tail
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
        self.wait_for_stderr();
    }
}

/// How long, at most, [`end_left_processes`] waits for the rest of a killed group to die.
const GROUP_END_WAIT: Duration = Duration::from_secs(1);

/// After group `pgid` was killed and its leader reaped: ends the processes that had left
/// the group, adopted as the group's members die (`orphans`: Linux, when the program
/// adopts orphans), until none of the group is left (at most [`GROUP_END_WAIT`]).
fn end_left_processes(pgid: i32) {
    if !orphans::adopting() {
        return;
    }
    let give_up = Instant::now() + GROUP_END_WAIT;
    loop {
        // A member's death orphans its children: ended in this round or the next.
        let done = !orphans::group_alive(pgid) || Instant::now() >= give_up;
        orphans::end_orphans();
        if done {
            return;
        }
        thread::sleep(Duration::from_millis(2));
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

#[cfg(test)]
mod tests;
