//! A match is reproducible (issue 28, point 3): with fixed seeds and playout budgets it gives
//! the same games at any `-j`, because the engine starts its random choices afresh from its
//! seed at every new game (`clear_board`), whichever games its process played before.

use std::path::Path;
use std::process::Command;

/// Each game of a record file as its Round tag and its moves, in round order (the per-turn
/// annotations, which hold the time each turn took, are left out: they vary from run to run).
fn games(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<String> = veletas_rules::record::parse_records(&text)
        .unwrap()
        .iter()
        .map(|g| format!("{} {}", g.tag("Round").unwrap_or(""), g.moves().join(" ")))
        .collect();
    games.sort();
    games
}

fn play(dir: &Path, name: &str, jobs: &str) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_veletas");
    let record = dir.join(name);
    let out = Command::new(bin)
        .args(["match", "--engine", &format!("a={bin} --seed 1 --playouts 60")])
        .args(["--engine", &format!("b={bin} --seed 2 --playouts 60")])
        .args(["-n", "6", "--size", "7", "-q", "-j", jobs, "--record"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    games(&record)
}

#[test]
fn a_match_gives_the_same_games_at_any_concurrency() {
    let dir = scratch!("match");
    let one = play(&dir, "j1.txt", "1");
    assert_eq!(one.len(), 6);
    assert_eq!(play(&dir, "j1-again.txt", "1"), one, "two -j 1 runs differ");
    assert_eq!(play(&dir, "j2.txt", "2"), one, "-j 2 gives other games than -j 1");
    assert_eq!(play(&dir, "j3.txt", "3"), one, "-j 3 gives other games than -j 1");
    let _ = std::fs::remove_dir_all(&dir);
}
