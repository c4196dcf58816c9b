//! The protocol through `run`: each command's replies, errors that change nothing, ids,
//! and framing edge cases.

use veletas_engine::player::RandomPlayer;
use veletas_engine::protocol::{Engine, Summary, run};
use veletas_rules::Variant;

fn engine() -> Engine {
    Engine::new(Variant::STANDARD, Box::new(RandomPlayer::new(1)))
}

fn run_engine(input: &[u8]) -> (String, Engine, Summary) {
    let mut engine = engine();
    let mut output = Vec::new();
    let summary = run(input, &mut output, &mut engine).unwrap();
    (String::from_utf8(output).unwrap(), engine, summary)
}

fn session(input: &str) -> String {
    run_engine(input.as_bytes()).0
}

/// The replies to a session, each without its final empty line.
fn replies(input: &str) -> Vec<String> {
    let out = session(input);
    assert!(out.is_empty() || out.ends_with("\n\n"), "{out:?}");
    out.split_terminator("\n\n").map(str::to_string).collect()
}

/// The reply to the last command of `input`.
fn last_reply(input: &str) -> String {
    replies(input).pop().unwrap_or_default()
}

const SETUP_7: &str = "boardsize 7\nplay b d4\nplay w c7,e1\n";
const FULL_7: &str = "set_position Bbwbwbw/wbwbwbw/bwb2wb/wbwsbwb/bwbwbwb/wbwbwbb/bwbwb1s b\n";
const OVER_7: &str = "set_position Bbwbwbw/wbwbwbw/bwb2wb/wbwsbwb/bwbwbwb/wbwbwbb/bwbwb1s b\nplay b f1\n";

#[test]
fn standard_commands_succeed() {
    assert_eq!(session("protocol_version\n"), "= 2\n\n");
    assert_eq!(session("name\n"), "= veletas\n\n");
    assert_eq!(session("version\n"), format!("= {}\n\n", env!("CARGO_PKG_VERSION")));
    assert_eq!(
        session("known_command play\nknown_command rules\nknown_command frob\n"),
        "= true\n\n= true\n\n= false\n\n"
    );
    assert!(session("list_commands\n").starts_with("= protocol_version\nname\n"));
    assert_eq!(session("quit\nname\n"), "= \n\n");
    assert_eq!(
        session("boardsize 9\nrules\n"),
        "= \n\n= 9x9, 5 shooters (black places 2, white 3), 3 claims win; rules classic\n\n"
    );
    assert_eq!(last_reply("boardsize 9\nplay b c3,g7\nclear_board\nposition"), "= 9/9/9/9/9/9/9/9/9 b");
    assert_eq!(session("komi 6.5\nkomi -1\nkomi 0\n"), "= \n\n= \n\n= \n\n");
    assert_eq!(last_reply(&format!("{SETUP_7}play b d4-d6/f6\nposition")), "= 2s4/3s1b1/7/7/7/7/4s2 w");
    assert_eq!(last_reply("boardsize 7\ngenmove b\nposition"), "= 1s5/7/7/7/7/7/7 w");
    // The generator moves on: after undo, genmove draws again.
    assert_eq!(replies("boardsize 7\ngenmove B\nundo\ngenmove black\n"), ["= ", "= b7", "= ", "= f1"]);
    assert_eq!(replies("boardsize 7\nreg_genmove b\nposition\n"), ["= ", "= b7", "= 7/7/7/7/7/7/7 b"]);
    assert_eq!(last_reply("boardsize 7\nplay b d4\nundo\nposition"), "= 7/7/7/7/7/7/7 b");
    assert_eq!(session("time_settings 300 0.5 0\ntime_left w 0.25 3\n"), "= \n\n= \n\n");
    assert_eq!(last_reply(&format!("{OVER_7}final_score")), "= B+");
}

#[test]
fn clocks_and_komi_are_stored() {
    let (_, engine, _) = run_engine(b"komi 6.5\ntime_settings 300 0.5 2\ntime_left w 12.25 3\n");
    assert_eq!(engine.komi(), 6.5);
    let clock = engine.clock();
    assert_eq!((clock.main_time, clock.byo_yomi, clock.byo_yomi_stones), (300.0, 0.5, 2));
    let left = clock.time_left(veletas_rules::Color::White).unwrap();
    assert_eq!((left.seconds, left.stones), (12.25, 3));
    assert!(clock.time_left(veletas_rules::Color::Black).is_none());
}

#[test]
fn showboard_has_no_empty_line() {
    let reply = last_reply(&format!("{SETUP_7}play b d4-d6/f6\nshowboard"));
    assert!(reply.starts_with("= \n    a b c d e f g\n 7  . . s . . . .  7\n 6  . . . s . b .  6\n"), "{reply}");
    assert!(reply.contains("to move: white"));
    assert!(reply.contains("claims: black 0, white 0; 2 to win"));
    assert!(!reply.contains("\n\n"));
    assert!(last_reply(&format!("{OVER_7}showboard")).contains("game over: black wins"));
}

#[test]
fn extensions_succeed() {
    assert_eq!(last_reply(&format!("{FULL_7}legal_moves")), "= f1 d5 e5 g1-f1/g1 d4-d5/d4 d4-d5/e5 d4-e5/d4 d4-e5/d5");
    assert_eq!(last_reply(&format!("{OVER_7}legal_moves")), "= ");
    let boardsize_7_moves = last_reply("boardsize 7\nlegal_moves");
    assert_eq!(boardsize_7_moves.split(' ').count(), 1 + 49);
    assert_eq!(
        replies(&format!("{FULL_7}is_legal b G1-F1/G1\nis_legal w g1-f1/g1\nis_legal b f2\n"))[1..],
        ["= true", "= false", "= false"]
    );
    assert_eq!(last_reply(&format!("{OVER_7}is_legal w d5")), "= false");
    assert_eq!(last_reply("set_position 7/7/2s4/7/4s2/1s5/7 b\nperft 1"), "= 1034");
    assert_eq!(last_reply("set_position 7/7/2s4/7/4s2/1s5/7 b\nperft 0"), "= 1");
    // Threads share out the root moves: the same count with any number.
    assert_eq!(last_reply("set_position 7/7/2s4/7/4s2/1s5/7 b\nperft 2 3"), "= 940718");
    assert_eq!(last_reply("set_position 7/7/2s4/7/4s2/1s5/7 b\nperft 1 2"), "= 1034");
    assert_eq!(
        last_reply("set_position 7/7/2s4/7/4s2/1s5/7 b\nrules"),
        "= 7x7, 3 shooters (black places 1, white 2), 2 claims win; rules classic"
    );
    assert_eq!(last_reply("position"), "= 10/10/10/10/10/10/10/10/10/10 b");
    assert_eq!(last_reply("rules"), "= 10x10, 7 shooters (black places 3, white 4), 4 claims win; rules classic");
}

#[test]
fn error_replies() {
    let cases: &[(&str, &str)] = &[
        ("frobnicate", "? unknown command"),
        ("Name", "? unknown command"),
        ("PROTOCOL_VERSION", "? unknown command"),
        ("12", "?12 syntax error: missing command name"),
        ("name now", "? syntax error: unexpected 'now'; usage: name"),
        ("known_command", "? syntax error: missing argument; usage: known_command NAME"),
        ("boardsize 8", "? unacceptable size"),
        ("boardsize 0", "? unacceptable size"),
        ("boardsize 100000000000000000000", "? unacceptable size"),
        ("boardsize ten", "? syntax error: unexpected 'ten'; usage: boardsize SIZE"),
        ("boardsize -7", "? syntax error: unexpected '-7'; usage: boardsize SIZE"),
        ("komi much", "? syntax error: unexpected 'much'; usage: komi KOMI"),
        ("komi NaN", "? syntax error: unexpected 'NaN'; usage: komi KOMI"),
        // A bidirectional override (not a control character, so framing keeps it) is escaped in
        // the reply, which would otherwise show the text after it reversed.
        ("komi a\u{202e}b", "? syntax error: unexpected 'a\\u{202e}b'; usage: komi KOMI"),
        ("play b", "? syntax error: missing argument; usage: play COLOR MOVE"),
        ("play red c3,f6,h8", "? syntax error: unexpected 'red'; usage: play COLOR MOVE"),
        ("play b c3,f6,h8 now", "? syntax error: unexpected 'now'; usage: play COLOR MOVE"),
        (
            "play b x9",
            "? syntax error: invalid move 'x9': expected a square, from-to/shot, or squares joined by commas",
        ),
        ("play w a1,c9,h2,j10", "? illegal move: a1,c9,h2,j10: it is black's turn"),
        ("play b c3,d4,h8", "? illegal move: c3,d4,h8: shooters on c3 and d4 would be adjacent"),
        (
            "play b e2-e6/g8",
            "? illegal move: e2-e6/g8: a play turn during setup: black must place 3 shooters first (a setup turn \
             lists squares, e.g. 'd4')",
        ),
        ("genmove w", "? illegal move: it is black's turn"),
        ("reg_genmove white", "? illegal move: it is black's turn"),
        ("genmove", "? syntax error: missing argument; usage: genmove COLOR"),
        ("undo", "? cannot undo"),
        ("time_settings 300 0", "? syntax error: missing argument; usage: time_settings MAIN BYO_YOMI STONES"),
        ("time_settings -1 0 0", "? syntax error: unexpected '-1'; usage: time_settings MAIN BYO_YOMI STONES"),
        ("time_settings 1 1 1.5", "? syntax error: unexpected '1.5'; usage: time_settings MAIN BYO_YOMI STONES"),
        ("time_left x 1 0", "? syntax error: unexpected 'x'; usage: time_left COLOR TIME STONES"),
        ("time_left b inf 0", "? syntax error: unexpected 'inf'; usage: time_left COLOR TIME STONES"),
        ("final_score", "? cannot score: the game is not over"),
        (
            "is_legal b 1a",
            "? syntax error: invalid move '1a': expected a square, from-to/shot, or squares joined by commas",
        ),
        ("set_position", "? syntax error: missing argument; usage: set_position POSITION"),
        ("set_position 7/7/7", "? invalid position: 3 ranks: the board must be 7x7, 9x9 or 10x10: '7/7/7'"),
        ("set_position 7/7/7 b", "? invalid position: 3 ranks: the board must be 7x7, 9x9 or 10x10: '7/7/7 b'"),
        ("set_position 7/7/7/7/7/7/7 w", "? invalid position: it is black's setup turn: '7/7/7/7/7/7/7 w'"),
        ("perft 9", "? syntax error: unexpected '9'; usage: perft DEPTH [THREADS]"),
        ("perft", "? syntax error: missing argument; usage: perft DEPTH [THREADS]"),
        ("perft 2 0", "? syntax error: unexpected '0'; usage: perft DEPTH [THREADS]"),
        ("rules 7", "? syntax error: unexpected '7'; usage: rules [classic|modern]"),
    ];
    for (input, expected) in cases {
        assert_eq!(last_reply(input), *expected, "reply to {input:?}");
    }
    assert_eq!(last_reply(&format!("{SETUP_7}play b d6-g6/g7")), "? illegal move: d6-g6/g7: there is no shooter on d6");
    assert_eq!(
        last_reply(&format!("{SETUP_7}play b d4-d6/f6\nplay w d6-g6/g7")),
        "? illegal move: d6-g6/g7: the path from d6 to g6 is blocked at f6"
    );
    assert_eq!(last_reply(&format!("{OVER_7}play w d5")), "? illegal move: d5: the game is over");
    assert_eq!(last_reply(&format!("{OVER_7}genmove w")), "? illegal move: the game is over");
    assert_eq!(last_reply(&format!("{OVER_7}genmove b")), "? illegal move: the game is over");
    let long = format!("5 name {}", "x".repeat(5000));
    assert_eq!(last_reply(&long), "?5 syntax error: line longer than 4096 bytes");
}

/// The commands that fail in some state, for the state-unchanged test.
const FAILING: &[&str] = &[
    "frobnicate",
    "Play b d4",
    "play",
    "play b",
    "play x d4",
    "play b d4 d5",
    "play b zz",
    "play w d4",
    "play w a1",
    "play b a1,b2",
    "play b d4-d5/d6",
    "play b j10",
    "genmove w",
    "reg_genmove w",
    "genmove purple",
    "boardsize 8",
    "boardsize x",
    "komi x",
    "time_settings 1 2",
    "time_settings 1 2 x",
    "time_left b -1 0",
    "set_position junk",
    "set_position 7/7/7/7/7/7/7 w",
    "set_position 8/8/8/8/8/8/8/8 b",
    "perft 99",
    "perft -1",
    "is_legal b zz",
    "known_command",
    "undo",
    "final_score",
    "12",
    "name x",
];

/// Commands that show the whole state, including the random generator (reg_genmove).
const PROBES: &str =
    "position\nshowboard\nfinal_score\nperft 1\nreg_genmove b\nreg_genmove w\nundo\nposition\nundo\nposition\n";

#[test]
fn errors_change_nothing() {
    let long_line = format!("play b {}\n", "d4".repeat(3000));
    let prefixes = [
        String::new(),
        "boardsize 7\n".to_string(),
        SETUP_7.to_string(),
        format!("{SETUP_7}play b d4-d6/f6\nkomi 3\ntime_settings 10 1 1\n"),
        FULL_7.to_string(),
        OVER_7.to_string(),
        "boardsize 9\ngenmove b\n".to_string(),
    ];
    for prefix in &prefixes {
        let (control, control_engine, _) = run_engine(format!("{prefix}{PROBES}").as_bytes());
        let control_probe: Vec<&str> = control.split_terminator("\n\n").collect();
        let failing = FAILING.iter().map(|c| format!("{c}\n")).chain([long_line.clone()]);
        for bad in failing {
            let (out, engine, _) = run_engine(format!("{prefix}{bad}{PROBES}").as_bytes());
            let replies: Vec<&str> = out.split_terminator("\n\n").collect();
            let n = prefix.lines().count();
            let Some(reply) = replies.get(n) else { panic!("no reply to {bad:?}") };
            if reply.starts_with('=') {
                continue; // this command succeeds in this state: not an error case here
            }
            assert_eq!(replies.get(..n), control_probe.get(..n));
            assert_eq!(replies.get(n + 1..), control_probe.get(n..), "{bad:?} after {prefix:?} changed the state");
            assert_eq!(engine.komi(), control_engine.komi());
            assert_eq!(engine.clock(), control_engine.clock());
        }
    }
}

#[test]
fn every_failing_command_fails_somewhere() {
    for bad in FAILING {
        let fails = ["", "boardsize 7\n", SETUP_7, OVER_7]
            .iter()
            .any(|prefix| last_reply(&format!("{prefix}{bad}")).starts_with('?'));
        assert!(fails, "{bad} never fails");
    }
}

#[test]
fn ids_are_echoed() {
    assert_eq!(session("7 name\n"), "=7 veletas\n\n");
    assert_eq!(session("007 protocol_version\n"), "=007 2\n\n");
    assert_eq!(session("8 frobnicate\n"), "?8 unknown command\n\n");
    assert_eq!(session("9 komi 1\n"), "=9 \n\n");
    assert_eq!(session("10 boardsize 5\n"), "?10 unacceptable size\n\n");
    assert_eq!(session("11 quit\n"), "=11 \n\n");
    assert_eq!(session("12name\n"), "? unknown command\n\n");
    assert_eq!(session("18446744073709551616123 name\n"), "=18446744073709551616123 veletas\n\n");
    assert_eq!(session("3 list_commands\n").lines().next(), Some("=3 protocol_version"));
}

#[test]
fn framing_edge_cases() {
    assert_eq!(session("name\r\nprotocol_version\r\n"), "= veletas\n\n= 2\n\n");
    assert_eq!(session("\tboardsize\t7\t\nposition\n"), "= \n\n= 7/7/7/7/7/7/7 b\n\n");
    assert_eq!(session("boardsize 7\n3   play  b\td4   \n"), "= \n\n=3 \n\n");
    assert_eq!(session("# a comment\nname # trailing comment\n#\n"), "= veletas\n\n");
    assert_eq!(session("\n\n   \n\t\r\nname\n\n"), "= veletas\n\n");
    assert_eq!(session("name"), "= veletas\n\n");
    assert_eq!(session("name\nversion"), format!("= veletas\n\n= {}\n\n", env!("CARGO_PKG_VERSION")));
    assert_eq!(session("NAME\n"), "? unknown command\n\n");
    assert_eq!(session("Quit\nname\n"), "? unknown command\n\n= veletas\n\n");
    assert_eq!(session("na\0me\x07\n"), "= veletas\n\n");
    assert_eq!(session(""), "");
    assert_eq!(session("#1 name\n"), "");
    assert_eq!(session("boardsize 7\nplay b d4#e5\n"), "= \n\n= \n\n");
    let (out, _, _) = run_engine(b"\xff\xfe\nname\n");
    assert_eq!(out, "? unknown command\n\n= veletas\n\n");
}

#[test]
fn quit_and_end_of_input_end_the_session() {
    let (out, _, summary) = run_engine(b"name\nfrob\nquit\nname\n");
    assert_eq!(out, "= veletas\n\n? unknown command\n\n= \n\n");
    assert_eq!(summary, Summary { commands: 3, errors: 1, quit: true });
    let (_, _, summary) = run_engine(b"name\n");
    assert_eq!(summary, Summary { commands: 1, errors: 0, quit: false });
}

#[test]
fn a_whole_random_game_ends_with_a_score() {
    for size in [7, 9, 10] {
        let mut script = format!("boardsize {size}\n");
        for _ in 0..150 {
            script.push_str("genmove b\ngenmove w\n");
        }
        script.push_str("final_score\n");
        let all = replies(&script);
        let score = all.last().cloned().unwrap_or_default();
        assert!(score == "= B+" || score == "= W+", "{size}: {score}");
        // Moves stop at the end: later genmoves fail and change nothing.
        assert!(all.iter().any(|r| r == "? illegal move: the game is over"));
    }
}

/// The workspace's example game, from the crate's folder (where cargo runs its tests).
const EXAMPLE_GAME: &str = "../../data/example-game.txt";

#[test]
fn loadgame_replays_a_record_up_to_a_turn_and_keeps_the_history() {
    let record = EXAMPLE_GAME;
    assert_eq!(last_reply(&format!("loadgame {record} 6\n")), "= black");
    assert_eq!(last_reply(&format!("loadgame {record} 6\nposition\n")), "= 5sw/7/7/7/s6/bb5/5ws b");
    assert_eq!(last_reply(&format!("loadgame {record} 0\nposition\n")), "= 7/7/7/7/7/7/7 b");
    // The loaded turns are the history: undoing two of six equals loading four.
    let undone = last_reply(&format!("loadgame {record} 6\nundo\nundo\nposition\n"));
    assert_eq!(undone, last_reply(&format!("loadgame {record} 4\nposition\n")));
    // The whole game: over, and scored as the record says.
    assert_eq!(last_reply(&format!("loadgame {record}\nfinal_score\n")), "= W+");
    assert_eq!(last_reply(&format!("loadgame {record} 18 1\nfinal_score\n")), "= W+");
}

#[test]
fn loadgame_errors_change_nothing() {
    let before = last_reply(&format!("{SETUP_7}position\n"));
    for bad in [
        "loadgame ../../data/no-such-file.txt".to_string(),
        format!("loadgame {EXAMPLE_GAME} 99"),
        format!("loadgame {EXAMPLE_GAME} 3 2"),
        format!("loadgame {EXAMPLE_GAME} 3 0"),
        "loadgame Cargo.toml".to_string(),
    ] {
        let replies = replies(&format!("{SETUP_7}{bad}\nposition\n"));
        let n = replies.len();
        assert!(replies[n - 2].starts_with("? cannot load: "), "{bad}: {}", replies[n - 2]);
        assert_eq!(replies[n - 1], before, "{bad} changed the game");
    }
    for bad in ["loadgame", "loadgame a b", "loadgame f 1 2 3", "loadgame f -1"] {
        assert!(last_reply(&format!("{bad}\n")).starts_with("? syntax error"), "{bad}");
    }
}

#[test]
fn loadgame_refuses_what_is_no_record_file_and_keeps_answering() {
    let dir = std::env::temp_dir().join(format!("veletas-protocol-{}-loadgame", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.txt");
    // A sparse file just over the limit: refused from its size, without reading it.
    std::fs::File::create(&big).unwrap().set_len(veletas_rules::record::MAX_RECORD_FILE_BYTES + 1).unwrap();
    let fifo = dir.join("fifo");
    let fifo_made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    let mut cases = vec![
        ("/dev/zero".to_string(), "not a regular file (a character device)"),
        (dir.display().to_string(), "not a regular file (a directory)"),
        (big.display().to_string(), "larger than the limit of 268435456 bytes"),
    ];
    if fifo_made {
        cases.push((fifo.display().to_string(), "not a regular file (a FIFO)"));
    }
    let before = last_reply(&format!("{SETUP_7}position\n"));
    for (path, reason) in cases {
        let replies = replies(&format!("{SETUP_7}loadgame {path}\nposition\nname\n"));
        let n = replies.len();
        assert_eq!(replies[n - 3], format!("? cannot load: {}: {reason}", veletas_rules::quoted(&path)));
        assert_eq!(replies[n - 2], before, "{path} changed the game");
        assert_eq!(replies[n - 1], "= veletas");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn set_position_says_what_is_wrong_with_any_number_of_words() {
    let before = last_reply(&format!("{SETUP_7}position\n"));
    let cases = [
        ("garbage", "1 rank: the board must be 7x7, 9x9 or 10x10"),
        ("garbage b", "1 rank: the board must be 7x7, 9x9 or 10x10"),
        ("7/7/7/7/7/7/7", "the side to move ('b' or 'w') is missing after the ranks"),
        ("7/7/7/7/7/7/7 x", "the side to move must be 'b' or 'w', not 'x'"),
        ("7/7/7/7/7/7/x6 b", "unexpected 'x' in rank 1"),
        ("7/7/7/7/7/7/6 b", "rank 1 has 6 squares, expected 7"),
        // A digit run of any length: counted without overflow, reported without a
        // saturated count (it printed 18446744073709551615 squares).
        ("7/7/7/7/7/7/99999999999999999999 b", "rank 1 has more than 7 squares, expected 7"),
        // Found by the fuzz seeds' mutations: a saturated run then a piece overflowed.
        ("7/7/7/7/7/7/18446744073709551615s7 b", "rank 1 has more than 7 squares, expected 7"),
        (
            "7/7/7/7/7/7/7 b modern frob",
            "unknown word 'frob' after the side to move: expected classic or modern, no-corners, claimed-block, swap or noswap",
        ),
        (
            "7/7/7/7/7/7/7 b modern classic",
            "'modern' and 'classic' after the side to move: each of classic or modern, no-corners, claimed-block, swap or noswap at most once",
        ),
        (
            "7/7/7/7/7/7/7 b a b c d e f g",
            "unknown word 'a' after the side to move: expected classic or modern, no-corners, claimed-block, swap or noswap",
        ),
        ("7/7/7/3s3/7/7/7 b", "it is white's setup turn"),
        ("7/7/s6/7/s6/7/7 w", "2 shooters on the board: expected 0, 1 or 3"),
        ("s6/7/7/7/7/7/7 b no-corners", "a7 is a corner, which does not exist with no-corners"),
    ];
    for (text, reason) in cases {
        let replies = replies(&format!("{SETUP_7}set_position {text}\nposition\nname\n"));
        let n = replies.len();
        assert_eq!(replies[n - 3], format!("? invalid position: {reason}: '{text}'"), "{text}");
        assert_eq!(replies[n - 2], before, "{text} changed the game");
        assert_eq!(replies[n - 1], "= veletas");
    }
}
