//! An engine that knows no time commands plays on, timed by the referee alone (issue 28,
//! point 5: such engines lost every game as "rejected command", where gogui-twogtp and
//! cutechess let them play by time alone).

use std::process::Command;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn record_of(name: &str, args: &[&str]) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("veletas-untimed-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_veletas"))
        .arg("match")
        .args(args)
        .args(["--size", "7", "-n", "4", "-q", "--record"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&record).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (text, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn an_engine_without_time_commands_plays_every_game_under_each_time_control() {
    let untimed = format!("untimed={FAKE} --no-time --seed 1");
    let timed = format!("timed={FAKE} --seed 2");
    for control in [&["--movetime", "0.5"][..], &["--clock", "5+0.1"], &["--clock", "5", "--byoyomi", "1/3"]] {
        let mut args = vec!["--engine", untimed.as_str(), "--engine", timed.as_str()];
        args.extend(control);
        let (record, summary) = record_of(&control[1].replace(['/', '+'], "-"), &args);
        let ends: Vec<&str> = record.lines().filter(|l| l.starts_with("[Termination ")).collect();
        assert_eq!(ends, vec!["[Termination \"normal\"]"; 4], "{control:?}: {record}\n{summary}");
    }
}
