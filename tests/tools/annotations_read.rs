//! One record as today's writer writes it, every annotation word on its turns (the time, the
//! win rate and visits, the best line `pv=`, the first steps `steps=`), is read whole by each
//! reader: `veletas view`, the report (`veletas ratings --format html`, the same viewer) and
//! the GUI's loader, whose saved record gives the annotations back unchanged.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use veletas_rules::Color;
use veletas_rules::record::{Annotation, GameRecord, parse_records};

use crate::same_verdict::{api, with_gui};
use crate::support::veletas;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// A whole 7x7 game of the fake engine against itself (`veletas match`), its turns 3 to 6
/// annotated with every word, written by the record writer: the file and the game.
fn annotated_record(dir: &Path) -> (PathBuf, GameRecord) {
    let played = dir.join("played.txt");
    let fake2 = format!("{FAKE} --seed 2");
    let args = ["match", "--engine", FAKE, "--engine", &fake2, "--games", "2", "--size", "7", "-q", "--record"];
    let out = veletas(&[&args[..], &[played.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut game = parse_records(&std::fs::read_to_string(&played).unwrap()).unwrap().remove(0);
    assert!(game.moves().len() >= 8, "a game long enough to annotate: {}", game.moves().len());
    for turn in 2..6 {
        let line = format!("{};{}", game.moves()[turn], game.moves()[turn + 1]);
        let words =
            format!("{}.{:02}%/{} 0.{}s pv={line} steps=d4-d7:230,-:40", 40 + 5 * turn, turn, 100 * turn, 800 + turn);
        let annotation: Annotation = words.parse().unwrap_or_else(|e| panic!("{words}: {e}"));
        game.set_annotation(turn, annotation);
    }
    let file = dir.join("annotated.txt");
    std::fs::write(&file, game.to_string()).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(" 0.803s pv=") && text.contains("steps=d4-d7:230,-:40}"), "every word written: {text}");
    (file, game)
}

/// What the viewer's page carries of each turn of `game`: its annotation word's first three
/// parts (`MS,WIN,VISITS`, Black's win rate) and its best line, as `picture::viewer` writes them.
fn expected_words(game: &GameRecord) -> (Vec<String>, String) {
    let mut words = Vec::new();
    let mut position = game.replay(Some(0)).unwrap();
    for turn in 0..game.moves().len() {
        let annotation = game.annotation(turn);
        let mover = position.position().side_to_move();
        if let Some(e) = annotation.evaluation {
            let black = if mover == Color::Black { e.winrate } else { e.winrate.other_side() };
            let ms = annotation.time.map_or(String::new(), |t| t.as_millis().to_string());
            words.push(format!(" {ms},{},{},", black.hundredths(), e.visits));
        }
        position.play(position.position().parse_move(game.moves()[turn].as_str()).unwrap()).unwrap();
    }
    let lines: Vec<String> = (0..game.moves().len())
        .map(|i| game.annotation(i).best_line.map_or("-".to_string(), |l| l.turns().join(";")))
        .collect();
    (words, format!(r#""{}""#, lines.join(" ")))
}

fn assert_page_reads(page: &Path, game: &GameRecord, what: &str) {
    let page = std::fs::read_to_string(page).unwrap();
    let (words, lines) = expected_words(game);
    assert_eq!(words.len(), 4);
    for word in &words {
        assert!(page.contains(word.as_str()), "{what}: the time, win rate and visits {word:?}");
    }
    assert!(page.contains(&lines), "{what}: the best lines {lines}");
}

#[test]
fn a_record_written_today_is_read_whole_by_the_viewer_the_report_and_the_gui() {
    let dir = scratch!("annotations-read");
    let (file, game) = annotated_record(&dir);

    let html = dir.join("view.html");
    let out = veletas(&["view", file.to_str().unwrap(), "-o", html.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_page_reads(&html, &game, "veletas view");

    let report = dir.join("report.html");
    let out = veletas(&["ratings", file.to_str().unwrap(), "--format", "html", "-o", report.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_page_reads(&report, &game, "the report");

    // The GUI's loader: the record pasted as a new game's start, between two persons.
    let text = std::fs::read_to_string(&file).unwrap();
    let (view, saved) = with_gui(Vec::new(), |address| {
        let ask = json!({"size": 7, "rules": "classic", "start": text, "black": null, "white": null});
        let view = api(address, "POST", "/api/games", &ask.to_string());
        let record = api_text(address, &format!("/api/games/{}/record", view["id"]));
        (view, record)
    });
    let winrates = view["winrates"].as_array().unwrap_or_else(|| panic!("{view}"));
    let mut position = game.replay(Some(0)).unwrap();
    for turn in 0..game.moves().len() {
        let black = game.annotation(turn).evaluation.map(|e| {
            let rate =
                if position.position().side_to_move() == Color::Black { e.winrate } else { e.winrate.other_side() };
            rate.probability()
        });
        let shown = winrates[turn].as_f64();
        let same = match (shown, black) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            (a, b) => a == b,
        };
        assert!(same, "the GUI's win rate of the position before turn {}: {shown:?}, not {black:?}", turn + 1);
        let line: Vec<Value> = game
            .annotation(turn)
            .best_line
            .map_or(Vec::new(), |l| l.turns().iter().map(|t| Value::from(t.as_str())).collect());
        assert_eq!(view["lines"][turn].as_array().cloned().unwrap_or_default(), line, "the GUI's best line {turn}");
        position.play(position.position().parse_move(game.moves()[turn].as_str()).unwrap()).unwrap();
    }
    let saved = parse_records(&saved).unwrap_or_else(|e| panic!("{e}: {saved}")).remove(0);
    for turn in 0..game.moves().len() {
        assert_eq!(saved.annotation(turn), game.annotation(turn), "the GUI saves turn {}'s annotation back", turn + 1);
    }
}

/// The body of a GET to the GUI at `address`, as text.
fn api_text(address: &str, path: &str) -> String {
    use std::io::{Read as _, Write as _};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(60))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split_once("\r\n\r\n").map_or(String::new(), |(_, body)| body.to_string())
}
