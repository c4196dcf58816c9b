//! The live page of `--live FILE.html`: the games in progress (each running game's board,
//! players and turn count) and the standings so far, rewritten while the games run.
//!
//! The referee's workers put their game into a [`LiveBoard`] slot after every turn
//! ([`LiveBoard::set`]); the referee's main thread rewrites the page at most every
//! [`LiveBoard::INTERVAL`] and once at the end ([`LiveBoard::write`]). Each write goes to
//! a temporary file renamed over the page, so a browser never reads half a page. The page
//! reloads itself every 2 seconds (keeping the scroll position) until the final write.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::output::WriteError;
use crate::picture::html_escape;
use crate::picture::svg::{self, SvgOptions};
use crate::picture::write_output;
use veletas_rules::Game;

/// A game in progress.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// What identifies it, e.g. `game 3/10` or `game 12 (round 1)`.
    pub label: String,
    /// The engine playing Black now (after a swap, the one that swapped).
    pub black: String,
    /// The engine playing White now.
    pub white: String,
    /// The game so far.
    pub game: Game,
}

/// The running games, one slot per worker, and the page they are written to.
#[derive(Debug)]
pub struct LiveBoard {
    path: PathBuf,
    title: String,
    slots: Mutex<Vec<Option<LiveGame>>>,
    last: Mutex<Option<Instant>>,
}

impl LiveBoard {
    /// The shortest time between two writes of the page (the final write comes anyway).
    pub const INTERVAL: Duration = Duration::from_secs(2);

    /// A board of `workers` slots written to `path`, titled `title`.
    pub fn new(path: &Path, title: &str, workers: usize) -> LiveBoard {
        LiveBoard {
            path: path.to_path_buf(),
            title: title.to_string(),
            slots: Mutex::new(vec![None; workers]),
            last: Mutex::new(None),
        }
    }

    /// Worker `worker` now plays `game` (`None`: it plays nothing).
    pub fn set(&self, worker: usize, game: Option<LiveGame>) {
        if let Ok(mut slots) = self.slots.lock()
            && let Some(slot) = slots.get_mut(worker)
        {
            *slot = game;
        }
    }

    /// How long until the next write is due (zero: now).
    pub fn until_due(&self) -> Duration {
        match self.last.lock().ok().and_then(|l| *l) {
            None => Duration::ZERO,
            Some(at) => Self::INTERVAL.saturating_sub(at.elapsed()),
        }
    }

    /// Rewrites the page when it is due (or always, when `finished`): `status` is one line
    /// (games done, ...), `panel` the standings so far (HTML from [`super::standings`]).
    /// Nothing is written when not due; `panel` is only computed when it is.
    pub fn write(&self, status: &str, finished: bool, panel: impl FnOnce() -> String) -> Result<(), WriteError> {
        if !finished && !self.until_due().is_zero() {
            return Ok(());
        }
        let running: Vec<LiveGame> =
            self.slots.lock().map(|s| s.iter().flatten().cloned().collect()).unwrap_or_default();
        let html = page(&self.title, status, if finished { &[] } else { &running }, &panel(), finished);
        if let Ok(mut last) = self.last.lock() {
            *last = Some(Instant::now());
        }
        write_output(Some(&self.path), html.as_bytes())
    }
}

/// The time of day, UTC, `HH:MM:SS`.
fn clock_time() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    format!("{:02}:{:02}:{:02} UTC", secs / 3600 % 24, secs / 60 % 60, secs % 60)
}

/// The live page: the running games' boards, then `panel`.
pub fn page(title: &str, status: &str, running: &[LiveGame], panel: &str, finished: bool) -> String {
    let title = html_escape(title);
    let mut out = String::with_capacity(16_384 + running.len() * 12_000);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<link rel=\"icon\" href=\"data:,\">\n");
    if !finished {
        // Without JavaScript the page still reloads; with it, the scroll position is kept.
        out.push_str("<noscript><meta http-equiv=\"refresh\" content=\"2\"></noscript>\n");
    }
    let _ = writeln!(out, "<title>{}{title}</title>", if finished { "" } else { "Live: " });
    out.push_str(LIVE_STYLE);
    out.push_str(super::standings::STYLE);
    // The names and pairs link to games in the report's viewer; here there are none.
    out.push_str(
        "<style>#report .engine, #report .pair { color: inherit; text-decoration: none; cursor: default; }</style>\n",
    );
    out.push_str("</head>\n<body>\n");
    let state = if finished {
        r#"<span class="state done">Finished</span>"#
    } else {
        r#"<span class="state live">Live</span>"#
    };
    let _ = writeln!(
        out,
        r#"<header><h1>{title}</h1>{state}<span class="status" id="status">{}</span><span class="updated">updated {}</span></header>"#,
        html_escape(status),
        clock_time()
    );
    let written = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let _ =
        write!(out, r#"<main data-finished="{finished}" data-running="{}" data-written="{written}">"#, running.len());
    if !finished {
        out.push_str(r#"<h2 class="section">Games in progress</h2><div id="running">"#);
        if running.is_empty() {
            out.push_str(r#"<p class="idle">No game is being played at this moment.</p>"#);
        }
        let options = SvgOptions { width: 300, coordinates: true, status: true };
        for live in running {
            let last = live.game.moves().last();
            let turns = live.game.moves().len();
            let _ = write!(
                out,
                r#"<div class="game" data-turns="{turns}"><div class="label">{}</div><div class="players"><span class="dot black"></span>{} <span class="vs">vs</span> <span class="dot white"></span>{}</div>{}<div class="turns">{turns} turn{} played</div></div>"#,
                html_escape(&live.label),
                html_escape(&live.black),
                html_escape(&live.white),
                svg::render(live.game.position(), last.as_ref(), &options),
                if turns == 1 { "" } else { "s" }
            );
        }
        out.push_str("</div>");
    }
    out.push_str(panel);
    out.push_str("</main>\n");
    if !finished {
        out.push_str(&RELOAD.replace("STALE_MS", &(STALE_SECONDS * 1000).to_string()));
    }
    out.push_str("</body>\n</html>\n");
    out
}

const LIVE_STYLE: &str = r#"<style>
:root { --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --panel: #f6f8fa; --accent: #1f5fbf; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; color: var(--ink); }
header { display: flex; align-items: baseline; gap: 14px; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { font-size: 18px; margin: 0; font-weight: 600; }
header .updated { margin-left: auto; color: var(--muted); font-size: 12px; }
.state { font-size: 12px; font-weight: 700; padding: 1px 8px; border-radius: 10px; color: #fff; }
.state.live { background: #c62828; }
.state.done { background: #2e7d32; }
.state.stopped { background: #6e7781; }
h2.section { font-size: 16px; margin: 16px 20px 8px; max-width: 1100px; }
#running { display: flex; flex-wrap: wrap; gap: 14px; padding: 0 20px; }
.game { border: 1px solid var(--line); border-radius: 8px; padding: 8px; width: 318px; }
.game .label { color: var(--muted); font-size: 12px; }
.game .players { font-weight: 600; margin: 2px 0 6px; }
.game .vs { color: var(--muted); font-weight: 400; }
.game svg { display: block; width: 300px; height: auto; }
.game .turns { color: var(--muted); font-size: 12px; text-align: right; }
.idle { color: var(--muted); margin: 0; }
.dot { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 50%; vertical-align: -0.05em; margin-right: 0.25em; border: 1.5px solid #1c1c1c; }
.dot.black { background: #1c1c1c; }
.dot.white { background: #fbfbf8; }
</style>
"#;

/// Reloads the page every 2 seconds, keeping the scroll position; and says "Stopped" when
/// the page has not changed for [`STALE_SECONDS`] of the browser's own time (the referee
/// rewrites it every 2 s while it runs, so it was stopped: SIGINT, kill -9, a crash, none
/// of which can write a last page), keeping the standings of its last write.
const RELOAD: &str = r#"<script>
"use strict";
(function () {
  const key = "veletas-live-scroll:" + location.pathname;
  const seenKey = "veletas-live-seen:" + location.pathname;
  const y = Number(sessionStorage.getItem(key));
  if (y > 0) window.scrollTo(0, y);
  const written = document.querySelector("main").dataset.written;
  let seen = null;
  try { seen = JSON.parse(sessionStorage.getItem(seenKey)); } catch (e) { seen = null; }
  if (!seen || seen.written !== written) {
    seen = {written: written, since: Date.now()};
    sessionStorage.setItem(seenKey, JSON.stringify(seen));
  } else if (Date.now() - seen.since > STALE_MS) {
    const state = document.querySelector(".state");
    state.textContent = "Stopped";
    state.className = "state stopped";
    document.title = document.title.replace(/^Live: /, "Stopped: ");
    const status = document.getElementById("status");
    status.textContent += " \u2014 not updated for " + Math.round((Date.now() - seen.since) / 1000) +
      " s: the referee has stopped (interrupted?); the standings are those of its last update";
    const running = document.getElementById("running");
    if (running) running.previousElementSibling.textContent = "Games in progress when it stopped";
  }
  setTimeout(function () { sessionStorage.setItem(key, String(window.scrollY)); location.reload(); }, 2000);
})();
</script>
"#;

/// Seconds without a change after which the live page says the referee has stopped.
pub const STALE_SECONDS: u64 = 15;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_shows_every_running_game_and_stops_reloading_when_finished() {
        let mut game = Game::from_position("7/7/2s4/7/4s2/1s5/7 b".parse().unwrap());
        let mv = game.position().parse_move("c5-c7/e7").unwrap();
        game.play(mv).unwrap();
        let live = LiveGame { label: "game 1/2".into(), black: "a<".into(), white: "b".into(), game };
        let html = page("t", "1 of 2", &[live.clone(), live], "<p>panel</p>", false);
        assert_eq!(html.matches(r#"<div class="game""#).count(), 2);
        assert!(html.contains("a&lt;") && html.contains("1 turn played") && html.contains("location.reload"));
        // The staleness check: the page's write time, and the stop after 15 s unchanged.
        assert!(html.contains("data-written=\"") && html.contains("> 15000)") && html.contains("\"Stopped\""));
        let html = page("t", "2 of 2", &[], "<p>panel</p>", true);
        assert!(!html.contains("location.reload") && !html.contains("refresh") && html.contains("Finished"));
    }

    #[test]
    fn writes_are_spaced_but_the_final_one_always_comes() {
        let dir = std::env::temp_dir().join(format!("veletas-live-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("live.html");
        let board = LiveBoard::new(&path, "t", 2);
        board.write("first", false, String::new).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("first"));
        board.write("second", false, || panic!("not due: the panel is not computed")).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("first"));
        board.write("last", true, String::new).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("last"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
