//! The intervals and the SPRT of `veletas_tools::stats` against an independent computation:
//! `tests/stats/interval_reference.py` (plain Python: Wilson's bounds by bisection, the
//! exact bound of a sweep from the binomial tail, the moments in exact fractions, the LLR
//! as a difference of two normal log-likelihoods), frozen into
//! `tests/stats/cases.expected` for the cases of `tests/stats/cases.txt`.

use std::path::{Path, PathBuf};
use std::process::Command;

use veletas_tools::stats::{EloInterval, Pentanomial, Score, Sprt};

fn stats_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stats")
}

fn read(name: &str) -> String {
    let path = stats_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn numbers(words: &[&str]) -> Vec<f64> {
    words.iter().map(|w| w.parse().unwrap_or_else(|e| panic!("{w}: {e}"))).collect()
}

fn counts(words: &[&str]) -> [u64; 5] {
    let c: Vec<u64> = words.iter().map(|w| w.parse().unwrap()).collect();
    c.try_into().unwrap()
}

/// The figures the Rust code gives for one case line: what the script prints after it.
fn figures(case: &[&str]) -> Vec<f64> {
    let interval = |i: EloInterval| vec![i.elo, i.lower, i.upper, f64::from(u8::from(i.adjusted))];
    match case[0] {
        "score" => {
            let n = numbers(&case[1..3]);
            interval(Score::new(n[0] as u64, n[1] as u64).elo_interval().unwrap())
        }
        "pairs" => interval(Pentanomial::from_counts(counts(&case[1..6])).elo_interval().unwrap()),
        "sprt" => {
            let e = numbers(&case[1..3]);
            let test = Sprt::with_default_errors(e[0], e[1]).unwrap();
            vec![test.llr(&Pentanomial::from_counts(counts(&case[3..8])))]
        }
        "sprtgames" => {
            let n = numbers(&case[1..5]);
            let test = Sprt::with_default_errors(n[0], n[1]).unwrap();
            vec![test.llr_games(&Score::new(n[2] as u64, n[3] as u64))]
        }
        other => panic!("unknown case {other}"),
    }
}

/// The number of words of a case of this kind, before the figures.
fn case_len(kind: &str) -> usize {
    match kind {
        "score" => 3,
        "pairs" => 6,
        "sprt" => 8,
        "sprtgames" => 5,
        other => panic!("unknown case {other}"),
    }
}

/// Checks every line of the reference's output `expected` against the Rust figures.
fn check(expected: &str) -> usize {
    let mut checked = 0;
    for line in expected.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (case, want) = words.split_at(case_len(words[0]));
        let want = numbers(want);
        let got = figures(case);
        assert_eq!(got.len(), want.len(), "{line}");
        for (g, w) in got.iter().zip(&want) {
            assert!(g.is_finite(), "{line}: {got:?}");
            assert!((g - w).abs() < 1e-6, "{line}: Rust gives {got:?}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn intervals_and_llrs_match_the_python_reference() {
    let cases = read("cases.txt").lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).count();
    assert_eq!(check(&read("cases.expected")), cases);
}

#[test]
fn the_frozen_reference_values_are_what_the_script_prints() {
    let dir = stats_dir();
    let output =
        match Command::new("python3").arg(dir.join("interval_reference.py")).arg(dir.join("cases.txt")).output() {
            Ok(output) => output,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("python3 not found: the frozen values are checked, the script is not rerun");
                return;
            }
            Err(e) => panic!("python3: {e}"),
        };
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let fresh = String::from_utf8(output.stdout).unwrap();
    assert_eq!(fresh, read("cases.expected"));
    check(&fresh);
}

#[test]
fn the_cases_cover_sweeps_one_bucket_pairs_and_decisions() {
    // The reference is only as good as its cases: sweeps short and long, each pair
    // bucket alone, and SPRTs on both sides of the bounds.
    let expected = read("cases.expected");
    for case in ["score 1 0 ", "score 400 0 ", "score 0 10 ", "pairs 0 0 4 0 0 ", "pairs 3 0 0 0 0 "] {
        assert!(expected.contains(case), "{case}");
    }
    let llrs: Vec<f64> = expected
        .lines()
        .filter(|l| l.starts_with("sprt"))
        .map(|l| l.split_whitespace().last().unwrap().parse().unwrap())
        .collect();
    let (lower, upper) = Sprt::with_default_errors(0.0, 10.0).unwrap().bounds();
    assert!(llrs.iter().any(|&x| x >= upper) && llrs.iter().any(|&x| x <= lower));
    assert!(llrs.iter().any(|&x| lower < x && x < upper));
}
