//! The rule set and its options are named alike everywhere: the protocol's `rules` reply,
//! the game viewer's header and the pictures' status line all take their words from
//! `Rules::words` (the viewer and pictures add `rules` after the rule set).

use std::fs;
use std::io::Write as _;
use std::process::{Command, Stdio};

use veletas_rules::{Position, Rules, Variant};

fn veletas() -> Command {
    Command::new(env!("CARGO_BIN_EXE_veletas"))
}

/// The command-line flags that start the engine under `rules`.
fn flags(rules: Rules) -> Vec<String> {
    let mut flags = vec!["--rules".to_string(), rules.set.to_string()];
    flags.extend(rules.option_names().map(|option| format!("--{option}")));
    flags
}

/// What the engine's `rules` command answers after the board description.
fn protocol_words(rules: Rules) -> String {
    let mut child = veletas()
        .args(flags(rules))
        .args(["--size", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    child.stdin.take().expect("stdin").write_all(b"rules\nquit\n").expect("commands sent");
    let output = child.wait_with_output().expect("the engine ends");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let reply = text.lines().next().expect("a reply");
    reply.split_once("; rules ").map(|(_, words)| words.to_string()).unwrap_or_else(|| panic!("reply {reply:?}"))
}

#[test]
fn the_protocol_the_viewer_and_the_pictures_name_every_rule_set_alike() {
    let dir = std::env::temp_dir().join(format!("veletas-rules-names-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("scratch directory");
    for rules in Rules::all() {
        let words = protocol_words(rules);
        assert_eq!(words, rules.words(), "{rules:?}");
        let label = words.replacen(rules.set.name(), &format!("{} rules", rules.set.name()), 1);
        assert_eq!(label, rules.label(), "{rules:?}");

        let record = dir.join("game.txt");
        fs::write(&record, format!("[Size \"7\"]\n[Rules \"{rules}\"]\n[Result \"*\"]\n\n*\n")).expect("record");
        let page = dir.join("page.html");
        let status = veletas().arg("view").arg(&record).arg("-o").arg(&page).status().expect("view runs");
        assert!(status.success(), "view of {rules:?}");
        let html = fs::read_to_string(&page).expect("the page");
        assert!(html.contains(&format!("\"{label}\"")), "the viewer names {rules:?} as {label:?}");

        let variant = Variant::from_size(7).expect("7x7");
        let position = Position::with_rules(variant, rules).to_string();
        let svg = veletas().args(["render", &position]).output().expect("render runs");
        let svg = String::from_utf8(svg.stdout).expect("UTF-8");
        if rules == Rules::CLASSIC {
            assert!(!svg.contains(" rules"), "classic needs no note: {svg}");
        } else {
            assert!(svg.contains(&format!(">{label}</text>")), "the picture names {rules:?} as {label:?}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}
