//! `veletas check` through the binary: our engine, the built-in players and the well-behaved
//! fake engine pass; each broken kind of the fake engine fails, with the right check named.

use std::process::{Command, Output};

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn check(args: &[&str]) -> Output {
    Command::new(VELETAS).arg("check").args(args).output().unwrap()
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The result word of the line of check `id`: `pass`, `FAIL` or `skip`.
fn result_of(report: &str, id: &str) -> String {
    let line = report
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(id))
        .unwrap_or_else(|| panic!("no line for check {id}:\n{report}"));
    line.split_whitespace().next().unwrap_or_default().to_string()
}

fn assert_passes(output: &Output) {
    let report = text(output);
    assert!(output.status.success(), "{report}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(report.contains("summary: compliant"), "{report}");
    assert!(!report.lines().any(|l| l.starts_with("FAIL")), "{report}");
}

#[test]
fn our_engine_passes_and_lists_its_extensions() {
    let output = check(&["--size", "7", VELETAS, "--playouts", "40", "--seed", "3"]);
    assert_passes(&output);
    let report = text(&output);
    assert!(report.starts_with("checking veletas 0.2.0 ("), "{report}");
    for id in ["ext-position", "ext-legal-moves", "ext-is-legal", "ext-set-position"] {
        assert_eq!(result_of(&report, id), "pass", "{report}");
    }
    let extensions = report.lines().find(|l| l.starts_with("extensions: ")).unwrap();
    for extension in ["legal_moves", "position", "set_position", "analyze", "loadgame"] {
        assert!(extensions.split_whitespace().any(|w| w == extension), "{extensions}");
    }
    // The modern rules (setup stones, the swap) on another board.
    let output = check(&["--size", "9", "--rules", "modern", VELETAS, "--playouts", "40", "--seed", "3"]);
    assert_passes(&output);
    assert!(text(&output).contains("on 9x9, modern rules"), "{}", text(&output));
}

#[test]
fn the_built_in_players_pass_and_json_says_so() {
    for player in ["random", "greedy", "uct"] {
        let command = format!("{player}='{VELETAS}' --player {player} --playouts 30 --seed 1");
        let output = check(&["--size", "7", "--json", &command]);
        let json: veletas::check::CheckJson = serde_json::from_slice(&output.stdout).unwrap();
        assert!(output.status.success(), "{player}: {json:?}");
        assert!(json.passed, "{json:?}");
        assert_eq!(json.engine, player);
        let checks = &json.checks;
        assert!(checks.iter().filter(|c| c.required).all(|c| c.result == "pass"), "{json:?}");
        assert!(checks.iter().any(|c| c.id == "game" && c.result == "pass"), "{json:?}");
    }
}

#[test]
fn the_well_behaved_fake_engine_passes_under_both_rule_sets() {
    assert_passes(&check(&["--size", "7", FAKE]));
    let output = check(&["--size", "7", "--rules", "modern", FAKE]);
    assert_passes(&output);
    let report = text(&output);
    assert_eq!(result_of(&report, "ext-position"), "skip", "{report}");
    assert!(report.contains("extensions: set_position rules option"), "{report}");
}

#[test]
fn an_engine_without_time_commands_passes_with_the_clock_checks_skipped() {
    let output = check(&["--size", "7", "--json", &format!("untimed={FAKE} --no-time --seed 1")]);
    let json: veletas::check::CheckJson = serde_json::from_slice(&output.stdout).unwrap();
    assert!(output.status.success() && json.passed, "{json:?}");
    assert!(!json.extensions.iter().any(|e| e.starts_with("time_")), "{json:?}");
    let clock = ["genmove-no-limit", "genmove-main-time", "genmove-byoyomi", "genmove-canadian", "genmove-increment"];
    for id in clock.iter().chain(&["time-left"]) {
        let c = json.checks.iter().find(|c| c.id == *id).unwrap();
        assert_eq!((c.required, c.result.as_str()), (false, "skip"), "{json:?}");
    }
    for id in ["commands", "errors", "reg-genmove", "genmove-no-clock", "state-after-errors", "game"] {
        let c = json.checks.iter().find(|c| c.id == id).unwrap();
        assert_eq!((c.required, c.result.as_str()), (true, "pass"), "{json:?}");
    }
    // The same engine with its clock commands lists them and must pass their checks.
    let output = check(&["--size", "7", &format!("{FAKE} --seed 1")]);
    assert_passes(&output);
    let report = text(&output);
    assert!(report.contains("extensions: set_position rules option time_settings time_left\n"), "{report}");
    assert_eq!(result_of(&report, "time-left"), "pass", "{report}");
}

#[test]
fn the_checks_options_may_follow_an_engine_given_as_one_quoted_word() {
    let output = check(&[&format!("{FAKE} --seed 1"), "--size", "9", "--rules", "modern"]);
    assert_passes(&output);
    assert!(text(&output).contains("on 9x9, modern rules"), "{}", text(&output));
    let output = check(&[&format!("{FAKE} --seed 1"), "--level", "3"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!((output.status.code(), stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("come the check's options") && stderr.contains("--level"), "{stderr}");
}

#[test]
fn each_broken_fake_engine_fails_the_check_that_catches_it() {
    let cases: [(&str, &str); 13] = [
        ("--illegal-at 1", "genmove-setup"),
        ("--malformed-at 1", "genmove-setup"),
        ("--refuse-at 1", "genmove-setup"),
        ("--crash-at 1", "genmove-setup"),
        ("--junk-at 1", "genmove-setup"),
        ("--slow-at 1 --delay 0.7", "genmove-byoyomi"),
        ("--wrong-score", "final-score"),
        ("--no-ids", "ids"),
        ("--no-space", "ids"),
        ("--refuse name", "name"),
        ("--linger", "quit"),
        ("--bad-size-resets", "state-after-errors"),
        ("--reg-genmove-plays", "reg-genmove"),
    ];
    let runs: Vec<_> = cases
        .iter()
        .map(|(flags, id)| {
            let command = format!("'{FAKE}' {flags}");
            let handle = std::thread::spawn(move || check(&["--size", "7", "--command-timeout", "3", &command]));
            (*flags, *id, handle)
        })
        .collect();
    for (flags, id, handle) in runs {
        let output = handle.join().unwrap();
        let report = text(&output);
        assert_eq!(output.status.code(), Some(1), "{flags}: {report}");
        let first = report.lines().find(|l| l.starts_with("FAIL")).and_then(|l| l.split_whitespace().nth(1));
        assert_eq!(first, Some(id), "{flags}: the first check to fail:\n{report}");
        assert!(report.contains("summary: NOT compliant"), "{flags}: {report}");
    }
}

#[test]
fn a_program_that_is_no_engine_fails_at_start_up() {
    let output = check(&["cat"]);
    let report = text(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_eq!(result_of(&report, "startup"), "FAIL", "{report}");
    assert_eq!(result_of(&report, "game"), "skip", "{report}");
    let output = check(&["/nonexistent/engine"]);
    assert_eq!(result_of(&text(&output), "startup"), "FAIL");
}

#[test]
fn replies_without_their_empty_line_fail_at_start_up_and_say_so() {
    let output = check(&["--command-timeout", "0.5", &format!("'{FAKE}' --no-blank")]);
    let report = text(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_eq!(result_of(&report, "startup"), "FAIL", "{report}");
    assert!(report.contains("the reply to 'protocol_version' began ('= 2') but no empty line ended it"), "{report}");
}

#[test]
fn bad_options_are_one_line_and_exit_2() {
    let output = check(&["--size", "7", "'unclosed"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("veletas check: "), "{stderr}");
    assert!(text(&output).is_empty());
}
