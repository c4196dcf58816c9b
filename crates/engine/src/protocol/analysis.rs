//! Searches that run until the next input arrives: `analyze`, the search's view
//! streamed as `info` lines in the manner of Leela Zero's `lz-analyze`, and pondering
//! (`ponder on`), a silent search of the opponent's turn between commands.
//!
//! The reply starts at once with `=id ` and a newline. While the player searches, a
//! scoped watcher thread waits on the input ([`BufRead::fill_buf`], which neither
//! consumes nor loses anything) and raises the search's stop flag as soon as any byte
//! (or the end of input) is there. The search then returns, a last report is written,
//! and the empty line that ends every reply follows; the session loop then reads the
//! waiting line as usual. Pondering uses the same watcher and writes nothing.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use log::{debug, info};

use crate::protocol::engine::Engine;
use crate::protocol::framing::{format_reply, write_reply};
use crate::protocol::info::info_line;

/// Blocks until `input` has a byte to read or is at its end (or fails), without
/// consuming anything.
fn wait_for_input(input: &mut impl BufRead) {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            _ => return,
        }
    }
}

/// Runs `search` with a stop flag that a scoped watcher thread raises as soon as `input`
/// has a byte to read (or is at its end), and returns its result once input is there:
/// nothing is consumed, so the session loop then reads the waiting line as usual. A
/// search that ends on its own leaves the engine idle until then.
fn until_input<R>(input: &mut (impl BufRead + Send), search: impl FnOnce(&Arc<AtomicBool>) -> R) -> R {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let flag = Arc::clone(&stop);
        let watcher = scope.spawn(move || {
            wait_for_input(input);
            flag.store(true, Ordering::Relaxed);
        });
        let result = search(&stop);
        let _ = watcher.join();
        result
    })
}

/// Answers `analyze` with `id`: streams reports every `interval` until input arrives,
/// then ends the reply. Returns whether the command succeeded.
pub fn stream(
    input: &mut (impl BufRead + Send),
    output: &mut impl Write,
    engine: &mut Engine,
    id: Option<&str>,
    interval: Duration,
) -> io::Result<bool> {
    if let Err(error) = engine.can_analyze() {
        write_reply(output, &format_reply(false, id, &error.to_string()))?;
        return Ok(false);
    }
    output.write_all(format!("={} \n", id.unwrap_or("")).as_bytes())?;
    output.flush()?;
    let mut reports = 0u64;
    let mut failure: Option<io::Error> = None;
    until_input(input, |stop| {
        engine.analyze(interval, stop, &mut |result| {
            if failure.is_some() {
                return;
            }
            let mut line = info_line(result);
            line.push('\n');
            match output.write_all(line.as_bytes()).and_then(|()| output.flush()) {
                Ok(()) => reports += 1,
                // Nobody reads the reports any more: stop searching, wait for the input.
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
        });
        // Players that do not search return at once: the reply still lasts until input.
    });
    info!("analysis ended by input after {reports} reports");
    if let Some(e) = failure {
        return Err(e);
    }
    output.write_all(b"\n")?;
    output.flush()?;
    Ok(true)
}

/// Ponders between commands: lets the engine search the opponent's turn (see
/// [`Engine::ponder`]) until input arrives, then returns the playouts run, so that the
/// next command is read and answered without delay. The search stops within a few
/// playouts of the input's first byte; when it ends sooner (a limit of the player's, a
/// proven position, a player that does not search) the engine waits idle.
pub fn ponder(input: &mut (impl BufRead + Send), engine: &mut Engine) -> u64 {
    let playouts = until_input(input, |stop| engine.ponder(stop));
    debug!("pondered {playouts} playouts until input");
    playouts
}
