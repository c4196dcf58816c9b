//! Engine text reaching records and screens through the `veletas` binary: names and
//! `final_score` answers are cut to a documented length and stripped of control
//! characters before a record, the terminal or CSV sees them, and `final_score` agrees only
//! when the whole answer is protocol.md's `B+` or `W+`. See docs/reliability.md.

use std::fs;
use std::path::Path;
use std::process::Output;

use veletas_tools::referee::parse_records;

use crate::support::veletas_in;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// Terminal escapes: set the window title, clear the screen, recolour, as the fake engine's
/// `--name` and `--score-text` take them (`\e` escape, `\a` bell, `\t` tab): an engine
/// command line holds no control character itself.
const ESCAPES: &str = r"\e]0;pwned\a\e[2J\e[31mred";

fn run(dir: &Path, args: &[&str]) -> Output {
    let output = veletas_in(dir, args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn has_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

#[test]
fn hostile_names_reach_records_lines_and_csv_short_and_clean() {
    let dir = scratch!("names");
    // Single quotes keep the escapes inside one word of the engine command line.
    let one = format!("'{FAKE}' --seed 1 --name '{ESCAPES}' --name-repeat 40000");
    let two = format!("'{FAKE}' --seed 2 --name 'tab\\there'");
    let args = ["match", "--engine", &one, "--engine", &two, "--games", "2", "--size", "7", "--record", "g.txt"];
    let output = run(&dir, &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!has_control(&stdout), "{stdout}");
    let record = fs::read_to_string(dir.join("g.txt")).unwrap();
    assert!(record.len() < 4096, "a record of {} bytes", record.len());
    for game in parse_records(&record).unwrap() {
        for tag in ["Black", "White"] {
            let name = game.tag(tag).unwrap();
            assert!(!has_control(name), "{name:?}");
            // The name and the version, each at most 64 characters and a cut mark, then the
            // command line's words: at most 60 characters, a cut mark and a fingerprint.
            let words = " (".len() + 60 + "... ".len() + 8 + ")".len();
            assert!(name.chars().count() <= 64 + 3 + 1 + 64 + 3 + words, "{} characters", name.chars().count());
        }
    }
    let csv = run(&dir, &["ratings", "g.txt", "--format", "csv"]);
    let csv = String::from_utf8_lossy(&csv.stdout);
    assert!(!has_control(&csv), "{csv}");
    assert!(csv.contains("tab here"), "{csv}");
    let _ = fs::remove_dir_all(&dir);
}

/// The `Disagreement` tags of a match where engine 1 answers `final_score` with `text`.
fn disagreements(name: &str, text: &str) -> Vec<Option<String>> {
    let dir = scratch!(name);
    let one = format!("'{FAKE}' --seed 1 --score-text '{text}'");
    let two = format!("'{FAKE}' --seed 2");
    let args = ["match", "--engine", &one, "--engine", &two, "--games", "4", "--size", "7", "-q", "--record", "g.txt"];
    run(&dir, &args);
    let record = fs::read_to_string(dir.join("g.txt")).unwrap();
    assert!(!has_control(&record.replace('\n', "")), "{record}");
    let games = parse_records(&record).unwrap();
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(games.len(), 4);
    games.iter().map(|g| g.tag("Disagreement").map(str::to_string)).collect()
}

#[test]
fn final_score_agrees_only_in_protocol_form() {
    // `B+junk` names Black first but is not an answer: it disagrees even when Black won.
    for (name, text) in [("junk", "B+junk"), ("bogus", "bogus"), ("lines", "B+\\nW+")] {
        for disagreement in disagreements(name, text) {
            let disagreement = disagreement.unwrap_or_default();
            assert!(disagreement.contains("engine says"), "{text}: {disagreement:?}");
        }
    }
}

#[test]
fn a_final_score_answer_full_of_escapes_is_cut_and_cleaned() {
    let long = format!("{ESCAPES}{}", "x".repeat(5000));
    for disagreement in disagreements("escapes", &long) {
        let disagreement = disagreement.unwrap();
        assert!(!has_control(&disagreement), "{disagreement:?}");
        assert!(disagreement.len() < 400, "{} bytes", disagreement.len());
    }
}
