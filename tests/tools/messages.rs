//! Messages say what failed (issue 25, item 13), through the binary.

use std::process::Command;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

#[test]
fn an_engine_log_that_cannot_be_opened_is_named_as_the_failure() {
    // It said "cannot start engine" and the engine's error, as if the engine were missing.
    let out = Command::new(VELETAS)
        .args(["match", "--engine", "a=veletas --player random", "--engine", "b=veletas --player random"])
        .args(["--games", "2", "--engine-log", "/nonexistent/dir/engines.log"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("cannot open the engine log /nonexistent/dir/engines.log"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

/// Runs `veletas ARGS` in `dir`: its exit code and stderr.
fn run_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(VELETAS).current_dir(dir).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn control_characters_in_engine_commands_init_commands_and_options_are_refused_when_read() {
    // An init command with a newline was sent as two protocol commands.
    let dir = std::env::temp_dir().join(format!("veletas-messages-control-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("engines.toml");
    let two = ["tournament", "--engine", "a=veletas", "--engine", "b=veletas"];
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec!["--engines", "engines.toml"],
            "[[engine]]\ncommand = \"veletas\"\ninit = [\"player uct\\nquit\"]\n",
            "\\n",
        ),
        (vec!["--engines", "engines.toml"], "[[engine]]\ncommand = \"veletas\"\ndir = \"a\\u001b[31m\"\n", "\\u{1b}"),
        (vec!["--engines", "engines.toml"], "[[engine]]\ncommand = \"veletas 'a\\rb'\"\n", "\\r"),
        (vec!["--each", "init=player uct\nquit"], "", "\\n"),
        (vec!["--option", "a:init=x\ty"], "", "\\t"),
        (vec!["--engine", "c=veletas --name 'x\u{7}'"], "", "\\u{7}"),
    ];
    for (extra, text, escaped) in cases {
        std::fs::write(&file, text).unwrap();
        let mut args = two.to_vec();
        args.extend(extra.iter().copied());
        let (code, err) = run_in(&dir, &args);
        assert_eq!(code, Some(2), "{extra:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(&format!("a control character ({escaped})")), "{extra:?}: {err}");
        assert!(!err.trim_end().contains(|c: char| c.is_control()), "{extra:?}: {err:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn messages_quote_outside_input_short_with_controls_and_overrides_escaped() {
    let dir = std::env::temp_dir().join(format!("veletas-messages-quoted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = env!("CARGO_BIN_EXE_veletas-fake-engine");
    let one = format!("a='{fake}' --seed 1");
    let two = format!("b='{fake}' --seed 2");
    let args = ["match", "--engine", &one, "--engine", &two, "--games", "2", "--size", "7", "-q", "--record", "g.txt"];
    let (code, err) = run_in(&dir, &args);
    assert_eq!(code, Some(0), "{err}");
    let record = std::fs::read_to_string(dir.join("g.txt")).unwrap();
    let event = record.lines().find(|l| l.starts_with("[Event ")).unwrap().to_string();
    // A huge event name with a right-to-left override and an escape, in a second file.
    let hostile = format!("[Event \"evil\u{202e}txt\u{1b}[2J{}\"]", "x".repeat(1 << 20));
    std::fs::write(dir.join("h.txt"), record.replace(&event, &hostile)).unwrap();
    // A Rules tag of the same kind, which no reader can replay.
    let rules = format!("[Rules \"modern\u{1b}[2J\u{202e}{}\"]", "z".repeat(1 << 20));
    std::fs::write(dir.join("r.txt"), record.replacen(&event, &format!("{event}\n{rules}"), 1)).unwrap();
    let position = format!("\u{1b}]0;pwned\u{7}{}", "y".repeat(1 << 16));
    let cases = [vec!["ratings", "g.txt", "h.txt"], vec!["view", "r.txt", "-o", "r.html"], vec!["render", &position]];
    for args in cases {
        let (code, err) = run_in(&dir, &args);
        // `view` leaves the game out with a warning (one line too) and shows the other.
        let view = args[0] == "view";
        assert!(code.is_some_and(|c| (c == 0) == view), "{}: {err:.300}", args[0]);
        assert!(!view || err.contains("warning: r.txt: game 1: ") && err.contains("skipped"), "{err:.300}");
        // One line, and a warning a line for each tag cut (a line of the file each).
        let lines = err.trim_end().lines().filter(|l| !l.contains("tag is longer than 4096 bytes: cut"));
        assert_eq!(lines.count(), 1, "{}: {err:.300}", args[0]);
        assert!(err.len() < 600, "{}: a message of {} bytes: {err:.300}", args[0], err.len());
        assert!(!err.lines().any(|l| l.contains(|c: char| c.is_control() || c == '\u{202e}')), "{}: {err:?}", args[0]);
        assert!(err.contains("\\u{1b}"), "{}: {err}", args[0]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
