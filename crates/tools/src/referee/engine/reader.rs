//! The reader thread of an engine's stdout and the bounds it keeps: lines of at most
//! [`MAX_LINE`] bytes go to the referee on a channel, and at most [`MAX_UNREAD`] bytes (each
//! line counted at least [`LINE_COST`]) may wait unread there.

use std::io::{BufRead, BufReader, Read};
use std::process::ChildStdout;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender};

/// The longest reply line accepted, in bytes; a longer one is a malformed reply.
pub const MAX_LINE: usize = 1 << 20;

/// The most output an engine may leave unread (sent before the referee asks for it),
/// in bytes with every line counted at least [`LINE_COST`]; past it the engine's next
/// reply is malformed.
pub const MAX_UNREAD: usize = 4 << 20;

/// What a line costs at least against [`MAX_UNREAD`]: its text's size plus this, so
/// that empty lines are bounded too.
pub const LINE_COST: usize = 64;

pub(super) enum Event {
    Line(String),
    TooLong,
    /// More than [`MAX_UNREAD`] bytes waiting: the reader has stopped.
    Flood,
    Eof,
    ReadError(String),
}

/// What a line costs against [`MAX_UNREAD`].
pub(super) fn line_cost(line: &str) -> usize {
    line.len() + LINE_COST
}

/// What the reader thread and the referee share about an engine's output.
#[derive(Default)]
pub(super) struct Output {
    /// The bytes of lines on the channel, as [`line_cost`] counts them.
    pub(super) unread: AtomicUsize,
    /// Set when the unread output passed [`MAX_UNREAD`] and the reader stopped.
    pub(super) flooded: AtomicBool,
}

/// The reader thread of an engine's stdout: its lines, each at most [`MAX_LINE`] bytes, go
/// to `tx` until the end of output, a read error or more than [`MAX_UNREAD`] bytes unread
/// (then it holds the pipe until `release`).
pub(super) fn read_lines(stdout: ChildStdout, tx: Sender<Event>, output: Arc<Output>, release: Receiver<()>) {
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
