//! `veletas analyse-games` through the binary: each turn's win rate is the one
//! `genmove_analyze` gives asked directly on the position before it (same engine, seed and
//! budget); a review killed part way goes on when run again and ends as an uninterrupted one;
//! shards hold the whole review's games; hostile records, outputs and engines are refused in
//! one line; `veletas view` marks the turns of a reviewed game; the GUI's review of its open game
//! gives the same win rates and best lines as `analyse-games` on that game with that engine.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::veletas;
use veletas_rules::record::{BestLine, GameRecord, parse_records, tag};
use veletas_rules::{Game, Move};

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

/// The reviewing engine: our own, at a fixed budget and seed, so its figures are reproducible.
const ENGINE_ARGS: [&str; 4] = ["--seed", "3", "--playouts", "60"];

fn engine() -> String {
    format!("{VELETAS} {}", ENGINE_ARGS.join(" "))
}

/// `games` games of the fake engine against itself on 7x7 (random moves, at once), recorded.
fn played(dir: &Path, games: usize) -> PathBuf {
    let record = dir.join("games.txt");
    let fake2 = format!("{FAKE} --seed 2");
    // A match plays pairs of games: one game is the first of a pair.
    let pairs = games.div_ceil(2) * 2;
    let played = dir.join("played.txt");
    let out = veletas(&[
        "match",
        "--engine",
        FAKE,
        "--engine",
        &fake2,
        "--games",
        &pairs.to_string(),
        "--size",
        "7",
        "-q",
        "--record",
        played.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let kept: String = games_of(&played).iter().take(games).map(GameRecord::to_string).collect();
    std::fs::write(&record, kept).unwrap();
    record
}

fn review(args: &[&str]) -> std::process::Output {
    veletas(&[&["analyse-games"], args].concat())
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn games_of(path: &Path) -> Vec<GameRecord> {
    parse_records(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// What `genmove_analyze` reports for the move it plays, asked of a fresh engine process on the
/// position after `turns` turns of `record`: the win rate (hundredths), the visits and the best
/// line (its `pv`); `None` for a turn chosen without search (`visits 0`).
fn asked_directly(record: &GameRecord, turns: usize) -> Option<(u16, u64, Vec<String>)> {
    let mut game = Game::from_position(record.start_position().unwrap());
    let mut script = format!("boardsize {}\nclear_board\n", game.position().variant().size());
    for text in &record.moves()[..turns] {
        let color = game.position().side_to_move();
        let mv: Move = game.position().parse_move(text.as_str()).unwrap();
        script.push_str(&format!("play {color} {mv}\n"));
        game.play(mv).unwrap();
    }
    script.push_str(&format!("genmove_analyze {}\nquit\n", game.position().side_to_move()));
    let mut child = Command::new(VELETAS)
        .args(ENGINE_ARGS)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let played = text.lines().rev().find_map(|l| l.strip_prefix("play ")).expect("a play line").trim().to_string();
    let report = text.lines().find(|l| l.starts_with("info ")).expect("a report line");
    let entry = report.split("info ").find(|e| e.split_whitespace().nth(1) == Some(played.as_str())).unwrap();
    let words: Vec<&str> = entry.split_whitespace().collect();
    let value = |key: &str| words.windows(2).find(|w| w[0] == key).map(|w| w[1]).unwrap();
    let visits: u64 = value("visits").parse().unwrap();
    let pv: Vec<String> = words.iter().skip_while(|w| **w != "pv").skip(1).map(|w| w.to_string()).collect();
    (visits > 0).then(|| (value("winrate").parse().unwrap(), visits, pv))
}

#[test]
fn each_turn_holds_what_genmove_analyze_says_of_the_position_before_it() {
    let dir = scratch!("direct");
    let record = played(&dir, 1);
    let out_path = dir.join("reviewed.txt");
    let out = review(&[record.to_str().unwrap(), "--engine", &engine(), "-o", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("1 games reviewed into"), "{}", stderr(&out));
    assert!(!dir.join("reviewed.txt.part").exists(), "the journal is removed at the end");
    let input = games_of(&record).remove(0);
    let reviewed = games_of(&out_path).remove(0);
    assert_eq!(reviewed.moves(), input.moves());
    assert_eq!(reviewed.tag(tag::ANALYSIS_GAME), Some("1"));
    assert_eq!(reviewed.tag(tag::ANALYSIS), Some(engine().as_str()));
    assert!(reviewed.tag(tag::ANALYSIS_ENGINE).is_some_and(|n| n.starts_with("veletas")));
    let mut searched = 0;
    for turn in 0..input.moves().len() {
        let annotation = reviewed.annotation(turn);
        let line = annotation.best_line.as_ref().map(|l| l.turns().to_vec()).unwrap_or_default();
        let figures = annotation.evaluation.map(|e| (e.winrate.hundredths(), e.visits, line));
        let direct = asked_directly(&input, turn).map(|(w, v, mut pv)| {
            pv.truncate(BestLine::MAX_TURNS);
            (w, v, pv)
        });
        assert_eq!(figures, direct, "turn {}: the win rate, visits and best line", turn + 1);
        if let Some((_, _, pv)) = &direct {
            assert!(!pv.is_empty(), "turn {}: a searched turn has a best line", turn + 1);
        }
        // The referee's time of the turn is kept.
        assert_eq!(reviewed.annotation(turn).time, input.annotation(turn).time, "turn {}", turn + 1);
        searched += usize::from(figures.is_some());
    }
    assert!(searched + 2 >= input.moves().len(), "every turn but the setups has a win rate ({searched})");
}

/// Waits until the journal holds at least one whole game, then kills the review (SIGKILL).
fn kill_after_a_game(args: &[&str], journal: &Path) {
    let mut child = Command::new(VELETAS)
        .arg("analyse-games")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let whole =
            std::fs::read_to_string(journal).ok().is_some_and(|t| parse_records(&t).is_ok_and(|g| !g.is_empty()));
        if whole || start.elapsed() > Duration::from_secs(120) {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            panic!("the review ended before it could be killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_killed_review_goes_on_and_ends_as_an_uninterrupted_one() {
    let dir = scratch!("resume");
    let record = played(&dir, 4);
    let whole = dir.join("whole.txt");
    let engine = engine();
    let common = [record.to_str().unwrap(), "--engine", engine.as_str()];
    let out = review(&[&common[..], &["-o", whole.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let resumed = dir.join("resumed.txt");
    let args = [&common[..], &["-o", resumed.to_str().unwrap()]].concat();
    let journal = dir.join("resumed.txt.part");
    kill_after_a_game(&args, &journal);
    assert!(!resumed.exists(), "no output before every game is reviewed");
    let kept = games_of(&journal).len();
    assert!((1..4).contains(&kept), "{kept} games in the journal");
    // A game cut short by the kill (or by a crash mid-write) is dropped on the way.
    std::fs::OpenOptions::new().append(true).open(&journal).unwrap().write_all(b"[Event \"cut\"]\n\n1. d4").unwrap();
    let out = review(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("({kept} by an earlier run;")), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&resumed).unwrap(), std::fs::read_to_string(&whole).unwrap());
    // Run once more, the finished review is read back and written again unchanged.
    let out = review(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("(4 by an earlier run; 0 positions analysed now)"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&resumed).unwrap(), std::fs::read_to_string(&whole).unwrap());
}

#[test]
fn shards_hold_the_whole_reviews_games() {
    let dir = scratch!("shards");
    let record = played(&dir, 4);
    let engine = engine();
    let common = [record.to_str().unwrap(), "--engine", engine.as_str()];
    let whole = dir.join("whole.txt");
    let out = review(&[&common[..], &["-o", whole.to_str().unwrap(), "-j", "2"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let shard = dir.join("shard-{shard}.txt");
    for k in ["1/3", "2/3", "3/3"] {
        let out = review(&[&common[..], &["-o", shard.to_str().unwrap(), "--shard", k]].concat());
        assert!(out.status.success(), "{k}: {}", stderr(&out));
    }
    let mut merged: Vec<GameRecord> = (1..=3).flat_map(|k| games_of(&dir.join(format!("shard-{k}.txt")))).collect();
    assert_eq!(games_of(&dir.join("shard-1.txt")).len(), 2, "games 1 and 4");
    merged.sort_by_key(|g| g.tag(tag::ANALYSIS_GAME).unwrap().parse::<usize>().unwrap());
    let merged: String = merged.iter().map(GameRecord::to_string).collect();
    assert_eq!(merged, std::fs::read_to_string(&whole).unwrap());
}

/// Runs a review that must be refused with `code`: one line on stderr containing `says`.
fn refused(args: &[&str], code: i32, says: &str) {
    let out = review(args);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {text}");
    assert_eq!(text.trim_end().lines().count(), 1, "{args:?}: {text}");
    assert!(text.starts_with("veletas analyse-games: ") && text.contains(says), "{args:?}: {text}");
}

#[test]
fn hostile_records_outputs_and_engines_are_refused_in_one_line() {
    let dir = scratch!("hostile");
    let record = played(&dir, 1);
    let good = record.to_str().unwrap();
    let out = dir.join("out.txt");
    let out = out.to_str().unwrap();
    let engine = engine();
    // A game whose moves do not replay.
    let game = games_of(&record).remove(0);
    let mut broken = game.clone();
    let mut moves = broken.moves().to_vec();
    moves[3] = "a1-a2/a3".parse().unwrap();
    broken.set_moves(moves).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, broken.to_string()).unwrap();
    refused(&[bad.to_str().unwrap(), "--engine", &engine, "-o", out], 2, "bad.txt: game 1: turn 4");
    // Not a record file at all: a directory, binary bytes, a missing file.
    refused(&[dir.to_str().unwrap(), "--engine", &engine, "-o", out], 2, "not a regular file");
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, b"[Event \"\xff\xfe\"]\n").unwrap();
    refused(&[binary.to_str().unwrap(), "--engine", &engine, "-o", out], 2, "not UTF-8");
    refused(&["missing.txt", "--engine", &engine, "-o", out], 2, "missing.txt");
    // The output is the input; an output holding something else than this review.
    refused(&[good, "--engine", &engine, "-o", good], 2, "is the same file as");
    let other = dir.join("other.txt");
    std::fs::write(&other, game.to_string()).unwrap();
    refused(&[good, "--engine", &engine, "-o", other.to_str().unwrap()], 2, "no AnalysisGame tag: not this review's");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), game.to_string(), "left as it was");
    let first = dir.join("first.txt");
    assert!(review(&[good, "--engine", &engine, "-o", first.to_str().unwrap()]).status.success());
    let cheaper = format!("{VELETAS} --seed 3 --playouts 20");
    refused(&[good, "--engine", &cheaper, "-o", first.to_str().unwrap()], 2, "reviewed with");
    // Options that make no review (clap's refusals end with its hint to try --help).
    for (option, says) in [(["--shard", "4/3"], "not a shard"), (["-j", "0"], "-j must be 1 to 64")] {
        let out = review(&[&[good, "--engine", engine.as_str(), "-o", out][..], &option[..]].concat());
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).lines().next().unwrap().contains(says), "{}", stderr(&out));
    }
    refused(&[good, "--engine", &engine, "-o", out, "--movetime", "5", "--timeout", "1"], 2, "longer than --timeout");
    // An engine without win rates, one that cannot start and one that crashes as it analyses
    // fail as the review runs (exit code 1).
    refused(&[good, "--engine", FAKE, "-o", out], 1, "does not list genmove_analyze");
    refused(&[good, "--engine", "/nonexistent/engine", "-o", out], 1, "cannot be started");
    let crashing = format!("{FAKE} --analyze --crash-at 1");
    refused(&[good, "--engine", &crashing, "-o", out], 1, "the same command goes on");
    assert!(!Path::new(out).exists());
}

#[test]
fn the_viewer_marks_the_turns_of_a_reviewed_game() {
    let dir = scratch!("view");
    let record = played(&dir, 1);
    let reviewed = dir.join("reviewed.txt");
    let out = review(&[record.to_str().unwrap(), "--engine", &engine(), "-o", reviewed.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A blunder written in: Black's chance 90% before turn 5 (Black's), White's 50% before turn 6.
    let mut game = games_of(&reviewed).remove(0);
    let set = |game: &mut GameRecord, turn: usize, text: &str| {
        let mut annotation = game.annotation(turn);
        annotation.evaluation = Some(text.parse::<veletas_rules::record::Annotation>().unwrap().evaluation.unwrap());
        game.set_annotation(turn, annotation);
    };
    let mover_of_5 = game.replay(Some(4)).unwrap().position().side_to_move();
    let mover_of_6 = game.replay(Some(5)).unwrap().position().side_to_move();
    assert_ne!(mover_of_5, mover_of_6, "turns 5 and 6 are played by the two sides");
    set(&mut game, 4, "90%/100");
    set(&mut game, 5, "50%/100");
    let marked = dir.join("marked.txt");
    std::fs::write(&marked, game.to_string()).unwrap();
    let html = dir.join("marked.html");
    let out = veletas(&["view", marked.to_str().unwrap(), "-o", html.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(r#""marks":[["blunder","??"],["mistake","?"],["inaccuracy","?!"]]"#), "the page's marks");
    // Turn 5's word: its time, Black's chance, visits, a loss of 40 points, mark 0 (a blunder).
    let black_5 = if mover_of_5 == veletas_rules::Color::Black { 9000 } else { 1000 };
    let time = game.annotation(4).time.map_or(String::new(), |t| t.as_millis().to_string());
    assert!(page.contains(&format!(" {time},{black_5},100,4000,0 ")), "turn 5 is a blunder");
    // The page carries each turn's best line, as the review wrote it (`-` where there is none).
    let lines: Vec<String> = (0..game.moves().len())
        .map(|i| game.annotation(i).best_line.map_or("-".to_string(), |l| l.turns().join(";")))
        .collect();
    assert!(lines.iter().any(|l| l != "-"), "the review wrote best lines");
    assert!(page.contains(&format!(r#""{}""#, lines.join(" "))), "the page's best lines");
}

/// One request to a `veletas gui` at `address` (`HOST:PORT`): the answer's status and body.
fn http(address: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(address).expect("the server listens");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("a whole answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
    (status, body.to_string())
}

#[test]
fn the_guis_review_gives_the_win_rates_and_lines_of_analyse_games() {
    let dir = scratch!("gui");
    let record = played(&dir, 1);
    let out_path = dir.join("reviewed.txt");
    let args = [record.to_str().unwrap(), "--engine", &engine(), "--movetime", "5", "-o", out_path.to_str().unwrap()];
    let out = review(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let reviewed = games_of(&out_path).remove(0);

    let mut child = Command::new(VELETAS)
        .args(["gui", "--no-browser", "--port", "0", "--engine", &format!("reviewer={}", engine())])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("veletas gui starts");
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let address = url.trim().trim_start_matches("http://").trim_end_matches('/').to_string();
    let result = std::panic::catch_unwind(|| {
        let text = std::fs::read_to_string(&record).unwrap();
        let new = serde_json::json!({"size": 7, "rules": "classic", "black": null, "white": null, "start": text});
        let (status, answer) = http(&address, "POST", "/api/games", &new.to_string());
        assert_eq!(status, 201, "{}", veletas_rules::quoted_to(&answer, 200));
        let id = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"].as_u64().unwrap();
        let (status, answer) =
            http(&address, "POST", &format!("/api/games/{id}/review"), r#"{"engine":0,"seconds":5}"#);
        assert_eq!(status, 200, "{answer}");
        // A second review while one runs is refused.
        let (status, _) = http(&address, "POST", &format!("/api/games/{id}/review"), r#"{"engine":0,"seconds":5}"#);
        assert_eq!(status, 409);
        let deadline = Instant::now() + Duration::from_secs(300);
        let view = loop {
            let (_, answer) = http(&address, "GET", &format!("/api/games/{id}"), "");
            let view: serde_json::Value = serde_json::from_str(&answer).unwrap();
            if view["review"]["running"] == false {
                break view;
            }
            assert!(Instant::now() < deadline, "the review ends: {}", view["review"]);
            std::thread::sleep(Duration::from_millis(100));
        };
        let turns = reviewed.moves().len();
        assert_eq!(view["review"]["error"], serde_json::Value::Null, "{}", view["review"]);
        assert_eq!(view["review"]["done"], turns);
        let (_, saved) = http(&address, "GET", &format!("/api/games/{id}/record"), "");
        let saved = parse_records(&saved).unwrap().remove(0);
        assert_eq!(saved.moves(), reviewed.moves());
        let mut searched = 0;
        let mut game = Game::from_position(reviewed.start_position().unwrap());
        for turn in 0..turns {
            let (gui, cli) = (saved.annotation(turn), reviewed.annotation(turn));
            assert_eq!(gui.evaluation, cli.evaluation, "turn {}: the win rate and visits", turn + 1);
            assert_eq!(gui.best_line, cli.best_line, "turn {}: the best line", turn + 1);
            // The graph's point of the position before the turn is Black's chance by it, and
            // the move list's line its best line.
            if let Some(e) = cli.evaluation {
                let point = view["winrates"][turn].as_f64().expect("a point of the graph");
                let black = match game.position().side_to_move() {
                    veletas_rules::Color::Black => e.winrate.probability(),
                    veletas_rules::Color::White => 1.0 - e.winrate.probability(),
                };
                assert!((point - black).abs() < 1e-9, "turn {}: {point} against {black}", turn + 1);
                let line: Vec<String> = serde_json::from_value(view["lines"][turn].clone()).unwrap();
                assert_eq!(Some(line.as_slice()), cli.best_line.as_ref().map(|l| l.turns()), "turn {}", turn + 1);
                searched += 1;
            }
            let mv: Move = game.position().parse_move(reviewed.moves()[turn].as_str()).unwrap();
            game.play(mv).unwrap();
        }
        assert!(searched + 2 >= turns, "every turn but the setups has a win rate ({searched} of {turns})");
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
