//! Processes that left an engine's process group: adopted and ended (Linux).
//!
//! Killing an engine's process group ends every process in it, but a process the engine
//! started in a session of its own (`setsid`, a daemon's double fork) is in another group
//! and would outlive the engine, adopted by init. The tools that run engines (`match`,
//! `tournament`, `check`, `book`) call [`adopt_orphans`] first: on Linux it makes the
//! program a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so a process orphaned
//! anywhere below it becomes its child instead of init's. [`end_orphans`] then kills and
//! reaps every child that is not an engine the referee started (found in `/proc` by its
//! parent pid): after each engine's group is ended, and when the run ends. An adopted
//! process is the referee's child until it is reaped, so its pid cannot be reused under
//! the signal.
//!
//! Out of reach (docs/reliability.md): a process that escaped before the engine ended
//! while it is still the child of a live engine process (it is ended with that process);
//! after `kill -9` of the referee, nothing (init adopts what is left); with `-j`, a process
//! orphaned under one engine is ended when any engine ends, whichever it belonged to;
//! elsewhere than Linux, nothing of this (only the groups are ended).

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this process is a child subreaper (set by [`adopt_orphans`]).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// The pids of the engine processes started and not yet reaped: the children that are
/// not orphans. Held while an engine is started and noted, and while orphans are looked
/// for, so that an engine just started is never taken for one.
static ENGINES: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// The most rounds of [`end_orphans`]: each round ends the orphans found, whose own
/// children it then adopts; a chain deeper than this is left to the next call.
const MAX_ROUNDS: usize = 64;

/// Makes this process adopt the processes orphaned below it (see the module
/// documentation): Linux only; whether it took effect.
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes an integer flag.
        let done = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) } == 0;
        ADOPTING.store(done, Ordering::SeqCst);
        done
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// Runs `start` (which starts an engine process and returns its pid) with the table of
/// engines locked, and notes the pid as an engine's.
pub(crate) fn start_engine<T>(start: impl FnOnce() -> std::io::Result<(T, i32)>) -> std::io::Result<T> {
    let mut engines = ENGINES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let (started, pid) = start()?;
    engines.insert(pid);
    Ok(started)
}

/// Forgets the engine process `pid` (once it has been reaped).
pub(crate) fn engine_reaped(pid: i32) {
    ENGINES.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&pid);
}

/// Kills and reaps every child of this process that is not an engine (adopted orphans,
/// and zombies among them), round after round as their children are adopted in turn.
/// Does nothing unless [`adopt_orphans`] took effect.
pub fn end_orphans() {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    for _ in 0..MAX_ROUNDS {
        let orphans = {
            let engines = ENGINES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let orphans: Vec<i32> = children().into_iter().filter(|pid| !engines.contains(pid)).collect();
            for &pid in &orphans {
                // SAFETY: kill(2) of our own child, not reaped yet (its pid is not reused).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            orphans
        };
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            log::debug!("ended process {pid}, which had left its engine's process group");
            let mut status = 0;
            // SAFETY: waitpid(2) of our own child, killed above.
            unsafe {
                libc::waitpid(pid, &mut status, 0);
            }
        }
    }
}

/// Whether a process of group `pgid` is left (zombies included).
pub(crate) fn group_alive(pgid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks that the group exists.
    pgid > 0 && unsafe { libc::kill(-pgid, 0) } == 0
}

/// Whether [`adopt_orphans`] took effect.
pub(crate) fn adopting() -> bool {
    ADOPTING.load(Ordering::SeqCst)
}

/// The pids of this process's children, from `/proc` (the fourth field of each
/// `/proc/PID/stat`, after the command name in parentheses, is the parent's pid).
fn children() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (_, after_name) = stat.rsplit_once(')')?;
            let parent: i32 = after_name.split_whitespace().nth(1)?.parse().ok()?;
            (parent == me).then_some(pid)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_are_found_by_their_parent_pid() {
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let pid = child.id() as i32;
        assert!(children().contains(&pid));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!children().contains(&pid));
    }
}
