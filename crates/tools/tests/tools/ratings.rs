//! The ratings of a whole field (`veletas_tools::ratings`) against an independent computation
//! (`tests/ratings/bt_reference.py`, frozen into `tests/ratings/*.expected`), against
//! fields worked out by hand, and by their properties.

use std::collections::HashMap;
use std::path::Path;

use veletas_rules::Color;
use veletas_tools::ratings::json::RatingsJson;
use veletas_tools::ratings::{RatedGame, RatingBound, RatingOptions, Standings, rate};

/// `ln 10 / 400`: one Elo in natural-log odds.
const C: f64 = std::f64::consts::LN_10 / 400.0;
const Z95: f64 = 1.959_963_984_540_054;

/// Games from `(black, white, black wins, white wins)`.
fn games(list: &[(&str, &str, u64, u64)]) -> Vec<RatedGame> {
    let mut out = Vec::new();
    for &(black, white, black_wins, white_wins) in list {
        out.extend((0..black_wins).map(|_| RatedGame::new(black, white, Color::Black)));
        out.extend((0..white_wins).map(|_| RatedGame::new(black, white, Color::White)));
    }
    out
}

/// A field file of `BLACK WHITE BLACK_WINS WHITE_WINS` lines, as the Python script reads it.
fn field_games(text: &str) -> Vec<RatedGame> {
    let mut list = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        assert_eq!(words.len(), 4, "{line}");
        list.push((words[0], words[1], words[2].parse().unwrap(), words[3].parse().unwrap()));
    }
    games(&list)
}

fn standings(games: &[RatedGame]) -> Standings {
    rate(games, &RatingOptions::default()).unwrap()
}

fn engine<'a>(s: &'a Standings, name: &str) -> (usize, &'a veletas_tools::ratings::EngineStanding) {
    s.engines.iter().enumerate().find(|(_, e)| e.name == name).unwrap_or_else(|| panic!("no engine {name}"))
}

/// Checks the standings of `field` against the reference script's output `expected`.
fn check_against_reference(field: &str, expected: &str) {
    let s = standings(&field_games(field));
    let mut seen = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "rating" => {
                let (_, e) = engine(&s, words[1]);
                let (rating, error): (f64, f64) = (words[2].parse().unwrap(), words[3].parse().unwrap());
                assert!((e.rating - rating).abs() < 0.01, "{}: {} vs reference {rating}", e.name, e.rating);
                assert!((e.error - error).abs() < 0.01, "{}: error {} vs reference {error}", e.name, e.error);
                assert_eq!(e.mark != RatingBound::Exact, words[4] == "1", "{}: mark {:?}", e.name, e.mark);
            }
            "los" => {
                let ((i, _), (j, _)) = (engine(&s, words[1]), engine(&s, words[2]));
                let los: f64 = words[3].parse().unwrap();
                assert!((s.los[i][j] - los).abs() < 1e-6, "LOS {} {}: {} vs {los}", words[1], words[2], s.los[i][j]);
            }
            other => panic!("unknown line {other}"),
        }
        seen += 1;
    }
    let n = s.engines.len();
    assert_eq!(seen, n + n * (n - 1));
}

/// `field_one_sided` (300,000 games all won by one side) and `field_star` (one engine
/// beating 60 others 200-0 each) are issue 25's large one-sided fields.
const FIELDS: [&str; 5] = ["field_six", "field_marked", "field_groups", "field_one_sided", "field_star"];

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ratings").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn ratings_errors_and_los_match_the_python_reference() {
    for field in FIELDS {
        check_against_reference(&read(&format!("{field}.txt")), &read(&format!("{field}.expected")));
    }
}

#[test]
fn the_frozen_reference_values_are_what_the_script_prints() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ratings");
    for field in FIELDS {
        let output = match std::process::Command::new("python3")
            .arg(dir.join("bt_reference.py"))
            .arg(dir.join(format!("{field}.txt")))
            .output()
        {
            Ok(output) => output,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("python3 not found: the frozen values are checked, the script is not rerun");
                return;
            }
            Err(e) => panic!("python3: {e}"),
        };
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(String::from_utf8(output.stdout).unwrap(), read(&format!("{field}.expected")), "{field}");
    }
}

#[test]
fn a_chain_without_a_closing_pair_rates_each_link_by_its_own_score() {
    // a-b and b-c only, each 3-1: a tree, so each difference is the logit of its score,
    // 400 log10(3), and the differences are independent with variance v = 1 / (c² N p q).
    let s = standings(&games(&[("a", "b", 2, 0), ("b", "a", 1, 1), ("b", "c", 2, 0), ("c", "b", 1, 1)]));
    let d = 400.0 * 3f64.log10();
    let v = 1.0 / (C * C * 4.0 * 0.75 * 0.25);
    // Around the mean: a = (2 d1 + d2) / 3, b = (d2 - d1) / 3, c = -(d1 + 2 d2) / 3.
    for (name, rating, variance) in [("a", d, 5.0 * v / 9.0), ("b", 0.0, 2.0 * v / 9.0), ("c", -d, 5.0 * v / 9.0)] {
        let (_, e) = engine(&s, name);
        assert!((e.rating - rating).abs() < 1e-6, "{name}: {}", e.rating);
        assert!((e.error - Z95 * variance.sqrt()).abs() < 1e-6, "{name}: {}", e.error);
        assert_eq!(e.mark, RatingBound::Exact);
    }
    // LOS of a over b: Φ(d / sqrt(v)).
    let expected = 0.5 * (1.0 + veletas_tools::stats::erf(d / v.sqrt() / std::f64::consts::SQRT_2));
    assert!((s.los[0][1] - expected).abs() < 1e-9);
}

#[test]
fn a_symmetric_cycle_rates_everyone_zero_with_equal_errors() {
    // a beats b, b beats c, c beats a, each 3-1: all ratings 0 by symmetry. At 0 every game
    // has p q = 1/4, so the information is c² (3 I - J) and the mean-0 variance 2 / (9 c²).
    let s = standings(&games(&[("a", "b", 3, 1), ("b", "c", 3, 1), ("c", "a", 3, 1)]));
    let error = Z95 * (2.0 / (9.0 * C * C)).sqrt();
    for e in &s.engines {
        assert!(e.rating.abs() < 1e-9);
        assert!((e.error - error).abs() < 1e-6, "{} vs {error}", e.error);
        assert_eq!(e.score_percent(), 50.0);
    }
}

/// A connected field of four engines, A ahead of B ahead of C ahead of D.
fn ordered_field() -> Vec<RatedGame> {
    games(&[
        ("A", "B", 6, 4),
        ("B", "A", 4, 6),
        ("A", "C", 7, 3),
        ("C", "A", 2, 8),
        ("B", "C", 6, 4),
        ("C", "B", 4, 6),
        ("A", "D", 9, 1),
        ("D", "A", 1, 9),
        ("B", "D", 7, 3),
        ("D", "C", 3, 7),
    ])
}

#[test]
fn a_beats_b_beats_c_orders_them_so_around_a_mean_of_zero() {
    let s = standings(&ordered_field());
    let names: Vec<&str> = s.engines.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
    assert_eq!(s.engines.iter().map(|e| e.rank).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(s.engines.windows(2).all(|w| w[0].rating > w[1].rating));
    assert!(s.engines.iter().map(|e| e.rating).sum::<f64>().abs() < 1e-9);
    assert!(s.engines.iter().all(|e| e.mark == RatingBound::Exact));
    assert!(s.los[0][1] > 0.5 && s.los[1][2] > 0.5 && s.los[0][3] > 0.99);
}

#[test]
fn an_anchor_shifts_every_rating_by_the_same_amount_and_zeroes_its_own_error() {
    let field = ordered_field();
    let free = standings(&field);
    let anchored = rate(&field, &RatingOptions { anchor: Some(("C".into(), 1500.0)) }).unwrap();
    let (_, c) = engine(&free, "C");
    let shift = 1500.0 - c.rating;
    for (a, b) in free.engines.iter().zip(&anchored.engines) {
        assert_eq!(a.name, b.name);
        assert!((b.rating - a.rating - shift).abs() < 1e-9);
    }
    let (_, c) = engine(&anchored, "C");
    assert_eq!((c.rating, c.error), (1500.0, 0.0));
    // Errors against the anchor are larger than against the mean of the field, for the
    // others; the LOS does not depend on where the scale is pinned.
    assert!(anchored.engines.iter().filter(|e| e.name != "C").all(|e| e.error > 0.0));
    assert_eq!(free.los, anchored.los);
}

#[test]
fn twice_the_same_games_give_the_same_ratings_with_errors_over_sqrt_2() {
    let field = ordered_field();
    let once = standings(&field);
    let twice = standings(&[field.clone(), field].concat());
    for (a, b) in once.engines.iter().zip(&twice.engines) {
        assert!((a.rating - b.rating).abs() < 1e-6);
        assert!((b.error * std::f64::consts::SQRT_2 - a.error).abs() < 1e-6, "{} {}", a.error, b.error);
    }
}

#[test]
fn perfect_and_zero_scores_get_finite_marked_ratings() {
    let mut field = ordered_field();
    field.extend(games(&[("P", "A", 3, 0), ("B", "P", 0, 2), ("Z", "D", 0, 2), ("C", "Z", 1, 0)]));
    let s = standings(&field);
    let (p_rank, p) = engine(&s, "P");
    let (z_rank, z) = engine(&s, "Z");
    assert_eq!((p_rank, z_rank), (0, s.engines.len() - 1));
    assert_eq!((p.mark, z.mark), (RatingBound::AtLeast, RatingBound::AtMost));
    assert!(s.engines.iter().all(|e| e.rating.is_finite() && e.error.is_finite() && e.error > 0.0));
    assert!(
        s.engines
            .iter()
            .filter(|e| e.name.len() == 1 && e.name != "P" && e.name != "Z")
            .all(|e| e.mark == RatingBound::Exact)
    );
    assert!(s.notes.iter().any(|n| n.contains("virtual game")));
    let text = s.text(false);
    assert!(text.contains(">+") && text.contains("<-"), "{text}");
}

#[test]
fn an_anchor_that_never_won_is_exact_and_the_others_are_marked_against_it() {
    // A and B split their games; both beat Z, who played no one else. Z anchored at 0.
    let field = games(&[("A", "B", 3, 2), ("B", "A", 2, 3), ("A", "Z", 2, 0), ("Z", "B", 0, 2)]);
    let anchored = rate(&field, &RatingOptions { anchor: Some(("Z".to_string(), 0.0)) }).unwrap();
    let z = engine(&anchored, "Z").1;
    assert_eq!((z.rating, z.error, z.mark), (0.0, 0.0, RatingBound::Exact));
    for name in ["A", "B"] {
        let e = engine(&anchored, name).1;
        assert_eq!(e.mark, RatingBound::AtLeast, "{name}");
        assert!(e.rating > 0.0 && e.error > 0.0, "{name}: {} ± {}", e.rating, e.error);
    }
    let text = anchored.text(false);
    assert!(text.contains("  0      0") && !text.contains("<0"), "{text}");
    // The same games anchored in the main group mark Z as before.
    let main = rate(&field, &RatingOptions { anchor: Some(("A".to_string(), 0.0)) }).unwrap();
    assert_eq!((engine(&main, "A").1.mark, engine(&main, "Z").1.mark), (RatingBound::Exact, RatingBound::AtMost));
}

#[test]
fn groups_without_games_between_them_are_rated_marked_and_noted() {
    let mut field = ordered_field();
    field.extend(games(&[("X", "Y", 3, 2), ("Y", "X", 1, 2)]));
    let s = standings(&field);
    assert_eq!(s.groups, 2);
    assert_eq!(engine(&s, "X").1.mark, RatingBound::Unpinned);
    assert!(s.notes.iter().any(|n| n.contains("2 groups")));
}

#[test]
fn csv_has_the_exact_header_and_rows_best_first() {
    let mut field = ordered_field();
    field.extend(games(&[("A", "we, \"quoted\"", 1, 1)]));
    let s = standings(&field);
    let csv = s.csv();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("rank,name,rating,error,games,score"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), s.engines.len());
    let mut last = f64::INFINITY;
    for (i, (row, e)) in rows.iter().zip(&s.engines).enumerate() {
        let name = veletas_tools::ratings::render::csv_field(&e.name);
        let expected = format!(
            "{},{name},{},{},{},{:.1}",
            i + 1,
            e.rating.round() as i64,
            e.error.round() as i64,
            e.games(),
            (e.score_percent() * 10.0).round() / 10.0
        );
        assert_eq!(*row, expected);
        assert!(e.rating <= last + 1e-6, "best first (ties within a millionth of an Elo by name)");
        last = e.rating;
    }
    assert!(csv.contains("\"we, \"\"quoted\"\"\""), "{csv}");
}

#[test]
fn json_parses_and_holds_the_standings() {
    let mut field = ordered_field();
    field.extend(games(&[("P", "A", 3, 0), ("A", "tab\tand \\ \"quote\"", 1, 1)]));
    let s = rate(&field, &RatingOptions { anchor: Some(("D".into(), -100.0)) }).unwrap();
    let json: RatingsJson = serde_json::from_str(&s.json(true)).expect("valid JSON");
    let n = s.engines.len();
    assert_eq!(json.games, s.games);
    assert_eq!(json.anchor.as_ref().map(|a| a.name.as_str()), Some("D"));
    let engines = &json.engines;
    assert_eq!(engines.len(), n);
    let by_name: HashMap<&str, _> = engines.iter().map(|e| (e.name.as_str(), e)).collect();
    assert_eq!(by_name["P"].mark, ">");
    assert!(by_name.contains_key("tab\tand \\ \"quote\""));
    for (e, j) in s.engines.iter().zip(engines) {
        assert_eq!(j.name, e.name);
        assert!((j.rating.unwrap() - e.rating).abs() <= 0.05);
        assert_eq!(j.games, e.games());
        assert_eq!(j.black.games + j.white.games, e.games());
    }
    let crosstable = &json.crosstable;
    assert_eq!(crosstable.len(), n);
    assert!(crosstable[0][0].is_none());
    assert_eq!(crosstable[0][1].unwrap().wins, s.crosstable[0][1].wins);
    assert_eq!(json.los.len(), n);
    assert_eq!(json.head_to_head.unwrap().len(), s.head_to_head().len());
    assert_eq!(json.notes, s.notes);
}

#[test]
fn head_to_head_uses_only_each_pairs_own_games() {
    let s = standings(&ordered_field());
    let pairs = s.head_to_head();
    assert_eq!(pairs.len(), 6);
    let ab = pairs.iter().find(|p| s.engines[p.first].name == "A" && s.engines[p.second].name == "B").unwrap();
    assert_eq!((ab.score.wins, ab.score.losses), (12, 8));
    assert_eq!(Some(ab.interval), veletas_tools::stats::Score::new(12, 8).elo_interval());
}

#[test]
fn random_sparse_fields_always_rate_finitely_around_a_mean_of_zero() {
    // Fields of every shape: sweeps, chains, disconnected groups, lopsided counts.
    let mut rng = veletas_rules::Rng::new(2026);
    for round in 0..300 {
        let n = 2 + rng.below(9) as usize;
        let names: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
        let count = 1 + rng.below(40);
        let mut field: Vec<RatedGame> = (0..count)
            .map(|_| {
                let a = rng.below(n as u32) as usize;
                let b = (a + 1 + rng.below(n as u32 - 1) as usize) % n;
                let winner = if rng.below(10) < 8 { Color::Black } else { Color::White };
                RatedGame::new(&names[a], &names[b], winner)
            })
            .collect();
        if round % 3 == 0 {
            // Lopsided: many more games of one result.
            let extra = field[0].clone();
            field.extend(std::iter::repeat_n(extra, 500));
        }
        let s = rate(&field, &RatingOptions::default()).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert!(s.engines.iter().all(|e| e.rating.is_finite() && e.error.is_finite() && e.error > 0.0), "{round}");
        let mean = s.engines.iter().map(|e| e.rating).sum::<f64>() / s.engines.len() as f64;
        assert!(mean.abs() < 1e-6, "round {round}: mean {mean}");
        assert!(s.los.iter().flatten().all(|p| (0.0..=1.0).contains(p)));
        assert!(s.iterations < 100, "round {round}: {} iterations", s.iterations);
    }
}

/// `σ(x)`.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 { 1.0 / (1.0 + (-x).exp()) } else { x.exp() / (1.0 + x.exp()) }
}

#[test]
fn one_engine_beating_500_others_400_0_each_converges_to_the_symmetric_maximum() {
    // Every engine carries the prior (no engine lost a game to an engine it beat). By
    // symmetry the others share one rating, -a / 500 when the top one has a (mean 0), and
    // the objective along that line is
    //   f(a) = 200,000 ln σ(c a (1 + 1/K)) + [ln σ(c a) + ln σ(-c a)] / 2
    //          + K [ln σ(c a / K) + ln σ(-c a / K)] / 2,   K = 500,
    // whose slope (over c) falls through 0 once: found here by bisection, independently
    // of the solver's Newton steps on all 501 ratings.
    const K: usize = 500;
    let k = K as f64;
    let slope = |a: f64| {
        400.0 * k * (1.0 + 1.0 / k) * sigmoid(-C * a * (1.0 + 1.0 / k))
            + 0.5 * (sigmoid(-C * a) - sigmoid(C * a))
            + 0.5 * (sigmoid(-C * a / k) - sigmoid(C * a / k))
    };
    let (mut lo, mut hi) = (0.0, 20_000.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if slope(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let a = (lo + hi) / 2.0;
    let names: Vec<String> = (0..K).map(|i| format!("o{i}")).collect();
    let field: Vec<RatedGame> =
        names.iter().flat_map(|name| std::iter::repeat_n(RatedGame::new("top", name, Color::Black), 400)).collect();
    let s = rate(&field, &RatingOptions::default()).unwrap();
    assert_eq!(s.games, 200_000);
    assert!((engine(&s, "top").1.rating - a).abs() < 1e-6, "{} vs {a}", engine(&s, "top").1.rating);
    for name in &names {
        assert!((engine(&s, name).1.rating + a / k).abs() < 1e-6);
        assert_eq!(engine(&s, name).1.mark, RatingBound::AtMost);
    }
    assert_eq!(engine(&s, "top").1.mark, RatingBound::AtLeast);
}
