//! The protocol with the engine's search player: `player`, `movetime`, `playouts`,
//! `threads` and `analyze`, and reproducible `genmove` with a fixed playout budget.
//! No test depends on the speed of the machine.

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use veletas::cli::EngineArgs;
use veletas_engine::protocol::{Engine, run};
use veletas_engine::search::Algorithm;
use veletas_rules::{Game, Position, Variant};

fn engine(seed: u64) -> Engine {
    Engine::new(Variant::STANDARD, Box::new(EngineArgs::default().player(seed).unwrap()))
}

fn session_with(engine: &mut Engine, input: &str) -> String {
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, engine).unwrap();
    String::from_utf8(output).unwrap()
}

fn replies(seed: u64, input: &str) -> Vec<String> {
    let out = session_with(&mut engine(seed), input);
    assert!(out.is_empty() || out.ends_with("\n\n"), "{out:?}");
    out.split_terminator("\n\n").map(str::to_string).collect()
}

const SETUP_7: &str = "boardsize 7\nplay b d4\nplay w c7,e1\n";
const WIN_7: &str = "set_position Bbwbwbw/wbwbwbw/bwb2wb/wbwsbwb/bwbwbwb/wbwbwbb/bwbwb1s b\n";

#[test]
fn player_reports_and_sets_the_player() {
    assert_eq!(replies(1, "player\n"), ["= veletas"]);
    assert_eq!(
        replies(1, "player greedy\nplayer\nplayer UCT\nplayer\n1 player random\n2 player\nplayer veletas\nplayer\n"),
        ["= ", "= greedy", "= ", "= uct", "=1 ", "=2 random", "= ", "= veletas"]
    );
}

#[test]
fn settings_errors_change_nothing() {
    assert_eq!(
        replies(1, "player greedy\nplayer chess\nplayer\nplayer uct veletas\nplayer\n"),
        [
            "= ",
            "? syntax error: unknown player 'chess' (random, greedy, uct or veletas)",
            "= greedy",
            "? syntax error: unexpected 'veletas'; usage: player [NAME]",
            "= greedy",
        ]
    );
    let errors = replies(
        1,
        "movetime 0\nmovetime -1\nmovetime x\nmovetime 1e9\nmovetime\nplayouts -5\nplayouts 1.5\nplayouts\n\
         threads 0\nthreads 65\nthreads two\nthreads\nanalyze 0\nanalyze -1\nanalyze 1 2\n",
    );
    assert_eq!(errors.len(), 15);
    for (reply, usage) in errors.iter().zip(
        ["movetime SECONDS"; 5]
            .into_iter()
            .chain(["playouts N"; 3])
            .chain(["threads N"; 4])
            .chain(["analyze [INTERVAL]"; 3]),
    ) {
        assert!(reply.starts_with("? syntax error: "), "{reply}");
        assert!(reply.ends_with(&format!("usage: {usage}")), "{reply}");
    }
    // The same moves with or without failed settings in between: nothing changed.
    let plain = replies(4, &format!("playouts 300\n{SETUP_7}genmove b\ngenmove w\n"));
    let with_errors = replies(
        4,
        &format!(
            "playouts 300\nthreads 0\nplayer chess\nmovetime 0\n{SETUP_7}playouts x\ngenmove b\nthreads 99\ngenmove w\n"
        ),
    );
    let moves = |r: &[String]| r.iter().rev().filter(|r| r.starts_with("= ")).take(2).cloned().collect::<Vec<_>>();
    assert_eq!(moves(&plain), moves(&with_errors));
}

#[test]
fn settings_succeed() {
    assert_eq!(
        replies(1, "movetime 0.05\nmovetime 2\nplayouts 0\nplayouts 1000\n5 threads 2\nthreads 1\n"),
        ["= ", "= ", "= ", "= ", "=5 ", "= "]
    );
}

#[test]
fn genmove_with_playouts_is_reproducible_for_a_seed() {
    let input = format!("playouts 400\n{SETUP_7}genmove b\ngenmove w\ngenmove b\nreg_genmove w\nposition\n");
    let a = replies(7, &input);
    assert_eq!(a, replies(7, &input));
    assert!(a.iter().all(|r| r.starts_with("= ")), "{a:?}");
    // Two threads share the budget (their moves may differ from run to run): legal moves,
    // and the position reported is the game they make.
    let two = replies(7, &format!("threads 2\n{input}"));
    assert!(two.iter().all(|r| r.starts_with("= ")), "{two:?}");
    let mut game = Game::new(Variant::from_size(7).unwrap());
    for mv in ["d4", "c7,e1"].into_iter().chain(two[5..8].iter().map(|r| &r[2..])) {
        let mv = game.position().parse_move(mv).unwrap();
        game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(two[9], format!("= {}", game.position()));
}

#[test]
fn every_player_plays_setups_and_turns_through_the_protocol() {
    for kind in Algorithm::ALL {
        let out = replies(
            3,
            &format!("playouts 200\nplayer {kind}\nboardsize 9\ngenmove b\ngenmove w\ngenmove b\nposition\n"),
        );
        let moves: Vec<&str> = out[3..6].iter().map(|r| r.strip_prefix("= ").unwrap()).collect();
        let mut game = Game::new(Variant::from_size(9).unwrap());
        for mv in &moves {
            let mv = game.position().parse_move(mv).unwrap();
            game.play(mv).unwrap_or_else(|e| panic!("{kind}: {mv}: {e}"));
        }
        assert_eq!(out[6], format!("= {}", game.position()), "{kind}");
    }
}

#[test]
fn genmove_finishes_a_game_and_final_score_works() {
    let mut e = engine(2);
    let mut input = String::from("playouts 100\nboardsize 7\n");
    for _ in 0..60 {
        input.push_str("genmove b\ngenmove w\n");
    }
    let out = session_with(&mut e, &input);
    assert!(e.game().position().is_over(), "{out}");
    assert!(out.contains("? illegal move: the game is over"));
    let score = session_with(&mut e, "final_score\n");
    assert!(score == "= B+\n\n" || score == "= W+\n\n", "{score}");
}

/// Checks one report line: `info move M visits N winrate W order K pv M...` entries.
fn check_report(line: &str, position: &Position) -> usize {
    let words: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    let mut entries = 0;
    while i < words.len() {
        assert_eq!(words[i], "info", "{line}");
        assert_eq!(words[i + 1], "move", "{line}");
        let mv = position.parse_move(words[i + 2]).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(position.is_legal(mv), "{mv} is not legal: {line}");
        assert_eq!(words[i + 2], mv.to_string(), "canonical notation: {line}");
        assert_eq!(words[i + 3], "visits");
        words[i + 4].parse::<u64>().unwrap();
        assert_eq!(words[i + 5], "winrate");
        assert!(words[i + 6].parse::<u32>().unwrap() <= 10_000, "{line}");
        assert_eq!(words[i + 7], "order");
        assert_eq!(words[i + 8].parse::<usize>().unwrap(), entries, "{line}");
        let mv_word = words[i + 2];
        i += 9;
        if entries == 0 {
            // The first entry carries the search's memory and its limit, in MiB.
            assert_eq!((words[i], words[i + 2]), ("memory", "memory_limit"), "{line}");
            let (used, limit) = (words[i + 1].parse::<u64>().unwrap(), words[i + 3].parse::<u64>().unwrap());
            assert!(used <= limit && limit >= 16, "{line}");
            i += 4;
        }
        assert_eq!(words[i], "pv");
        assert_eq!(words[i + 1], mv_word, "the pv starts with the move: {line}");
        i += 2;
        while i < words.len() && words[i] != "info" {
            assert!(!words[i].is_empty(), "{line:?}");
            i += 1;
        }
        entries += 1;
    }
    assert!(entries >= 1);
    entries
}

fn position_of(input: &str) -> Position {
    let mut e = engine(1);
    session_with(&mut e, input);
    e.game().position().clone()
}

#[test]
fn analyze_streams_info_lines_then_ends_at_the_next_command() {
    let setup = format!("{SETUP_7}play b d4-d6/f6\n");
    let position = position_of(&setup);
    let out = session_with(&mut engine(1), &format!("{setup}7 analyze 1\n8 position\n"));
    let (analysis, rest) = out.split_once("=7 \n").expect("the analysis starts with its id");
    assert_eq!(analysis, "= \n\n".repeat(4));
    let (reports, after) = rest.split_once("\n\n").expect("an empty line ends the analysis");
    let reports: Vec<&str> = reports.lines().collect();
    assert!(!reports.is_empty());
    let entries = reports.iter().map(|r| check_report(r, &position)).max().unwrap();
    assert!(entries > 1, "several candidates: {reports:?}");
    assert_eq!(after, format!("=8 {position}\n\n"), "the next command is answered as usual");
}

#[test]
fn analyze_at_end_of_input_still_ends_its_reply() {
    let out = session_with(&mut engine(1), &format!("{SETUP_7}analyze"));
    let rest = out.strip_prefix(&"= \n\n".repeat(3)).unwrap();
    let body = rest.strip_prefix("= \n").unwrap().strip_suffix("\n\n").unwrap();
    assert!(body.lines().all(|l| l.starts_with("info move ")), "{body}");
}

#[test]
fn analyze_without_search_reports_once() {
    // The immediate-win solver answers without search: one report, exact.
    assert_eq!(
        replies(1, &format!("{WIN_7}analyze 10\nposition\n"))[1..],
        [
            "= \ninfo move f1 visits 0 winrate 10000 order 0 memory 0 memory_limit 256 pv f1".to_string(),
            "= Bbwbwbw/wbwbwbw/bwb2wb/wbwsbwb/bwbwbwb/wbwbwbb/bwbwb1s b".to_string()
        ]
    );
    // So do random and greedy.
    let setup = format!("{SETUP_7}player random\n");
    let position = position_of(SETUP_7);
    let out = replies(1, &format!("{setup}analyze 1\nplayer greedy\nanalyze\n"));
    assert_eq!(out.len(), 7);
    for reply in [&out[4], &out[6]] {
        let line = reply.strip_prefix("= \n").unwrap();
        assert!(!line.contains('\n'), "one report: {reply}");
        assert_eq!(check_report(line, &position), 1);
    }
}

#[test]
fn analyze_errors() {
    let out = replies(1, &format!("{WIN_7}play b f1\nposition\n3 analyze\nposition\n"));
    assert_eq!(out[3], "?3 cannot analyze: the game is over");
    assert_eq!(out[2], out[4], "nothing changed");
}

/// Input that releases its last part only once the output holds `reports` report
/// lines (or after a minute, so a broken engine fails the test instead of hanging it).
struct GatedInput {
    first: io::Cursor<Vec<u8>>,
    rest: io::Cursor<Vec<u8>>,
    output: Arc<Mutex<Vec<u8>>>,
    reports: usize,
}

impl GatedInput {
    fn open(&self) -> bool {
        let out = self.output.lock().unwrap();
        String::from_utf8_lossy(&out).lines().filter(|l| l.starts_with("info ")).count() >= self.reports
    }
}

impl Read for GatedInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(buf.len());
            buf[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for GatedInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if (self.first.position() as usize) < self.first.get_ref().len() {
            return self.first.fill_buf();
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.open() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.rest.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if (self.first.position() as usize) < self.first.get_ref().len() {
            self.first.consume(amount);
        } else {
            self.rest.consume(amount);
        }
    }
}

#[derive(Clone)]
struct SharedOutput(Arc<Mutex<Vec<u8>>>);

impl Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn analyze_keeps_reporting_until_input_arrives() {
    let shared = Arc::new(Mutex::new(Vec::new()));
    let input = GatedInput {
        first: io::Cursor::new(format!("playouts 300\n{SETUP_7}threads 2\n4 analyze 1\n").into_bytes()),
        rest: io::Cursor::new(b"5 genmove b\n".to_vec()),
        output: Arc::clone(&shared),
        reports: 3,
    };
    let mut e = engine(1);
    run(input, SharedOutput(Arc::clone(&shared)), &mut e).unwrap();
    let out = String::from_utf8(shared.lock().unwrap().clone()).unwrap();
    let (_, rest) = out.split_once("=4 \n").unwrap();
    let (reports, after) = rest.split_once("\n\n").unwrap();
    let position = position_of(SETUP_7);
    let reports: Vec<&str> = reports.lines().collect();
    // Three reports before the input was let through, and the last one after it.
    assert!(reports.len() >= 4, "{reports:?}");
    for r in &reports {
        check_report(r, &position);
    }
    assert!(after.starts_with("=5 ") && after.ends_with("\n\n") && !after.contains("info"), "{after}");
}

#[test]
fn genmove_analyze_plays_the_move_genmove_plays_and_reports_it_first() {
    let setup = format!("playouts 300\n{SETUP_7}play b d4-d6/f6\n");
    let position = position_of(&setup);
    let plain = replies(5, &format!("{setup}genmove w\nposition\n"));
    let analyzed = replies(5, &format!("{setup}4 genmove_analyze w\nposition\n"));
    let reply = &analyzed[analyzed.len() - 2];
    let lines: Vec<&str> = reply.lines().collect();
    assert_eq!(lines.len(), 3, "{reply:?}");
    assert_eq!(lines[0], "=4 ");
    let played = lines[2].strip_prefix("play ").expect("play MOVE last");
    assert_eq!(format!("= {played}"), plain[plain.len() - 2], "the same move as genmove, same seed and budget");
    assert!(check_report(lines[1], &position) >= 1);
    assert!(lines[1].starts_with(&format!("info move {played} visits ")), "the move played comes first: {reply}");
    let visits: u64 = lines[1].split(' ').nth(4).unwrap().parse().unwrap();
    assert!(visits > 0, "{reply}");
    // The move is played: the position is the one genmove leaves.
    assert_eq!(analyzed.last(), plain.last());
}

#[test]
fn genmove_analyze_without_search_and_its_errors() {
    let setup = format!("player random\n{SETUP_7}");
    let out = replies(1, &format!("{setup}genmove_analyze b\n"));
    let last = out.last().unwrap();
    let (report, mv) = last.strip_prefix("= \n").unwrap().split_once("\nplay ").expect("a report, then play MOVE");
    assert!(report.starts_with(&format!("info move {mv} visits 0 ")), "chosen without search: {report}");
    let mut position = position_of(SETUP_7);
    assert!(position.is_legal(position.parse_move(mv).unwrap()), "{mv}");
    let before = replies(1, &format!("{SETUP_7}position\n")).pop().unwrap();
    let errors = replies(1, &format!("{SETUP_7}genmove_analyze w\ngenmove_analyze\ngenmove_analyze b w\nposition\n"));
    assert_eq!(
        errors[3..6],
        [
            "? illegal move: it is black's turn".to_string(),
            "? syntax error: missing argument; usage: genmove_analyze COLOR".to_string(),
            "? syntax error: unexpected 'w'; usage: genmove_analyze COLOR".to_string(),
        ]
    );
    assert_eq!(errors[6], before, "nothing changed");
    position = position_of(WIN_7);
    let over = replies(1, &format!("{WIN_7}play b f1\ngenmove_analyze w\n"));
    assert!(position.is_legal(position.parse_move("f1").unwrap()));
    assert_eq!(over.last().unwrap(), "? illegal move: the game is over");
}

#[test]
fn genmove_analyze_steps_adds_the_root_first_steps_to_genmove_analyze() {
    let setup = format!("playouts 300\n{SETUP_7}play b d4-d6/f6\n");
    let position = position_of(&setup);
    let analyzed = replies(5, &format!("{setup}genmove_analyze w\nposition\n"));
    let stepped = replies(5, &format!("{setup}4 genmove_analyze_steps w\nposition\n"));
    let reply = &stepped[stepped.len() - 2];
    let lines: Vec<&str> = reply.lines().collect();
    assert_eq!(lines.len(), 4, "{reply:?}");
    let plain: Vec<&str> = analyzed[analyzed.len() - 2].lines().collect();
    // The same move and report as genmove_analyze, same seed and budget; the same position after.
    assert_eq!((lines[0], lines[1], lines[3]), ("=4 ", plain[1], plain[2]));
    assert_eq!(stepped.last(), analyzed.last());
    let played = position.parse_move(lines[3].strip_prefix("play ").unwrap()).unwrap();
    let words: Vec<&str> = lines[2].split(' ').collect();
    assert_eq!(words[0], "steps", "{reply}");
    let mut seen = Vec::new();
    let mut last = u64::MAX;
    for word in &words[1..] {
        let (step, visits) = word.split_once(':').unwrap_or_else(|| panic!("STEP:PLAYOUTS: {word}"));
        let visits: u64 = visits.parse().unwrap();
        assert!(visits > 0 && visits <= last, "most visited first, none without playouts: {reply}");
        last = visits;
        assert!(!seen.contains(&step), "each step once: {reply}");
        seen.push(step);
        if step != "-" {
            let (from, to) = step.split_once('-').unwrap();
            let from: veletas_rules::Square = from.parse().unwrap();
            assert!(position.shooters().contains(from), "{step}");
            assert!(position.shooter_reach(from).contains(to.parse().unwrap()), "{step}");
            assert_eq!(step, step.to_lowercase(), "canonical");
        }
    }
    let sum: u64 = words[1..].iter().map(|w| w.split_once(':').unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 300, "a first search: the root's playouts are the budget's: {reply}");
    // The move played went through its first step.
    let step_of_move = match played {
        veletas_rules::Move::Turn(turn) => veletas_rules::record::step_word(turn.shooter_move()),
        other => panic!("{other}"),
    };
    let move_visits: u64 = lines[1].split(' ').nth(4).unwrap().parse().unwrap();
    let step_visits: u64 =
        words[1..].iter().find_map(|w| w.strip_prefix(&format!("{step_of_move}:"))).unwrap().parse().unwrap();
    assert!(step_visits >= move_visits, "{reply}");
}

#[test]
fn genmove_analyze_steps_without_search_and_its_errors() {
    let out = replies(1, &format!("player random\n{SETUP_7}genmove_analyze_steps b\n"));
    let lines: Vec<&str> = out.last().unwrap().lines().collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[1].contains(" visits 0 ") && lines[2] == "steps" && lines[3].starts_with("play "), "{lines:?}");
    let before = replies(1, &format!("{SETUP_7}position\n")).pop().unwrap();
    let errors = replies(
        1,
        &format!("{SETUP_7}genmove_analyze_steps w\ngenmove_analyze_steps\ngenmove_analyze_steps b b\nposition\n"),
    );
    assert_eq!(
        errors[3..6],
        [
            "? illegal move: it is black's turn".to_string(),
            "? syntax error: missing argument; usage: genmove_analyze_steps COLOR".to_string(),
            "? syntax error: unexpected 'b'; usage: genmove_analyze_steps COLOR".to_string(),
        ]
    );
    assert_eq!(errors[6], before, "nothing changed");
    let over = replies(1, &format!("{WIN_7}play b f1\ngenmove_analyze_steps w\n"));
    assert_eq!(over.last().unwrap(), "? illegal move: the game is over");
}
