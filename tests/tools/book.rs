//! `veletas book` through the binary: our engine scores candidate openings and the kept
//! ones form an openings file the referee reads, each score within the band; an engine
//! without `genmove_analyze` and a band nothing falls in are refused in one line, with no
//! file written.

use crate::support::veletas;
use veletas_rules::Rules;
use veletas_tools::referee::openings::parse_openings;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

fn book(args: &[&str]) -> (bool, String, String) {
    let out = veletas(&[&["book"], args].concat());
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn a_book_keeps_the_candidates_scored_within_the_band_as_an_openings_file() {
    let dir = scratch!("make");
    let path = dir.join("book.txt");
    let engine = format!("{VELETAS} --seed 1 --playouts 200");
    // On 7x7 the value network scores random setups 60 to 70% for Black (docs/book.md): a band
    // around that keeps some and leaves some out.
    let args = ["--engine", engine.as_str(), "--size", "7", "--candidates", "30", "--band", "55-65"];
    let (ok, stdout, stderr) = book(&[&args[..], &["-o", path.to_str().unwrap()]].concat());
    assert!(ok, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    let text = std::fs::read_to_string(&path).unwrap();
    let openings = parse_openings(&text, "book.txt", Some(7), Rules::CLASSIC).unwrap();
    // The last line counts the candidates drawn, repeated and left without a win rate.
    assert!(stderr.contains(&format!("kept {} of ", openings.len())), "{stderr}");
    assert!(stderr.contains(" candidate openings scored (30 drawn: ") && stderr.contains(", 0 without a win rate)"));
    assert!(openings.len() < 30, "the band leaves some out: {text}");
    // The file records its board size, which match and tournament read.
    assert_eq!(text.lines().nth(1), Some("size 7"), "{text}");
    for line in text.lines().skip(2) {
        let (_, score) = line.split_once("# Black ").unwrap();
        let percent: f64 = score.split('%').next().unwrap().parse().unwrap();
        assert!((55.0..=65.0).contains(&percent), "{line}");
    }
    // Scored again, the same seed and budget make the same book, on stdout without -o.
    let (ok, again, _) = book(&args);
    assert!(ok);
    assert_eq!(again, text);
    // The referee plays it with its defaults (a 10x10 board when no file says otherwise),
    // and refuses it, in one line, on another --size.
    let other = format!("{VELETAS} --seed 2 --playouts 50");
    let base = ["match", "--engine", &engine, "--engine", &other, "--games", "2", "-q", "--openings"];
    let out = veletas(&[&base[..], &[path.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = veletas(&[&base[..], &[path.to_str().unwrap(), "--size", "10"]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("a book of 7x7 openings (its 'size 7' line) in a match on 10x10: give --size 7"));
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

#[test]
fn an_engine_whose_reports_give_no_win_rate_is_refused_with_the_reason() {
    let engine = format!("{FAKE} --analyze --winrate nan");
    let (ok, _, stderr) = book(&["--engine", &engine, "--candidates", "3"]);
    assert!(!ok);
    assert!(stderr.contains("fake 0.1 gave no win rate for any of the 3 candidates"), "{stderr}");
    assert!(
        stderr.contains("(the first: winrate 'nan' of ") && stderr.contains("is not a whole number from 0 to 10000)")
    );
}

#[test]
fn an_engine_without_win_rates_and_an_empty_band_are_refused() {
    let dir = scratch!("refused");
    let path = dir.join("book.txt");
    let out = ["-o", path.to_str().unwrap()];
    let (ok, _, stderr) = book(&[&["--engine", FAKE, "--candidates", "3"][..], &out].concat());
    assert!(!ok);
    assert!(stderr.contains("does not list genmove_analyze"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let engine = format!("{VELETAS} --playouts 50");
    let (ok, _, stderr) =
        book(&[&["--engine", engine.as_str(), "--candidates", "3", "--band", "99-100"][..], &out].concat());
    assert!(!ok);
    assert!(stderr.contains("none of the 3 candidates"), "{stderr}");
    assert!(!path.exists());
    let (ok, _, stderr) = book(&["--engine", &engine, "--band", "60-40"]);
    assert!(!ok && stderr.contains("the band must be"), "{stderr}");
}
