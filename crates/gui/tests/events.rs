//! The live updates of `veletas gui` without a browser: `GET /api/games/ID/events`, a
//! stream of Server-Sent Events read over a plain socket. It sends the game's view at once
//! and again after every turn (an engine's too, which no request of the page causes), ends
//! with an `end` event when the game is closed, passes the checks of every request (an
//! unknown game gets 404, a missing token 403), and at most `MAX_STREAMS` are open at once
//! (one more gets 503) without holding the server's workers.
//!
//! Every wait has a deadline ([`common::WAIT`] in all, for an answer or for the next
//! event): a stream sends a comment every few seconds, so a socket's read timeout alone
//! would never fire, and a test would hang where it should fail.

use std::io::{BufRead, BufReader, Read, Write};

use serde_json::{Value, json};
use veletas_gui::events::MAX_STREAMS;

mod common;
use common::{Running, Timed, WAIT, scripted, settings, start_with, timed_out, whole_answer, wrong_token};

/// A server on `host` with `engines`, and the token of its URL if it has one.
fn start(host: &str, engines: &[&str]) -> (Running, Option<String>) {
    let (server, url) = start_with(&settings(host, engines, None));
    (server, url.split_once("?token=").map(|(_, t)| t.to_string()))
}

/// Sends a request and leaves the connection open: the reader of its answer.
fn open(server: &Running, method: &str, path: &str, body: &str) -> BufReader<Timed> {
    let mut stream = Timed::connect(server);
    let kind = if method == "POST" { "Content-Type: application/json\r\n" } else { "" };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\n{kind}Content-Length: {}\r\n\r\n{body}",
        server.address,
        body.len()
    )
    .expect("writes");
    BufReader::new(stream)
}

/// The status of an answer, its head read (within [`WAIT`]).
fn status(reader: &mut BufReader<Timed>) -> u16 {
    let mut line = String::new();
    reader.read_line(&mut line).expect("a status line");
    let status = line.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    loop {
        line.clear();
        if reader.read_line(&mut line).expect("the head of the answer") == 0 || line == "\r\n" {
            return status;
        }
    }
}

/// One request, answered and closed: its status and JSON body. A test fails if the answer
/// is not over within [`WAIT`] (as when the server opens a stream it should have refused).
fn request(server: &Running, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut stream = Timed::connect(server);
    let kind = if method == "POST" { "Content-Type: application/json\r\n" } else { "" };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{kind}Content-Length: {}\r\n\r\n{body}",
        server.address,
        body.len()
    )
    .expect("writes");
    let text = whole_answer(&mut stream, &format!("{method} {path}"));
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A chunked response body, read as the plain body (its end is the last chunk).
struct Chunked {
    inner: BufReader<Timed>,
    left: usize,
    done: bool,
}

impl Read for Chunked {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.done {
            return Ok(0);
        }
        if self.left == 0 {
            let mut line = String::new();
            self.inner.read_line(&mut line)?;
            if line.is_empty() {
                return Ok(0);
            }
            self.left = usize::from_str_radix(line.trim(), 16).map_err(std::io::Error::other)?;
            if self.left == 0 {
                self.inner.read_line(&mut line)?;
                self.done = true;
                return Ok(0);
            }
        }
        let n = self.inner.by_ref().take(self.left as u64).read(buf)?;
        self.left -= n;
        if self.left == 0 {
            let mut end = String::new();
            self.inner.read_line(&mut end)?;
        }
        Ok(n)
    }
}

type Events = BufReader<Chunked>;

/// Opens the stream of live updates at `path`: its status, and its events if it is 200.
fn stream(server: &Running, path: &str) -> (u16, Events) {
    let mut reader = open(server, "GET", path, "");
    let code = status(&mut reader);
    (code, BufReader::new(Chunked { inner: reader, left: 0, done: code != 200 }))
}

/// The next event of a stream: its name (`message` when it has none) and data; `None` at
/// its end. A test fails if no event (only comments, or nothing) comes within [`WAIT`].
fn next_event(reader: &mut Events) -> Option<(String, String)> {
    reader.get_mut().inner.get_mut().renew();
    let (mut name, mut data) = ("message".to_string(), String::new());
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) if timed_out(&e) => panic!("no event of the stream within {WAIT:?} ({e})"),
            Err(_) => return None,
        }
        let line = line.trim_end_matches('\n');
        if line.is_empty() {
            if !data.is_empty() {
                return Some((name, data));
            }
        } else if let Some(value) = line.strip_prefix("event: ") {
            name = value.to_string();
        } else if let Some(value) = line.strip_prefix("data: ") {
            data.push_str(value);
        }
    }
}

/// The next view a stream sends.
fn next_view(reader: &mut Events) -> Value {
    let (name, data) = next_event(reader).expect("an event");
    assert_eq!(name, "message", "{data}");
    serde_json::from_str(&data).expect("a view")
}

/// An engine that plays d4 0.2 s after each `genmove`.
fn plays_d4() -> String {
    scripted("d4", r#"genmove) sleep 0.2; printf "=%s d4\n\n" "$id";;"#)
}

#[test]
fn the_stream_sends_the_view_at_once_and_after_every_turn_and_ends_with_the_game() {
    let (server, _) = start("127.0.0.1", &[&plays_d4()]);
    let new = json!({"size": 7, "rules": "classic", "black": 0, "white": null, "movetime": 1, "thinking": false});
    let (code, game) = request(&server, "POST", "/api/games", &new.to_string());
    assert_eq!(code, 201, "{game}");
    let path = format!("/api/games/{}", game["id"]);
    let (code, mut events) = stream(&server, &format!("{path}/events"));
    assert_eq!(code, 200);
    let mut view = next_view(&mut events);
    assert_eq!(view["id"], game["id"]);
    // The engine's turn reaches the stream without any request.
    while view["moves"] != json!(["d4"]) {
        view = next_view(&mut events);
    }
    // A person's turn, and the engine's answer.
    let (code, _) = request(&server, "POST", &format!("{path}/play"), &json!({"move": "b2,f6"}).to_string());
    assert_eq!(code, 200);
    while view["moves"].as_array().map_or(0, Vec::len) < 2 {
        view = next_view(&mut events);
    }
    assert_eq!(view["moves"], json!(["d4", "b2,f6"]));
    assert_eq!(request(&server, "POST", &format!("{path}/close"), "{}").0, 200);
    loop {
        match next_event(&mut events) {
            Some((name, _)) if name == "end" => break,
            Some((_, data)) => assert!(data.starts_with('{'), "{data}"),
            None => panic!("the stream ended without its end event"),
        }
    }
    assert_eq!(next_event(&mut events), None, "the response is over after the end");
}

#[test]
fn a_stream_of_an_unknown_game_or_without_the_token_is_refused() {
    let (server, _) = start("127.0.0.1", &["sh -c 'exit 0'"]);
    for path in ["/api/games/99/events", "/api/games/x/events"] {
        let (code, answer) = request(&server, "GET", path, "");
        assert_eq!(code, 404, "{answer}");
        assert!(answer["error"].as_str().unwrap_or_default().starts_with("no game"), "{answer}");
    }
    let (code, _) = request(&server, "POST", "/api/games/1/events", "{}");
    assert_eq!(code, 404);
    drop(server);

    let (server, token) = start("0.0.0.0", &["sh -c 'exit 0'"]);
    let token = token.expect("a token");
    let (code, game) =
        request(&server, "POST", &format!("/api/games?token={token}"), r#"{"size": 7, "rules": "classic"}"#);
    assert_eq!(code, 201, "{game}");
    let path = format!("/api/games/{}/events", game["id"]);
    assert_eq!(request(&server, "GET", &path, "").0, 403);
    // A wrong token, never the right one by chance (one token in 16 begins with 0).
    let wrong = wrong_token(&token);
    assert_ne!(wrong, token);
    assert_eq!(request(&server, "GET", &format!("{path}?token={wrong}"), "").0, 403);
    let (code, mut events) = stream(&server, &format!("{path}?token={token}"));
    assert_eq!(code, 200);
    assert_eq!(next_view(&mut events)["id"], game["id"]);
}

#[test]
fn at_most_max_streams_are_open_and_the_server_still_answers() {
    let (server, _) = start("127.0.0.1", &["sh -c 'exit 0'"]);
    let (_, game) = request(&server, "POST", "/api/games", r#"{"size": 7, "rules": "classic"}"#);
    let path = format!("/api/games/{}", game["id"]);
    let mut streams = Vec::new();
    for _ in 0..MAX_STREAMS {
        let (code, mut events) = stream(&server, &format!("{path}/events"));
        assert_eq!(code, 200);
        next_view(&mut events);
        streams.push(events);
    }
    // The workers are free: every other request is answered while the streams are open.
    for _ in 0..8 {
        assert_eq!(request(&server, "GET", &path, "").0, 200);
    }
    let (code, answer) = request(&server, "GET", &format!("{path}/events"), "");
    assert_eq!(code, 503, "{answer}");
    assert!(answer["error"].as_str().unwrap_or_default().contains("poll"), "{answer}");
    // A turn reaches every stream.
    assert_eq!(request(&server, "POST", &format!("{path}/play"), &json!({"move": "d4"}).to_string()).0, 200);
    for events in &mut streams {
        let mut view = next_view(events);
        while view["moves"] != json!(["d4"]) {
            view = next_view(events);
        }
    }
    // A stream closed by the game frees its place.
    assert_eq!(request(&server, "POST", &format!("{path}/close"), "{}").0, 200);
    for events in &mut streams {
        while next_event(events).is_some() {}
    }
    // Their connections are closed by the server, though the client keeps its sockets.
    let give_up = std::time::Instant::now() + WAIT;
    while (server.connections)().0 > 0 {
        assert!(std::time::Instant::now() < give_up, "connections left open: {:?}", (server.connections)());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (_, game) = request(&server, "POST", "/api/games", r#"{"size": 7, "rules": "classic"}"#);
    // The places were given back as the streams' threads ended.
    let (code, mut events) = stream(&server, &format!("/api/games/{}/events", game["id"]));
    assert_eq!(code, 200);
    assert_eq!(next_view(&mut events)["id"], game["id"]);
}
