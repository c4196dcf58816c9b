//! Live updates: `GET /api/games/ID/events`, a stream of Server-Sent Events that sends the
//! game's view (the JSON of `GET /api/games/ID`) as soon as it changes.
//!
//! Each connection has a thread of its own ([`crate::http`]), and a stream holds its
//! connection and its thread while it runs. The streams are bounded: at most
//! [`MAX_STREAMS`] are open at once (one more gets 503, and the page polls instead), which
//! leaves most of the server's [`crate::http::MAX_CONNECTIONS`] to other requests; each
//! ends when its game is closed (with an `end` event), when the server stops, or when the
//! client has gone away: a comment line is sent after [`HEARTBEAT`] without an update, and
//! a write that fails ends the stream.
//!
//! The stream's thread looks at the game every [`TICK`] (a lock and a comparison of its
//! version; the view is built and sent only when it changed), so that no place that
//! changes a game has to know about the streams. The request passes the same `Host` and
//! token checks as every other one before its stream starts.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::session::{self, Settings, SharedGame, lock};

/// The most streams open at once (open tabs, or games watched in them).
pub const MAX_STREAMS: usize = 16;

/// How often a stream looks whether its game has changed.
pub const TICK: Duration = Duration::from_millis(10);

/// The longest a stream stays silent: then it sends a comment, which finds a client gone.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// The headers of a stream's response. Its body is chunked, so that its end is told by the
/// last chunk.
const HEADERS: [&str; 3] = ["Cache-Control: no-store", "X-Content-Type-Options: nosniff", "Transfer-Encoding: chunked"];

/// A response body written in chunks, each flushed at once.
struct Chunks(crate::http::Writer);

impl Chunks {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        write!(self.0, "{:x}\r\n{text}\r\n", text.len())?;
        self.0.flush()
    }

    /// The last chunk: the response is over.
    fn end(mut self) -> std::io::Result<()> {
        self.0.write_all(b"0\r\n\r\n")?;
        self.0.flush()
    }
}

/// The open streams, counted.
#[derive(Default)]
pub struct Streams {
    open: AtomicUsize,
    stopping: AtomicBool,
}

/// A stream's place among the [`MAX_STREAMS`]: given back when dropped.
pub struct Slot(Arc<Streams>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Streams {
    /// A place for one more stream, if fewer than [`MAX_STREAMS`] are open and the server
    /// is not stopping.
    pub fn slot(self: &Arc<Self>) -> Option<Slot> {
        if self.stopping.load(Ordering::SeqCst) {
            return None;
        }
        let taken = self.open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < MAX_STREAMS).then_some(n + 1));
        taken.ok().map(|_| Slot(Arc::clone(self)))
    }

    /// Ends every stream at its next tick, and opens no other.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// How many streams are open.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }
}

/// Serves `request` as the stream of `game`'s views, in `slot`, on the request's own thread.
pub fn start(request: crate::http::Request, game: &SharedGame, settings: &Settings, slot: Slot) {
    let headers = HEADERS.map(str::to_string);
    let served = request
        .into_writer("text/event-stream; charset=utf-8", &headers)
        .and_then(|writer| stream(writer, game, settings, slot));
    if let Err(e) = served {
        log::debug!("a stream of live updates ended: {e}");
    }
}

/// Writes every change of `game`'s view, until the game is closed, the server stops or a
/// write fails; `slot` is given back before the last chunk.
fn stream(writer: crate::http::Writer, game: &SharedGame, settings: &Settings, slot: Slot) -> std::io::Result<()> {
    let streams = Arc::clone(&slot.0);
    let mut chunks = Chunks(writer);
    // Reconnect after a second if the connection drops.
    chunks.send("retry: 1000\n\n")?;
    let mut last = None;
    let mut written = Instant::now();
    while !streams.stopping.load(Ordering::SeqCst) {
        let (view, closed) = {
            let mut session = lock(game);
            // The game is looked at: its engines are kept (crate::registry).
            session.seen_at = std::time::Instant::now();
            // As a request for the view does: a person whose flag fell loses.
            session.check_flag(settings.margin);
            let mark = session.change_mark();
            let view = (last.as_ref() != Some(&mark)).then(|| serde_json::to_string(&session.view()));
            last = Some(mark);
            (view, session.closed)
        };
        session::save_finished(game, settings);
        if let Some(view) = view {
            let view = view.map_err(std::io::Error::other)?;
            chunks.send(&format!("data: {view}\n\n"))?;
            written = Instant::now();
        }
        if closed {
            chunks.send("event: end\ndata: closed\n\n")?;
            break;
        }
        if written.elapsed() >= HEARTBEAT {
            chunks.send(": still here\n\n")?;
            written = Instant::now();
        }
        std::thread::sleep(TICK);
    }
    drop(slot);
    chunks.end()
}
