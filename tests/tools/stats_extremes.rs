//! Sound statistics at extreme scores, through the binary: a match in which one fake
//! engine (`src/bin/veletas-fake-engine.rs`) resigns every game at its second move, so
//! the other wins them all. Its summary, its HTML report and `veletas ratings` on its
//! record give finite Elo with finite bounds, say how a sweep was rated, and the SPRT
//! decides long before the games run out.

use std::path::Path;
use std::process::Output;

use crate::support::veletas;
use veletas_rules::Color;
use veletas_tools::referee::{GameOutcome, MatchSummary, Termination};

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The numbers of a `+12.3 ± 45.6 [-33.3, +57.9]` figure following `label` in `text`.
fn figure(text: &str, label: &str) -> [f64; 4] {
    let start = text.find(label).unwrap_or_else(|| panic!("no '{label}' in {text}")) + label.len();
    let rest = &text[start..];
    let end = rest.find(']').unwrap();
    let numbers: Vec<f64> = rest[..end]
        .split(|c: char| c == '±' || c == '[' || c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap_or_else(|e| panic!("{w}: {e} in {text}")))
        .collect();
    numbers.try_into().unwrap()
}

fn sweep(dir: &Path, games: &str, extra: &[&str]) -> String {
    let one = format!("one='{FAKE}' --seed 1");
    let two = format!("two='{FAKE}' --seed 2 --resign-at 2");
    let record = dir.join("games.txt");
    let mut args = vec!["match", "--engine", &one, "--engine", &two, "--games", games, "--size", "7", "-q"];
    args.extend_from_slice(&["--record", record.to_str().unwrap()]);
    args.extend_from_slice(extra);
    stdout(&veletas(&args))
}

#[test]
fn a_clean_sweep_prints_finite_figures_and_the_sprt_decides() {
    let dir = scratch!("sprt");
    let report = dir.join("report.html");
    let text = sweep(&dir, "40", &["--sprt", "0,10", "-j", "1", "--report", report.to_str().unwrap()]);
    assert!(!text.contains("inf"), "{text}");
    assert!(text.contains("SPRT elo0 0 elo1 10") && text.contains(": H1 accepted"), "{text}");
    let wins: u64 = text.split("Score of one vs two: ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(text.contains(&format!("Score of one vs two: {wins} - 0 (100.0%)")), "{text}");
    // The SPRT decides after 14 won pairs (28 games). With one worker no game starts after
    // the result that decides: the games played, counted and recorded are those 28.
    assert_eq!(wins, 28, "{text}");
    assert!(text.contains("28 of 40 games"), "{text}");
    let record = std::fs::read_to_string(dir.join("games.txt")).unwrap();
    assert_eq!(record.matches("[Round ").count(), 28, "{record}");
    let [elo, half, lower, upper] = figure(&text, "Elo difference: ");
    assert!(lower > 0.0 && lower < elo && elo < upper && upper < 2000.0, "{text}");
    assert!((half - (upper - lower) / 2.0).abs() < 0.11, "{text}");
    assert!(text.contains("(95%, half a game added to each side)"), "{text}");
    let [pair_elo, _, pair_lower, pair_upper] = figure(&text, "pair Elo ");
    assert!(pair_lower < pair_elo && pair_elo < pair_upper && pair_upper < 2000.0, "{text}");
    assert!(text.contains("(half a pair added to LL and to WW)"), "{text}");

    let html = std::fs::read_to_string(&report).unwrap();
    // The report says what the text says, in the same words.
    let elo_line = text.lines().find_map(|l| l.strip_prefix("Elo difference: ")).unwrap();
    assert!(html.contains("Elo difference") && html.contains(elo_line), "{elo_line}");
    assert!(!html.contains("+inf") && !html.contains("± inf"), "the report prints infinity");

    let ratings = stdout(&veletas(&["ratings", dir.join("games.txt").to_str().unwrap(), "--head-to-head"]));
    assert!(!ratings.contains("inf"), "{ratings}");
    assert!(ratings.contains("rated with half a game added to each side"), "{ratings}");
}

#[test]
fn one_won_pair_gets_a_floored_pair_variance() {
    // Two games, both won by engine one: a single WW pair, the pair variance 0.
    let dir = scratch!("pair");
    let text = sweep(&dir, "2", &[]);
    let [elo, half, lower, upper] = figure(&text, "pair Elo ");
    assert!(half > 100.0 && lower < elo && elo < upper, "{text}");
    assert!(!text.contains("± 0.0") && !text.contains("inf"), "{text}");
}

/// Game `round` won by engine 1 when `engine1_won`; engine 1 is Black in even rounds.
fn outcome(round: usize, engine1_won: bool) -> GameOutcome {
    let engine1_black = round.is_multiple_of(2);
    let winner = if engine1_won == engine1_black { Color::Black } else { Color::White };
    GameOutcome { round, engine1_black, winner: Some(winner), termination: Termination::Normal, disagreement: false }
}

#[test]
fn pairs_all_split_print_a_floored_pair_elo_not_zero_width() {
    // Four pairs, each won once and lost once: every pair in the WL bucket. With half a
    // pair added to LL and to WW the variance is 0.05 over 5 pairs, 25 effective pairs,
    // Wilson for 12.5 of 25 (crates/tools/tests/stats/cases.expected: ±132.9 Elo).
    let outcomes: Vec<GameOutcome> = (0..8).map(|round| outcome(round, round % 2 == 0)).collect();
    let s = MatchSummary::new(["one".into(), "two".into()], 8, &outcomes, None);
    let text = s.to_string();
    assert!(text.contains("pair Elo +0.0 ± 132.9 [-132.9, +132.9] (half a pair added to LL and to WW)"), "{text}");
    // The games themselves, 4 - 4, are not adjusted: Wilson for 4 of 8.
    assert!(text.contains("Elo difference: +0.0 ± ") && text.contains("(95%), LOS 50.0%"), "{text}");
}

#[test]
fn a_near_perfect_score_has_finite_unadjusted_bounds() {
    // 2 - 1 printed `+120.4 ± inf [-325.3, +inf]` with the normal approximation.
    let outcomes = [outcome(0, true), outcome(1, true), outcome(2, false)];
    let text = MatchSummary::new(["one".into(), "two".into()], 3, &outcomes, None).to_string();
    // crates/tools/tests/stats/cases.expected, score 2 1: +120.412 [-232.624, +473.448].
    assert!(text.contains("Elo difference: +120.4 ± 353.0 [-232.6, +473.4] (95%), LOS"), "{text}");
}
