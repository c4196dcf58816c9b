//! The program as a package: `veletas generate` writes completions that the shells parse and a
//! man page that names every subcommand, and `--version` names the commit of a git build.

use crate::support::veletas;
use std::process::{Command, Stdio};

fn installed(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The subcommands, read from the program's own help.
fn subcommands() -> Vec<String> {
    let help = String::from_utf8(veletas(&["--help"]).stdout).expect("UTF-8");
    let commands = help.split("Commands:").nth(1).expect("a Commands section");
    let names: Vec<String> = commands
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    names
}

#[test]
fn completions_parse_in_every_installed_shell_and_know_every_subcommand() {
    let subcommands = subcommands();
    for (shell, checker) in [("bash", "bash"), ("zsh", "zsh"), ("fish", "fish"), ("elvish", ""), ("powershell", "")] {
        let output = veletas(&["generate", shell]);
        assert!(output.status.success(), "{shell}: {}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("UTF-8");
        for name in &subcommands {
            assert!(text.contains(name.as_str()), "{shell} completions miss {name}");
        }
        if !checker.is_empty() && installed(checker) {
            let file = std::env::temp_dir().join(format!("veletas-completion-{}.{shell}", std::process::id()));
            std::fs::write(&file, &text).expect("written");
            let status = Command::new(checker).arg("-n").arg(&file).status().expect("the shell runs");
            let _ = std::fs::remove_file(&file);
            assert!(status.success(), "{shell} -n refuses the completions");
        }
    }
}

#[test]
fn the_man_page_has_a_section_for_every_subcommand_and_renders() {
    let output = veletas(&["generate", "man"]);
    assert!(output.status.success());
    let roff = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(roff.starts_with(".ie \\n(.g .ds Aq") || roff.contains(".TH veletas"), "a roff page");
    for name in subcommands() {
        assert!(roff.contains(&format!(".SH \"VELETAS {}\"", name.to_uppercase())), "no section for {name}");
    }
    if installed("man") {
        let file = std::env::temp_dir().join(format!("veletas-{}.1", std::process::id()));
        std::fs::write(&file, &roff).expect("written");
        let shown = Command::new("man").arg("-l").arg(&file).env("MANWIDTH", "100").env("MANPAGER", "cat").output();
        let _ = std::fs::remove_file(&file);
        let shown = String::from_utf8_lossy(&shown.expect("man runs").stdout).to_string();
        assert!(shown.contains("VELETAS MATCH") && shown.contains("--engine"), "{shown}");
    }
}

#[test]
fn generate_refuses_an_unknown_kind_in_one_line() {
    let output = veletas(&["generate", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("invalid value 'tcsh'"));
}

#[test]
fn the_version_names_the_commit_of_a_git_build() {
    let version = String::from_utf8(veletas(&["--version"]).stdout).expect("UTF-8");
    let head = Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "--short=9", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let expected = match head {
        Some(commit) => format!("veletas {} (commit {commit})\n", env!("CARGO_PKG_VERSION")),
        None => format!("veletas {}\n", env!("CARGO_PKG_VERSION")),
    };
    assert_eq!(version, expected);
}

#[test]
fn help_and_the_man_page_show_no_code_comments() {
    // clap prints a doc comment's paragraphs as the long help: rustdoc links there are a
    // maintainer's note leaking to users.
    let mut pages = vec![veletas(&["--help"]).stdout, veletas(&["generate", "man"]).stdout];
    for subcommand in subcommands() {
        pages.push(veletas(&[subcommand.as_str(), "--help"]).stdout);
    }
    for page in pages {
        let page = String::from_utf8(page).expect("UTF-8");
        assert!(!page.contains("[`") && !page.contains("`]"), "a rustdoc link in:\n{page}");
    }
}
