//! `veletas render` and the SVG pictures: well-formed XML (read by a real XML parser),
//! golden files, every piece of the position drawn once with its class, the last turn
//! marked; and the command line's errors (one line, non-zero exit, nothing written).
//!
//! Golden files live in `tests/data/svg/`; after a deliberate change of the drawing,
//! regenerate them with `UPDATE_GOLDEN=1 cargo test --test tools pictures::` and look at them.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::veletas;
use veletas_rules::record::{GameRecord, parse_records};
use veletas_rules::{Color, Move, PlayoutPolicy, Position, Rng, Rules, Variant};
use veletas_tools::picture::svg::{self, SvgOptions};

const EXAMPLE: &str = include_str!("../../data/example-game.txt");
const MODERN: &str = include_str!("../data/svg/modern-no-corners.txt");
const FROM_START: &str = include_str!("../data/svg/start-white-first.txt");

fn game(text: &str, n: usize) -> GameRecord {
    parse_records(text).unwrap().remove(n - 1)
}

/// The picture after `turns` turns of a recorded game, with its last turn.
fn picture_of(record: &GameRecord, turns: usize, options: &SvgOptions) -> (Position, String) {
    let game = record.replay(Some(turns)).unwrap();
    let last = game.moves().last();
    (game.position().clone(), svg::render(game.position(), last.as_ref(), options))
}

/// What the picture draws: square -> piece letter, from the `piece` groups, checking
/// that their classes match their letters and that no square holds two pieces.
fn drawn_pieces(doc: &roxmltree::Document) -> BTreeMap<String, char> {
    let mut pieces = BTreeMap::new();
    for node in doc.descendants().filter(|n| has_class(n, "piece")) {
        let square = node.attribute("data-square").expect("a piece names its square").to_string();
        let letter = node.attribute("data-piece").and_then(|p| p.chars().next()).expect("a piece names its letter");
        let expected_class = match letter {
            's' => "piece shooter",
            'b' => "piece stone black",
            'w' => "piece stone white",
            'B' => "piece shooter claimed black",
            'W' => "piece shooter claimed white",
            other => panic!("unknown piece letter {other}"),
        };
        assert_eq!(node.attribute("class"), Some(expected_class));
        assert!(pieces.insert(square.clone(), letter).is_none(), "two pieces on {square}");
    }
    pieces
}

fn has_class(node: &roxmltree::Node, class: &str) -> bool {
    node.attribute("class").is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

fn count_class(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants().filter(|n| has_class(n, class)).count()
}

/// The position's pieces, square -> letter of the position string.
fn position_pieces(position: &Position) -> BTreeMap<String, char> {
    position
        .variant()
        .board()
        .iter()
        .filter_map(|sq| position.piece_at(sq).map(|p| (sq.to_string(), svg::piece_letter(p))))
        .collect()
}

/// Checks a picture against its position: XML, pieces, classes, marks, corners.
fn check_picture(position: &Position, last: Option<&Move>, text: &str) {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    assert_eq!(drawn_pieces(&doc), position_pieces(position), "{position}");
    let stones = position.stones(Color::Black).count() + position.stones(Color::White).count();
    let shooters = position.shooters().count() + position.claims(Color::Black) + position.claims(Color::White);
    assert_eq!(count_class(&doc, "stone") as u32, stones, "{position}");
    assert_eq!(count_class(&doc, "shooter") as u32, shooters, "{position}");
    assert_eq!(count_class(&doc, "claimed") as u32, position.claims(Color::Black) + position.claims(Color::White));
    let corners = if position.rules().no_corners { 4 } else { 0 };
    assert_eq!(count_class(&doc, "missing-corner"), corners, "{position}");
    let marked = |kind: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| has_class(n, "mark") && has_class(n, kind))
            .map(|n| n.attribute("data-square").unwrap().to_string())
            .collect()
    };
    let (from, to) = (marked("from"), marked("to"));
    match last {
        None | Some(Move::Swap) => assert!(from.is_empty() && to.is_empty()),
        Some(Move::Turn(turn)) => {
            let mut expected_to = vec![turn.shot().to_string()];
            match turn.shooter_move() {
                Some((f, t)) => {
                    assert_eq!(from, vec![f.to_string()]);
                    expected_to.insert(0, t.to_string());
                    assert_eq!(count_class(&doc, "move"), 1);
                }
                None => assert!(from.is_empty()),
            }
            assert_eq!(to, expected_to);
        }
        Some(setup) => {
            assert!(from.is_empty());
            let mut squares: Vec<String> = setup.to_string().split([',', '/']).map(str::to_string).collect();
            squares.sort();
            let mut to = to;
            to.sort();
            assert_eq!(to, squares);
        }
    }
}

#[test]
fn pictures_of_every_turn_of_recorded_games_hold_exactly_the_positions_pieces() {
    for (text, games) in [(EXAMPLE, 1), (MODERN, 2), (FROM_START, 1)] {
        for n in 1..=games {
            let record = game(text, n);
            let full = record.replay(None).unwrap();
            let moves: Vec<Move> = full.moves().collect();
            for turns in 0..=moves.len() {
                let (position, picture) = picture_of(&record, turns, &SvgOptions::default());
                check_picture(&position, turns.checked_sub(1).map(|i| &moves[i]), &picture);
            }
        }
    }
}

#[test]
fn pictures_of_random_games_of_every_variant_and_rule_set_hold_their_pieces() {
    let mut rng = Rng::new(7);
    for variant in Variant::all() {
        for rules in Rules::all() {
            let mut position = Position::with_rules(variant, rules);
            let mut last = None;
            let options = SvgOptions { coordinates: rng.below(2) == 0, ..SvgOptions::default() };
            loop {
                check_picture(&position, last.as_ref(), &svg::render(&position, last.as_ref(), &options));
                let Some(mv) = position.random_move(&mut rng, PlayoutPolicy::Cheap) else { break };
                if position.is_over() {
                    break;
                }
                position.play(mv).unwrap();
                last = Some(mv);
            }
        }
    }
}

#[test]
fn coordinates_name_files_left_to_right_and_ranks_bottom_to_top() {
    let position: Position = "7/7/2s4/7/4s2/1s5/7 b".parse().unwrap();
    let text = svg::render(&position, None, &SvgOptions::default());
    let doc = roxmltree::Document::parse(&text).unwrap();
    let labels: Vec<(String, f64, f64)> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text" && n.ancestors().any(|a| has_class(&a, "coordinates")))
        .map(|n| {
            let at = |name| n.attribute(name).unwrap().parse::<f64>().unwrap();
            (n.text().unwrap().to_string(), at("x"), at("y"))
        })
        .collect();
    let find = |label: &str| labels.iter().find(|l| l.0 == label).unwrap().clone();
    assert_eq!(labels.len(), 14);
    assert!(find("a").1 < find("g").1);
    assert!(find("1").2 > find("7").2, "rank 1 is at the bottom");
    // The shooter on c5 stands in column c and row 5.
    let piece = doc.descendants().find(|n| n.attribute("data-square") == Some("c5")).unwrap();
    let transform = piece.attribute("transform").unwrap();
    let numbers: Vec<f64> = transform
        .trim_start_matches("translate(")
        .trim_end_matches(')')
        .split(' ')
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(numbers[0], find("c").1);
    assert!((numbers[1] - (find("5").2 - 5.0)).abs() < 1e-9);
    let without = svg::render(&position, None, &SvgOptions { coordinates: false, ..SvgOptions::default() });
    let doc = roxmltree::Document::parse(&without).unwrap();
    assert_eq!(count_class(&doc, "coordinates"), 0);
    assert_eq!(count_class(&doc, "piece"), 3);
}

#[test]
fn the_status_names_the_side_to_move_the_claims_and_the_swap() {
    let record = game(MODERN, 2);
    let (_, after_swap) = picture_of(&record, 2, &SvgOptions::default());
    let doc = roxmltree::Document::parse(&after_swap).unwrap();
    let status: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text" && n.ancestors().any(|a| has_class(&a, "status")))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        status,
        ["White to move (setup)", "Claims: Black 0, White 0 (3 to win)", "modern rules, no-corners, White swapped"]
    );
    let (end, picture) = picture_of(&game(EXAMPLE, 1), 18, &SvgOptions::default());
    assert_eq!(end.winner(), Some(Color::White));
    assert!(picture.contains(">White wins</text>") && picture.contains("Claims: Black 0, White 2 (2 to win)"));
    let no_status = svg::render(&end, None, &SvgOptions { status: false, ..SvgOptions::default() });
    assert!(!no_status.contains("class=\"status\""));
}

/// The golden pictures: (file name, picture).
fn golden_pictures() -> Vec<(&'static str, String)> {
    let options = SvgOptions::default();
    let example = game(EXAMPLE, 1);
    let (plain, swapped) = (game(MODERN, 1), game(MODERN, 2));
    let empty = Position::new(Variant::STANDARD);
    vec![
        ("setup.svg", picture_of(&example, 2, &options).1),
        ("midgame.svg", picture_of(&example, 12, &options).1),
        ("end-classic.svg", picture_of(&example, 18, &options).1),
        ("claims-both-colours.svg", picture_of(&plain, 56, &options).1),
        ("modern-stone-and-swap.svg", picture_of(&swapped, 2, &options).1),
        ("no-corners.svg", picture_of(&swapped, 9, &options).1),
        ("empty-10x10-no-coordinates.svg", svg::render(&empty, None, &SvgOptions { coordinates: false, ..options })),
    ]
}

#[test]
fn pictures_match_the_golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/svg");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    for (name, picture) in golden_pictures() {
        let path = dir.join(name);
        if update {
            fs::write(&path, &picture).unwrap();
            continue;
        }
        let golden = fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (UPDATE_GOLDEN=1 cargo test --test tools pictures:: writes it)", path.display())
        });
        assert!(
            golden == picture,
            "{name} differs from its golden file; if the change is meant, run UPDATE_GOLDEN=1 cargo test --test tools pictures::"
        );
    }
}

// ---- the command line ----

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pictures").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn example_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/example-game.txt").display().to_string()
}

/// The error of a refused command line (a bad option or input file): exit code 2, nothing
/// on stdout, one line on stderr.
fn one_line_error(output: &Output) -> String {
    one_line_error_exiting(output, 2)
}

/// The error of a run that failed (an output that cannot be written): exit code 1, nothing
/// on stdout, one line on stderr.
fn one_line_failure(output: &Output) -> String {
    one_line_error_exiting(output, 1)
}

fn one_line_error_exiting(output: &Output, code: i32) -> String {
    assert_eq!(output.status.code(), Some(code), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn render_writes_the_same_picture_as_the_library_to_stdout_or_a_file() {
    let dir = scratch("render");
    let out = dir.join("turn12.svg");
    let output = veletas(&["render", "--record", &example_path(), "--turn", "12", "-o", out.to_str().unwrap()]);
    assert!(output.status.success() && output.stdout.is_empty(), "{output:?}");
    assert_eq!(fs::read_to_string(&out).unwrap(), picture_of(&game(EXAMPLE, 1), 12, &SvgOptions::default()).1);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");

    let output = veletas(&["render", "7/7/2s4/7/4s2/1s5/7", "b", "--size", "300", "--no-coordinates"]);
    assert!(output.status.success(), "{output:?}");
    let position: Position = "7/7/2s4/7/4s2/1s5/7 b".parse().unwrap();
    let options = SvgOptions { width: 300, coordinates: false, status: true };
    assert_eq!(String::from_utf8(output.stdout).unwrap(), svg::render(&position, None, &options));

    // The last game of a file, at its end by default.
    let modern = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/svg/modern-no-corners.txt");
    let output = veletas(&["render", "--record", modern.to_str().unwrap(), "--game", "2"]);
    let record = game(MODERN, 2);
    let expected = picture_of(&record, record.moves().len(), &SvgOptions::default()).1;
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}

#[test]
fn render_errors_are_one_line_and_write_nothing() {
    let dir = scratch("render-errors");
    let out = dir.join("out.svg");
    let out_arg = out.to_str().unwrap().to_string();
    let bad_record = dir.join("bad.txt");
    fs::write(&bad_record, "[Event \"x\"]\n[Size \"7\"]\n[Result oops]\n\n1. d4 B+\n").unwrap();
    let empty = dir.join("empty.txt");
    fs::write(&empty, "").unwrap();
    let example = example_path();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["render", "--record", bad_record.to_str().unwrap(), "-o", &out_arg], "bad.txt: line 3: bad tag line"),
        (vec!["render", "--record", empty.to_str().unwrap(), "-o", &out_arg], "empty.txt: no games"),
        (vec!["render", "7/7/7", "b", "-o", &out_arg], "invalid position '7/7/7 b'"),
        (
            vec!["render", "--record", &example, "--turn", "30", "-o", &out_arg],
            "game 1: the game has only 18 turns, not 30",
        ),
        (vec!["render", "--record", &example, "--game", "2", "-o", &out_arg], "no game 2 (the file holds 1)"),
        (vec!["render", "--record", dir.to_str().unwrap(), "-o", &out_arg], "not a regular file"),
        (vec!["render", "--record", "/nonexistent/games.txt", "-o", &out_arg], "/nonexistent/games.txt: "),
    ];
    for (args, message) in cases {
        let error = one_line_error(&veletas(&args));
        assert!(error.starts_with("veletas render: ") && error.contains(message), "{args:?}: {error}");
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    // Outputs that cannot be written: a missing directory, a directory.
    for target in ["/nonexistent/dir/out.svg", dir.to_str().unwrap()] {
        let error = one_line_failure(&veletas(&["render", "7/7/7/7/7/7/7 b", "-o", target]));
        assert!(error.contains(&format!("{target}: ")), "{error}");
    }
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 2, "only the two input files: nothing half-written");
    // A failed run leaves an existing output as it was.
    fs::write(&out, "old").unwrap();
    one_line_error(&veletas(&["render", "--record", &example, "--turn", "99", "-o", &out_arg]));
    assert_eq!(fs::read_to_string(&out).unwrap(), "old");
    // --size is the picture's width, not the board's.
    let output = veletas(&["render", "7/7/7/7/7/7/7 b", "--size", "7"]);
    assert!(!output.status.success());
}

#[test]
fn view_errors_are_one_line_and_write_nothing_and_games_that_do_not_replay_are_skipped() {
    let dir = scratch("view-errors");
    let out = dir.join("games.html");
    let out_arg = out.to_str().unwrap().to_string();
    let illegal = dir.join("illegal.txt");
    fs::write(&illegal, "[Size \"7\"]\n\n1. a3 e1,f7 2. e1-a1/a1 B+\n").unwrap();
    let unfinished = dir.join("unfinished.txt");
    fs::write(&unfinished, "[Size \"7\"]\n\n1. a3 e1,f7\n").unwrap();
    let empty = dir.join("empty.txt");
    fs::write(&empty, "\n").unwrap();
    let example = example_path();
    let cases = [
        (unfinished.to_str().unwrap(), "unfinished.txt: line 1: the game starting here has no result"),
        (empty.to_str().unwrap(), "empty.txt: no games"),
    ];
    for (bad, message) in cases {
        let error = one_line_error(&veletas(&["view", &example, bad, "-o", &out_arg]));
        assert!(error.starts_with("veletas view: ") && error.contains(message), "{error}");
        assert!(!out.exists());
    }
    // A game that does not replay is left out with a warning naming it, as ratings does.
    let output = veletas(&["view", &example, illegal.to_str().unwrap(), "-o", &out_arg]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("illegal.txt: game 1: turn 3 (e1-a1/a1): illegal move"), "{stderr}");
    assert!(stderr.trim_end().ends_with(": skipped") && stderr.trim_end().lines().count() == 1, "{stderr}");
    assert!(!fs::read_to_string(&out).unwrap().contains("e1-a1/a1"));
    fs::remove_file(&out).unwrap();
    let error = one_line_failure(&veletas(&["view", &example, "-o", "/nonexistent/dir/games.html"]));
    assert!(error.contains("/nonexistent/dir/games.html"), "{error}");
}

#[test]
fn view_embeds_every_game_and_needs_no_network() {
    let dir = scratch("view");
    let out = dir.join("games.html");
    let modern = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/svg/modern-no-corners.txt");
    let output = veletas(&[
        "view",
        &example_path(),
        modern.to_str().unwrap(),
        "--title",
        "a <b> test",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let html = fs::read_to_string(&out).unwrap();
    assert!(html.contains("<title>a &lt;b&gt; test</title>"));
    for reference in ["http://", "https://", "src=\"", "<link rel=\"stylesheet"] {
        let outside = html.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside.contains(reference), "the page refers to something outside it: {reference}");
    }
    // The data block holds one entry per game, with the moves in canonical notation.
    let data = html.split("<script type=\"application/json\" id=\"veletas-data\">").nth(1).unwrap();
    let data = data.split("</script>").next().unwrap();
    assert_eq!(data.lines().filter(|l| l.starts_with('[')).count(), 3);
    assert!(data.contains("\"e7,h8/c3 swap "), "the swap game is there");
    assert!(data.contains("\"a3 e1,f7 e1-a1/a2 "));
}
