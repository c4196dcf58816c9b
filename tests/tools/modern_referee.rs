//! The referee under the modern rules: the swap (engines exchange colours, scores go to
//! the right engine, the record notes it, resume understands it), modern random
//! openings, the random-setup start and no-corners.

use std::path::Path;

use veletas::cli::MatchArgs;
use veletas_rules::{Move, Phase, Position};
use veletas_tools::referee::{GameRecord, MatchSummary, Termination, parse_records, run_match};

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

fn fake(flags: &str) -> String {
    format!("'{FAKE}' {flags}")
}

fn run(args: &[&str]) -> MatchSummary {
    run_match(&MatchArgs::parse_from(args).unwrap().plan().unwrap()).unwrap()
}

fn read_games(path: &Path) -> Vec<GameRecord> {
    parse_records(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn modern_match(one: &str, two: &str, games: &str, record: &Path, extra: &[&str]) -> MatchSummary {
    let mut args = vec![
        "--engine",
        one,
        "--engine",
        two,
        "--games",
        games,
        "--size",
        "7",
        "--rules",
        "modern",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Engine 1's wins according to the records (BlackEngine names the engine that
/// played Black after any swap).
fn engine1_wins(games: &[GameRecord]) -> u64 {
    games
        .iter()
        .filter(|g| (g.result == Some(veletas_rules::Color::Black)) == (g.tag("BlackEngine") == Some("1")))
        .count() as u64
}

#[test]
fn a_swap_exchanges_the_engines_colours_and_is_recorded() {
    let dir = scratch!("swap");
    let record = dir.join("games.txt");
    let summary =
        modern_match(&fake("--seed 1 --swap --name swapper"), &fake("--seed 2 --name plain"), "4", &record, &[]);
    assert_eq!(summary.games, 4);
    let games = read_games(&record);
    assert_eq!(games.len(), 4);
    assert_eq!(engine1_wins(&games), summary.score.wins);
    for g in &games {
        assert_eq!(g.tag("Rules"), Some("modern"));
        let round: usize = g.tag("Round").unwrap().parse().unwrap();
        // Engine 1 is White in rounds 2 and 4, and swaps there: it then plays Black.
        let swapped = round.is_multiple_of(2);
        assert_eq!(g.tag("Swap").is_some(), swapped, "{g}");
        assert_eq!(g.moves().iter().any(|m| m == "swap"), swapped, "{g}");
        assert_eq!(g.tag("BlackEngine"), Some("1"), "{g}");
        assert_eq!(g.tag("Black"), Some("swapper 0.1 (--seed 1 --swap --name swapper)"));
        let end = g.position_after(None).unwrap();
        assert_eq!(end.winner(), g.winner(), "{g}");
        assert_eq!(g.tag("Termination"), Some("normal"));
    }
    // Resuming the match with more games accepts the swapped games as recorded.
    let summary =
        modern_match(&fake("--seed 1 --swap --name swapper"), &fake("--seed 2 --name plain"), "6", &record, &[]);
    assert_eq!(summary.games, 6);
    assert_eq!(read_games(&record).len(), 6);
}

#[test]
fn a_loss_after_the_swap_goes_to_the_engine_that_swapped() {
    // Engine 1 swaps as White, then makes an illegal move at its second genmove, as
    // Black; as Black from the start it also errs at its second genmove. It must lose
    // every game, with the loser's colour as played at the time.
    let dir = scratch!("swap-loss");
    let record = dir.join("games.txt");
    let summary = modern_match(&fake("--seed 1 --swap --illegal-at 2"), &fake("--seed 2"), "4", &record, &[]);
    assert_eq!((summary.score.wins, summary.score.losses), (0, 4));
    assert_eq!(summary.terminations, vec![(Termination::IllegalMove, 4)]);
    for g in read_games(&record) {
        assert_eq!(g.tag("BlackEngine"), Some("1"), "{g}");
        assert_eq!(g.result, Some(veletas_rules::Color::White), "{g}");
        assert!(g.tag("Reason").unwrap().starts_with("black: "), "{g}");
    }
}

#[test]
fn modern_random_openings_hold_setup_stones_and_no_swap() {
    let dir = scratch!("openings");
    let record = dir.join("games.txt");
    modern_match(&fake("--seed 1"), &fake("--seed 2"), "2", &record, &["--no-corners"]);
    for g in read_games(&record) {
        assert_eq!(g.tag("Rules"), Some("modern no-corners"));
        let opening: Vec<&str> = g.tag("Opening").unwrap().split(' ').collect();
        assert_eq!(opening.len(), 1, "Black's setup only: White decides on the swap");
        assert!(opening.iter().all(|m| m.contains('/')), "{g}");
        let start = g.start_position().unwrap();
        assert!(start.rules().no_corners && start.rules().is_modern());
        assert_eq!(g.position_after(None).unwrap().winner(), g.winner());
    }
}

#[test]
fn the_random_setup_option_starts_in_play() {
    let dir = scratch!("random-setup");
    let record = dir.join("games.txt");
    modern_match(&fake("--seed 1"), &fake("--seed 2"), "2", &record, &["--random-setup"]);
    let games = read_games(&record);
    assert_eq!(games[0].tag("Start"), games[1].tag("Start"));
    for g in &games {
        let start: Position = g.tag("Start").unwrap().parse().unwrap();
        assert_eq!(start.phase(), Phase::Play);
        assert!(start.stones(veletas_rules::Color::Black).is_empty());
        assert!(start.rules().is_modern());
        let first = start.parse_move(g.moves()[0].as_str()).unwrap();
        assert!(matches!(first, Move::Turn(_)));
    }
}

#[test]
fn the_real_engine_plays_a_modern_match() {
    let dir = scratch!("real");
    let record = dir.join("games.txt");
    let engine = format!("'{VELETAS}' --player random --seed 4");
    let summary =
        modern_match(&engine, &format!("'{VELETAS}' --playouts 50 --seed 5"), "2", &record, &["--no-corners"]);
    assert_eq!(summary.terminations, vec![(Termination::Normal, 2)]);
    for g in read_games(&record) {
        assert_eq!(g.position_after(None).unwrap().winner(), g.winner());
    }
}

#[test]
fn a_claimed_block_match_tells_the_engines_and_records_the_rules() {
    let dir = scratch!("claimed-block");
    let record = dir.join("games.txt");
    let summary = modern_match(&fake("--seed 1"), &fake("--seed 2"), "2", &record, &["--claimed-block"]);
    assert_eq!(summary.games, 2);
    let games = read_games(&record);
    for g in &games {
        assert_eq!(g.tag("Rules"), Some("modern claimed-block"));
        assert_eq!(g.rules(), Ok(veletas_rules::Rules::BOARDSPACE));
        // Every recorded move replays under the option.
        assert!(g.replay(None).is_ok(), "{g}");
    }
    // Resuming checks the recorded games against the same match, rules included (the
    // openings are the same without the option).
    let again = modern_match(&fake("--seed 1"), &fake("--seed 2"), "2", &record, &["--claimed-block"]);
    assert_eq!(again.games, 2);
    let args: Vec<String> =
        ["--engine", &fake("--seed 1"), "--engine", &fake("--seed 2"), "--games", "2", "--size", "7"]
            .iter()
            .map(|s| s.to_string())
            .chain(
                ["--rules", "modern", "--seed", "3", "--record", record.to_str().unwrap(), "--quiet"].map(String::from),
            )
            .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = run_match(&MatchArgs::parse_from(&args).unwrap().plan().unwrap()).unwrap_err().to_string();
    assert!(err.contains("round 1 was played under the modern claimed-block rules, this match plays modern"), "{err}");
}

/// The record's games: (Black, White, TimeControl, Termination, whether White swapped).
fn clock_tags(path: &Path) -> Vec<(String, String, String, String, bool)> {
    read_games(path)
        .iter()
        .map(|g| {
            let tag = |t: &str| g.tag(t).unwrap_or_default().to_string();
            (tag("Black"), tag("White"), tag("TimeControl"), tag("Termination"), g.tag("Swap").is_some())
        })
        .collect()
}

#[test]
fn after_a_swap_each_engine_keeps_its_own_clock_and_odds() {
    // Both always swap, and refuse a time_left with more time than their own time_settings
    // gave: sent the other engine's bigger clock after the swap, one of them loses.
    let dir = scratch!("own-clock");
    let record = dir.join("g.txt");
    let (a, b) = (format!("a={FAKE} --seed 1 --swap --own-clock"), format!("b={FAKE} --seed 2 --swap --own-clock"));
    let base = ["match", "--engine", &a, "--engine", &b, "--rules", "modern", "--size", "7", "-n", "2", "-q"];
    let out = crate::support::veletas(
        &[&base[..], &["--option", "a:movetime=0.2", "--option", "b:movetime=1", "--record", record.to_str().unwrap()]]
            .concat(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = clock_tags(&record);
    assert_eq!(games.len(), 2);
    for (black, white, control, termination, swapped) in &games {
        assert!(swapped, "{games:?}");
        assert_eq!(termination, "normal", "{games:?}");
        // The tag gives the control of the engines its Black and White tags name.
        let own = |name: &str| if name == "a" { "movetime 0.2" } else { "movetime 1" };
        assert_eq!(control, &format!("black {}; white {}", own(black), own(white)), "{games:?}");
    }
    // Time odds: engine 1 keeps its factor after the swap.
    let record = dir.join("odds.txt");
    let out = crate::support::veletas(
        &[&base[..], &["--movetime", "1", "--time-odds", "0.2", "--record", record.to_str().unwrap()]].concat(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = clock_tags(&record);
    assert!(games.iter().all(|g| g.4 && g.3 == "normal" && g.2 == "movetime 1; engine 1 x0.2"), "{games:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn after_a_swap_each_engine_keeps_its_own_clock_in_the_gui_too() {
    use crate::same_verdict::{api, with_gui};
    // Both always swap and refuse a time_left with more time than their own time_settings
    // gave: `a` (5 s) sent White's 60 s after the swap would lose on a rejected command.
    let engines =
        vec![format!("a={FAKE} --seed 1 --swap --own-clock"), format!("b={FAKE} --seed 2 --swap --own-clock")];
    let new_game = serde_json::json!({"size": 7, "rules": "modern", "black": 0, "white": 1,
        "black_time": {"clock": "5"}, "white_time": {"clock": "60"}})
    .to_string();
    let (over, record) = with_gui(engines, |address| {
        let game = api(address, "POST", "/api/games", &new_game);
        let path = format!("/api/games/{}", game["id"]);
        let mut over = serde_json::Value::Null;
        for _ in 0..2400 {
            over = api(address, "GET", &path, "");
            if !over["outcome"].is_null() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        let head = format!("GET {path}/record HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
        std::io::Write::write_all(&mut stream, head.as_bytes()).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stream, &mut text).unwrap();
        (over, text)
    });
    let shown = format!("{} {} {}", over["outcome"], over["time_controls"], over["clocks"]);
    assert_eq!(over["outcome"]["termination"], "normal", "{shown}");
    // After the swap `b` plays Black: the view and the record give each colour its player's control.
    assert_eq!(over["time_controls"], serde_json::json!(["clock 60+0", "clock 5+0"]), "{shown}");
    assert!(record.contains("[Swap "), "{record}");
    assert!(record.contains("[Black \"b\"]") && record.contains("[White \"a\"]"), "{record}");
    assert!(record.contains("[TimeControl \"black clock 60+0; white clock 5+0\"]"), "{record}");
    let clocks = over["clocks"].as_array().unwrap();
    assert!(clocks[0].as_f64().unwrap() > 5.0 && clocks[1].as_f64().unwrap() <= 5.0, "{shown}");
}
