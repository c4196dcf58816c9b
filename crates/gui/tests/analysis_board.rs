//! The GUI as an analysis board, through its HTTP API: variations tried from any position
//! of a game (`POST /api/games/ID/variation`) never change the game, bad ones are refused
//! with the turn named, and a variation's position is analysed in its own view, never in
//! the game's graph; Undo while the engine thinks stops its search; a game won on the board
//! says which claim decided it.

use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

mod common;
use common::{Running, get, post, scripted, settings, start_with};

fn start(engines: &[&str]) -> Running {
    start_with(&settings("127.0.0.1", engines, None)).0
}

fn wait_for(server: &Running, path: &str, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..2000 {
        let game = get(server, path).1;
        if ok(&game) {
            return game;
        }
        thread::sleep(Duration::from_millis(25));
    }
    panic!("{what}: {}", get(server, path).1);
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("veletas-gui-board-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A game between two persons with the turns `moves` played.
fn person_game(server: &Running, moves: &[&str]) -> String {
    let (status, game) = post(server, "/api/games", &json!({"size": 7, "rules": "classic"}).to_string());
    assert_eq!(status, 201, "{game}");
    let path = format!("/api/games/{}", game["id"]);
    for mv in moves {
        let (status, answer) = post(server, &format!("{path}/play"), &json!({ "move": mv }).to_string());
        assert_eq!(status, 200, "{mv}: {answer}");
    }
    path
}

/// The game's view without what moves on by itself (the turn's running time).
fn still(mut view: Value) -> Value {
    if let Some(map) = view.as_object_mut() {
        map.remove("turn_time");
    }
    view
}

#[test]
fn a_variation_from_a_position_of_the_game_leaves_the_game_as_it_was() {
    let server = start(&["sh -c 'exit 0'"]);
    let path = person_game(&server, &["d4", "b2,f6", "d4-d7/d4"]);
    let before = still(get(&server, &path).1);
    let variation = |body: Value| post(&server, &format!("{path}/variation"), &body.to_string());
    // From the position after turn 2, another third turn, then the targets of a fourth.
    let (status, view) = variation(json!({"turn": 2, "moves": ["f6-f1/f6"], "picks": []}));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["turn"], 2);
    assert_eq!(view["moves"], json!(["f6-f1/f6"]));
    assert_eq!(view["to_move"], "white");
    assert!(view["position"].as_str().unwrap().ends_with(" w"), "{view}");
    assert_eq!(view["status"][0], "White to move");
    assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
    let targets = view["steps"]["targets"].as_array().unwrap();
    assert!(targets.contains(&json!("d4")) && !targets.contains(&json!("f6")), "{view}");
    // A pick narrows the targets; a whole turn is given back to be added to the variation.
    let (_, picked) = variation(json!({"turn": 2, "moves": ["f6-f1/f6"], "picks": ["d4", "d7"]}));
    assert_eq!(picked["steps"]["prompt"], "the square to shoot at", "{picked}");
    let (_, whole) = variation(json!({"turn": 2, "moves": ["f6-f1/f6"], "picks": ["d4", "d7", "d4"]}));
    assert_eq!(whole["steps"]["complete"], "d4-d7/d4", "{whole}");
    // From the game's current position too, and from its start.
    assert_eq!(variation(json!({"turn": 3, "moves": ["-/e5"]})).0, 400, "a shot alone is written without '-/'");
    assert_eq!(variation(json!({"turn": 3, "moves": ["e5"]})).1["moves"], json!(["e5"]));
    assert_eq!(variation(json!({"turn": 0})).1["steps"]["targets"].as_array().map(Vec::len), Some(49));
    // Bad variations are refused with the turn named, and change nothing.
    let (status, bad) = variation(json!({"turn": 2, "moves": ["f6-f1/f6", "a1-a7/a6"]}));
    assert_eq!(status, 400);
    assert!(bad["error"].as_str().unwrap().starts_with("turn 2 of the variation, 'a1-a7/a6': "), "{bad}");
    assert_eq!(variation(json!({"turn": 4})).0, 400, "past the game's end");
    assert_eq!(variation(json!({"turn": 2, "picks": ["zz"]})).0, 400);
    assert_eq!(variation(json!({"turn": 2, "picks": vec!["d4"; 17]})).0, 400);
    assert_eq!(variation(json!({"turn": 2, "moves": vec!["d4"; 201]})).0, 400);
    assert_eq!(variation(json!({"turn": 2, "extra": 1})).0, 400);
    assert_eq!(still(get(&server, &path).1), before, "the game is as it was");
}

/// An engine that plays d4, and to `analyze` reports one candidate (e5, 70% for the side
/// to move) until told to stop.
fn analyser() -> String {
    scripted(
        "analyser",
        r#"analyze) printf "=%s \ninfo move e5 visits 12 winrate 7000 order 0 pv e5 c3-c1/c3\n" "$id"; read stop; printf "\n";; genmove) printf "=%s d4\n\n" "$id";;"#,
    )
}

#[test]
fn a_variation_is_analysed_in_its_own_view_and_never_in_the_games_graph() {
    let server = start(&[&analyser()]);
    let path = person_game(&server, &["d4", "b2,f6"]);
    let line = json!({"turn": 1, "moves": ["a1,g7"]});
    let (status, answer) =
        post(&server, &format!("{path}/analyse"), &json!({"engine": 0, "turn": 1, "moves": ["a1,g7"]}).to_string());
    assert_eq!(status, 200, "{answer}");
    let variation = || post(&server, &format!("{path}/variation"), &line.to_string()).1;
    for _ in 0..2000 {
        if variation()["analysis"]["candidates"][0]["move"] == "e5" {
            break;
        }
        thread::sleep(Duration::from_millis(25));
    }
    let view = variation();
    assert_eq!(view["analysis"]["candidates"][0]["winrate"], 0.7, "{view}");
    assert_eq!(view["analysis"]["engine"], "analyser");
    let game = get(&server, &path).1;
    assert_eq!(game["winrates"], json!([null, null, null]), "the graph is the game's only: {game}");
    assert_eq!(game["analysis"], Value::Null);
    assert_eq!(get(&server, &format!("{path}/turns/1")).1["analysis"], Value::Null, "nor is the game's position");
    // Another variation's position has no analysis of its own; a bad one is refused.
    let other = post(&server, &format!("{path}/variation"), &json!({"turn": 1, "moves": ["b2,g6"]}).to_string()).1;
    assert_eq!(other["analysis"], Value::Null, "{other}");
    let bad = json!({"engine": 0, "turn": 1, "moves": ["d4"]});
    assert_eq!(post(&server, &format!("{path}/analyse"), &bad.to_string()).0, 400);
    let (_, stopped) = post(&server, &format!("{path}/analyse/stop"), "{}");
    assert_eq!(stopped["moves"], json!(["d4", "b2,f6"]));
    assert_eq!(variation()["analysis"]["running"], false);
}

/// Whether process `pid` is gone (reaped) within a generous wait.
fn gone(pid: u32) -> bool {
    for _ in 0..2000 {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return true;
        }
        thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn undo_while_the_engine_thinks_stops_its_search_and_the_game_goes_on() {
    let dir = scratch("undo");
    let (pids, slow) = (dir.join("pids"), dir.join("slow"));
    // Its first genmove never ends (it notes its pid); the next ones answer at once.
    let engine = scripted(
        "slowfirst",
        &format!(
            r#"genmove) echo $$ >> {pids}; if [ ! -e {slow} ]; then touch {slow}; sleep 120; fi; printf "=%s b2,f6\n\n" "$id";;"#,
            pids = pids.display(),
            slow = slow.display()
        ),
    );
    let server = start(&[&engine]);
    let request = json!({"size": 7, "rules": "classic", "black": null, "white": 0, "movetime": 600});
    let (status, game) = post(&server, "/api/games", &request.to_string());
    assert_eq!(status, 201, "{game}");
    let path = format!("/api/games/{}", game["id"]);
    post(&server, &format!("{path}/play"), &json!({"move": "d4"}).to_string());
    let thinking = wait_for(&server, &path, "the engine thinks", |g| g["thinking"] == true && slow.exists());
    assert_eq!(thinking["can_undo"], true, "Undo is offered while the engine thinks");
    let pid: u32 = std::fs::read_to_string(&pids).unwrap().trim().parse().unwrap();
    let (status, undone) = post(&server, &format!("{path}/undo"), "{}");
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["moves"], json!([]));
    assert_eq!(undone["thinking"], false);
    assert_eq!(undone["outcome"], Value::Null, "stopping the search is no fault of the engine");
    assert!(gone(pid), "the engine's process {pid} still searches");
    // The engine starts again when its turn comes, and plays.
    post(&server, &format!("{path}/play"), &json!({"move": "g1"}).to_string());
    let answered = wait_for(&server, &path, "the engine answers", |g| g["moves"].as_array().map(Vec::len) == Some(2));
    assert_eq!(answered["moves"], json!(["g1", "b2,f6"]));
    assert_eq!(answered["outcome"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_won_on_the_board_says_which_claim_decided_it() {
    let server = start(&["sh -c 'exit 0'"]);
    let (_, game) = post(&server, "/api/games", &json!({"size": 7, "rules": "classic"}).to_string());
    let path = format!("/api/games/{}", game["id"]);
    // The first legal target at every click until the game is won.
    for _ in 0..300 {
        let view = get(&server, &path).1;
        if view["outcome"] != Value::Null {
            let winner = if view["outcome"]["winner"] == "black" { "Black" } else { "White" };
            assert_eq!(view["status"][0], format!("{winner} wins"), "{view}");
            let decided = view["status"][1].as_str().unwrap();
            let turns = view["moves"].as_array().unwrap().len();
            assert!(decided.starts_with(&format!("{winner} claimed the shooter")), "{decided}");
            assert!(decided.contains(&format!(" turn {turns} (")), "{decided}");
            assert!(view["status"][2].as_str().unwrap().starts_with("Claims: "), "{view}");
            let browsed = get(&server, &format!("{path}/turns/{turns}")).1;
            assert_eq!(browsed["status"][1], decided, "the last position browsed says it too");
            return;
        }
        let mut picks: Vec<String> = Vec::new();
        let mut asked = 0;
        let turn = loop {
            asked += 1;
            assert!(asked < 10, "a turn is a few clicks: {picks:?}");
            let (_, steps) = post(&server, &format!("{path}/steps"), &json!({ "picks": picks }).to_string());
            if let Some(done) = steps["complete"].as_str() {
                break done.to_string();
            }
            let first = steps["targets"][picks.len() % 3].as_str().or(steps["targets"][0].as_str());
            picks.push(first.map_or("-".to_string(), str::to_string));
        };
        assert_eq!(post(&server, &format!("{path}/play"), &json!({ "move": turn }).to_string()).0, 200);
    }
    panic!("the game did not end");
}

#[test]
fn a_review_is_refused_when_it_cannot_run_and_says_why_it_ended() {
    // An engine that greets and answers every other command with an empty success: it lists
    // no genmove_analyze.
    let arms = r#"protocol_version) printf "=%s 2\n\n" "$id";; name) printf "=%s plain\n\n" "$id";;"#;
    let server = start(&[&scripted("plain", arms)]);
    let empty = person_game(&server, &[]);
    let (status, answer) = post(&server, &format!("{empty}/review"), r#"{"engine": 0}"#);
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("no turn to review"), "{answer}");
    let path = person_game(&server, &["d4", "b2,f6"]);
    for (body, says) in [
        (r#"{"engine": 3}"#, "there is no engine 3"),
        (r#"{"engine": 0, "seconds": 0}"#, "from 0.05 to 60 seconds"),
        (r#"{"engine": 0, "seconds": 61}"#, "from 0.05 to 60 seconds"),
        (r#"{"engine": 0, "depth": 3}"#, "malformed review request"),
    ] {
        let (status, answer) = post(&server, &format!("{path}/review"), body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains(says), "{body}: {answer}");
    }
    let (status, answer) = post(&server, &format!("{path}/review"), r#"{"engine": 0, "seconds": 0.1}"#);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["review"]["total"], 2);
    let ended = wait_for(&server, &path, "the review ends", |g| g["review"]["running"] == false);
    let error = ended["review"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("does not list genmove_analyze"), "{}", ended["review"]);
    assert_eq!(ended["review"]["done"], 0);
    assert_eq!(ended["winrates"], json!([null, null, null]), "nothing reviewed, nothing in the graph");
    // Stop with no review running changes nothing.
    let (status, answer) = post(&server, &format!("{path}/review/stop"), "{}");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["review"], ended["review"]);
}
