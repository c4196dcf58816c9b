//! What the GUI's API tests share: a server on a free loopback port (or the host asked
//! for), run on a thread of its own and stopped when the test lets go of it, and
//! connections to it whose every wait has a deadline ([`Timed`]), so that a server that
//! never answers, or keeps a stream open when it should refuse it, fails a test with a
//! clear message instead of hanging it.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use veletas_gui::{Gui, GuiSettings};

/// A server that runs until dropped.
pub struct Running {
    /// `HOST:PORT`, for the sockets and the `Host` header.
    pub address: String,
    /// The connections open, and how many of them are still sending their head.
    #[allow(dead_code)] // not every test file looks at them
    pub connections: Box<dyn Fn() -> (usize, usize)>,
    stop: Box<dyn Fn()>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        (self.stop)();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The settings of a server on `host` with `engines` (no engines file, no browser).
pub fn settings(host: &str, engines: &[&str], record: Option<&Path>) -> GuiSettings {
    let engines: Vec<String> = engines.iter().map(|e| e.to_string()).collect();
    GuiSettings::new(&engines, None, Path::new(PROGRAM))
        .and_then(|s| s.listening(host, 0))
        .expect("the engines and the host are valid")
        .with_record(record.map(Path::to_path_buf))
        .with_browser(false)
}

/// The program the settings name as this one (the tests always give their engines).
pub const PROGRAM: &str = "/nonexistent/veletas";

/// A server as `args` ask, and the URL it prints.
pub fn start_with(args: &GuiSettings) -> (Running, String) {
    let gui = Gui::bind(args).expect("the server listens");
    let url = gui.url.clone();
    let address = url.trim_start_matches("http://").split('/').next().unwrap_or_default().to_string();
    let stop = Box::new(gui.stopper());
    let connections = Box::new(gui.connections());
    let thread = thread::spawn(move || gui.serve());
    (Running { address, connections, stop, thread: Some(thread) }, url)
}

/// A scripted engine, `NAME=sh -c '...'` as `--engine` takes it: it reads each command as
/// `ID COMMAND REST` and answers with an empty success, except for the commands `arms` handle:
/// shell `case` arms over `$cmd`, each ending in `;;` (`$id` is the command's id).
pub fn scripted(name: &str, arms: &str) -> String {
    format!(r#"{name}=sh -c 'while read id cmd rest; do case "$cmd" in {arms} *) printf "=%s\n\n" "$id";; esac; done'"#)
}

/// The longest a test waits for an answer, or for the next event of a stream, in all: far
/// more than any takes on a loaded machine, far less than CI's timeout.
pub const WAIT: Duration = Duration::from_secs(60);

/// A connection to a server whose reads end by a deadline, [`WAIT`] after it was opened or
/// last [renewed](Timed::renew). It is a total: a server that keeps writing (a stream's
/// heartbeats) cannot stretch it, as each write stretches a socket's own read timeout.
pub struct Timed {
    socket: TcpStream,
    deadline: Instant,
}

impl Timed {
    /// A connection to `server`, its deadline [`WAIT`] from now.
    pub fn connect(server: &Running) -> Timed {
        let socket = TcpStream::connect(&server.address).expect("connects");
        Timed { socket, deadline: Instant::now() + WAIT }
    }

    /// Sets the deadline [`WAIT`] from now (for the next event of a stream).
    pub fn renew(&mut self) {
        self.deadline = Instant::now() + WAIT;
    }
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(ErrorKind::TimedOut, format!("nothing more within {WAIT:?}")));
        }
        self.socket.set_read_timeout(Some(left))?;
        self.socket.read(buf)
    }
}

impl Write for Timed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.socket.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.socket.flush()
    }
}

/// Whether a read failed for want of time (a socket's read timeout is `WouldBlock` on Unix).
pub fn timed_out(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock)
}

/// The whole answer on `connection` (a request sent with `Connection: close`), read to its
/// end or to a reset (a server may close a connection whose body it did not read). A test
/// fails, naming `what` was asked and showing what came, when the answer has not ended
/// within [`WAIT`] from now (an answer that is a stream never ends).
pub fn whole_answer(connection: &mut Timed, what: &str) -> String {
    connection.renew();
    let mut answer = Vec::new();
    if let Err(e) = connection.read_to_end(&mut answer)
        && timed_out(&e)
    {
        let came: String = String::from_utf8_lossy(&answer).chars().take(400).collect();
        panic!("{what}: the answer did not end within {WAIT:?} ({e}); it began {came:?}");
    }
    String::from_utf8_lossy(&answer).into_owned()
}

/// A token that is not `token`: its first digit changed (to `0`, or to `1` if it is `0`;
/// a token begins with `0` once in 16).
#[allow(dead_code)] // not every test file uses it
pub fn wrong_token(token: &str) -> String {
    let flipped = if token.starts_with('0') { '1' } else { '0' };
    format!("{flipped}{}", &token[1..])
}

/// Sends one request; the status and the body (a test fails if it is not over within
/// [`WAIT`]).
#[allow(dead_code)] // not every test file uses it
pub fn request(server: &Running, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let mut stream = Timed::connect(server);
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n", server.address);
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).expect("writes");
    let _ = stream.write_all(body);
    let text = whole_answer(&mut stream, &format!("{method} {path}"));
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// `POST path` with a JSON body: the status and the JSON answer (`null` when it is not JSON).
#[allow(dead_code)] // not every test file uses it
pub fn post(server: &Running, path: &str, body: &str) -> (u16, Value) {
    let (status, text) = request(server, "POST", path, &[("Content-Type", "application/json")], body.as_bytes());
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `GET path`: the status and the JSON body (`null` when it is not JSON).
#[allow(dead_code)] // not every test file uses it
pub fn get(server: &Running, path: &str) -> (u16, Value) {
    let (status, text) = request(server, "GET", path, &[], b"");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}
