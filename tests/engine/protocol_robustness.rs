//! Nothing on the input breaks the engine: seeded random bytes and lines, mutations of
//! valid commands, a 1 MB line, invalid UTF-8 and NUL bytes. Every reply must be
//! well-framed, there must be one reply per non-empty preprocessed line, and the engine
//! must still answer afterwards.

use veletas::cli::EngineArgs;
use veletas_engine::player::RandomPlayer;
use veletas_engine::protocol::{Engine, run};
use veletas_engine::search::Algorithm;
use veletas_rules::{Rng, Variant};

/// Valid commands to mutate (no deep `perft`, which could legitimately run for hours).
const CORPUS: &[&str] = &[
    "boardsize 7",
    "boardsize 9",
    "clear_board",
    "1 name",
    "protocol_version",
    "known_command play",
    "list_commands",
    "komi 6.5",
    "play b d4",
    "play w c7,e1",
    "play b d4-d6/f6",
    "play b c3,f6,h8",
    "genmove b",
    "genmove w",
    "reg_genmove b",
    "undo",
    "showboard",
    "time_settings 300 0.5 0",
    "time_left b 12.5 0",
    "final_score",
    "is_legal b d4",
    "set_position 7/7/2s4/7/4s2/1s5/7 b",
    "set_position Bbwbwbw/wbwbwbw/bwb2wb/wbwsbwb/bwbwbwb/wbwbwbb/bwbwb1s b",
    "position",
    "perft 1",
    "rules",
    "legal_moves",
    "player",
    "player random",
    "player greedy",
    "playouts 50",
    "threads 1",
    "movetime 0.01",
    "analyze 1",
];

/// Bytes that matter to the framing, to mix in more often than chance would.
const SPECIAL: &[u8] = b"\0\r\t #\x7f\x1b\xff\xfe\xc3 0123456789=?-/,";

fn random_byte(rng: &mut Rng) -> u8 {
    if rng.below(2) == 0 { SPECIAL[rng.below(SPECIAL.len() as u32) as usize] } else { rng.below(256) as u8 }
}

fn mutate(rng: &mut Rng, line: &[u8]) -> Vec<u8> {
    let mut out = line.to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(out.len() as u32 + 1) as usize;
        match rng.below(4) {
            0 => out.insert(at, random_byte(rng)),
            1 if at < out.len() => {
                out.remove(at);
            }
            2 if at < out.len() => out[at] = random_byte(rng),
            _ => out.insert(at, b' '),
        }
    }
    out
}

/// One random input line, without its LF (it may hold CRs and other control bytes).
fn random_line(rng: &mut Rng) -> Vec<u8> {
    let valid = |rng: &mut Rng| CORPUS[rng.below(CORPUS.len() as u32) as usize].as_bytes().to_vec();
    match rng.below(10) {
        0..=3 => {
            let line = valid(rng);
            mutate(rng, &line)
        }
        4..=5 => valid(rng),
        6 => (0..rng.below(40)).map(|_| random_byte(rng)).collect(),
        7 => (0..rng.below(200)).map(|_| rng.below(256) as u8).filter(|&b| b != b'\n').collect(),
        8 => {
            let mut line = valid(rng);
            line.extend_from_slice(b" # ");
            line.extend((0..rng.below(20)).map(|_| random_byte(rng)));
            line
        }
        _ => {
            let mut line = format!("{} ", rng.below(1000)).into_bytes();
            line.extend(valid(rng));
            line
        }
    }
}

/// The words of a line as GTP 2 preprocessing leaves them: an independent reference.
fn reference_words(line: &[u8]) -> Vec<Vec<u8>> {
    let kept: Vec<u8> = line.iter().copied().filter(|&b| b == b'\t' || (b >= 32 && b != 127)).collect();
    let kept = kept.split(|&b| b == b'#').next().unwrap_or_default();
    kept.split(|&b| b == b' ' || b == b'\t').filter(|w| !w.is_empty()).map(<[u8]>::to_vec).collect()
}

fn is_quit(words: &[Vec<u8>]) -> bool {
    match words {
        [name] => name == b"quit",
        [id, name] => id.iter().all(u8::is_ascii_digit) && name == b"quit",
        _ => false,
    }
}

/// Splits output into replies, checking each is framed: `=` or `?`, digits, a space,
/// then lines that are never empty, then exactly one empty line.
fn check_framing(output: &[u8]) -> Vec<String> {
    let text = String::from_utf8(output.to_vec()).expect("replies are UTF-8");
    assert!(text.is_empty() || text.ends_with("\n\n"), "output does not end with an empty line");
    let mut replies = Vec::new();
    for reply in text.split_terminator("\n\n") {
        let first = reply.lines().next().unwrap_or_default();
        let rest = first.strip_prefix('=').or_else(|| first.strip_prefix('?'));
        let Some(rest) = rest else { panic!("reply does not start with = or ?: {reply:?}") };
        let after_id = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        assert!(after_id.starts_with(' '), "no space after the status and id: {first:?}");
        assert!(!reply.contains('\r'), "CR in a reply: {reply:?}");
        assert!(reply.lines().skip(1).all(|l| !l.is_empty()), "empty line inside {reply:?}");
        assert!(!reply.starts_with('\n'), "reply starts with a newline");
        replies.push(reply.to_string());
    }
    replies
}

fn check_session(input: &[u8], quit_expected: bool) -> Vec<String> {
    let mut expected = 0;
    let mut quit = false;
    for line in input.split(|&b| b == b'\n') {
        let words = reference_words(line);
        if words.is_empty() {
            continue;
        }
        expected += 1;
        if is_quit(&words) {
            quit = true;
            break;
        }
    }
    assert_eq!(quit, quit_expected);
    // The engine's own player, quick: random moves, a small budget when it searches.
    let args = EngineArgs { player: Algorithm::Random, movetime: 0.01, playouts: 50, ..EngineArgs::default() };
    let player = args.player(9).unwrap();
    let mut engine = Engine::new(Variant::from_size(7).unwrap_or(Variant::STANDARD), Box::new(player));
    let mut output = Vec::new();
    run(input, &mut output, &mut engine).unwrap();
    let replies = check_framing(&output);
    assert_eq!(replies.len(), expected, "one reply per non-empty line");
    if !quit {
        assert_eq!(replies.last().map(String::as_str), Some("= 2"), "the engine stopped answering");
    }
    replies
}

#[test]
fn random_sessions_are_always_answered_and_well_framed() {
    let (mut successes, mut errors) = (0, 0);
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let mut input = Vec::new();
        for _ in 0..200 {
            let line = random_line(&mut rng);
            if is_quit(&reference_words(&line)) {
                continue;
            }
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        input.extend_from_slice(b"protocol_version\n");
        let replies = check_session(&input, false);
        successes += replies.iter().filter(|r| r.starts_with('=')).count();
        errors += replies.iter().filter(|r| r.starts_with('?')).count();
    }
    // The mix exercises both paths substantially.
    assert!(successes > 1000 && errors > 1000, "{successes} successes, {errors} errors");
}

#[test]
fn random_bytes_without_structure() {
    for seed in 100..120 {
        let mut rng = Rng::new(seed);
        let mut input: Vec<u8> = (0..5000).map(|_| random_byte(&mut rng)).collect();
        // Random bytes might spell quit; make sure they do not end the session early.
        for line in input.split_mut(|&b| b == b'\n') {
            if is_quit(&reference_words(line)) {
                line.fill(b' ');
            }
        }
        input.extend_from_slice(b"\nprotocol_version\n");
        check_session(&input, false);
    }
}

#[test]
fn huge_invalid_and_nul_lines() {
    let mut input = Vec::new();
    input.extend(std::iter::repeat_n(b'x', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(b"7 ");
    input.extend(std::iter::repeat_n(b'a', 1 << 20));
    input.push(b'\n');
    input.extend(std::iter::repeat_n(b'\0', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(b"name ");
    input.extend(std::iter::repeat_n(b' ', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(b"play\xff b \xc3\x28 \xed\xa0\x80\n\xf0\x28\x8c\xbc\n\0\0name\0\n");
    input.extend_from_slice(b"set_position \0\x01\x02 \xff\n");
    input.extend_from_slice(b"protocol_version\n");
    check_session(&input, false);
    let mut engine = Engine::new(Variant::STANDARD, Box::new(RandomPlayer::new(1)));
    let mut output = Vec::new();
    run(&input[..], &mut output, &mut engine).unwrap();
    let replies = check_framing(&output);
    assert_eq!(replies[0], "? syntax error: line longer than 4096 bytes");
    assert_eq!(replies[1], "?7 syntax error: line longer than 4096 bytes");
    assert_eq!(replies[2], "= veletas");
    assert_eq!(replies[5], "= veletas");
}

#[test]
fn counting_stops_at_quit() {
    check_session(b"name\n\n# c\nfoo\n 5\tquit # bye\nname\nname\n", true);
}

#[test]
fn no_final_newline_and_lone_cr() {
    check_session(b"name\r\nprotocol_\rversion", false);
    check_session(b"\r\n\r\nprotocol_version\r", false);
}
