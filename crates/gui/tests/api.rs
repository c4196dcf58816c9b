//! The HTTP API of `veletas gui` without a browser: a server on a free loopback port,
//! spoken to with plain HTTP/1.1 over a socket. Bad requests (malformed JSON, an illegal
//! turn, an unknown game, a huge body, a foreign Host, a form post) each get a clear
//! error and leave the game as it was; an engine that crashes, hangs or answers junk loses
//! the game with the reason, and the server goes on serving. On every address (`0.0.0.0`),
//! every request needs the printed URL's token.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread;

use serde_json::{Value, json};
use veletas_gui::GuiSettings;

mod common;
use common::{Running, Timed, get, post, request, scripted, settings, start_with, whole_answer, wrong_token};

fn start(engines: &[&str], record: Option<&Path>) -> Running {
    start_on("127.0.0.1", engines, record).0
}

/// A server listening on `host`, and the URL it prints.
fn start_on(host: &str, engines: &[&str], record: Option<&Path>) -> (Running, String) {
    start_with(&settings(host, engines, record))
}

/// The view of a game without its running turn time (which moves on by itself).
fn still(mut view: Value) -> Value {
    if let Some(map) = view.as_object_mut() {
        map.remove("turn_time");
    }
    view
}

fn error_of(answer: &(u16, Value)) -> String {
    answer.1["error"].as_str().unwrap_or_default().to_string()
}

fn new_person_game(server: &Running) -> u64 {
    let (status, game) = post(server, "/api/games", &json!({"size": 7, "rules": "classic"}).to_string());
    assert_eq!(status, 201, "{game}");
    game["id"].as_u64().expect("an id")
}

#[test]
fn the_page_is_served_with_its_script_inlined() {
    let server = start(&["sh -c 'exit 0'"], None);
    let (status, page) = request(&server, "GET", "/", &[], b"");
    assert_eq!(status, 200);
    assert!(page.contains("<svg") || page.contains("id=\"board\""), "{page}");
    assert!(!page.contains("/*APP_JS*/") && page.contains("async function api"));
    assert!(!page.contains("/*EDITOR_JS*/") && page.contains("function composePosition"));
}

#[test]
fn on_every_address_the_printed_url_works_and_every_request_needs_its_token() {
    let (server, url) = start_on("0.0.0.0", &["sh -c 'exit 0'"], None);
    assert!(url.starts_with("http://127.0.0.1:"), "a URL this machine's browser opens: {url}");
    let token = url.split_once("/?token=").map(|(_, t)| t.to_string()).expect("the URL carries a token");
    assert_eq!(token.len(), 32, "{url}");

    // Wrong in one digit, a prefix, a longer one: all refused, as no token is.
    let wrong = wrong_token(&token);
    for path in [
        "/",
        "/?token=",
        &format!("/?token={wrong}"),
        &format!("/?token={}", &token[..31]),
        &format!("/?token={token}0"),
    ] {
        let (status, body) = request(&server, "GET", path, &[], b"");
        assert_eq!(status, 403, "{path}: {body}");
        assert!(body.contains("token"), "{path}: {body}");
    }
    assert_eq!(get(&server, "/api/config").0, 403);
    assert_eq!(post(&server, "/api/games", &json!({"size": 7, "rules": "classic"}).to_string()).0, 403);

    assert_eq!(request(&server, "GET", &format!("/?token={token}"), &[], b"").0, 200);
    let (status, config) = get(&server, &format!("/api/config?token={token}"));
    assert_eq!((status, config["engines"].clone()), (200, json!(["sh"])), "{config}");
    let (status, game) =
        post(&server, &format!("/api/games?token={token}"), &json!({"size": 7, "rules": "classic"}).to_string());
    assert_eq!(status, 201, "{game}");
}

#[test]
fn bad_requests_get_clear_errors_and_change_nothing() {
    let server = start(&["sh -c 'exit 0'"], None);
    let id = new_person_game(&server);
    let path = format!("/api/games/{id}");
    let before = still(get(&server, &path).1);

    let malformed = post(&server, &format!("{path}/play"), "{\"move\": ");
    assert_eq!(malformed.0, 400);
    assert!(error_of(&malformed).contains("malformed"), "{malformed:?}");
    let unknown_field = post(&server, &format!("{path}/play"), "{\"mv\": \"d4\"}");
    assert_eq!(unknown_field.0, 400, "{unknown_field:?}");
    let not_a_move = post(&server, &format!("{path}/play"), &json!({"move": "hello"}).to_string());
    assert_eq!(not_a_move.0, 400);
    assert!(error_of(&not_a_move).contains("invalid move"), "{not_a_move:?}");

    // Black's 7x7 setup is one shooter: two are illegal.
    let illegal = post(&server, &format!("{path}/play"), &json!({"move": "b2,f6"}).to_string());
    assert_eq!(illegal.0, 400);
    assert!(error_of(&illegal).contains("illegal move"), "{illegal:?}");
    let bad_pick = post(&server, &format!("{path}/steps"), &json!({"picks": ["z9"]}).to_string());
    assert_eq!(bad_pick.0, 400, "{bad_pick:?}");

    let missing = get(&server, "/api/games/999");
    assert_eq!(missing.0, 404);
    assert!(error_of(&missing).contains("no game"), "{missing:?}");
    assert_eq!(post(&server, "/api/games/x1/play", "{}").0, 404);
    assert_eq!(get(&server, "/nothing/here").0, 404);

    let huge = format!("{{\"move\": \"{}\"}}", "a".repeat(veletas_gui::server::MAX_BODY + 10));
    let too_big = post(&server, &format!("{path}/play"), &huge);
    assert_eq!(too_big.0, 413);
    assert!(error_of(&too_big).contains("over"), "{too_big:?}");

    let form =
        request(&server, "POST", &format!("{path}/play"), &[("Content-Type", "text/plain")], b"{\"move\":\"d4\"}");
    assert_eq!(form.0, 415);
    let bad_size = post(&server, "/api/games", &json!({"size": 8, "rules": "classic"}).to_string());
    assert_eq!(bad_size.0, 400);
    let bad_engine = post(&server, "/api/games", &json!({"size": 7, "rules": "classic", "white": 5}).to_string());
    assert!(bad_engine.0 == 400 && error_of(&bad_engine).contains("no engine 5"), "{bad_engine:?}");

    let after = still(get(&server, &path).1);
    assert_eq!(before, after, "the game is unchanged");
    assert_eq!(post(&server, &format!("{path}/play"), &json!({"move": "d4"}).to_string()).0, 200);
    assert_eq!(get(&server, &path).1["moves"], json!(["d4"]));
}

#[test]
fn a_foreign_host_header_is_refused() {
    let server = start(&["sh -c 'exit 0'"], None);
    let mut stream = Timed::connect(&server);
    stream.write_all(b"GET /api/config HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n").unwrap();
    let answer = whole_answer(&mut stream, "GET /api/config from a foreign host");
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
}

#[test]
fn a_person_enters_turns_step_by_step_and_can_take_them_back() {
    let server = start(&["sh -c 'exit 0'"], None);
    let id = new_person_game(&server);
    let path = format!("/api/games/{id}");
    for mv in ["d4", "b2,f6"] {
        assert_eq!(post(&server, &format!("{path}/play"), &json!({"move": mv}).to_string()).0, 200);
    }
    let steps = post(&server, &format!("{path}/steps"), &json!({"picks": ["d4", "d7"]}).to_string()).1;
    assert!(steps["targets"].as_array().unwrap().contains(&json!("d4")), "{steps}");
    let done = post(&server, &format!("{path}/steps"), &json!({"picks": ["d4", "d7", "d4"]}).to_string()).1;
    assert_eq!(done["complete"], "d4-d7/d4");
    let (_, game) = post(&server, &format!("{path}/play"), &json!({"move": "d4-d7/d4"}).to_string());
    assert_eq!(game["moves"].as_array().unwrap().len(), 3);
    let (status, game) = post(&server, &format!("{path}/undo"), "{}");
    assert_eq!(status, 200);
    assert_eq!(game["moves"], json!(["d4", "b2,f6"]));
    let (_, game) = post(&server, &format!("{path}/resign"), "{}");
    assert_eq!(game["outcome"]["termination"], "resignation");
    assert_eq!(post(&server, &format!("{path}/play"), &json!({"move": "d5"}).to_string()).0, 409);
}

fn wait_for_end(server: &Running, path: &str) -> Value {
    for _ in 0..200 {
        let game = get(server, path).1;
        if !game["outcome"].is_null() {
            return game;
        }
        thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("the game did not end");
}

#[test]
fn an_engine_that_crashes_hangs_or_answers_junk_loses_and_the_server_goes_on() {
    let dir = scratch("api");
    let record = dir.join("games.txt");
    // Each answers its start-up (list_commands), then misbehaves at its first genmove.
    let crash = scripted("crash", "genmove) exit 3;;");
    let junk = scripted("junk", r#"genmove) printf "thinking\n\n";;"#);
    let hang = scripted("hang", "genmove) sleep 30;;");
    let server = start(&[&crash, &junk, &hang], Some(&record));
    for (engine, termination) in [(0, "crash"), (1, "malformed reply"), (2, "time forfeit")] {
        let request = json!({"size": 7, "rules": "classic", "black": engine, "white": null, "movetime": 0.1});
        let (status, game) = post(&server, "/api/games", &request.to_string());
        assert_eq!(status, 201, "{game}");
        let path = format!("/api/games/{}", game["id"]);
        let game = wait_for_end(&server, &path);
        assert_eq!(game["outcome"]["winner"], "white", "{game}");
        assert_eq!(game["outcome"]["termination"], termination, "{game}");
        assert!(game["outcome"]["reason"].as_str().unwrap().starts_with("black: "), "{game}");
    }
    assert_eq!(get(&server, "/api/config").0, 200, "the server still serves");
    let text = std::fs::read_to_string(&record).unwrap();
    let games = veletas_rules::record::parse_records(&text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].tag("Termination"), Some("crash"));
    assert_eq!(games[2].tag("Termination"), Some("time forfeit"));
    assert_eq!(games[1].winner(), Some(veletas_rules::Color::White));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_or_does_not_answer_its_greeting_refuses_the_game() {
    let crash = "crash=sh -c 'exit 3'";
    let junk = "junk=sh -c 'while read line; do echo thinking; done'";
    let silent = "silent=sh -c 'sleep 30'";
    let server = start(&[crash, junk, silent], None);
    for (engine, said) in [(0, "exit status: 3"), (1, "'thinking'"), (2, "list_commands")] {
        let request = json!({"size": 7, "rules": "classic", "black": null, "white": engine});
        let answer = post(&server, "/api/games", &request.to_string());
        assert_eq!(answer.0, 400, "{}", answer.1);
        let error = error_of(&answer);
        let name = ["crash", "junk", "silent"][engine];
        assert!(error.starts_with(&format!("white's engine {name} cannot play: ")), "{error}");
        assert!(error.contains(said) && !error.contains('\n'), "{error}");
    }
    // No game was opened; a match is refused the same way.
    assert_eq!(get(&server, "/api/games").1, json!({"games": []}));
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": 1, "games": 2});
    let answer = post(&server, "/api/games", &request.to_string());
    assert!(answer.0 == 400 && error_of(&answer).starts_with("black's engine crash cannot play"), "{}", answer.1);
    assert_eq!(get(&server, "/api/games").1, json!({"games": []}));
}

#[test]
fn a_game_starts_from_a_position_string_or_a_pasted_record_at_a_turn() {
    let server = start(&["sh -c 'exit 0'"], None);
    let position = "7/7/2s4/7/4s2/1s5/7 b";
    let (status, game) =
        post(&server, "/api/games", &json!({"size": 7, "rules": "classic", "start": position}).to_string());
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["position"], position);
    let record = "[Size \"7\"]\n\n1. d4 b2,f6 2. d4-d7/d4 *\n";
    let ask = json!({"size": 10, "rules": "modern", "start": record, "turn": 2});
    let (status, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{game}");
    assert_eq!((game["size"].as_u64(), game["moves"].clone()), (Some(7), json!(["d4", "b2,f6"])));
    let path = format!("/api/games/{}/record", game["id"]);
    let (_, text) = request(&server, "GET", &path, &[], b"");
    assert!(text.contains("1. d4 b2,f6 *"), "{text}");
    for bad in ["7/7/7 b", "[Size \"7\"]\n\n1. a1 a1 *\n", "1. d4 2. zz *"] {
        let answer = post(&server, "/api/games", &json!({"size": 7, "rules": "classic", "start": bad}).to_string());
        assert_eq!(answer.0, 400, "{bad}: {answer:?}");
    }
    let beyond =
        post(&server, "/api/games", &json!({"size": 7, "rules": "classic", "start": record, "turn": 9}).to_string());
    assert_eq!(beyond.0, 400, "{beyond:?}");
}

#[test]
fn under_a_clock_the_time_left_is_shown_and_a_person_whose_flag_falls_loses() {
    let server = start(&["sh -c 'exit 0'"], None);
    let ask = json!({"size": 7, "rules": "classic", "clock": "60+2"});
    let (status, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["clocks"], json!([60.0, 60.0]));
    let path = format!("/api/games/{}", game["id"]);
    let (_, game) = post(&server, &format!("{path}/play"), &json!({"move": "d4"}).to_string());
    let black = game["clocks"][0].as_f64().unwrap();
    assert!(black > 61.0 && black <= 62.0, "the increment is added: {game}");
    let (_, text) = request(&server, "GET", &format!("{path}/record"), &[], b"");
    assert!(text.contains("[TimeControl \"clock 60+2\"]"), "{text}");
    // Undo gives the turn's time and increment back.
    let (_, game) = post(&server, &format!("{path}/undo"), "{}");
    assert_eq!((game["moves"].clone(), game["clocks"].clone()), (json!([]), json!([60.0, 60.0])), "{game}");
    let (_, game) = post(&server, &format!("{path}/play"), &json!({"move": "d4"}).to_string());
    assert!(game["clocks"][0].as_f64().unwrap() > 61.0, "{game}");

    let (_, game) = post(&server, "/api/games", &json!({"size": 7, "rules": "classic", "clock": "0.05"}).to_string());
    let path = format!("/api/games/{}", game["id"]);
    thread::sleep(std::time::Duration::from_millis(700));
    let game = get(&server, &path).1;
    assert_eq!(game["outcome"]["termination"], "time forfeit", "{game}");
    assert_eq!(game["outcome"]["winner"], "white");
    for bad in ["soon", "-5", "1+x"] {
        let answer = post(&server, "/api/games", &json!({"size": 7, "rules": "classic", "clock": bad}).to_string());
        assert_eq!(answer.0, 400, "{bad}: {answer:?}");
    }
}

/// A fresh, empty scratch directory for the test `name` (removed first if an earlier run left it).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("veletas-gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// An engine that plays d4 after `sleep` seconds and, when it has `analyze`, reports one
/// candidate (d4, 60% for the side to move) until told to stop.
fn scripted_engine(name: &str, sleep: &str, analyses: bool) -> String {
    let analyze = if analyses {
        r#"analyze) printf "=%s \ninfo move d4 visits 12 winrate 6000 order 0 pv d4 b2,f6 d4-d7/d4\n" "$id"; read stop; printf "info move d4 visits 20 winrate 6000 order 0 pv d4 b2,f6\n\n";;"#
    } else {
        r#"analyze) printf "?%s unknown command\n\n" "$id";;"#
    };
    scripted(name, &format!(r#"{analyze} genmove) sleep {sleep}; printf "=%s d4\n\n" "$id";;"#))
}

fn wait_for(server: &Running, path: &str, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..400 {
        let game = get(server, path).1;
        if ok(&game) {
            return game;
        }
        thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("{what}: {}", get(server, path).1);
}

#[test]
fn the_engines_thinking_is_shown_during_its_turn_and_fills_the_win_rate_graph() {
    let server = start(&[&scripted_engine("thinker", "1", true)], None);
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 3});
    let (status, game) = post(&server, "/api/games", &request.to_string());
    assert_eq!(status, 201, "{game}");
    let path = format!("/api/games/{}", game["id"]);
    let thinking = wait_for(&server, &path, "the thinking is shown", |g| {
        g["thinking"] == true && g["analysis"]["candidates"].as_array().is_some_and(|c| !c.is_empty())
    });
    assert_eq!(thinking["analysis"]["thinking"], true, "{thinking}");
    assert_eq!(thinking["analysis"]["engine"], "thinker");
    assert_eq!(thinking["analysis"]["candidates"][0]["move"], "d4");
    assert_eq!(thinking["analysis"]["candidates"][0]["pv"], json!(["d4", "b2,f6", "d4-d7/d4"]));
    let moved = wait_for(&server, &path, "the engine moves", |g| g["moves"] == json!(["d4"]));
    assert_eq!(moved["analysis"], Value::Null, "the new position has no analysis yet: {moved}");
    // Black was to move and had 60% by the thinking: the graph's first point.
    assert_eq!(moved["winrates"], json!([0.6, null]), "{moved}");
    // The position before the engine's move, browsed: its analysis is the thinking.
    let (status, turn) = get(&server, &format!("{path}/turns/0"));
    assert_eq!(status, 200, "{turn}");
    assert_eq!((turn["turn"].as_u64(), turn["to_move"].as_str()), (Some(0), Some("black")));
    assert_eq!(turn["analysis"]["candidates"][0]["winrate"], 0.6);
    assert!(turn["svg"].as_str().is_some_and(|s| s.starts_with("<svg")));
    assert_eq!(get(&server, &format!("{path}/turns/2")).0, 400);
    assert_eq!(get(&server, &format!("{path}/turns/x")).0, 400);

    // An analysis asked for of the current position (White to move): White's 60% is
    // Black's 40%; stopping it leaves its view.
    let (status, game) = post(&server, &format!("{path}/analyse"), &json!({"engine": 0, "seconds": 30}).to_string());
    assert_eq!(status, 200, "{game}");
    let analysed = wait_for(&server, &path, "the analysis reports", |g| g["winrates"][1].is_number());
    assert!((analysed["winrates"][1].as_f64().unwrap() - 0.4).abs() < 1e-9, "{analysed}");
    assert_eq!(analysed["analysis"]["thinking"], false);
    let (status, stopped) = post(&server, &format!("{path}/analyse/stop"), "{}");
    assert_eq!(status, 200);
    assert_eq!(stopped["analysis"]["running"], false, "{stopped}");
    let bad = post(&server, &format!("{path}/analyse"), &json!({"engine": 0, "turn": 7}).to_string());
    assert_eq!(bad.0, 400, "{bad:?}");
}

#[test]
fn an_engine_without_analyze_still_plays_and_says_so_once() {
    let server = start(&[&scripted_engine("plain", "0.3", false)], None);
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 2});
    let (_, game) = post(&server, "/api/games", &request.to_string());
    let path = format!("/api/games/{}", game["id"]);
    let moved = wait_for(&server, &path, "the engine moves", |g| g["moves"] == json!(["d4"]));
    let (_, before) = get(&server, &format!("{path}/turns/0"));
    let error = before["analysis"]["error"].as_str().unwrap_or_default().to_string();
    assert!(error.contains("cannot analyse"), "{before}");
    assert_eq!(moved["winrates"], json!([null, null]));
    // Its next turn shows no thinking: it is not asked again.
    post(&server, &format!("{path}/play"), &json!({"move": "b2,f6"}).to_string());
    let thinking = wait_for(&server, &path, "the engine's second turn", |g| {
        g["thinking"] == true || g["moves"].as_array().is_some_and(|m| m.len() > 2) || !g["outcome"].is_null()
    });
    assert_eq!(thinking["analysis"], Value::Null, "{thinking}");
}

#[test]
fn each_side_has_its_own_time_control() {
    let server = start(&["sh -c 'exit 0'"], None);
    let ask = json!({"size": 7, "rules": "classic", "black_time": {"clock": "60+2"},
        "white_time": {"clock": "30", "byoyomi": "10/5"}});
    let (status, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["clocks"], json!([60.0, 40.0]), "White's first period counts: {game}");
    assert_eq!(game["time_controls"], json!(["clock 60+2", "clock 30 byoyomi 10/5"]));
    let path = format!("/api/games/{}", game["id"]);
    let (_, text) = request(&server, "GET", &format!("{path}/record"), &[], b"");
    assert!(text.contains("[TimeControl \"black clock 60+2; white clock 30 byoyomi 10/5\"]"), "{text}");
    let ask = json!({"size": 7, "rules": "classic", "black_time": {"movetime": 2}, "white_time": {"clock": "60"}});
    let (_, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(game["clocks"], json!([null, 60.0]), "{game}");
    for bad in [json!({"clock": "x"}), json!({"movetime": -2}), json!({"byoyomi": "5"}), json!({"hours": 1})] {
        let ask = json!({"size": 7, "rules": "classic", "white_time": bad});
        let answer = post(&server, "/api/games", &ask.to_string());
        assert_eq!(answer.0, 400, "{bad}: {answer:?}");
        if bad.get("hours").is_none() {
            assert!(error_of(&answer).starts_with("white's time: "), "{answer:?}");
        }
    }
}

#[test]
fn a_position_set_up_is_judged_by_the_rules_and_drawn() {
    let server = start(&["sh -c 'exit 0'"], None);
    let (status, answer) = post(&server, "/api/position", &json!({"position": " 7/7/2s4/7/4s2/1s5/7 b "}).to_string());
    assert_eq!(status, 200, "{answer}");
    assert_eq!((&answer["valid"], &answer["position"]), (&json!(true), &json!("7/7/2s4/7/4s2/1s5/7 b")));
    assert_eq!((answer["size"].as_u64(), answer["to_move"].as_str()), (Some(7), Some("black")));
    assert!(answer["svg"].as_str().is_some_and(|s| s.contains("data-square=\"c5\"")), "{answer}");
    // Two shooters, a rank too short, junk: each a clear error.
    for bad in ["7/7/2s4/7/4s2/7/7 b", "7/7/2s4/7/4s2/1s5/6 b", "hello", ""] {
        let answer = post(&server, "/api/position", &json!({ "position": bad }).to_string());
        assert_eq!((answer.0, &answer.1["valid"]), (200, &json!(false)), "{bad}: {answer:?}");
        assert!(error_of(&answer).starts_with("not a possible position: "), "{answer:?}");
    }
    assert_eq!(post(&server, "/api/position", "{\"fen\": \"x\"}").0, 400);
    let (_, config) = get(&server, "/api/config");
    let pieces = config["pieces"].as_str().unwrap_or_default();
    for letter in ["s", "b", "w", "B", "W"] {
        assert!(pieces.contains(&format!("data-piece=\"{letter}\"")), "{letter}: {pieces}");
    }
}

#[test]
fn the_thinking_ends_with_the_engines_turn_even_when_it_loses_on_time() {
    // The engine sleeps past its 0.3 s a move (plus the 0.5 s margin) and loses on time; its
    // thinking, which reports once and then waits, ends with the time the turn had.
    let server = start(&[&scripted_engine("slow", "3", true)], None);
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 0.3});
    let (_, game) = post(&server, "/api/games", &request.to_string());
    let path = format!("/api/games/{}", game["id"]);
    let over = wait_for(&server, &path, "the time forfeit", |g| !g["outcome"].is_null());
    assert_eq!(over["outcome"]["termination"], "time forfeit", "{over}");
    let ended = wait_for(&server, &path, "the thinking ends", |g| g["analysis"]["running"] == false);
    assert_eq!(ended["analysis"]["candidates"][0]["move"], "d4", "{ended}");
}

/// Waits for the `n`-th process id in `file` (one a line).
fn nth_pid(file: &Path, n: usize) -> u32 {
    for _ in 0..400 {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if let Some(pid) = text.lines().nth(n - 1).and_then(|l| l.trim().parse().ok()) {
            return pid;
        }
        thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("no analysis process {n} started");
}

/// Whether process `pid` is gone within `seconds`, reaped (a zombie still has its /proc entry).
fn gone_within(pid: u32, seconds: f64) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return true;
        }
        thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

#[test]
fn a_silent_analysis_engine_is_ended_at_once_when_its_analysis_is_over() {
    let dir = scratch("silent");
    let pids = dir.join("pids");
    // Plays d4 after 0.3 s; to `analyze` it says `=` and then nothing, ever, and notes its pid.
    let silent = scripted(
        "silent",
        &format!(
            r#"analyze) echo $$ >> {}; printf "=%s \n" "$id"; sleep 60;; genmove) sleep 0.3; printf "=%s d4\n\n" "$id";;"#,
            pids.display()
        ),
    );
    let server = start(&[&silent], None);
    // The engine's thinking during its turn ends with its move.
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 5});
    let (_, game) = post(&server, "/api/games", &request.to_string());
    let path = format!("/api/games/{}", game["id"]);
    let thinking = nth_pid(&pids, 1);
    wait_for(&server, &path, "the engine moves", |g| g["moves"] == json!(["d4"]));
    assert!(gone_within(thinking, 1.0), "the thinking's process {thinking} outlived the move");
    // An analysis asked for ends with the turn played, the stop asked for, the server's end.
    let (_, game) = post(&server, "/api/games", &json!({"size": 7, "rules": "classic"}).to_string());
    let path = format!("/api/games/{}", game["id"]);
    let analyse = || post(&server, &format!("{path}/analyse"), &json!({"engine": 0, "seconds": 600}).to_string());
    assert_eq!(analyse().0, 200);
    let asked = nth_pid(&pids, 2);
    post(&server, &format!("{path}/play"), &json!({"move": "d4"}).to_string());
    assert!(gone_within(asked, 1.0), "process {asked} outlived the turn played");
    assert_eq!(analyse().0, 200);
    let asked = nth_pid(&pids, 3);
    let (_, stopped) = post(&server, &format!("{path}/analyse/stop"), "{}");
    assert!(gone_within(asked, 1.0), "process {asked} outlived the stop");
    assert_eq!(stopped["analysis"]["running"], false);
    let ended = wait_for(&server, &path, "the view of the stopped analysis", |g| g["analysis"]["running"] == false);
    assert_eq!(ended["analysis"]["error"], Value::Null, "a stop is no error: {ended}");
    assert_eq!(analyse().0, 200);
    let asked = nth_pid(&pids, 4);
    let started = std::time::Instant::now();
    drop(server);
    assert!(started.elapsed().as_secs_f64() < 2.0, "closing waited {:?}", started.elapsed());
    assert!(gone_within(asked, 0.05), "process {asked} outlived the server");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_game_keeps_its_win_rates_and_times_and_a_loaded_one_shows_them() {
    use veletas_rules::record::{WinRate, parse_records};
    let server = start(&[&scripted_engine("thinker", "1", true)], None);
    let ask = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 3});
    let (_, game) = post(&server, "/api/games", &ask.to_string());
    let path = format!("/api/games/{}", game["id"]);
    wait_for(&server, &path, "the engine moves", |g| g["moves"] == json!(["d4"]));
    thread::sleep(std::time::Duration::from_millis(200));
    post(&server, &format!("{path}/play"), &json!({"move": "b2,f6"}).to_string());
    let (_, text) = request(&server, "GET", &format!("{path}/record"), &[], b"");
    let record = parse_records(&text).unwrap().remove(0);
    // The engine's turn: the win rate and visits its thinking gave d4, and the time it took.
    let engine_turn = record.annotation(0);
    let evaluation = engine_turn.evaluation.expect("the engine's turn has its win rate");
    assert_eq!((evaluation.winrate, evaluation.visits), (WinRate::from_hundredths(6000).unwrap(), 12), "{text}");
    let took = engine_turn.time.expect("the engine's turn has its time").as_secs_f64();
    assert!((1.0..3.0).contains(&took), "{text}");
    // The person's turn: its time only.
    let person_turn = record.annotation(1);
    assert_eq!(person_turn.evaluation, None, "{text}");
    assert!(person_turn.time.is_some_and(|t| t.as_secs_f64() >= 0.2), "{text}");
    assert!(text.contains("1. d4 {60%/12 "), "{text}");

    // Loaded, the record's win rates fill the graph and the browsed position's analysis,
    // and saving the continued game keeps them.
    let ask = json!({"size": 7, "rules": "classic", "start": text});
    let (status, loaded) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{loaded}");
    assert_eq!(loaded["winrates"], json!([0.6, null, null]), "{loaded}");
    let loaded_path = format!("/api/games/{}", loaded["id"]);
    let (_, turn) = get(&server, &format!("{loaded_path}/turns/0"));
    assert_eq!(turn["analysis"]["candidates"][0]["move"], "d4", "{turn}");
    assert_eq!(turn["analysis"]["candidates"][0]["visits"], 12);
    assert_eq!(turn["analysis"]["engine"], "thinker");
    // A browsed position says whose turn it is there, not the game's result.
    assert!(turn["status"][0].as_str().is_some_and(|s| s.starts_with("Black to move")), "{turn}");
    let (_, again) = request(&server, "GET", &format!("{loaded_path}/record"), &[], b"");
    let again = parse_records(&again).unwrap().remove(0);
    assert_eq!((again.annotation(0), again.annotation(1)), (engine_turn, person_turn));
}

#[test]
fn a_match_plays_its_games_with_colours_exchanged_and_keeps_the_score() {
    let dir = scratch("match");
    let record = dir.join("match.txt");
    // Both resign at once: whoever plays Black loses each game.
    let resigner = |name: &str| scripted(name, r#"genmove) printf "=%s resign\n\n" "$id";;"#);
    let server = start(&[&resigner("first"), &resigner("second")], Some(&record));
    let ask = json!({"size": 7, "rules": "classic", "black": 0, "white": 1, "games": 3, "thinking": false,
        "black_time": {"movetime": 2}, "white_time": {"clock": "60+1"}});
    let (status, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["series"]["game"], 1, "{game}");
    let mut id = game["id"].as_u64().unwrap();
    let mut seen = Vec::new();
    loop {
        let path = format!("/api/games/{id}");
        let over = wait_for(&server, &path, "the match game ends", |g| {
            !g["outcome"].is_null() && (g["series"]["next"].is_u64() || g["series"]["game"] == 3)
        });
        seen.push((over["players"].clone(), over["outcome"]["winner"].clone(), over["series"]["score"].clone()));
        match over["series"]["next"].as_u64() {
            Some(next) => id = next,
            None => break,
        }
    }
    assert_eq!(
        seen,
        [
            (json!(["first", "second"]), json!("white"), json!([0, 1])),
            (json!(["second", "first"]), json!("white"), json!([1, 1])),
            (json!(["first", "second"]), json!("white"), json!([1, 2])),
        ]
    );
    let last = get(&server, &format!("/api/games/{id}")).1;
    assert_eq!(last["series"]["score"], json!([1, 2]), "first won game 2, second games 1 and 3: {last}");
    assert_eq!((last["series"]["games"].as_u64(), last["series"]["stopped"].as_bool()), (Some(3), Some(false)));
    // Each engine keeps its own time control when the colours change.
    assert_eq!(last["time_controls"], json!(["movetime 2", "clock 60+1"]), "{last}");
    let text = std::fs::read_to_string(&record).unwrap();
    let games = veletas_rules::record::parse_records(&text).unwrap();
    let rounds: Vec<_> = games.iter().map(|g| (g.tag("Round"), g.tag("Black"), g.tag("Event"))).collect();
    assert_eq!(
        rounds,
        [
            (Some("1"), Some("first"), Some("veletas gui match")),
            (Some("2"), Some("second"), Some("veletas gui match")),
            (Some("3"), Some("first"), Some("veletas gui match")),
        ]
    );
    for bad in [json!({"black": 0, "white": null, "games": 2}), json!({"black": 0, "white": 1, "games": 0})] {
        let mut ask = json!({"size": 7, "rules": "classic"});
        ask.as_object_mut().unwrap().extend(bad.as_object().unwrap().clone());
        assert_eq!(post(&server, "/api/games", &ask.to_string()).0, 400, "{ask}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_game_is_refereed_its_turns_timed_and_its_misbehaviour_lost_with_the_reason() {
    let dir = scratch("match-referee");
    let record = dir.join("match.txt");
    // Answers every genmove with d4: legal for Black's first turn, illegal for White's.
    let d4 = scripted("d4", r#"genmove) printf "=%s d4\n\n" "$id";;"#);
    let server = start(&[&d4], Some(&record));
    let ask = json!({"size": 7, "rules": "classic", "black": 0, "white": 0, "games": 1, "movetime": 5});
    let (status, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{game}");
    let over = wait_for_end(&server, &format!("/api/games/{}", game["id"]));
    assert_eq!(over["moves"], json!(["d4"]), "{over}");
    assert_eq!(over["outcome"]["winner"], "black", "{over}");
    assert_eq!(over["outcome"]["termination"], "illegal move", "{over}");
    assert!(over["outcome"]["reason"].as_str().unwrap().starts_with("white: played d4"), "{over}");
    assert_eq!(over["series"]["score"], json!([1, 0]), "{over}");
    // Saved just after the game's end is shown.
    let mut text = String::new();
    for _ in 0..200 {
        text = std::fs::read_to_string(&record).unwrap_or_default();
        if text.contains("Result") {
            break;
        }
        thread::sleep(std::time::Duration::from_millis(25));
    }
    let games = veletas_rules::record::parse_records(&text).unwrap();
    assert_eq!(games.len(), 1, "{text}");
    assert!(games[0].annotation(0).time.is_some(), "the referee's time of Black's turn is saved: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_game_no_engine_moved_in_is_void_shown_without_result_and_the_match_goes_on() {
    let dir = scratch("match-void");
    let record = dir.join("match.txt");
    // Starts, answers every command but genmove, and dies when asked for a move: the first
    // move of every game fails before any engine moved, so the game is void, as in
    // `veletas match`.
    let dies = scripted("dies", "genmove) exit 3;;");
    let server = start(&[&dies], Some(&record));
    let ask = json!({"size": 7, "rules": "classic", "black": 0, "white": 0, "games": 2, "movetime": 5});
    let (status, game) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{game}");
    let first = wait_for_end(&server, &format!("/api/games/{}", game["id"]));
    assert_eq!(first["outcome"]["winner"], "", "{first}");
    assert_eq!(first["outcome"]["termination"], "crash", "{first}");
    assert!(first["status"][0].as_str().unwrap().starts_with("No result (crash)"), "{first}");
    assert_eq!(first["series"]["score"], json!([0, 0]), "{first}");
    // The match goes on to its second game, void too, and counts no win.
    let mut next = first["series"]["next"].clone();
    for _ in 0..200 {
        if !next.is_null() {
            break;
        }
        thread::sleep(std::time::Duration::from_millis(25));
        next = get(&server, &format!("/api/games/{}", game["id"])).1["series"]["next"].clone();
    }
    let second = wait_for_end(&server, &format!("/api/games/{next}"));
    assert_eq!((second["series"]["game"].clone(), second["outcome"]["winner"].clone()), (json!(2), json!("")));
    assert_eq!(second["series"]["score"], json!([0, 0]), "{second}");
    // Both are saved as void games: no result, the crash as their termination.
    let mut games = Vec::new();
    for _ in 0..200 {
        games = veletas_rules::record::parse_records(&std::fs::read_to_string(&record).unwrap_or_default()).unwrap();
        if games.len() == 2 {
            break;
        }
        thread::sleep(std::time::Duration::from_millis(25));
    }
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.is_void() && g.moves().is_empty()), "{games:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn closing_a_match_game_or_the_server_ends_its_thinking_engines_at_once() {
    let dir = scratch("match-close");
    let pids = dir.join("pids");
    // Thinks for 60 s on every genmove, its pid noted.
    let hang = scripted("hang", &format!("genmove) echo $$ >> {}; sleep 60;;", pids.display()));
    let server = start(&[&hang], None);
    let ask =
        json!({"size": 7, "rules": "classic", "black": 0, "white": 0, "games": 4, "movetime": 60, "thinking": false});
    let (_, game) = post(&server, "/api/games", &ask.to_string());
    let path = format!("/api/games/{}", game["id"]);
    let thinking = nth_pid(&pids, 1);
    let (status, closed) = post(&server, &format!("{path}/close"), "{}");
    assert_eq!(status, 200, "{closed}");
    assert!(gone_within(thinking, 1.0), "the engine {thinking} outlived the closed game");
    assert_eq!(closed["series"]["stopped"], true, "{closed}");
    assert_eq!(closed["outcome"]["winner"], "", "a closed game has no winner: {closed}");
    thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(get(&server, &path).1["series"]["next"], Value::Null, "no further game starts");
    assert!(std::fs::read_to_string(&pids).unwrap().lines().count() == 1);
    // The server's end (Ctrl-C) ends a match game's thinking engine too.
    post(&server, "/api/games", &ask.to_string());
    let thinking = nth_pid(&pids, 2);
    drop(server);
    assert!(gone_within(thinking, 1.0), "the engine {thinking} outlived the server");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engines_of_an_engines_file_play_in_their_directory_after_their_init() {
    let dir = scratch("api-file");
    std::fs::create_dir_all(dir.join("work")).unwrap();
    // Writes every command it reads to seen.txt in its working directory and plays d4.
    let logger = r#"sh -c 'while read id cmd rest; do echo "$cmd $rest" >> seen.txt; case "$cmd" in genmove) printf "=%s d4\n\n" "$id";; *) printf "=%s\n\n" "$id";; esac; done'"#;
    let file = dir.join("engines.toml");
    let text = format!(
        "[[engine]]\nname = \"logger\"\ncommand = '''{logger}'''\ndir = \"work\"\ninit = [\"option level 3\"]\n"
    );
    std::fs::write(&file, text).unwrap();
    let args = GuiSettings::new(&["plain=sh -c 'exit 0'".into()], Some(&file), Path::new(common::PROGRAM))
        .unwrap()
        .with_browser(false);
    let (server, _) = start_with(&args);
    assert_eq!(get(&server, "/api/config").1["engines"], json!(["logger", "plain"]));
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 1, "thinking": false});
    let (status, game) = post(&server, "/api/games", &request.to_string());
    assert_eq!(status, 201, "{game}");
    let path = format!("/api/games/{}", game["id"]);
    wait_for(&server, &path, "the engine moves", |g| g["moves"] == json!(["d4"]));
    let seen = std::fs::read_to_string(dir.join("work/seen.txt")).unwrap();
    assert_eq!(seen.lines().next(), Some("option level 3"), "{seen}");
    assert!(seen.contains("genmove black"), "{seen}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engines_end_with_their_games_and_the_open_games_are_listed() {
    let dir = scratch("lifetimes");
    let pids = dir.join("pids");
    // Notes its pid when started (its list_commands), plays d4 or the first square of a setup.
    let noted = scripted(
        "noted",
        &format!(
            r#"list_commands) echo $$ >> {}; printf "=%s\n\n" "$id";; genmove) printf "=%s d4\n\n" "$id";;"#,
            pids.display()
        ),
    );
    let server = start(&[&noted], None);
    // A person against the engine: the engine is started with the game, and ends when the
    // person resigns.
    let request = json!({"size": 7, "rules": "classic", "black": null, "white": 0});
    let (status, game) = post(&server, "/api/games", &request.to_string());
    assert_eq!(status, 201, "{game}");
    let first = game["id"].as_u64().unwrap();
    let engine = nth_pid(&pids, 1);
    assert!(!gone_within(engine, 0.3), "the engine runs while its game goes on");
    let (_, listed) = get(&server, "/api/games");
    assert_eq!(listed["games"][0]["id"], first, "{listed}");
    assert_eq!(listed["games"][0]["players"], json!(["person", "noted"]), "{listed}");
    assert_eq!(listed["games"][0]["over"], false, "{listed}");
    let (status, _) = post(&server, &format!("/api/games/{first}/resign"), "{}");
    assert_eq!(status, 200);
    assert!(gone_within(engine, 10.0), "the engine {engine} outlived its game");
    // A match of two games: each game's two engines end with it.
    let request = json!({"size": 7, "rules": "classic", "black": 0, "white": 0, "games": 2, "movetime": 5});
    let (status, game) = post(&server, "/api/games", &request.to_string());
    assert_eq!(status, 201, "{game}");
    let path = format!("/api/games/{}", game["id"]);
    let over = wait_for(&server, &path, "the first game's end", |g| g["series"]["next"].is_u64());
    let second = format!("/api/games/{}", over["series"]["next"]);
    wait_for(&server, &second, "the second game's end", |g| !g["outcome"].is_null());
    let (_, listed) = get(&server, "/api/games");
    let games = listed["games"].as_array().unwrap();
    assert_eq!(games.len(), 3, "{listed}");
    assert_eq!(games[0]["series"], json!([2, 2]), "the newest first: {listed}");
    assert!(games.iter().all(|g| g["over"] == true), "{listed}");
    let started = std::fs::read_to_string(&pids).unwrap();
    assert!(started.lines().count() >= 3, "{started}");
    for pid in started.lines().filter_map(|l| l.trim().parse::<u32>().ok()) {
        assert!(gone_within(pid, 10.0), "the engine {pid} outlived its match game");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_record_loaded_is_not_recorded_again() {
    let dir = scratch("loaded-finished");
    let record_file = dir.join("games.txt");
    let server = start(&["sh -c 'exit 0'"], Some(&record_file));
    // A whole game, won on the board, loaded between two persons: shown over, not appended.
    let finished = include_str!("../../../data/example-game.txt");
    let ask = json!({"size": 7, "rules": "classic", "start": finished, "black": null, "white": null});
    let (status, loaded) = post(&server, "/api/games", &ask.to_string());
    assert_eq!(status, 201, "{loaded}");
    assert_eq!(loaded["outcome"]["winner"], "white", "{loaded}");
    // A person who lets the clock run out: recorded, the record's one game.
    let ask = json!({"size": 7, "rules": "classic", "clock": "0.05", "black": null, "white": null});
    let (_, game) = post(&server, "/api/games", &ask.to_string());
    let path = format!("/api/games/{}", game["id"]);
    let over = wait_for(&server, &path, "the flag's fall", |g| !g["outcome"].is_null());
    assert_eq!(over["outcome"]["termination"], "time forfeit", "{over}");
    let mut text = String::new();
    for _ in 0..100 {
        text = std::fs::read_to_string(&record_file).unwrap_or_default();
        if text.contains("[Result ") {
            break;
        }
        thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(text.matches("[Result ").count(), 1, "only the game played is recorded: {text}");
    assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_turn_chosen_without_search_has_no_win_rate_in_the_graph_or_the_record() {
    use veletas_rules::record::parse_records;
    // Its thinking reports the move it will play with 0 visits: no search behind it.
    let unsearched = scripted(
        "unsearched",
        r#"analyze) printf "=%s \ninfo move d4 visits 0 winrate 5000 order 0 pv d4\n" "$id"; read stop; printf "\n";; genmove) sleep 1; printf "=%s d4\n\n" "$id";;"#,
    );
    let server = start(&[&unsearched], None);
    let ask = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 3});
    let (_, game) = post(&server, "/api/games", &ask.to_string());
    let path = format!("/api/games/{}", game["id"]);
    let thought = wait_for(&server, &path, "its thinking shown", |g| g["analysis"]["candidates"][0].is_object());
    assert_eq!(thought["analysis"]["candidates"][0]["visits"], 0, "{thought}");
    let played = wait_for(&server, &path, "the engine moves", |g| g["moves"] == json!(["d4"]));
    assert_eq!(played["winrates"][0], Value::Null, "no point in the graph: {played}");
    let (_, text) = request(&server, "GET", &format!("{path}/record"), &[], b"");
    let turn = parse_records(&text).unwrap().remove(0).annotation(0);
    assert_eq!(turn.evaluation, None, "no win rate saved: {text}");
    assert!(turn.time.is_some(), "its time is: {text}");
}
