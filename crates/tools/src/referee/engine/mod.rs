//! Engine processes and the GTP transport the referee uses to talk to them.
//!
//! An engine is started directly (no shell) from its command line split by
//! [`split_command`](crate::referee::words::split_command), in a process group of its own (see the `process` module); its stderr
//! goes to a log file (or nowhere), never to the terminal, its last lines kept to say why
//! it ended ([`StderrTail`](crate::referee::traffic::StderrTail)). A reader thread turns its
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
//! The `transport` module holds one [`EngineProcess`] and its exchanges; [`EngineClient`] (the
//! `client` module) wraps one that is restarted on demand after a crash or a kill; the
//! `controller` module holds the protocol's operations every tool
//! drives an engine with (start, set-up, moves, verdicts); the `reader` module is the reader
//! thread of an engine's stdout, with the bounds it keeps.

mod client;
pub mod controller;
mod reader;
mod transport;

pub use client::EngineClient;
pub use reader::{LINE_COST, MAX_LINE, MAX_UNREAD};
pub use transport::{
    EngineCommand, EngineProcess, Exchange, Failure, Killer, MAX_NAME, MAX_REPLY, MAX_SHOWN, Reply, STOP_POLL, STOPPED,
    clean_text, command_deadline,
};
