//! What the referee logs of its engines: the protocol traffic (`--log-protocol FILE`) and
//! the engines' stderr (`--engine-log FILE`), each line with the engine's name.
//!
//! A [`Traffic`] is shared by an engine, its running process and the thread that
//! forwards its stderr: it carries the engine's name and the game it plays, so the runner
//! can name an engine (after its start-up answers) and number its games without
//! restarting it. Protocol lines read:
//!
//! ```text
//! 20:11:42.123 game 3 alpha > 7 genmove b
//! 20:11:42.301 game 3 alpha < =7 c4
//! ```
//!
//! (`>`: sent to the engine, `<`: received from it; `game -` before the first game), and
//! stderr lines `[alpha game 3 pid 4242] text` (the game the engine plays and its process:
//! at `-j` above 1 the engines of several games write at once). Every line is written with one `write` to a file opened
//! for appending, so lines of engines running at once do not mix; an engine's stderr
//! line is cut at [`MAX_STDERR_LINE`] bytes. Whether or not there is an engine log, an
//! engine's stderr is read to its end and its last lines kept ([`StderrTail`]), to show why
//! an engine that ended at start-up ended.
//!
//! Each log is bounded per engine and run: an engine's lines take at most
//! [`ENGINE_LOG_CAP`] bytes of the engine log, and its protocol lines (both ways) as much of
//! the protocol log ([`LogBudget`], one an engine of a run, shared by its processes). Past
//! it one line says so, and further lines are counted, not written; when an engine process
//! that lost lines ends, a line gives their count. A write that fails (a full disk, a file
//! size limit) loses its line and nothing else: the engine's stderr is still read to its
//! end, so the engine never blocks on it, and no game is lost for a log.

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::ChildStderr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// The longest stderr line written to the engine log, in bytes (the rest is dropped).
pub const MAX_STDERR_LINE: usize = 64 << 10;

/// The most bytes of one engine's lines in one log file (the engine log, the protocol log)
/// in one run.
pub const ENGINE_LOG_CAP: u64 = 16 << 20;

/// What one engine may still write to each log in a run (see [`ENGINE_LOG_CAP`]).
#[derive(Debug, Default)]
pub struct LogBudget {
    stderr: Mutex<Usage>,
    protocol: Mutex<Usage>,
    /// The protocol log, to give the count of the lines dropped from it at the end.
    protocol_log: Option<Arc<ProtocolLog>>,
}

#[derive(Debug, Default)]
struct Usage {
    written: u64,
    dropped: u64,
    /// The engine's name when its first line was dropped.
    name: String,
}

impl LogBudget {
    /// A budget for an engine of a run whose protocol log is `protocol`.
    pub fn new(protocol: Option<Arc<ProtocolLog>>) -> Arc<LogBudget> {
        Arc::new(LogBudget { stderr: Mutex::default(), protocol: Mutex::default(), protocol_log: protocol })
    }
}

/// What to do with a line, by its log's budget.
#[derive(Debug, PartialEq)]
enum Take {
    /// Write it.
    Write,
    /// Drop it, after the line saying the cap is reached (the first line past it).
    Note,
    /// Drop it.
    Drop,
}

impl Usage {
    /// Whether a line of `bytes` of the engine `name` may be written.
    fn take(&mut self, bytes: usize, name: &str) -> Take {
        let bytes = bytes as u64;
        if self.dropped == 0 && self.written + bytes <= ENGINE_LOG_CAP {
            self.written += bytes;
            return Take::Write;
        }
        self.dropped += 1;
        if self.dropped == 1 {
            self.name = name.to_string();
            Take::Note
        } else {
            Take::Drop
        }
    }
}

/// The line of a log that says an engine's lines past the cap are dropped.
fn cap_note(name: &str) -> String {
    format!(
        "[{name}] this engine's lines reached the cap of {} MiB of this log for the run: further ones are counted, not written\n",
        ENGINE_LOG_CAP >> 20
    )
}

impl Drop for LogBudget {
    /// The count of the protocol lines dropped, at the end of the run.
    fn drop(&mut self) {
        let usage = lock(&self.protocol);
        if let Some(log) = &self.protocol_log
            && usage.dropped > 0
        {
            let text = format!(
                "{} game - {} {} protocol lines of this engine not written (the log's cap)\n",
                time_of_day(),
                usage.name,
                usage.dropped
            );
            let _ = lock(&log.file).write_all(text.as_bytes());
        }
    }
}

/// The protocol log file, shared by every engine of a run.
#[derive(Debug)]
pub struct ProtocolLog {
    file: Mutex<File>,
}

impl ProtocolLog {
    /// Opens `path` for appending (created if missing).
    pub fn open(path: &Path) -> io::Result<Arc<ProtocolLog>> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Arc::new(ProtocolLog { file: Mutex::new(file) }))
    }
}

#[derive(Debug, Default)]
struct Label {
    name: String,
    game: String,
}

/// An engine's name and current game, and where its protocol lines go.
#[derive(Clone, Debug, Default)]
pub struct Traffic {
    label: Arc<Mutex<Label>>,
    protocol: Option<Arc<ProtocolLog>>,
    budget: Arc<LogBudget>,
}

impl Traffic {
    /// The traffic of an engine called `name`, logged to `protocol` if given.
    pub fn new(name: &str, protocol: Option<Arc<ProtocolLog>>) -> Traffic {
        let label = Arc::new(Mutex::new(Label { name: name.to_string(), game: "-".into() }));
        let budget = LogBudget::new(protocol.clone());
        Traffic { label, protocol, budget }
    }

    /// The same, its logs bounded by `budget` (shared by the engine's clients of a run)
    /// instead of a budget of its own.
    pub fn with_budget(self, budget: Arc<LogBudget>) -> Traffic {
        Traffic { budget, ..self }
    }

    /// Names the engine from now on.
    pub fn set_name(&self, name: &str) {
        if let Ok(mut label) = self.label.lock() {
            label.name = name.to_string();
        }
    }

    /// The game the engine plays from now on (its identity, e.g. `3` or `2.1.1`).
    pub fn set_game(&self, game: &str) {
        if let Ok(mut label) = self.label.lock() {
            label.game = game.to_string();
        }
    }

    /// `NAME game N pid P`: what a line of the engine log is prefixed with (in brackets).
    fn stderr_label(&self, pid: u32) -> String {
        let (name, game) = self.label.lock().map(|l| (l.name.clone(), l.game.clone())).unwrap_or_default();
        format!("{name} game {game} pid {pid}")
    }

    /// The engine's name.
    pub fn name(&self) -> String {
        self.label.lock().map(|l| l.name.clone()).unwrap_or_default()
    }

    /// Notes a line sent to the engine.
    pub fn sent(&self, line: &str) {
        self.note('>', line);
    }

    /// Notes a line received from the engine.
    pub fn received(&self, line: &str) {
        self.note('<', line);
    }

    fn note(&self, arrow: char, line: &str) {
        let Some(log) = &self.protocol else { return };
        let (name, game) = self.label.lock().map(|l| (l.name.clone(), l.game.clone())).unwrap_or_default();
        let text = format!("{} game {game} {name} {arrow} {line}\n", time_of_day());
        let text = match lock(&self.budget.protocol).take(text.len(), &name) {
            Take::Write => text,
            Take::Note => format!("{} game {game} {}", time_of_day(), cap_note(&name)),
            Take::Drop => return,
        };
        if let Ok(mut file) = log.file.lock()
            && let Err(e) = file.write_all(text.as_bytes())
        {
            log::warn!("--log-protocol: {e}");
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The time of day, UTC, `HH:MM:SS.mmm`.
fn time_of_day() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs();
    format!("{:02}:{:02}:{:02}.{:03}", secs / 3600 % 24, secs / 60 % 60, secs % 60, now.subsec_millis())
}

/// The most stderr lines of an engine process kept to show why it ended ([`StderrTail`]).
pub const TAIL_LINES: usize = 5;

/// The most characters of each line a [`StderrTail`] keeps (after quoting).
pub const TAIL_LINE_CHARS: usize = 200;

/// The last lines an engine process wrote to stderr (at most [`TAIL_LINES`] that are not
/// blank, each trimmed and quoted with [`veletas_rules::quoted_to`] to [`TAIL_LINE_CHARS`]
/// characters): what an engine that ended at start-up said about why (clap's "tip:
/// --movetime"), shown in the error whether or not there is an engine log.
#[derive(Clone, Debug, Default)]
pub struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    /// Keeps `line` (raw bytes, cut by the reader) as the newest line.
    fn push(&self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let mut lines = lock(&self.0);
        if lines.len() == TAIL_LINES {
            lines.pop_front();
        }
        lines.push_back(veletas_rules::quoted_to(text, TAIL_LINE_CHARS));
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> Vec<String> {
        lock(&self.0).iter().cloned().collect()
    }

    /// `its stderr ended with: LINE | LINE`, or `None` when it wrote nothing.
    pub fn shown(&self) -> Option<String> {
        let lines = self.lines();
        (!lines.is_empty()).then(|| format!("its stderr ended with: {}", lines.join(" | ")))
    }
}

/// Reads an engine's `stderr` to its end from a thread of its own (its handle), keeping its
/// last lines in `tail`; with a `log`, appends every line to that file, prefixed with the
/// engine's name, its game and its process id `pid` in brackets.
pub fn forward_stderr(
    stderr: ChildStderr,
    pid: u32,
    log: Option<&Path>,
    traffic: Traffic,
    tail: StderrTail,
) -> io::Result<std::thread::JoinHandle<()>> {
    let file = log.map(|path| OpenOptions::new().create(true).append(true).open(path)).transpose()?;
    std::thread::Builder::new()
        .name("engine-stderr".into())
        .spawn(move || copy_prefixed(stderr, pid, file, &traffic, &tail))
}

/// Copies `input` line by line to `output` (if any), each line `[NAME game N pid P] text` (cut at
/// [`MAX_STDERR_LINE`] bytes), within the engine's [`LogBudget`], until the end of `input`
/// or a failure to read it, keeping the last lines in `tail`; then, if lines were lost
/// (past the cap, or to failed writes), a line with their count.
fn copy_prefixed(input: impl Read, pid: u32, mut output: Option<impl Write>, traffic: &Traffic, tail: &StderrTail) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    let mut lost = 0u64;
    loop {
        line.clear();
        // A line longer than the cap is kept up to it; the rest is read and dropped.
        let read = (&mut reader).take(MAX_STDERR_LINE as u64).read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let complete = line.ends_with(b"\n");
        if !complete && line.len() >= MAX_STDERR_LINE && skip_line(&mut reader).is_err() {
            break;
        }
        tail.push(&line);
        let Some(output) = output.as_mut() else { continue };
        let name = traffic.stderr_label(pid);
        let text = String::from_utf8_lossy(&line);
        let text = format!("[{name}] {}\n", text.trim_end_matches(['\n', '\r']));
        let take = lock(&traffic.budget.stderr).take(text.len(), &name);
        let text = match take {
            Take::Write => text,
            Take::Note => cap_note(&name),
            Take::Drop => String::new(),
        };
        // A line that cannot be written is lost; the output is still read, so the engine
        // goes on (a full disk costs log lines, never a game).
        let written = !text.is_empty() && output.write_all(text.as_bytes()).is_ok();
        if take != Take::Write || !written {
            lost += 1;
        }
    }
    if lost > 0
        && let Some(output) = output.as_mut()
    {
        let text = format!(
            "[{}] {lost} lines of this engine process not written (the log's cap, or a failed write)\n",
            traffic.stderr_label(pid)
        );
        let _ = output.write_all(text.as_bytes());
    }
}

/// Reads and drops the rest of a line.
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(());
            }
            None => {
                let n = buffer.len();
                reader.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_lines_are_prefixed_with_the_name_game_and_pid_and_cut() {
        let traffic = Traffic::new("alpha", None);
        traffic.set_game("3");
        let long = "x".repeat(MAX_STDERR_LINE + 10);
        let input = format!("one\r\ntwo\n{long}\nlast");
        let mut out = Vec::new();
        copy_prefixed(input.as_bytes(), 7, Some(&mut out), &traffic, &StderrTail::default());
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "[alpha game 3 pid 7] one");
        assert_eq!(lines[1], "[alpha game 3 pid 7] two");
        assert_eq!(lines[2].len(), "[alpha game 3 pid 7] ".len() + MAX_STDERR_LINE);
        assert_eq!(lines[3], "[alpha game 3 pid 7] last");
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn the_tail_keeps_the_last_lines_that_are_not_blank_quoted_and_cut() {
        let tail = StderrTail::default();
        let long = "y".repeat(TAIL_LINE_CHARS + 50);
        let input = format!("one\ntwo\n\n   \n  tip: \u{1b}[31m--movetime\r\nthree\nfour\n{long}\nfive");
        copy_prefixed(input.as_bytes(), 7, None::<Vec<u8>>, &Traffic::new("alpha", None), &tail);
        let lines = tail.lines();
        assert_eq!(lines.len(), TAIL_LINES, "{lines:?}");
        assert_eq!(lines[0], "tip: \\u{1b}[31m--movetime");
        assert_eq!(&lines[1..3], ["three", "four"]);
        assert_eq!(lines[3], format!("{}...", "y".repeat(TAIL_LINE_CHARS)));
        assert_eq!(lines[4], "five");
        assert!(tail.shown().unwrap().starts_with("its stderr ended with: tip: "), "{:?}", tail.shown());
        assert_eq!(StderrTail::default().shown(), None);
    }

    /// A writer whose every write fails, as on a full disk.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("no space left"))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_past_the_cap_or_failing_to_be_written_are_counted_and_the_input_read_to_its_end() {
        let traffic = Traffic::new("alpha", None);
        let line = format!("{}\n", "x".repeat(999));
        let lines = (ENGINE_LOG_CAP as usize) / 1000 + 100;
        let input = line.repeat(lines);
        let mut out = Vec::new();
        copy_prefixed(input.as_bytes(), 7, Some(&mut out), &traffic, &StderrTail::default());
        assert!(out.len() as u64 <= ENGINE_LOG_CAP + 1024, "{}", out.len());
        let text = String::from_utf8(out).unwrap();
        let last: Vec<&str> = text.lines().rev().take(2).collect();
        assert!(last[1].starts_with("[alpha game - pid 7] this engine's lines reached the cap of 16 MiB"), "{last:?}");
        let written = text.lines().count() - 2;
        assert_eq!(
            last[0],
            format!(
                "[alpha game - pid 7] {} lines of this engine process not written (the log's cap, or a failed write)",
                lines - written
            )
        );
        // The budget is the engine's for the run: its next process writes only the count.
        let mut out = Vec::new();
        copy_prefixed(line.repeat(3).as_bytes(), 7, Some(&mut out), &traffic, &StderrTail::default());
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1);
        // A log that cannot be written still has its input read to the end.
        let input = line.repeat(1000).into_bytes();
        let mut rest: &[u8] = &input;
        copy_prefixed(&mut rest, 7, Some(Full), &Traffic::new("beta", None), &StderrTail::default());
        assert!(rest.is_empty(), "{} bytes left unread", rest.len());
    }

    #[test]
    fn protocol_lines_past_the_cap_are_counted_at_the_end_of_the_run() {
        let dir = std::env::temp_dir().join(format!("veletas-traffic-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.log");
        let _ = std::fs::remove_file(&path);
        let log = ProtocolLog::open(&path).unwrap();
        let traffic = Traffic::new("alpha", Some(Arc::clone(&log))).with_budget(LogBudget::new(Some(log)));
        let reply = "x".repeat(999);
        let lines = (ENGINE_LOG_CAP as usize) / 1000 + 10;
        for _ in 0..lines {
            traffic.received(&reply);
        }
        drop(traffic);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() as u64 <= ENGINE_LOG_CAP + 1024, "{}", text.len());
        let last: Vec<&str> = text.lines().rev().take(2).collect();
        assert!(last[1].contains("alpha] this engine's lines reached the cap"), "{last:?}");
        let written = text.lines().count() - 2;
        assert!(
            last[0].ends_with(&format!(
                " alpha {} protocol lines of this engine not written (the log's cap)",
                lines - written
            )),
            "{last:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn protocol_lines_carry_time_game_name_and_direction() {
        let dir = std::env::temp_dir().join(format!("veletas-traffic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.log");
        let _ = std::fs::remove_file(&path);
        let traffic = Traffic::new("cmd", Some(ProtocolLog::open(&path).unwrap()));
        traffic.sent("1 name");
        traffic.set_name("alpha");
        traffic.set_game("3");
        traffic.received("=1 fake");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with(" game - cmd > 1 name"), "{text}");
        assert!(lines[1].ends_with(" game 3 alpha < =1 fake"), "{text}");
        assert_eq!(lines[1].find(' '), Some(12), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
