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
//! stderr lines `[alpha] text`. Every line is written with one `write` to a file opened
//! for appending, so lines of engines running at once do not mix; an engine's stderr
//! line is cut at [`MAX_STDERR_LINE`] bytes.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::ChildStderr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// The longest stderr line written to the engine log, in bytes (the rest is dropped).
pub const MAX_STDERR_LINE: usize = 64 << 10;

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
}

impl Traffic {
    /// The traffic of an engine called `name`, logged to `protocol` if given.
    pub fn new(name: &str, protocol: Option<Arc<ProtocolLog>>) -> Traffic {
        Traffic { label: Arc::new(Mutex::new(Label { name: name.to_string(), game: "-".into() })), protocol }
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
        if let Ok(mut file) = log.file.lock()
            && let Err(e) = file.write_all(text.as_bytes())
        {
            log::warn!("--log-protocol: {e}");
        }
    }
}

/// The time of day, UTC, `HH:MM:SS.mmm`.
fn time_of_day() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs();
    format!("{:02}:{:02}:{:02}.{:03}", secs / 3600 % 24, secs / 60 % 60, secs % 60, now.subsec_millis())
}

/// Appends the lines of an engine's `stderr` to the file `path`, each prefixed with the
/// engine's name in brackets, from a thread of its own that ends with the output.
pub fn forward_stderr(stderr: ChildStderr, path: &Path, traffic: Traffic) -> io::Result<()> {
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    std::thread::Builder::new().name("engine-stderr".into()).spawn(move || copy_prefixed(stderr, file, &traffic))?;
    Ok(())
}

/// Copies `input` line by line to `output`, each line `[NAME] text` (cut at
/// [`MAX_STDERR_LINE`] bytes), until the end of `input` or an error.
fn copy_prefixed(input: impl Read, mut output: impl Write, traffic: &Traffic) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        // A line longer than the cap is kept up to it; the rest is read and dropped.
        let read = (&mut reader).take(MAX_STDERR_LINE as u64).read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let complete = line.ends_with(b"\n");
        if !complete && line.len() >= MAX_STDERR_LINE && skip_line(&mut reader).is_err() {
            return;
        }
        let text = String::from_utf8_lossy(&line);
        let text = format!("[{}] {}\n", traffic.name(), text.trim_end_matches(['\n', '\r']));
        if output.write_all(text.as_bytes()).is_err() {
            return;
        }
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
    fn stderr_lines_are_prefixed_with_the_name_and_cut() {
        let traffic = Traffic::new("alpha", None);
        let long = "x".repeat(MAX_STDERR_LINE + 10);
        let input = format!("one\r\ntwo\n{long}\nlast");
        let mut out = Vec::new();
        copy_prefixed(input.as_bytes(), &mut out, &traffic);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "[alpha] one");
        assert_eq!(lines[1], "[alpha] two");
        assert_eq!(lines[2].len(), "[alpha] ".len() + MAX_STDERR_LINE);
        assert_eq!(lines[3], "[alpha] last");
        assert_eq!(lines.len(), 4);
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
