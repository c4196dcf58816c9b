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
    assert!(report.contains("\nplays refereed games: yes ("), "{report}");
    assert!(report.contains("\nstrict protocol.md: yes ("), "{report}");
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
        let json: veletas_tools::check::CheckJson = serde_json::from_slice(&output.stdout).unwrap();
        assert!(output.status.success(), "{player}: {json:?}");
        assert!(json.passed && json.plays_games && json.strict_protocol, "{json:?}");
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
    let json: veletas_tools::check::CheckJson = serde_json::from_slice(&output.stdout).unwrap();
    assert!(output.status.success() && json.passed, "{json:?}");
    assert!(!json.extensions.iter().any(|e| e.starts_with("time_")), "{json:?}");
    let clock = ["genmove-no-limit", "genmove-main-time", "genmove-byoyomi", "genmove-canadian", "genmove-increment"];
    for id in clock.iter().chain(&["time-left"]) {
        let c = json.checks.iter().find(|c| c.id == *id).unwrap();
        assert_eq!((c.required, c.group.as_str(), c.result.as_str()), (false, "optional", "skip"), "{json:?}");
    }
    for id in ["commands", "genmove-no-clock", "game"] {
        let c = json.checks.iter().find(|c| c.id == id).unwrap();
        assert_eq!((c.required, c.group.as_str(), c.result.as_str()), (true, "play", "pass"), "{json:?}");
    }
    for id in ["errors", "reg-genmove", "state-after-errors"] {
        let c = json.checks.iter().find(|c| c.id == id).unwrap();
        assert_eq!((c.required, c.group.as_str(), c.result.as_str()), (false, "strict", "pass"), "{json:?}");
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
    // The strict checks decide only with --strict (the last two cases).
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
            let strict = flags.starts_with("--bad-size") || flags.starts_with("--reg-genmove");
            let handle = std::thread::spawn(move || {
                let args = ["--size", "7", "--command-timeout", "3", "--strict", &command];
                check(&args.into_iter().filter(|a| strict || *a != "--strict").collect::<Vec<_>>())
            });
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
fn an_engine_that_plays_but_is_not_strict_passes_unless_strict_and_each_failure_is_told_once() {
    // Written elsewhere: no komi, no undo; accepts a nameless known_command and clock commands
    // with words for numbers.
    let engine = format!("'{FAKE}' --seed 1 --lack komi --lack undo --lax");
    let output = check(&["--size", "7", &engine]);
    let report = text(&output);
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert!(report.contains("\nplays refereed games: yes ("), "{report}");
    assert!(report.contains("\nstrict protocol.md: NO ("), "{report}");
    assert!(report.contains("summary: plays refereed games, not strictly compliant"), "{report}");
    let failed: Vec<&str> =
        report.lines().filter(|l| l.starts_with("FAIL")).filter_map(|l| l.split_whitespace().nth(1)).collect();
    assert_eq!(failed, ["all-commands", "errors"], "{report}");
    assert_eq!(result_of(&report, "undo"), "skip", "{report}");
    assert_eq!(result_of(&report, "ids"), "pass", "the ids need no komi: {report}");
    assert_eq!(result_of(&report, "state-after-errors"), "pass", "an accepted error is told once: {report}");
    // The lack of komi is told by all-commands alone; the accepted errors by errors alone.
    let told = |words: &str| report.lines().skip(1).filter(|l| l.contains(words)).count();
    assert_eq!(told("komi"), 1, "{report}");
    assert_eq!(told("'time_settings a b c' was accepted"), 1, "{report}");
    let output = check(&["--size", "7", "--strict", "--json", &engine]);
    let json: veletas_tools::check::CheckJson = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{json:?}");
    assert!(json.plays_games && !json.strict_protocol && json.strict && !json.passed, "{json:?}");
    let errors = json.checks.iter().find(|c| c.id == "errors").unwrap();
    assert_eq!((errors.group.as_str(), errors.required, errors.result.as_str()), ("strict", true, "fail"));
}

#[test]
fn an_engine_that_lacks_a_command_a_game_sends_does_not_play_and_the_other_checks_still_run() {
    let output = check(&["--size", "7", &format!("'{FAKE}' --lack final_score")]);
    let report = text(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert_eq!(result_of(&report, "commands"), "FAIL", "{report}");
    assert!(report.contains("the engine lacks final_score, which refereed games send"), "{report}");
    assert_eq!(result_of(&report, "genmove-setup"), "pass", "{report}");
    assert!(report.contains("\nplays refereed games: NO ("), "{report}");
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
