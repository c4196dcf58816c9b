//! The operating-system side of engine processes: process groups that die whole, and
//! writes with deadlines.
//!
//! Every engine runs in a process group of its own (its pid is the group id), so an
//! engine that is a wrapper script, or that starts helpers, is ended with all its
//! children: [`kill_group`] signals the whole group. The groups of the engines alive are
//! kept in a fixed table that a signal handler can read without allocating or locking:
//! on SIGINT, SIGTERM or SIGHUP the referee ends every engine group, then dies of the
//! signal as it would have. The handlers are the process's: the program's command line
//! installs them ([`handle_signals`]) before it starts engines, and no constructor here
//! does (a library caller without them gets the signals' default actions). (Engines in their own groups no longer receive the terminal's
//! Ctrl-C themselves, so this handler is what keeps them from outliving the referee.)
//!
//! While games are being played ([`stop_gracefully`]), a first SIGINT or SIGTERM only asks
//! to stop ([`stop_requested`]): the runner starts no more games and lets those running
//! finish. A second one ends every engine group at once ([`stopping_now`]): the games
//! running end, are not counted (the runner knows it is stopping) and are played again on
//! resume, and the referee still prints its summary and the command that resumes (`timeout`
//! delivers its signal twice, to the referee and then to its group; a scheduler's SIGTERM
//! reaches the engines themselves). A third one, or SIGHUP, ends everything as above.
//!
//! An engine's stdin is made non-blocking and [`write_all_before`] waits for room in the
//! pipe with `poll` until a deadline: an engine that stops reading cannot stall the
//! referee.

use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Instant;

/// How many engine groups the table holds; beyond it an engine still runs, but a signal
/// does not end it (only its own end of input would).
const GROUPS: usize = 1024;

/// The process groups of the engines alive (0: a free slot).
static LIVE_GROUPS: [AtomicI32; GROUPS] = [const { AtomicI32::new(0) }; GROUPS];

static HANDLERS: Once = Once::new();

/// Whether a first SIGINT or SIGTERM only asks to stop (while games are played).
static GRACEFUL: AtomicBool = AtomicBool::new(false);

/// Set by a SIGINT or SIGTERM received while [`GRACEFUL`].
static STOP: AtomicBool = AtomicBool::new(false);

/// Set by a second SIGINT or SIGTERM received while [`GRACEFUL`]: every engine was ended.
static STOP_NOW: AtomicBool = AtomicBool::new(false);

/// Installs, once for the whole process, the referee's handlers of SIGINT, SIGTERM and
/// SIGHUP (see the module documentation) where they have their default action, and
/// ignores SIGXFSZ: the command line calls it before `match`, `tournament`, `check` or
/// `book` starts an engine.
pub fn handle_signals() {
    HANDLERS.call_once(install_handlers);
}

/// Makes a first SIGINT or SIGTERM ask to stop (`true`) instead of ending everything at
/// once (with the handlers of [`handle_signals`]).
pub(crate) fn stop_gracefully(on: bool) {
    GRACEFUL.store(on, Ordering::SeqCst);
}

/// Whether a signal asked the runner to stop starting games.
pub(crate) fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Whether a second signal ended every engine: none is to be started again.
pub(crate) fn stopping_now() -> bool {
    STOP_NOW.load(Ordering::SeqCst)
}

/// Notes `pgid` as an engine group to end on a fatal signal (by the handlers of
/// [`handle_signals`]).
pub(crate) fn register_group(pgid: i32) {
    for slot in &LIVE_GROUPS {
        if slot.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return;
        }
    }
    log::warn!("more than {GROUPS} engines at once: engine group {pgid} is not ended on a signal");
}

/// Forgets `pgid` (after it has been killed and reaped).
pub(crate) fn unregister_group(pgid: i32) {
    for slot in &LIVE_GROUPS {
        if slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return;
        }
    }
}

/// Sends SIGKILL to every process of group `pgid`.
pub(crate) fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Ends every engine group, then dies of `signal` (async-signal-safe: atomics and
/// system calls only); while games are played, a first SIGINT or SIGTERM only sets
/// [`STOP`], a second one ends every engine group and sets [`STOP_NOW`].
extern "C" fn on_fatal_signal(signal: libc::c_int) {
    if signal != libc::SIGHUP && GRACEFUL.load(Ordering::SeqCst) {
        if !STOP.swap(true, Ordering::SeqCst) {
            note(b"veletas: stopping: no new game starts, the games running finish (a second signal ends them now)\n");
            return;
        }
        if !STOP_NOW.swap(true, Ordering::SeqCst) {
            kill_every_group();
            note(
                b"veletas: stopping now: every engine is ended; the games running are not counted and are played again \
                  on resume (a third signal ends the referee at once)\n",
            );
            return;
        }
    }
    kill_every_group();
    // SAFETY: signal(2) and raise(3) are async-signal-safe; the default action ends the
    // process with this signal's status, as without the handler.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Writes `text` to stderr (async-signal-safe).
fn note(text: &'static [u8]) {
    // SAFETY: write(2) is async-signal-safe; the bytes are static.
    unsafe {
        libc::write(2, text.as_ptr().cast(), text.len());
    }
}

/// Sends SIGKILL to every engine group alive (async-signal-safe).
fn kill_every_group() {
    for slot in &LIVE_GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: kill(2) is async-signal-safe.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

/// Installs [`on_fatal_signal`] for SIGINT, SIGTERM and SIGHUP where they have their
/// default action (a signal ignored, as under `nohup`, stays ignored).
fn install_handlers() {
    // A file size limit (`ulimit -f`) then makes a record write fail with EFBIG, which the
    // record writer answers by cutting the file back to its last complete game, instead of
    // killing the referee part way through a game. Engines get the default back
    // ([`restore_default_signals`]).
    crate::output::ignore_file_size_signal();
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: sigaction(2) with zeroed structures reads the current action, then
        // installs a handler that only uses async-signal-safe calls.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 || old.sa_sigaction != libc::SIG_DFL {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fatal_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Gives an engine about to be started the default action of SIGXFSZ, which the
/// referee ignores (an ignored signal stays ignored across exec): set as the engine
/// command's `pre_exec`.
pub(crate) fn restore_default_signals() -> io::Result<()> {
    // SAFETY: signal(2) is async-signal-safe, as a pre_exec closure requires.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
    }
    Ok(())
}

/// Makes `file` non-blocking, for [`write_all_before`].
pub(crate) fn set_nonblocking(file: &impl AsRawFd) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl(2) on a file descriptor the caller owns.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Writes all of `bytes` into the non-blocking `pipe` before `deadline`; an error of
/// kind `TimedOut` when the reader leaves no room in time.
pub(crate) fn write_all_before<W: Write + AsRawFd>(pipe: &mut W, bytes: &[u8], deadline: Instant) -> io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        match pipe.write(rest) {
            Ok(0) => return Err(io::Error::new(io::ErrorKind::WriteZero, "the pipe took nothing")),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::Error::new(io::ErrorKind::TimedOut, "the engine does not read its input"));
                }
                let millis = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
                let mut poll = libc::pollfd { fd: pipe.as_raw_fd(), events: libc::POLLOUT, revents: 0 };
                // SAFETY: poll(2) on one pollfd that lives across the call.
                let ready = unsafe { libc::poll(&mut poll, 1, millis) };
                if ready < 0 {
                    let error = io::Error::last_os_error();
                    if error.kind() != io::ErrorKind::Interrupted {
                        return Err(error);
                    }
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
