//! `veletas gui` against hostile HTTP clients, over plain sockets: a request head too long,
//! with too many headers or never finished is refused (431, 400, 408) and its connection
//! closed, before the token is looked at; a client holding every connection the server
//! allows with half requests does not keep a person's request out; and once every
//! connection is past its head, one more is answered 503.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::thread;
use std::time::Instant;

use veletas_gui::http::{MAX_CONNECTIONS, MAX_HEADERS, MAX_LINE};

#[allow(dead_code)] // each test file uses a part of what the tests share
mod common;
use common::{Running, Timed, WAIT, settings, start_with, whole_answer};

fn start(host: &str) -> Running {
    start_with(&settings(host, &["sh -c 'exit 0'"], None)).0
}

/// Sends `head` (and nothing more) on a new connection: the whole answer.
fn answer_to(server: &Running, head: &[u8]) -> String {
    let mut connection = Timed::connect(server);
    connection.write_all(head).expect("writes");
    whole_answer(&mut connection, "a hostile head")
}

/// Waits (within [`WAIT`]) until the server's connections are `wanted` (open, still in
/// their head).
fn wait_for_connections(server: &Running, wanted: (usize, usize)) {
    let give_up = Instant::now() + WAIT;
    while (server.connections)() != wanted {
        assert!(Instant::now() < give_up, "connections {:?}, not {wanted:?}", (server.connections)());
        thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn a_header_line_too_long_is_refused_431_before_the_token_and_the_connection_closed() {
    // On every address the token is required: the refusal comes before it is looked at.
    let server = start("0.0.0.0");
    let long = format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Long: {}\r\n\r\n", server.address, "a".repeat(MAX_LINE + 1));
    let answer = answer_to(&server, long.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:.200}");
    assert!(answer.contains("a header line is over 8192 bytes"), "{answer:.400}");
    assert!(answer.contains("Connection: close"), "{answer:.400}");

    let mut many = format!("GET / HTTP/1.1\r\nHost: {}\r\n", server.address);
    for i in 0..MAX_HEADERS {
        many.push_str(&format!("X-{i}: {i}\r\n"));
    }
    let answer = answer_to(&server, format!("{many}\r\n").as_bytes());
    assert!(answer.starts_with("HTTP/1.1 431") && answer.contains("more than 48 header lines"), "{answer:.400}");

    let line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_LINE));
    let answer = answer_to(&server, line.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 400") && answer.contains("the request line is over"), "{answer:.400}");

    // Within the bounds, the token is what is missing.
    let fine = format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.address);
    assert!(answer_to(&server, fine.as_bytes()).starts_with("HTTP/1.1 403"));
}

#[test]
fn an_endless_header_line_is_cut_off_after_a_bounded_number_of_bytes() {
    let server = start("127.0.0.1");
    let mut socket = TcpStream::connect(&server.address).expect("connects");
    socket.set_write_timeout(Some(WAIT)).expect("a write timeout");
    socket.write_all(b"GET / HTTP/1.1\r\nX-Endless: ").expect("writes");
    // The server stops reading after its bound and closes: a write then fails (a reset,
    // a broken pipe, or full buffers past the hang guard), long before 256 MiB are taken.
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0usize;
    while sent < 256 << 20 {
        match socket.write(&chunk) {
            Ok(n) => sent += n,
            Err(_) => break,
        }
    }
    assert!(sent < 64 << 20, "the server took {sent} bytes of one header line");
}

#[test]
fn a_head_not_finished_in_time_gets_408_and_the_connection_closed() {
    let server = start("127.0.0.1");
    let mut connection = Timed::connect(&server);
    connection.write_all(b"GET / HTTP/1.1\r\nHost: ").expect("writes");
    let answer = whole_answer(&mut connection, "a half request");
    assert!(answer.starts_with("HTTP/1.1 408") && answer.contains("did not come within"), "{answer}");
}

#[test]
fn a_person_is_answered_while_a_client_holds_every_connection_with_half_requests() {
    let server = start("127.0.0.1");
    let mut hostile: Vec<Timed> = (0..MAX_CONNECTIONS)
        .map(|_| {
            let mut connection = Timed::connect(&server);
            connection.write_all(b"GET / HTTP/1.1\r\nHost: ").expect("writes");
            connection
        })
        .collect();
    wait_for_connections(&server, (MAX_CONNECTIONS, MAX_CONNECTIONS));
    let page = answer_to(&server, format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.address).as_bytes());
    assert!(page.starts_with("HTTP/1.1 200") && page.contains("<html"), "{page:.200}");
    // The person's connection took the place of the oldest half request, closed unanswered.
    let mut oldest = Vec::new();
    let _ = hostile[0].read_to_end(&mut oldest);
    assert!(oldest.is_empty(), "{}", String::from_utf8_lossy(&oldest));
    let (open, _) = (server.connections)();
    assert!(open <= MAX_CONNECTIONS, "{open} connections open");
}

#[test]
fn past_the_bound_with_every_connection_past_its_head_one_more_gets_503() {
    let server = start("127.0.0.1");
    // Each sends a whole head announcing a body it never sends: the server waits for it.
    let head = format!(
        "POST /api/position HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        server.address
    );
    let _waiting: Vec<Timed> = (0..MAX_CONNECTIONS)
        .map(|_| {
            let mut connection = Timed::connect(&server);
            connection.write_all(head.as_bytes()).expect("writes");
            connection
        })
        .collect();
    wait_for_connections(&server, (MAX_CONNECTIONS, 0));
    let answer = answer_to(&server, format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.address).as_bytes());
    assert!(answer.starts_with("HTTP/1.1 503") && answer.contains("64 connections are open"), "{answer:.300}");
}

#[test]
fn on_every_address_the_token_admits_a_request_whatever_its_host_header() {
    // The names other machines use for this one are not all known: the token is the check.
    let (server, url) = start_with(&settings("0.0.0.0", &["sh -c 'exit 0'"], None));
    let token = url.split_once("?token=").map(|(_, t)| t.to_string()).expect("a token");
    for host in ["evil.example", "192.0.2.7:80", "my-laptop.local:1234"] {
        let with =
            answer_to(&server, format!("GET /api/config?token={token} HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
        assert!(with.starts_with("HTTP/1.1 200"), "{host}: {with:.200}");
        let without = answer_to(&server, format!("GET /api/config HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
        assert!(without.starts_with("HTTP/1.1 403") && without.contains("token"), "{host}: {without:.200}");
    }
}
