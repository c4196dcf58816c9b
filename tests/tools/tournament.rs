//! `veletas tournament` against real processes: the fake engine (random moves, instant,
//! misbehaving on request) and the built-in players of the real engine.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use veletas::cli::TournamentArgs;
use veletas_rules::record::GameRecord;
use veletas_tools::referee::parse_records;
use veletas_tools::referee::tournament::{TournamentReport, run_tournament, summary};

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

fn fake(name: &str, flags: &str) -> String {
    format!("{name}='{FAKE}' --name {name} {flags}")
}

fn run(args: &[&str]) -> Result<TournamentReport, String> {
    let args = TournamentArgs::parse_from(args).map_err(|e| e.to_string())?;
    args.plan().and_then(|plan| run_tournament(&plan)).map_err(|e| e.to_string())
}

fn read_games(path: &Path) -> Vec<GameRecord> {
    parse_records(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Each game's identity, players, moves and result: what must not depend on how it was run.
fn game_keys(games: &[GameRecord]) -> Vec<(String, String, String, Vec<String>, String)> {
    let mut keys: Vec<_> = games
        .iter()
        .map(|g| {
            let tag = |t: &str| g.tag(t).unwrap_or_default().to_string();
            (
                tag("Game"),
                tag("Black"),
                tag("White"),
                g.moves().iter().map(ToString::to_string).collect(),
                veletas_rules::record::result_token(g.result).to_string(),
            )
        })
        .collect();
    keys.sort_by_key(|k| k.0.parse::<usize>().unwrap_or(usize::MAX));
    keys
}

#[test]
fn a_round_robin_of_three_engines_records_every_game_with_names_and_rounds() {
    let dir = scratch!("rr");
    let record = dir.join("t.txt");
    let engines = [fake("alpha", "--seed 1"), fake("beta", "--seed 2"), fake("gamma", "--seed 3")];
    let report = run(&[
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--engine",
        &engines[2],
        "--games-per-pair",
        "4",
        "--rounds",
        "2",
        "--size",
        "7",
        "-j",
        "2",
        "--record",
        record.to_str().unwrap(),
        "-q",
    ])
    .unwrap();
    assert_eq!(report.names, ["alpha", "beta", "gamma"]);
    assert_eq!((report.planned, report.results.len()), (24, 24));
    let games = read_games(&record);
    assert_eq!(games.len(), 24);
    let mut per_pair: HashMap<(String, String), usize> = HashMap::new();
    for g in &games {
        assert_eq!(g.tag("Event"), Some("veletas tournament"));
        assert_eq!(g.tag("Tournament"), Some(report.fingerprint.as_str()));
        assert!(matches!(g.tag("Round"), Some("1" | "2")));
        let (b, w) = (g.tag("Black").unwrap().to_string(), g.tag("White").unwrap().to_string());
        assert_ne!(b, w);
        *per_pair.entry((b.clone().min(w.clone()), b.max(w))).or_default() += 1;
    }
    assert!(per_pair.values().all(|&n| n == 8), "{per_pair:?}");
    let text = summary(&report, None, true).unwrap();
    for needle in ["alpha", "beta", "gamma", "Crosstable", "Likelihood of superiority", "24 of 24"] {
        assert!(text.contains(needle), "{needle} missing in\n{text}");
    }
    let anchored = summary(&report, Some("beta=1500"), false).unwrap();
    assert!(anchored.contains("1500"), "{anchored}");
    assert!(summary(&report, Some("delta=1500"), false).unwrap_err().to_string().contains("delta"));
}

#[test]
fn a_killed_tournament_resumes_and_replays_only_the_cut_game() {
    let dir = scratch!("resume");
    let record = dir.join("t.txt");
    let engines = [fake("a", "--seed 1"), fake("b", "--seed 2"), fake("c", "--seed 3")];
    let args = [
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--engine",
        &engines[2],
        "--games-per-pair",
        "2",
        "--size",
        "7",
        "--each",
        "restart=on",
        "--record",
        record.to_str().unwrap(),
        "-q",
    ];
    run(&args).unwrap();
    let whole = std::fs::read_to_string(&record).unwrap();
    let first = game_keys(&read_games(&record));
    // Cut the file in the middle of the fourth game: three complete games remain.
    let cut = whole.match_indices("[Event").nth(3).map(|(i, _)| i).unwrap() + 40;
    std::fs::write(&record, &whole[..cut]).unwrap();
    let report = run(&args).unwrap();
    assert_eq!(report.results.len(), 6);
    let again = game_keys(&read_games(&record));
    assert_eq!(first, again, "the same games, each once");
    // A finished tournament plays nothing more.
    let report = run(&args).unwrap();
    assert_eq!(report.results.len(), 6);
    assert_eq!(read_games(&record).len(), 6);
}

#[test]
fn shards_play_exactly_the_games_of_the_whole_tournament() {
    let dir = scratch!("shards");
    let whole = dir.join("whole.txt");
    let engines = [fake("a", "--seed 1"), fake("b", "--seed 2"), fake("c", "--seed 3"), fake("d", "--seed 4")];
    let base = |record: &str, shard: Option<&str>| {
        let mut args: Vec<String> = Vec::new();
        for e in &engines {
            args.extend(["--engine".to_string(), e.clone()]);
        }
        args.extend(
            ["--games-per-pair", "2", "--size", "7", "--seed", "9", "--each", "restart=on", "-q", "--record", record]
                .map(String::from),
        );
        if let Some(s) = shard {
            args.extend(["--shard".to_string(), s.to_string()]);
        }
        args
    };
    let report = run(&base(whole.to_str().unwrap(), None).iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
    let pattern = dir.join("shard-{shard}.txt");
    let mut shards = Vec::new();
    for k in 1..=3 {
        let spec = format!("{k}/3");
        let r =
            run(&base(pattern.to_str().unwrap(), Some(&spec)).iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
        assert_eq!(r.fingerprint, report.fingerprint);
        // The summary names the shard and the whole, not a shard's games as if all.
        let first = summary(&r, None, false).unwrap().lines().next().unwrap_or_default().to_string();
        let expected = format!(
            "Tournament {}, shard {k} of 3: {n} of the shard's {n} games played (12 in the whole tournament)",
            r.fingerprint,
            n = r.planned
        );
        assert_eq!(first, expected);
        shards.extend(read_games(&dir.join(format!("shard-{k}.txt"))));
    }
    assert!(
        summary(&report, None, false).unwrap().starts_with(&format!("Tournament {}: 12 of 12", report.fingerprint))
    );
    assert_eq!(game_keys(&read_games(&whole)), game_keys(&shards));
    // `veletas ratings` on the shards gives the standings of the whole.
    let ratings = |files: &[PathBuf]| {
        let out = Command::new(VELETAS).arg("ratings").args(files).args(["--format", "csv"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let shard_files: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("shard-{k}.txt"))).collect();
    assert_eq!(ratings(&[whole]), ratings(&shard_files));
}

#[test]
fn a_gauntlet_and_a_knockout_play_their_formats() {
    let engines = [
        fake("a", "--seed 1"),
        fake("b", "--seed 2"),
        fake("c", "--seed 3"),
        fake("d", "--seed 4"),
        fake("e", "--seed 5"),
    ];
    let mut args: Vec<&str> = engines.iter().flat_map(|e| ["--engine", e.as_str()]).collect();
    args.extend(["--size", "7", "-q", "--format", "gauntlet", "-j", "2"]);
    let report = run(&args).unwrap();
    assert_eq!(report.results.len(), 8);
    assert!(report.results.iter().all(|r| (r.black == 0) != (r.white == 0)));
    let n = args.len();
    args[n - 3] = "knockout";
    let report = run(&args).unwrap();
    let knockout = report.knockout.clone().unwrap();
    // Five engines: three byes in round 1, then two rounds.
    assert_eq!(knockout.matches.iter().filter(|m| m.engines.1.is_none()).count(), 3);
    assert_eq!(knockout.matches.iter().map(|m| m.round).max(), Some(3));
    for m in knockout.matches.iter().filter(|m| m.engines.1.is_some()) {
        assert_ne!(m.score.0, m.score.1, "decided by a tie-break");
        assert_eq!(m.score.0 + m.score.1, 2 + 2 * m.tie_breaks);
    }
    let text = summary(&report, None, false).unwrap();
    assert!(text.contains("Champion: "), "{text}");
}

#[test]
fn an_engine_that_cannot_start_is_refused_before_any_game() {
    let dir = std::env::temp_dir().join(format!("veletas-tournament-ghost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("t.txt");
    let engines = [fake("a", "--seed 1"), fake("b", "--seed 2"), "ghost=/nonexistent/engine --x".to_string()];
    let mut args: Vec<&str> = engines.iter().flat_map(|e| ["--engine", e.as_str()]).collect();
    args.extend(["--size", "7", "-q", "--record", record.to_str().unwrap()]);
    let err = run(&args).unwrap_err().to_string();
    assert!(
        err.contains("ghost=/nonexistent/engine --x") && err.contains("cannot start /nonexistent/engine: "),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap_or_default(), "", "no game is recorded");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn identical_engines_split_evenly_whatever_their_seat() {
    // Four identical random movers: every seat in the field must score about half.
    let engines: Vec<String> = (1..=4).map(|i| fake(&format!("e{i}"), &format!("--seed {i}"))).collect();
    let mut args: Vec<&str> = engines.iter().flat_map(|e| ["--engine", e.as_str()]).collect();
    args.extend(["--size", "7", "--games-per-pair", "100", "-j", "2", "-q", "--seed", "3"]);
    let report = run(&args).unwrap();
    assert_eq!(report.results.len(), 600);
    for engine in 0..4 {
        let games = report.results.iter().filter(|r| r.black == engine || r.white == engine).count();
        let wins = report.results.iter().filter(|r| r.winner_engine() == Some(engine)).count();
        assert_eq!(games, 300);
        // Binomial(300, 1/2): sd 8.7; 4 sd either side.
        assert!((115..=185).contains(&wins), "engine {engine} won {wins} of 300");
    }
}

#[test]
fn the_built_in_players_finish_in_order_of_strength() {
    let v = VELETAS;
    let engines = [
        format!("random={v} --player random --seed 1"),
        format!("greedy={v} --player greedy --seed 2"),
        format!("uct={v} --player uct --seed 3 --playouts 300"),
        format!("veletas={v} --seed 4 --playouts 300"),
    ];
    let mut args: Vec<&str> = engines.iter().flat_map(|e| ["--engine", e.as_str()]).collect();
    args.extend(["--size", "7", "--games-per-pair", "4", "--movetime", "0.5", "-j", "2", "-q", "--each", "restart=on"]);
    let report = run(&args).unwrap();
    assert_eq!(report.results.len(), 24);
    assert!(report.results.iter().all(|r| r.termination.as_str() == "normal"), "{:?}", report.results);
    let wins = |e: usize| report.results.iter().filter(|r| r.winner_engine() == Some(e)).count();
    assert!(wins(3) >= 10, "veletas won {} of 12", wins(3));
    assert!(wins(0) <= 3, "random won {} of 12", wins(0));
}

#[test]
fn engines_files_each_and_options_configure_the_field() {
    let dir = scratch!("file");
    let file = dir.join("engines.toml");
    std::fs::write(
        &file,
        format!(
            "[each]\nrestart = true\n\n[[engine]]\nname = \"one\"\ncommand = \"'{FAKE}' --seed 1\"\nmovetime = 0.5\n\n\
             [[engine]]\ncommand = \"'{FAKE}' --seed 2 --name two\"\ninit = [\"komi 0\"]\n"
        ),
    )
    .unwrap();
    let record = dir.join("t.txt");
    let three = fake("three", "--seed 3");
    let report = run(&[
        "--engines",
        file.to_str().unwrap(),
        "--engine",
        &three,
        "--option",
        "three:odds=2",
        "--movetime",
        "0.25",
        "--size",
        "7",
        "-q",
        "--record",
        record.to_str().unwrap(),
    ])
    .unwrap();
    assert_eq!(report.names, ["one", "two 0.1 (--seed 2 --name two)", "three"]);
    let games = read_games(&record);
    let control = |a: &str, b: &str| {
        games
            .iter()
            .find(|g| g.tag("Black") == Some(a) && g.tag("White") == Some(b))
            .and_then(|g| g.tag("TimeControl"))
            .unwrap()
            .to_string()
    };
    assert_eq!(control("one", "two 0.1 (--seed 2 --name two)"), "black movetime 0.5; white movetime 0.25");
    assert_eq!(control("three", "two 0.1 (--seed 2 --name two)"), "black movetime 0.5; white movetime 0.25");
    assert_eq!(control("one", "three"), "movetime 0.5");
}

/// Runs the binary; returns (exit success, stdout, stderr).
fn cli(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(VELETAS).arg("tournament").args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn bad_commands_get_one_clear_line_and_lose_no_game() {
    let dir = scratch!("bad");
    let (a, b) = (fake("a", "--seed 1"), fake("b", "--seed 2"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--engine", &a], "at least two engines"),
        (vec!["--engine", &a, "--engine", &a], "two engines are named 'a'"),
        (vec!["--engine", &a, "--engine", &b, "--format", "swiss"], "unknown format"),
        (vec!["--engine", &a, "--engine", &b, "--games-per-pair", "3"], "even"),
        (vec!["--engine", &a, "--engine", &b, "--shard", "4/3"], "not a shard"),
        (vec!["--engine", &a, "--engine", &b, "--format", "knockout", "--shard", "1/2"], "cannot be sharded"),
        (vec!["--engine", &a, "--engine", &b, "--each", "speed=3"], "unknown engine option"),
        (vec!["--engine", &a, "--engine", &b, "--option", "c:odds=2"], "no engine is named 'c'"),
    ];
    for (args, needle) in cases {
        let (ok, stdout, stderr) = cli(&args);
        assert!(!ok, "{args:?}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        // One line (clap adds its usual hint to go and read --help).
        let lines = stderr.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("For more information"));
        assert_eq!(lines.count(), 1, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
    // A record file of another tournament is refused and left as it was.
    let record = dir.join("t.txt");
    let r = record.to_str().unwrap();
    let c = fake("c", "--seed 3");
    assert!(cli(&["--engine", &a, "--engine", &b, "--size", "7", "-q", "--record", r]).0);
    let before = std::fs::read_to_string(&record).unwrap();
    let (ok, _, stderr) = cli(&["--engine", &a, "--engine", &c, "--size", "7", "-q", "--record", r]);
    assert!(!ok);
    assert!(
        stderr.contains("different tournament") && stderr.contains("White is 'b', this tournament plays 'c'"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
    // A line that is not a record: the error names the line, the file stays as it was.
    let broken = format!("[Event \"x\"]\n[not a tag\n{before}");
    std::fs::write(&record, &broken).unwrap();
    let (ok, _, stderr) = cli(&["--engine", &a, "--engine", &b, "--size", "7", "-q", "--record", r]);
    assert!(!ok);
    assert!(stderr.contains("line 2"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), broken);
}
