//! An engine's verdict does not depend on the tool that drove it: one misbehaving fake
//! engine (it refuses `time_settings`; it answers an illegal move; it dies at its move) is
//! driven through `veletas match`, `veletas check` (its whole game), `veletas book` and the
//! GUI's API, and each gives the same termination and reason, all of them the engine
//! controller's (issue 43).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use veletas_gui::{Gui, GuiSettings};
use veletas_rules::record::parse_records;

use crate::support::veletas;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// A verdict: the termination and the reason, without the colour that begins a game's
/// reason and the void a referee adds when no engine had moved.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    termination: String,
    reason: String,
}

fn verdict(termination: &str, reason: &str) -> Verdict {
    let reason = reason.strip_prefix("black: ").unwrap_or(reason);
    let reason = reason.strip_suffix("; no engine had moved: void").unwrap_or(reason);
    Verdict { termination: termination.to_string(), reason: reason.to_string() }
}

/// The misbehaving engine's command line: it plays Black, the good one White.
fn bad(misbehaviour: &[&str]) -> String {
    format!("{FAKE} --analyze --name bad --seed 1 {}", misbehaviour.join(" "))
}

fn good() -> String {
    format!("{FAKE} --analyze --seed 2")
}

/// The verdict of `veletas match` on the game the misbehaving engine plays Black, from the
/// empty board as the others start.
fn by_match(dir: &Path, misbehaviour: &[&str]) -> Verdict {
    let record = dir.join(format!("match{}.txt", misbehaviour.join("")));
    let openings = dir.join("empty.txt");
    std::fs::write(&openings, "7/7/7/7/7/7/7 b\n").unwrap();
    let (bad, good) = (bad(misbehaviour), good());
    let args = ["match", "--engine", &bad, "--engine", &good, "-n", "2", "--size", "7", "--movetime", "1", "-q"];
    let files = ["--record", record.to_str().unwrap(), "--openings", openings.to_str().unwrap()];
    let out = veletas(&[&args[..], &files].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = parse_records(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let game = games.iter().find(|g| g.tag("Black").is_some_and(|b| b.starts_with("bad"))).unwrap();
    verdict(game.tag("Termination").unwrap_or_default(), game.tag("Reason").unwrap_or_default())
}

/// The verdict of `veletas check`'s whole game (the engine against itself, so it plays
/// Black too).
fn by_check(misbehaviour: &[&str]) -> Verdict {
    let bad = bad(misbehaviour);
    let out = veletas(&["check", "--json", "--size", "7", "--movetime", "1", &bad]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let game = json["checks"].as_array().unwrap().iter().find(|c| c["id"] == "game").unwrap();
    // `RESULT TERMINATION, N turns in S s at M s a move[: REASON]`
    let detail = game["detail"].as_str().unwrap();
    let (line, reason) = detail.split_once(": ").unwrap_or((detail, ""));
    let termination = line.split_once(' ').and_then(|(_, rest)| rest.split_once(", ")).unwrap().0;
    verdict(termination, reason)
}

/// The verdict of `veletas book`: its one error line names the termination and the reason
/// after the opening scored (`veletas book: NAME, on OPENING: TERMINATION: REASON`); none
/// when it made a book.
fn by_book(misbehaviour: &[&str]) -> Verdict {
    let out = veletas(&["book", "--engine", &bad(misbehaviour), "--size", "7", "--candidates", "2", "--band", "0-100"]);
    if out.status.success() {
        return verdict("normal", "");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let error = stderr.trim().lines().last().unwrap_or_default();
    let after = error.split_once(", on ").and_then(|(_, rest)| rest.split_once(": ")).map_or("", |(_, rest)| rest);
    let (termination, reason) = after.split_once(": ").unwrap_or_else(|| panic!("{stderr}"));
    verdict(termination, reason)
}

/// One request to the GUI's API at `address`; the body as JSON.
pub(crate) fn api(address: &str, method: &str, path: &str, body: &str) -> Value {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    serde_json::from_str(text.split_once("\r\n\r\n").map_or("", |(_, b)| b)).unwrap_or(Value::Null)
}

/// The verdict of a game the GUI plays between the two engines, each on its own turn.
fn by_gui(misbehaviour: &[&str]) -> Verdict {
    let outcome = gui_game(vec![format!("bad={}", bad(misbehaviour)), format!("good={}", good())]);
    verdict(outcome["termination"].as_str().unwrap(), outcome["reason"].as_str().unwrap())
}

/// The new game the GUI is asked for: 7x7, 1 s a move, the first engine Black.
const NEW_GAME: &str = r#"{"size": 7, "rules": "classic", "black": 0, "white": 1, "movetime": 1}"#;

/// Runs `body` with the address of a GUI serving `engines` (`NAME=CMD`), then stops it.
pub(crate) fn with_gui<T>(engines: Vec<String>, body: impl FnOnce(&str) -> T) -> T {
    let settings = GuiSettings::new(&engines, None, Path::new("/nonexistent/veletas")).unwrap().with_browser(false);
    let gui = Gui::bind(&settings).unwrap();
    let address = gui.url.trim_start_matches("http://").split('/').next().unwrap().to_string();
    let stop = gui.stopper();
    let server = std::thread::spawn(move || gui.serve());
    let out = body(&address);
    stop();
    let _ = server.join();
    out
}

/// The GUI's reply to a new game between `engines` (`NAME=CMD`, Black first): the game, or
/// an `error` when an engine cannot start (the GUI greets both before the game opens).
pub(crate) fn gui_new_game(engines: Vec<String>) -> Value {
    with_gui(engines, |address| api(address, "POST", "/api/games", NEW_GAME))
}

/// The outcome (JSON) of a game the GUI plays between `engines` (`NAME=CMD`, Black first)
/// on 7x7 at 1 s a move, each on its own turn.
pub(crate) fn gui_game(engines: Vec<String>) -> Value {
    let over = with_gui(engines, |address| {
        let game = api(address, "POST", "/api/games", NEW_GAME);
        let path = format!("/api/games/{}", game["id"]);
        let mut over = Value::Null;
        for _ in 0..2400 {
            over = api(address, "GET", &path, "");
            if !over["outcome"].is_null() {
                break;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        over
    });
    let outcome = &over["outcome"];
    assert!(!outcome.is_null(), "the game did not end: {over}");
    outcome.clone()
}

#[test]
fn a_misbehaving_engine_gets_the_same_verdict_from_match_check_book_and_the_gui() {
    let dir = scratch!("same-verdict");
    // (misbehaviour, termination, how every reason begins)
    let cases: [(&[&str], &str, &str); 3] = [
        (&["--refuse", "time_settings"], "normal", ""),
        (&["--illegal-at", "1"], "illegal move", "played "),
        (&["--crash-at", "1"], "crash", "ended during 'genmove_analyze black': end of output; exit status: 3"),
    ];
    for (misbehaviour, termination, begins) in cases {
        let verdicts = [
            ("match", by_match(&dir, misbehaviour)),
            ("check", by_check(misbehaviour)),
            ("gui", by_gui(misbehaviour)),
            ("book", by_book(misbehaviour)),
        ];
        for (tool, verdict) in &verdicts {
            assert_eq!(verdict.termination, termination, "{misbehaviour:?} by {tool}: {verdicts:?}");
            assert!(verdict.reason.starts_with(begins), "{misbehaviour:?} by {tool}: {verdicts:?}");
        }
        // The games from the empty board end with the very same reason; the book's opening
        // is another position (another illegal move), its reason of the same kind.
        assert_eq!(verdicts[0].1, verdicts[1].1, "{misbehaviour:?}");
        assert_eq!(verdicts[0].1, verdicts[2].1, "{misbehaviour:?}");
    }
}
