//! Tests of the engine client: text cleaning, replies, deadlines and bounds.

use super::*;
use crate::referee::engine::LINE_COST;

#[test]
fn engine_text_is_cleaned_of_controls_and_cut() {
    assert_eq!(clean_text("\x1b]0;pwned\x07 red\x1b[31m  x\n\ty", 100), "]0;pwned red [31m x y");
    assert_eq!(clean_text("abc\u{202e}def\u{85}", 100), "abc def");
    assert_eq!(clean_text("abcdef", 3), "abc...");
    assert_eq!(clean_text("ab cdef", 3), "ab...");
    assert_eq!(clean_text(&"x".repeat(1 << 20), MAX_NAME).chars().count(), MAX_NAME + 3);
    assert_eq!(clean_text(" \r\n", 10), "");
}

#[test]
fn first_reply_lines_are_checked() {
    assert_eq!(parse_first_line("=3 e2-e6/g8", "3"), Ok(Reply { success: true, text: "e2-e6/g8".into() }));
    assert_eq!(parse_first_line("=3", "3"), Ok(Reply { success: true, text: String::new() }));
    assert_eq!(parse_first_line("?12 illegal move", "12"), Ok(Reply { success: false, text: "illegal move".into() }));
    for bad in ["= e2", "=4 e2", "info junk", "=3e2", "", "=03 e2"] {
        assert!(matches!(parse_first_line(bad, "3"), Err(Failure::Malformed(_))), "{bad}");
    }
    assert_eq!(parse_first_line("= 2", ""), Ok(Reply { success: true, text: "2".into() }));
    assert!(matches!(parse_first_line("=1 2", ""), Err(Failure::Malformed(_))));
}

fn sh(script: &str) -> EngineProcess {
    let command = EngineCommand {
        text: script.into(),
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        dir: None,
        init: Vec::new(),
    };
    EngineProcess::spawn(&command, None).unwrap()
}

const SHORT: Duration = Duration::from_millis(200);

#[test]
fn replies_are_read_with_multiple_lines_and_invalid_utf8() {
    let mut e = sh(r"read x; printf '=1 a\nb\377\n\n'; read y; printf '\n?2 no\r\n\n'; exec sleep 5");
    assert_eq!(e.command("list", SHORT), Ok(Reply { success: true, text: "a\nb\u{fffd}".into() }));
    assert_eq!(e.command("x", SHORT), Ok(Reply { success: false, text: "no".into() }));
    assert_eq!(e.command("x", SHORT), Err(Failure::Timeout));
    assert!(!e.is_running());
}

#[test]
fn raw_exchanges_keep_their_lines_and_want_the_id_as_written() {
    let mut e =
        sh(r"read x; printf '= 2\n\n'; read y; printf '=7 \nmore\n\n'; read z; printf '=8 x\n\n'; exec sleep 5");
    let got = e.exchange("protocol_version", "", SHORT).unwrap();
    assert_eq!((got.lines, got.reply.text), (vec!["= 2".to_string()], "2".to_string()));
    let got = e.exchange("7 list", "7", SHORT).unwrap();
    assert_eq!(got.lines, ["=7 ", "more"]);
    assert_eq!(e.unterminated(), None);
    assert!(matches!(e.exchange("9 x", "9", SHORT), Err(Failure::Malformed(_))));
    assert!(!e.is_running());
}

#[test]
fn a_reply_without_its_empty_line_times_out_and_is_noted() {
    let mut e = sh(r"read x; printf '=1 2\n'; exec sleep 5");
    assert_eq!(e.command("protocol_version", SHORT), Err(Failure::Timeout));
    assert_eq!(e.unterminated(), Some("=1 2"));
}

#[test]
fn silence_times_out_and_an_ended_engine_is_reported() {
    let mut hung = sh("exec sleep 10");
    assert_eq!(hung.command("name", SHORT), Err(Failure::Timeout));
    let mut gone = sh("exit 7");
    let failure = gone.command("name", Duration::from_secs(5));
    assert!(matches!(&failure, Err(Failure::Exited(d)) if d.contains('7')), "{failure:?}");
    assert!(matches!(gone.command("name", SHORT), Err(Failure::Exited(_))));
}

#[test]
fn a_streaming_reply_is_handed_over_line_by_line_and_stopped_by_an_empty_line() {
    let script = r"read x; printf '=1 \n'; i=0; while [ $i -lt 3 ]; do echo info $i; i=$((i+1)); done; \
                   read y; echo last; echo; read z; printf '=2 ok\n\n'; exec sleep 5";
    let mut e = sh(script);
    let mut seen = Vec::new();
    let reply = e.stream("analyze", Duration::from_millis(300), Duration::from_secs(2), &mut |line| {
        seen.push(line.to_string());
        true
    });
    assert_eq!(reply.map(|r| r.text), Ok("last".to_string()));
    assert_eq!(seen, ["info 0", "info 1", "info 2", "last"]);
    assert_eq!(e.command("name", SHORT), Ok(Reply { success: true, text: "ok".into() }));
}

#[test]
fn a_stream_is_stopped_at_once_by_its_caller_even_when_the_engine_is_silent() {
    // Silent from the start (no first line), and silent after one report.
    for script in ["read x; exec sleep 30", r"read x; printf '=1 \ninfo 0\n'; exec sleep 30"] {
        let mut e = sh(script);
        let pid = e.child.id();
        let started = Instant::now();
        let stop = || started.elapsed() > Duration::from_millis(150);
        let mut seen = 0;
        let reply = e.stream_until("analyze", Duration::from_secs(20), Duration::from_secs(20), &stop, &mut |_| {
            seen += 1;
            true
        });
        let took = started.elapsed();
        assert_eq!(reply, Err(Failure::Exited(STOPPED.into())), "{script}");
        assert!(took < Duration::from_secs(2), "{script}: stopped after {took:?}");
        assert!(e.reaped && !e.is_running(), "{script}: killed and reaped");
        assert!(!Path::new(&format!("/proc/{pid}")).exists(), "{script}: no process {pid} is left");
        assert_eq!(seen, usize::from(script.contains("info")));
    }
    // A stop that never comes changes nothing.
    let mut e = sh(r"read x; printf '=1 \ninfo 0\n'; read y; printf 'last\n\n'; exec sleep 5");
    let reply = e.stream_until("analyze", SHORT, Duration::from_secs(2), &|| false, &mut |_| true);
    assert_eq!(reply.map(|r| r.text), Ok("last".to_string()));
}

#[test]
fn a_killer_ends_an_engine_a_command_waits_for_and_nothing_once_it_is_reaped() {
    let mut e = sh("read x; exec sleep 30");
    let killer = e.killer();
    let started = Instant::now();
    let waiter = thread::spawn(move || {
        let reply = e.command("genmove black", Duration::from_secs(20));
        (reply, e)
    });
    thread::sleep(Duration::from_millis(100));
    killer.kill();
    let (reply, mut e) = waiter.join().unwrap();
    assert!(matches!(reply, Err(Failure::Exited(_))), "{reply:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    e.kill();
    assert!(e.reaped);
    killer.kill();
}

#[test]
fn a_command_the_engine_does_not_read_in_time_is_not_reading() {
    // 200 kB is more than a pipe holds: the write itself must give up at the deadline.
    let mut deaf = sh("exec sleep 10");
    assert_eq!(deaf.command(&"x".repeat(200_000), SHORT), Err(Failure::NotReading));
    assert!(!deaf.is_running());
}

#[test]
fn a_flood_past_the_unread_cap_is_malformed() {
    let mut flood = sh("read x; printf '=1\\n\\n'; yes flood; exec sleep 5");
    assert_eq!(flood.command("name", Duration::from_secs(5)), Ok(Reply { success: true, text: String::new() }));
    // Whether the reader has passed the cap yet or not, the flood is no reply.
    assert!(matches!(flood.command("name", Duration::from_secs(5)), Err(Failure::Malformed(_))));
    assert!(flood.output.unread.load(Ordering::SeqCst) <= MAX_UNREAD + MAX_LINE + LINE_COST);
}

#[test]
fn junk_and_endless_lines_are_malformed() {
    let mut junk = sh("read x; echo thinking; exec sleep 5");
    assert!(matches!(junk.command("genmove b", SHORT), Err(Failure::Malformed(_))));
    let mut long = sh("read x; head -c 2000000 /dev/zero | tr '\\0' x; exec sleep 5");
    assert!(matches!(long.command("genmove b", Duration::from_secs(5)), Err(Failure::Malformed(_))));
}

#[test]
fn command_deadlines_keep_within_a_millisecond_and_a_million_seconds() {
    assert_eq!(command_deadline(10.0), Duration::from_secs(10));
    assert_eq!(command_deadline(0.25), Duration::from_millis(250));
    for tiny in [0.0, 0.0001, -5.0, f64::NAN, f64::NEG_INFINITY] {
        assert_eq!(command_deadline(tiny), Duration::from_millis(1), "{tiny}");
    }
    for huge in [2e6, 1e300, f64::INFINITY] {
        assert_eq!(command_deadline(huge), Duration::from_secs(1_000_000), "{huge}");
    }
}
