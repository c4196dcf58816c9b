//! The GUI's HTTP/1.1 connections, bounded in size, time and number: what the server reads
//! from a client before the page's own checks (its `Host` header, its token) can run.
//!
//! A request's head (its request line and headers) is read and checked as it arrives, before
//! anything more is read: a request line over [`MAX_LINE`] bytes is answered 400, a header
//! line over [`MAX_LINE`] bytes, more than [`MAX_HEADERS`] headers or a head over
//! [`MAX_HEAD`] bytes in all 431, a head not complete within [`HEAD_DEADLINE`] of the
//! connection 408; each time the connection is closed after the answer. A body is read only
//! when the request asks for it ([`Request::read_body`]), bounded by its caller and by
//! [`BODY_DEADLINE`].
//!
//! At most [`MAX_CONNECTIONS`] connections are open at once, each served by a thread of its
//! own (a stream of live updates holds its connection and thread while it runs). A new
//! connection past the bound takes the place of the oldest one still sending its head (which
//! is closed unanswered: a person's browser sends its head at once, a client that holds a
//! connection with half a request is the one to lose it), or, when every connection is past
//! its head, is answered 503 and closed. Every answer ends its connection
//! (`Connection: close`), and an answer the client does not read is given up after
//! [`WRITE_TIMEOUT`].

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest request line, and the longest header line, in bytes.
pub const MAX_LINE: usize = 8 * 1024;

/// The most header lines in one request.
pub const MAX_HEADERS: usize = 48;

/// The longest request head (request line and headers), in bytes.
pub const MAX_HEAD: usize = 32 * 1024;

/// The time a client has, from its connection, to send the whole head of its request.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(10);

/// The time a client has, from the end of its head, to send the body of its request.
pub const BODY_DEADLINE: Duration = Duration::from_secs(10);

/// The time an answer may take to be written (a client that does not read it loses it).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections open at once.
pub const MAX_CONNECTIONS: usize = 64;

/// A request whose head has been read and checked: its method, target and headers; its body
/// is still on the connection.
pub struct Request {
    method: String,
    url: String,
    headers: Vec<(String, String)>,
    socket: TcpStream,
    /// Bytes read with the head that follow it: the start of the body.
    early: Vec<u8>,
    _ticket: Ticket,
}

/// Why a body was not read.
#[derive(Debug)]
pub enum BodyError {
    /// It is longer than the bound given (its `Content-Length` says so, or its bytes do).
    TooLarge,
    /// It has no `Content-Length` (a chunked body is not accepted).
    NoLength,
    /// It could not be read in time, or the connection failed.
    Unreadable(std::io::Error),
}

impl Request {
    /// The method, as sent (`GET`, `POST`).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The request target: the path and the query.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The value of the header `name` (any case), the first if there are several.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(field, _)| field.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The body, if it is at most `max` bytes and sent within [`BODY_DEADLINE`].
    pub fn read_body(&mut self, max: usize) -> Result<Vec<u8>, BodyError> {
        if self.header("Transfer-Encoding").is_some() {
            return Err(BodyError::NoLength);
        }
        let length = match self.header("Content-Length") {
            None => 0,
            Some(text) => text.trim().parse::<usize>().map_err(|_| BodyError::NoLength)?,
        };
        if length > max {
            return Err(BodyError::TooLarge);
        }
        if length > self.early.len() && self.header("Expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue")) {
            self.socket.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").map_err(BodyError::Unreadable)?;
        }
        let mut body = std::mem::take(&mut self.early);
        body.truncate(length);
        let deadline = Instant::now() + BODY_DEADLINE;
        let mut buffer = [0u8; 8192];
        while body.len() < length {
            let n = read_by(&self.socket, &mut buffer[..(length - body.len()).min(8192)], deadline)
                .map_err(BodyError::Unreadable)?;
            if n == 0 {
                return Err(BodyError::Unreadable(std::io::ErrorKind::UnexpectedEof.into()));
            }
            body.extend_from_slice(&buffer[..n]);
        }
        Ok(body)
    }

    /// Answers with `status`, the header lines `headers` (`Name: value`) and `body`, and
    /// ends the connection.
    pub fn respond(self, status: u16, headers: &[String], body: &[u8]) {
        let Request { socket, .. } = self;
        let head = head(status, headers, Some(body.len()));
        let written = (&socket).write_all(head.as_bytes()).and_then(|()| (&socket).write_all(body));
        if let Err(e) = written {
            log::debug!("answering a request failed: {e}");
        }
        close(socket);
    }

    /// The connection, the head of a `200` answer of `content_type` written on it, for a body
    /// written as the caller goes (a stream of live updates); `headers` as for
    /// [`Request::respond`]. The connection counts among the open ones until the returned
    /// writer is dropped.
    pub fn into_writer(self, content_type: &str, headers: &[String]) -> std::io::Result<Writer> {
        let mut all = vec![format!("Content-Type: {content_type}")];
        all.extend_from_slice(headers);
        let Request { mut socket, _ticket, .. } = self;
        socket.write_all(head(200, &all, None).as_bytes())?;
        Ok(Writer { socket, _ticket })
    }
}

/// The connection of a response written as it goes ([`Request::into_writer`]).
pub struct Writer {
    socket: TcpStream,
    _ticket: Ticket,
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.socket.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.socket.flush()
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.socket.shutdown(Shutdown::Both);
    }
}

/// The head of an answer; `length` is the body's (none: the headers give how it ends).
fn head(status: u16, headers: &[String], length: Option<usize>) -> String {
    let mut head = format!("HTTP/1.1 {status} {}\r\nConnection: close\r\n", reason(status));
    if let Some(length) = length {
        head.push_str(&format!("Content-Length: {length}\r\n"));
    }
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    head
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// Ends a connection: its writing side at once, then reads what the client may still send
/// (a body not read) until it closes its side, for at most a second and
/// [`MAX_BODY`] bytes, so that the closing does not reset the connection and
/// lose the answer.
fn close(socket: TcpStream) {
    let _ = socket.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut left = MAX_BODY + 1;
    let mut buffer = [0u8; 4096];
    while left > 0 {
        match read_by(&socket, &mut buffer, deadline) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

/// One read from `socket`, failing with `TimedOut` at `deadline`.
fn read_by(socket: &TcpStream, buffer: &mut [u8], deadline: Instant) -> std::io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::ErrorKind::TimedOut.into());
    }
    socket.set_read_timeout(Some(left))?;
    match (&mut &*socket).read(buffer) {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Err(std::io::ErrorKind::TimedOut.into()),
        other => other,
    }
}

/// Why a head was refused: the status and the message of the answer.
struct Refused(u16, String);

/// Reads and checks a request head from `socket`, within `deadline`.
fn read_head(socket: &TcpStream, deadline: Instant) -> Result<Option<(Head, Vec<u8>)>, Refused> {
    let mut bytes: Vec<u8> = Vec::with_capacity(1024);
    let mut lines: Vec<String> = Vec::new();
    let mut line_start = 0;
    let mut buffer = [0u8; 4096];
    loop {
        // Every complete line so far, checked.
        while let Some(end) = bytes[line_start..].iter().position(|&b| b == b'\n').map(|i| line_start + i) {
            let raw = &bytes[line_start..end];
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            check_line(lines.len(), raw.len())?;
            let text = std::str::from_utf8(raw).ok().filter(|t| t.is_ascii());
            let text = text.ok_or_else(|| Refused(400, "the request head is not ASCII".into()))?;
            line_start = end + 1;
            if text.is_empty() {
                if lines.is_empty() {
                    continue; // blank lines before a request line are allowed
                }
                let early = bytes.split_off(line_start);
                return Ok(Some((parse(&lines)?, early)));
            }
            lines.push(text.to_string());
        }
        // The line begun, and the whole head, checked before reading more.
        check_line(lines.len(), bytes.len() - line_start)?;
        if bytes.len() > MAX_HEAD {
            return Err(Refused(431, format!("the request head is over {MAX_HEAD} bytes")));
        }
        let n = match read_by(socket, &mut buffer, deadline) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                return Err(Refused(408, format!("the request head did not come within {HEAD_DEADLINE:?}")));
            }
            Err(_) => return Ok(None),
        };
        if n == 0 {
            return Ok(None);
        }
        bytes.extend_from_slice(&buffer[..n]);
    }
}

/// Whether line `index` of a head (0: the request line) may be `length` bytes long.
fn check_line(index: usize, length: usize) -> Result<(), Refused> {
    if index == 0 && length > MAX_LINE {
        return Err(Refused(400, format!("the request line is over {MAX_LINE} bytes")));
    }
    if index > MAX_HEADERS {
        return Err(Refused(431, format!("more than {MAX_HEADERS} header lines")));
    }
    if length > MAX_LINE {
        return Err(Refused(431, format!("a header line is over {MAX_LINE} bytes")));
    }
    Ok(())
}

/// A request's method, target and headers.
struct Head {
    method: String,
    url: String,
    headers: Vec<(String, String)>,
}

/// The method, target and headers of a head's lines.
fn parse(lines: &[String]) -> Result<Head, Refused> {
    let bad = |what: &str| Refused(400, what.to_string());
    let mut parts = lines[0].split(' ');
    let (Some(method), Some(url), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("a malformed request line"));
    };
    let token =
        |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !token(method) || url.is_empty() || !matches!(version, "HTTP/1.0" | "HTTP/1.1") {
        return Err(bad("a malformed request line"));
    }
    let mut headers = Vec::with_capacity(lines.len() - 1);
    for line in &lines[1..] {
        let Some((name, value)) = line.split_once(':').filter(|(name, _)| token(name)) else {
            return Err(bad("a malformed header line"));
        };
        headers.push((name.to_string(), value.trim_matches([' ', '\t']).to_string()));
    }
    Ok(Head { method: method.to_string(), url: url.to_string(), headers })
}

/// The open connections, oldest first, and whether each is still sending its head.
#[derive(Default)]
struct Connections {
    open: Mutex<Vec<(u64, TcpStream, bool)>>,
    next: AtomicU64,
}

/// A connection's place among the open ones: given back when dropped.
struct Ticket(Arc<Connections>, u64);

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.lock().retain(|(id, _, _)| *id != self.1);
    }
}

impl Connections {
    fn lock(&self) -> MutexGuard<'_, Vec<(u64, TcpStream, bool)>> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A place for `socket`, another connection's if need be; none when all are past their head.
    fn admit(self: &Arc<Self>, socket: &TcpStream) -> Option<Ticket> {
        let copy = socket.try_clone().ok()?;
        let mut open = self.lock();
        if open.len() >= MAX_CONNECTIONS {
            let oldest = open.iter().position(|(_, _, in_head)| *in_head)?;
            let (_, evicted, _) = open.remove(oldest);
            let _ = evicted.shutdown(Shutdown::Both);
        }
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        open.push((id, copy, true));
        Some(Ticket(Arc::clone(self), id))
    }

    fn head_read(&self, ticket: &Ticket) {
        if let Some(entry) = self.lock().iter_mut().find(|(id, _, _)| *id == ticket.1) {
            entry.2 = false;
        }
    }

    fn count(&self) -> (usize, usize) {
        let open = self.lock();
        (open.len(), open.iter().filter(|(_, _, in_head)| *in_head).count())
    }
}

/// A listening socket served by [`Listener::serve`] until [`Listener::stopper`] is called.
pub struct Listener {
    socket: TcpListener,
    stopping: Arc<AtomicBool>,
    connections: Arc<Connections>,
}

impl Listener {
    /// Listens on `address`.
    pub fn bind(address: SocketAddr) -> std::io::Result<Listener> {
        Ok(Listener { socket: TcpListener::bind(address)?, stopping: Arc::default(), connections: Arc::default() })
    }

    /// The address listened on (its port when 0 was asked for).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// A handle that tells how many connections are open, and how many of them are still
    /// sending their request's head.
    pub fn counter(&self) -> impl Fn() -> (usize, usize) + Send + 'static {
        let connections = Arc::clone(&self.connections);
        move || connections.count()
    }

    /// Serves every connection on a thread of its own with `handle`, until stopped.
    pub fn serve(&self, handle: &Arc<dyn Fn(Request) + Send + Sync>) {
        for socket in self.socket.incoming() {
            if self.stopping.load(Ordering::SeqCst) {
                break;
            }
            let Ok(socket) = socket else { continue };
            let Some(ticket) = self.connections.admit(&socket) else {
                refuse(socket, 503, &format!("{MAX_CONNECTIONS} connections are open: try again"));
                continue;
            };
            let (handle, connections) = (Arc::clone(handle), Arc::clone(&self.connections));
            let spawned = std::thread::Builder::new().name("http".into()).spawn(move || {
                connection(socket, ticket, &connections, handle.as_ref());
            });
            if let Err(e) = spawned {
                log::warn!("no thread for a connection: {e}");
            }
        }
    }

    /// A handle that stops [`Listener::serve`] from another thread.
    pub fn stopper(&self) -> impl Fn() + Send + 'static {
        let stopping = Arc::clone(&self.stopping);
        let address = self.socket.local_addr().ok().map(|mut address| {
            if address.ip().is_unspecified() {
                address.set_ip(if address.is_ipv4() {
                    std::net::Ipv4Addr::LOCALHOST.into()
                } else {
                    std::net::Ipv6Addr::LOCALHOST.into()
                });
            }
            address
        });
        move || {
            stopping.store(true, Ordering::SeqCst);
            // Wakes the accepting thread.
            if let Some(address) = address {
                let _ = TcpStream::connect_timeout(&address, Duration::from_secs(1));
            }
        }
    }
}

/// Answers `status` with `message` (as JSON, as every error of the API) and closes.
fn refuse(socket: TcpStream, status: u16, message: &str) {
    let _ = socket.set_write_timeout(Some(WRITE_TIMEOUT));
    let body = serde_json::json!({ "error": message }).to_string();
    let head = head(status, &["Content-Type: application/json; charset=utf-8".to_string()], Some(body.len()));
    let _ = (&socket).write_all(head.as_bytes()).and_then(|()| (&socket).write_all(body.as_bytes()));
    close(socket);
}

/// Reads the head of the request on `socket` and hands it to `handle`.
fn connection(socket: TcpStream, ticket: Ticket, connections: &Connections, handle: &(dyn Fn(Request) + Send + Sync)) {
    let deadline = Instant::now() + HEAD_DEADLINE;
    if socket.set_write_timeout(Some(WRITE_TIMEOUT)).is_err() {
        return;
    }
    match read_head(&socket, deadline) {
        Ok(Some((Head { method, url, headers }, early))) => {
            connections.head_read(&ticket);
            handle(Request { method, url, headers, socket, early, _ticket: ticket });
        }
        Ok(None) => {}
        Err(Refused(status, message)) => refuse(socket, status, &message),
    }
}
