//! An engine that ends at start-up says why (issue 44, point 4): its last stderr lines (a
//! mistyped option's "tip: a similar argument exists") are in the one error line of
//! `match`, `tournament` and `book`, in `check`'s report and in the GUI's refusal of the game,
//! and a refused run leaves no empty record or log behind.

use std::path::Path;
use std::process::Output;

use crate::support::veletas_in;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// The fake engine with a mistyped option: clap refuses it on stderr, exit status 2.
fn mistyped() -> String {
    format!("{FAKE} --dela 1")
}

/// What clap says of it, the last lines the error must show.
const CAUSE: [&str; 2] = ["error: unexpected argument '--dela' found", "tip: a similar argument exists: '--delay'"];

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A refusal in one line showing the engine's own words, exit status 1 (a failure at run
/// time, not of the command line).
fn assert_shows_cause(output: &Output, tool: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "{tool}: {err}");
    assert_eq!(err.lines().count(), 1, "{tool}: {err}");
    assert!(err.starts_with(&format!("veletas {tool}: ")), "{err}");
    for line in CAUSE {
        assert!(err.contains(line), "{tool}: {line}: {err}");
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_refused_engine_shows_its_last_stderr_lines_and_leaves_no_record_or_log() {
    let dir = scratch!("cause");
    let (bad, good) = (mistyped(), format!("{FAKE} --seed 1"));
    let outputs = ["--record", "r.txt", "--log-protocol", "p.log"];
    let output =
        veletas_in(&dir, &[&["match", "--engine", &bad, "--engine", &good, "--size", "7"][..], &outputs].concat());
    assert_shows_cause(&output, "match");
    assert_eq!(files(&dir), Vec::<String>::new(), "the record, the engine log and the protocol log are removed");
    let output = veletas_in(
        &dir,
        &[&["tournament", "--engine", &good, "--engine", &bad, "--size", "7", "--engine-log", "e.log"][..], &outputs]
            .concat(),
    );
    assert_shows_cause(&output, "tournament");
    assert_eq!(files(&dir), Vec::<String>::new());
    // Files that were there before the run stay, as they were.
    std::fs::write(dir.join("e.log"), "earlier\n").unwrap();
    std::fs::write(dir.join("r.txt"), "").unwrap();
    let output = veletas_in(
        &dir,
        &["match", "--engine", &bad, "--engine", &good, "--size", "7", "--record", "r.txt", "--engine-log", "e.log"],
    );
    assert_shows_cause(&output, "match");
    assert_eq!(files(&dir), ["e.log", "r.txt"]);
    assert!(std::fs::read_to_string(dir.join("e.log")).unwrap().starts_with("earlier\n"));
    // Book: one line; check: the failed start-up in the report.
    let output = veletas_in(&dir, &["book", "--engine", &format!("{bad} --analyze"), "--size", "7"]);
    assert_shows_cause(&output, "book");
    let output = veletas_in(&dir, &["check", &bad]);
    let report = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    let startup = report.lines().find(|l| l.starts_with("FAIL startup")).unwrap_or_else(|| panic!("{report}"));
    for line in CAUSE {
        assert!(startup.contains(line), "{line}: {report}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_gui_shows_why_an_engine_ended_at_start_up() {
    // The GUI greets both engines before the game opens: the new game is refused with the
    // engine's own words, and no game opens.
    let reply = crate::same_verdict::gui_new_game(vec![format!("bad={}", mistyped()), format!("good={FAKE}")]);
    assert!(reply["id"].is_null(), "{reply}");
    let error = reply["error"].as_str().unwrap_or_else(|| panic!("{reply}"));
    for line in CAUSE {
        assert!(error.contains(line), "{line}: {error}");
    }
}
