//! A tournament with an engine that cannot be started (issue 28, point 2: the engines-file
//! example of docs/tournament.md failed with a "No such file or directory" naming nothing,
//! and still exited with success on standings built from forfeits): such an engine is refused
//! before any game, with one line naming what could not be started.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tournament(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_veletas")).arg("tournament").args(args).current_dir(dir).output().unwrap()
}

#[test]
fn a_missing_working_directory_is_refused_before_any_game_naming_it() {
    let dir = scratch!("dir");
    let veletas = env!("CARGO_BIN_EXE_veletas");
    let file = format!(
        "[[engine]]\nname = \"a\"\ncommand = \"{veletas} --player random\"\ndir = \"engines/a\"\n\n\
         [[engine]]\nname = \"b\"\ncommand = \"{veletas} --player random\"\n"
    );
    std::fs::write(dir.join("engines.toml"), file).unwrap();
    let out = tournament(&dir, &["--engines", "engines.toml", "--size", "7", "--record", "t.txt"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("engine a: its working directory") && stderr.contains("engines/a does not exist"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert!(!dir.join("t.txt").exists(), "a game was played");
    std::fs::create_dir_all(dir.join("engines/a")).unwrap();
    let out = tournament(&dir, &["--engines", "engines.toml", "--size", "7", "-q"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_is_refused_before_any_game_naming_the_program() {
    let dir = scratch!("program");
    let veletas = env!("CARGO_BIN_EXE_veletas");
    let missing = dir.join("no-such-engine");
    let out = tournament(
        &dir,
        &[
            "--engine",
            &format!("a={veletas} --player random --seed 1"),
            "--engine",
            &format!("b={}", missing.display()),
            "--size",
            "7",
            "-q",
            "--record",
            "t.txt",
        ],
    );
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stdout.is_empty(), "no standings of forfeits: {stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("cannot start {}: ", missing.display())), "the program is named: {stderr}");
    assert!(!dir.join("t.txt").exists() || std::fs::read_to_string(dir.join("t.txt")).unwrap().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_init_command_loses_every_game_of_that_engine_with_the_reason() {
    let dir = scratch!("init");
    let veletas = env!("CARGO_BIN_EXE_veletas");
    let out = tournament(
        &dir,
        &[
            "--engine",
            &format!("a={veletas} --player random --seed 1"),
            "--engine",
            &format!("b={veletas} --player random --seed 2"),
            "--option",
            "a:init=no_such_command",
            "--games-per-pair",
            "6",
            "--size",
            "7",
            "-q",
            "--record",
            "t.txt",
        ],
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("Games ended: rejected command 6"), "{stdout}");
    let record = std::fs::read_to_string(dir.join("t.txt")).unwrap();
    let reasons = record.lines().filter(|l| l.starts_with("[Reason ") && l.contains("no_such_command")).count();
    assert_eq!(reasons, 6, "{record}");
    let _ = std::fs::remove_dir_all(&dir);
}
