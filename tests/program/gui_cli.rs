//! `veletas gui --engines FILE` through the program (issue 22): the engines file of
//! `veletas tournament`, read by the same parser; an error in it is one line and exit 2
//! before the server starts, and a good one names the engines the page offers.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use crate::support::refusal;

#[test]
fn an_engines_file_with_an_error_is_refused_in_one_line_before_the_server_starts() {
    let dir = scratch!("bad");
    let file = dir.join("engines.toml");
    let shown = file.display().to_string();
    for (text, error) in [
        ("[[engine]]\nname = \"a\"\n", "engine 1: no command"),
        ("[[engine]]\ncommand = \"veletas\"\nspeed = 3\n", "speed"),
        ("[[engine]]\ncommand = \"veletas\"\ndir = \"nowhere\"\n", "does not exist"),
        ("[[engine]\n", "line 1"),
        ("[each]\n", "no [[engine]]"),
    ] {
        std::fs::write(&file, text).unwrap();
        let line = refusal(&["gui", "--no-browser", "--engines", &shown]);
        assert!(line.starts_with("veletas gui: ") && line.contains(error), "{text}: {line}");
        // Located in the file, except the directory, which is named itself.
        assert!(line.contains(&shown) || line.contains("nowhere"), "{text}: {line}");
    }
    let missing = dir.join("missing.toml");
    let line = refusal(&["gui", "--no-browser", "--engines", &missing.display().to_string()]);
    assert!(line.contains("missing.toml"), "{line}");
}

#[test]
fn the_engines_of_an_engines_file_and_of_engine_are_offered_by_the_page() {
    let dir = scratch!("good");
    let file = dir.join("engines.toml");
    std::fs::write(&file, "[[engine]]\nname = \"strong\"\ncommand = \"veletas --playouts 100\"\nmovetime = 2\n")
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_veletas"))
        .args(["gui", "--no-browser", "--engines", &file.display().to_string(), "--engine", "easy=veletas"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("veletas gui starts");
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let address = url.trim().trim_start_matches("http://").trim_end_matches('/').to_string();
    let mut stream = std::net::TcpStream::connect(&address).expect("the server listens");
    write!(stream, "GET /api/config HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let _ = child.kill();
    let mut stderr = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    let _ = child.wait();
    assert!(answer.contains(r#""engines":["strong","easy"]"#), "{answer}");
    assert!(stderr.contains("strong: movetime not used here"), "{stderr}");
}

#[test]
fn sigterm_and_sigint_stop_the_server_with_success() {
    // The command line owns the signals: `veletas gui` sets its handler, which ends the
    // serving (closing every game) instead of killing the process part way.
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_veletas"))
            .args(["gui", "--no-browser", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("veletas gui starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
        assert!(url.starts_with("http://"), "{url}");
        // SAFETY: kill(2) on the child's own pid.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = child.wait().unwrap();
        assert!(status.success(), "signal {signal}: {status:?}");
    }
}
