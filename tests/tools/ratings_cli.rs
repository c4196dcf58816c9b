//! `veletas ratings FILE...` run as a program on small record files: its three output
//! formats, and one clear line on stderr with a non-zero exit (and nothing on stdout)
//! for every kind of bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// One game's record text.
fn game(event: &str, tournament: Option<&str>, black: &str, white: &str, result: &str) -> String {
    let escape = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut text = format!("[Event \"{}\"]\n", escape(event));
    if let Some(t) = tournament {
        text.push_str(&format!("[Tournament \"{t}\"]\n"));
    }
    text.push_str(&format!(
        "[Black \"{}\"]\n[White \"{}\"]\n[Size \"7\"]\n\n1. d4 {result}\n\n",
        escape(black),
        escape(white)
    ));
    text
}

/// A round robin of three engines, alpha ahead of "beta, jr." ahead of gamma, in one event,
/// plus one unfinished game.
fn field(event: &str, tournament: Option<&str>) -> String {
    let mut text = String::new();
    let results = [
        ("alpha", "beta, jr.", 5, 3),
        ("beta, jr.", "alpha", 3, 5),
        ("alpha", "gamma", 6, 2),
        ("gamma", "alpha", 2, 6),
        ("beta, jr.", "gamma", 5, 3),
        ("gamma", "beta, jr.", 3, 5),
    ];
    for (black, white, black_wins, white_wins) in results {
        for _ in 0..black_wins {
            text.push_str(&game(event, tournament, black, white, "B+"));
        }
        for _ in 0..white_wins {
            text.push_str(&game(event, tournament, black, white, "W+"));
        }
    }
    text.push_str(&game(event, tournament, "alpha", "gamma", "*"));
    text
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn ratings(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_veletas"));
    command.arg("ratings");
    for arg in args {
        command.arg(arg);
    }
    command.output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The run failed with one line on stderr, starting `veletas ratings: ` and holding every
/// part of `expected`, and printed nothing on stdout.
fn fails_with(output: &Output, expected: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "succeeded: {}", String::from_utf8_lossy(&output.stdout));
    assert!(output.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("veletas ratings: "), "{stderr}");
    for part in expected {
        assert!(stderr.contains(part), "'{part}' not in {stderr}");
    }
}

#[test]
fn text_shows_standings_crosstable_los_head_to_head_and_notes() {
    let dir = scratch!("text");
    let file = write(&dir, "games.txt", &field("rr", Some("0a1b")));
    let text = stdout(&ratings(&[&file, &"--head-to-head"]));
    assert!(text.starts_with("Ratings of 3 engines from 48 games (logistic Elo, mean 0"), "{text}");
    let rank_lines: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with(['1', '2', '3'])).take(3).collect();
    assert!(rank_lines[0].contains("alpha") && rank_lines[1].contains("beta, jr.") && rank_lines[2].contains("gamma"));
    // alpha: 11 wins of 16 (5 + 6 as Black of 8 + 8... as Black 11/16, as White 11/16).
    assert!(rank_lines[0].contains("68.8%") && rank_lines[0].contains("11/16"), "{}", rank_lines[0]);
    for section in ["Crosstable", "Likelihood of superiority", "Head to head", "1 games without a result (*) skipped"] {
        assert!(text.contains(section), "no {section} in\n{text}");
    }
    assert!(text.contains("10-6"), "{text}");
}

#[test]
fn csv_has_the_exact_header_and_quotes_names() {
    let dir = scratch!("csv");
    let file = write(&dir, "games.txt", &field("rr", None));
    let csv = stdout(&ratings(&[&file, &"--format", &"csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "rank,name,rating,error,games,score");
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("1,alpha,"), "{csv}");
    assert!(lines[2].starts_with("2,\"beta, jr.\","), "{csv}");
    assert!(lines[3].starts_with("3,gamma,") && lines[3].ends_with(",32,31.3"), "{csv}");
}

#[test]
fn json_parses_with_the_anchor() {
    let dir = scratch!("json");
    let file = write(&dir, "games.txt", &field("rr", None));
    let text = stdout(&ratings(&[&file, &"--format", &"json", &"--anchor", &"gamma=1000"]));
    let json: veletas_tools::ratings::json::RatingsJson = serde_json::from_str(&text).unwrap();
    assert_eq!(json.games, 48);
    let engines = &json.engines;
    assert_eq!(engines[2].name, "gamma");
    assert_eq!((engines[2].rating, engines[2].error), (Some(1000.0), Some(0.0)));
    assert_eq!(engines[1].name, "beta, jr.");
    assert_eq!(json.anchor.as_ref().map(|a| (a.name.as_str(), a.rating)), Some(("gamma", Some(1000.0))));
    assert!(json.notes[0].contains("without a result"));
}

#[test]
fn shards_of_one_tournament_rate_as_the_whole() {
    let dir = scratch!("shards");
    let whole = field("rr", Some("cafe"));
    let games: Vec<&str> = whole.split_inclusive("W+\n\n").collect();
    let (a, b) = games.split_at(games.len() / 2);
    let one = write(&dir, "whole.txt", &whole);
    let first = write(&dir, "shard-1.txt", &a.concat());
    let second = write(&dir, "shard-2.txt", &b.concat());
    assert_eq!(
        stdout(&ratings(&[&one, &"--format", &"csv"])),
        stdout(&ratings(&[&first, &second, &"--format", &"csv"]))
    );
}

#[test]
fn files_of_different_tournaments_are_refused_unless_mixed() {
    let dir = scratch!("mix");
    let a = write(&dir, "a.txt", &field("rr", Some("0a1b")));
    let b = write(&dir, "b.txt", &field("rr", Some("ffff")));
    let c = write(&dir, "c.txt", &field("other", None));
    fails_with(
        &ratings(&[&a, &b]),
        &["a.txt has event \"rr\" with tournament 0a1b", "b.txt has event \"rr\" with tournament ffff", "--mix"],
    );
    fails_with(&ratings(&[&a, &c]), &["c.txt has event \"other\" without a Tournament tag"]);
    let both = write(&dir, "both.txt", &(field("rr", Some("0a1b")) + &field("rr", None)));
    fails_with(&ratings(&[&both]), &["both.txt has event \"rr\" with tournament 0a1b, also event \"rr\" without"]);
    let mixed = stdout(&ratings(&[&a, &b, &c, &"--mix"]));
    assert!(mixed.contains("from 144 games") && mixed.contains("games of 3 tournaments mixed"), "{mixed}");
}

#[test]
fn each_bad_input_gives_one_line_and_a_non_zero_exit() {
    let dir = scratch!("errors");
    let good = write(&dir, "good.txt", &field("rr", None));
    let junk = write(&dir, "junk.txt", &format!("{}[Black \"x\"\n", game("rr", None, "a", "b", "B+")));
    fails_with(&ratings(&[&junk]), &["junk.txt:8:", "bad tag line"]);
    let cut =
        write(&dir, "cut.txt", &format!("{}[Black \"a\"]\n[White \"b\"]\n\n1. d4", game("rr", None, "a", "b", "B+")));
    // A last game cut short (an interrupted write) is skipped with a warning (issue 25).
    let rated = ratings(&[&cut]);
    assert!(stdout(&rated).contains("from 1 games"));
    let warning = String::from_utf8_lossy(&rated.stderr);
    assert!(warning.starts_with("warning: ") && warning.contains("cut.txt:8: the last game is cut short"), "{warning}");
    fails_with(&ratings(&[&dir.join("missing.txt")]), &["missing.txt", "cannot read"]);
    fails_with(&ratings(&[&dir]), &["not a regular file"]);
    fails_with(&ratings(&[&good, &"--anchor", &"delta=0"]), &["anchor 'delta'", "not an engine"]);
    fails_with(&ratings(&[&good, &"--anchor", &"delta"]), &["NAME=RATING"]);
    let empty = write(&dir, "empty.txt", "% nothing here\n");
    fails_with(&ratings(&[&empty]), &["no games"]);
    let unfinished = write(&dir, "unfinished.txt", &game("rr", None, "a", "b", "*"));
    fails_with(&ratings(&[&unfinished]), &["no decided games", "1 skipped"]);
    let nameless = write(&dir, "nameless.txt", "[Black \"a\"]\n\n1. d4 B+\n");
    fails_with(&ratings(&[&nameless]), &["nameless.txt", "game 1 has no White tag"]);
    fails_with(&ratings(&[&good, &good]), &["given twice"]);
    fails_with(&ratings(&[&good, &"--format", &"xml"]), &["unknown format 'xml'"]);
    fails_with(&ratings(&[]), &["no record files given"]);
    fails_with(&ratings(&[&dir.join("two\nlines.txt")]), &["two lines.txt", "cannot read"]);
    fails_with(&ratings(&[&good, &"--anchor", &"new\rline=0"]), &[r"anchor 'new\rline'"]);
}

#[test]
fn games_of_an_engine_against_itself_are_skipped_with_a_note() {
    let dir = scratch!("self");
    let text = field("rr", None) + &game("rr", None, "alpha", "alpha", "B+");
    let file = write(&dir, "games.txt", &text);
    let out = stdout(&ratings(&[&file]));
    assert!(out.contains("from 48 games") && out.contains("1 games of an engine against itself skipped"), "{out}");
}

#[test]
fn the_examples_in_docs_ratings_md_are_what_the_command_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/ratings.md")).unwrap();
    let mut examples = 0;
    for block in doc.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let (command, expected) = block.split_once('\n').unwrap();
        let args: Vec<&str> = command.strip_prefix("$ veletas ").expect("a veletas command").split(' ').collect();
        let output = Command::new(env!("CARGO_BIN_EXE_veletas")).args(&args).current_dir(root).output().unwrap();
        assert_eq!(stdout(&output), expected, "{command}");
        examples += 1;
    }
    assert_eq!(examples, 4);
}

/// The standard normal distribution function by Simpson's rule over the density from -12,
/// independent of the erf the library uses.
fn normal_cdf(z: f64) -> f64 {
    let density = |x: f64| (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let (from, steps) = (-12.0, 20_000);
    let h = (z - from) / steps as f64;
    let inner: f64 = (1..steps).map(|k| density(from + k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 }).sum();
    h / 3.0 * (density(from) + inner + density(z))
}

#[test]
fn a_pairs_los_is_the_same_number_in_match_and_ratings() {
    let dir = scratch!("los");
    let record = dir.join("g.txt");
    let fake = env!("CARGO_BIN_EXE_veletas-fake-engine");
    let (a, b) = (format!("a={fake} --seed 1"), format!("b={fake} --seed 2"));
    let args = ["match", "--engine", &a, "--engine", &b, "--size", "7", "--games", "12", "-q", "--record"];
    let out = crate::support::veletas(&[&args[..], &[record.to_str().unwrap()]].concat());
    let summary = stdout(&out);
    let los_line = summary.lines().find(|l| l.contains(", LOS ")).expect("the summary's LOS");
    let match_los: f64 = los_line.rsplit("LOS ").next().unwrap().trim_end_matches('%').parse().unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ratings(&[&record, &"--head-to-head", &"--format", &"json"]))).unwrap();
    let pair = &json["head_to_head"][0];
    let (wins, losses) = (pair["wins"].as_f64().unwrap(), pair["losses"].as_f64().unwrap());
    let first_los = pair["los"].as_f64().unwrap();
    // The match speaks for engine 1 (a); ratings for the better-ranked engine.
    let a_los = if pair["first"] == "a" { first_los } else { 1.0 - first_los };
    assert!((100.0 * a_los - match_los).abs() < 0.051, "match {match_los}%, ratings {a_los}: {summary}");
    let independent = normal_cdf((wins - losses) / (wins + losses).sqrt());
    assert!((first_los - independent).abs() < 5e-5, "{first_los} vs {independent}");
    let text = stdout(&ratings(&[&record, &"--head-to-head"]));
    let shown = format!("{:.1}%", 100.0 * independent);
    assert!(text.lines().any(|l| l.trim_end().ends_with(&shown)), "{shown} not in {text}");
    let _ = std::fs::remove_dir_all(&dir);
}
