//! `scripts/generations.sh`, the self-play generation loop, with tiny budgets: it plays, trains
//! and gates, keeps the best weights only when the gate accepts them, resumes without playing a
//! finished step again, and refuses bad options in one line.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{VELETAS, engine, session};

/// The loop in `dir` with 7x7 games at 30 playouts, `games` self-play games a rule set, a gate of at
/// most `gate` games, one game at a time (the record files then hold the games in the same order
/// every run, so the trainers hold out the same games), and `more` options.
fn generations(dir: &Path, games: &str, gate: &str, more: &[&str]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/generations.sh");
    let fixed = ["-n", games, "-p", "30", "-s", "7", "-m", gate, "-j", "1"];
    Command::new("bash").arg(script).arg("-d").arg(dir).args(fixed).args(more).env("VELETAS", VELETAS).output().unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn games_in(record: &Path) -> usize {
    read(record).lines().filter(|l| l.starts_with("[Result ")).count()
}

#[test]
fn a_generation_plays_trains_and_gates_and_a_rerun_plays_nothing_again() {
    let dir = scratch!("loop");
    let out = generations(&dir, "4", "2", &["-g", "1", "-r", "classic,modern"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let one = dir.join("gen-001");
    // Self-play: 4 games of each rule set, the searched turns' root visits recorded.
    for rules in ["classic", "modern"] {
        let record = one.join("games").join(rules).join("shard-1.txt");
        assert_eq!(games_in(&record), 4, "{rules}");
        let text = read(&record);
        assert_eq!(text.contains("[Rules \"modern\"]"), rules == "modern", "{rules}");
        assert!(text.contains(" steps="), "{rules}: no first steps recorded");
    }
    // Both models trained on the 8 games, the engine loads them.
    assert!(read(&one.join("train-eval.txt")).starts_with("8 games"), "{}", read(&one.join("train-eval.txt")));
    let (eval, policy) = (one.join("eval-weights.txt"), one.join("policy-weights.txt"));
    let args = ["--eval", eval.to_str().unwrap(), "--policy", policy.to_str().unwrap()];
    let engine = session(&mut engine(&args), b"boardsize 7\ngenmove b\nquit\n");
    assert!(engine.status.success(), "{}", String::from_utf8_lossy(&engine.stderr));
    assert!(
        String::from_utf8_lossy(&engine.stdout).starts_with("= \n\n= "),
        "{}",
        String::from_utf8_lossy(&engine.stdout)
    );
    // The gate: one pair of games decides no SPRT, and its interval always reaches zero, so
    // the new weights are not kept.
    assert_eq!(games_in(&one.join("gate-classic.txt")), 2);
    assert!(!one.join("gate-modern.txt").exists(), "a lost gate ends the gating");
    assert_eq!(read(&one.join("verdict")), "rejected\n");
    assert_eq!(read(&dir.join("best")), "0\n");
    let summary = read(&dir.join("generations.txt"));
    assert_eq!(summary.lines().count(), 1, "{summary}");
    assert!(summary.starts_with("generation 1: rejected; self-play with gen 0: 8 games"), "{summary}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("best: generation 0"));

    // Run again: nothing is played or trained again.
    let before: Vec<String> = ["gate-classic.txt", "games/classic/shard-1.txt", "eval-weights.txt"]
        .iter()
        .map(|f| read(&one.join(f)))
        .collect();
    let again = generations(&dir, "4", "2", &["-g", "1", "-r", "classic,modern"]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let after: Vec<String> = ["gate-classic.txt", "games/classic/shard-1.txt", "eval-weights.txt"]
        .iter()
        .map(|f| read(&one.join(f)))
        .collect();
    assert_eq!(before, after);
    assert_eq!(read(&dir.join("generations.txt")), summary);
}

#[test]
fn a_generation_killed_before_its_verdict_resumes_at_the_gate_and_the_next_trains_on_both() {
    let dir = scratch!("resume");
    // 8 games: 4 of 7x7 at 30 playouts can all be won by one side, and a fit to them does not converge.
    let out = generations(&dir, "8", "2", &["-g", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let gen1 = dir.join("gen-001");
    let gate = read(&gen1.join("gate-classic.txt"));
    // As if killed between the gate and the verdict: the gate's record is complete, so the
    // rerun plays no game and writes the same verdict and summary line.
    std::fs::remove_file(gen1.join("verdict")).unwrap();
    let summary = read(&dir.join("generations.txt"));
    let out = generations(&dir, "8", "2", &["-g", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(read(&gen1.join("gate-classic.txt")), gate);
    assert_eq!(read(&gen1.join("verdict")), "rejected\n");
    let lines = read(&dir.join("generations.txt"));
    assert!(lines.starts_with(&summary), "{lines}");
    assert_eq!(lines.lines().count(), 2, "{lines}");
    // Generation 2 plays with the best weights (still generation 0's) on new openings and
    // trains on both generations' games (the window of 2).
    let gen2 = dir.join("gen-002");
    assert_eq!(read(&gen2.join("played-with")), "0\n");
    assert_ne!(read(&gen2.join("games/classic/shard-1.txt")), read(&gen1.join("games/classic/shard-1.txt")));
    assert!(read(&gen2.join("train-eval.txt")).starts_with("16 games"), "{}", read(&gen2.join("train-eval.txt")));
}

#[test]
fn bad_options_are_refused_in_one_line_before_anything_is_played() {
    let dir = scratch!("refused");
    for (options, message) in [
        (&["-g", "0"][..], "expected a positive whole number, not '0'"),
        (&["-x", "cloud"][..], "-x: expected local, parallel or slurm, not 'cloud'"),
        (&["-r", "classic,Modern"][..], "-r: not a rule set: 'Modern'"),
        (&["-b", "/nonexistent"][..], "-b: /nonexistent has no eval-weights.txt and policy-weights.txt"),
    ] {
        let out = generations(&dir.join("d"), "4", "2", options);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{options:?}: {stderr}");
        assert_eq!(stderr, format!("generations.sh: {message}\n"), "{options:?}");
        assert!(!dir.join("d").join("gen-001").exists(), "{options:?}");
    }
}

#[test]
fn weights_that_win_their_gate_become_the_best_and_the_next_generation_plays_with_them() {
    let dir = scratch!("accepted");
    // Starting weights that play to lose: the built-in evaluation's weights negated.
    let start = dir.join("start");
    std::fs::create_dir_all(&start).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/data");
    std::fs::copy(data.join("policy-weights.txt"), start.join("policy-weights.txt")).unwrap();
    let negated: String = read(&data.join("eval-weights.txt"))
        .lines()
        .map(|line| match line.rsplit_once(' ') {
            Some((name, weight)) if !line.starts_with('#') => format!("{name} {}\n", -weight.parse::<f64>().unwrap()),
            _ => format!("{line}\n"),
        })
        .collect();
    std::fs::write(start.join("eval-weights.txt"), negated).unwrap();
    let loop_dir = dir.join("loop");
    // A gate of up to 40 games: at 20, a 14-6 win over the negated weights still had an
    // interval reaching zero.
    let out = generations(&loop_dir, "10", "40", &["-g", "2", "-r", "classic,modern", "-b", start.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = read(&loop_dir.join("generations.txt"));
    assert!(summary.starts_with("generation 1: accepted; self-play with gen 0: 20 games"), "{summary}");
    // It won the gate under both rule sets.
    assert!(games_in(&loop_dir.join("gen-001/gate-modern.txt")) > 0, "{summary}");
    // Generation 2 played with generation 1's weights and was gated against them.
    assert_eq!(read(&loop_dir.join("gen-002/played-with")), "1\n");
    assert!(read(&loop_dir.join("gen-002/gate-classic.txt")).contains("[White \"gen1\"]"), "{summary}");
    let best = read(&loop_dir.join("best"));
    assert!(best == "1\n" || best == "2\n", "{best}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("best: generation {}", best.trim())));
}

#[test]
fn with_networks_a_generation_trains_both_networks_and_gates_the_engine_that_uses_them() {
    let dir = scratch!("nets");
    let out = generations(&dir, "4", "2", &["-g", "1", "-t", "net", "-r", "classic,modern"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let one = dir.join("gen-001");
    for (file, first) in [("value-net.txt", "veletas-net 1"), ("policy-net.txt", "veletas-policy-net 1")] {
        let text = read(&one.join(file));
        assert!(text.lines().any(|l| l == first), "{file}: {}", &text[..200.min(text.len())]);
    }
    assert!(read(&one.join("train-net.txt")).contains("held-out log-loss"));
    assert!(read(&one.join("train-policy-net.txt")).contains("held-out cross-entropy"));
    // The gate's new engine plays with the networks.
    let engine = read(&one.join("engine"));
    assert!(engine.contains("--eval") && engine.contains("value-net.txt"), "{engine}");
    assert!(engine.contains("--policy") && engine.contains("policy-net.txt"), "{engine}");
    assert_eq!(games_in(&one.join("gate-classic.txt")), 2);
    let out = generations(&dir, "4", "2", &["-g", "1", "-t", "lstm"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("-t: expected linear or net, not 'lstm'"));
}

#[test]
fn several_sizes_each_play_and_gate_and_the_loop_starts_from_the_built_in_network_and_extra_records() {
    let dir = scratch!("sizes");
    let extra = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/random-player-20-games.txt");
    let extra = extra.to_str().unwrap();
    let out = generations(&dir, "2", "2", &["-g", "1", "-t", "net", "-s", "7,9", "-a", extra]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Generation 0 is today's engine: the built-in weights and the built-in value network.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/data");
    let zero = dir.join("gen-000");
    assert_eq!(read(&zero.join("value-net.txt")), read(&data.join("value-net.txt")));
    assert_eq!(read(&zero.join("eval-weights.txt")), read(&data.join("eval-weights.txt")));
    // Each size was played, under its own size.
    let one = dir.join("gen-001");
    for size in ["7", "9"] {
        let record = one.join("games").join(format!("classic-{size}")).join("shard-1.txt");
        assert_eq!(games_in(&record), 2, "{size}");
        assert!(read(&record).contains(&format!("[Size \"{size}\"]")), "{size}");
    }
    // The linear evaluation, which has no size feature, is carried over; the value network
    // trained on the extra record's 20 games beside the 4 of self-play.
    assert_eq!(read(&one.join("eval-weights.txt")), read(&zero.join("eval-weights.txt")));
    assert!(read(&one.join("train-eval.txt")).starts_with("carried over from gen-000"));
    assert!(read(&one.join("train-net.txt")).starts_with("24 games"), "{}", read(&one.join("train-net.txt")));
    // The first set's gate cannot be won in 2 games, so the second is not played.
    assert_eq!(games_in(&one.join("gate-classic-7.txt")), 2);
    assert!(!one.join("gate-classic-9.txt").exists());
    let summary = read(&dir.join("generations.txt"));
    assert!(summary.contains("4 games (classic; sizes 7,9; 30 playouts)"), "{summary}");
    assert!(summary.contains("gate vs gen 0: classic-7 "), "{summary}");
    // Bad sizes and extra records are refused in one line.
    for (more, expected) in [
        (&["-s", "7,x"][..], "-s: not a board size: 'x'"),
        (&["-a", "/nonexistent/games.txt"][..], "-a: not a readable file: '/nonexistent/games.txt'"),
        (&["-s", "7,9", "-t", "linear"][..], "-s: several sizes need -t net"),
    ] {
        let out = generations(&dir, "2", "2", more);
        assert_eq!(out.status.code(), Some(2), "{more:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected) && stderr.lines().count() == 1, "{more:?}: {stderr}");
    }
}
