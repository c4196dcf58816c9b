//! The protocol's `solve`, `memory` and `resign_threshold` commands, with fixed playout
//! budgets (never the machine's speed). Positions with a forced win in two turns come from
//! `data/win2.txt` (checked by brute force in `tests/solver.rs`).

use veletas::cli::EngineArgs;
use veletas_engine::protocol::{Engine, run};
use veletas_rules::{Move, Position, Variant};

const DATA: &str = include_str!("../../data/win2.txt");

fn engine(seed: u64) -> Engine {
    Engine::new(Variant::STANDARD, Box::new(EngineArgs::default().player(seed).unwrap()))
}

fn replies(engine: &mut Engine, input: &str) -> Vec<String> {
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, engine).unwrap();
    let out = String::from_utf8(output).unwrap();
    out.split_terminator("\n\n").map(str::to_string).collect()
}

/// The first stored position of each size, with its stored forcing turn.
fn win2(size: u8) -> (Position, String) {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').map(str::trim).collect::<Vec<_>>())
        .map(|f| (f[0].parse::<Position>().unwrap(), f[1].to_string()))
        .find(|(p, _)| p.variant().size() == size)
        .unwrap()
}

#[test]
fn solve_answers_win_loss_and_unknown() {
    for size in [7, 9, 10] {
        let (pos, forcing) = win2(size);
        let mut e = engine(1);
        let out = replies(&mut e, &format!("playouts 50000\nset_position {pos}\nsolve 60\nposition\n"));
        let turn = out[2].strip_prefix("= win ").unwrap_or_else(|| panic!("{pos}: {out:?}"));
        let Ok(Move::Turn(_)) = pos.parse_move(turn) else { panic!("{turn}") };
        // Nothing was played.
        assert_eq!(out[3], format!("= {pos}"));
        // After the stored forcing turn, the opponent is lost.
        let out = replies(&mut e, &format!("play {} {forcing}\nsolve 60\n", pos.side_to_move()));
        assert_eq!(out, ["= ", "= loss"], "{pos} after {forcing}");
    }
    // The opening of 10x10 is not proven in 200 playouts.
    let out =
        replies(&mut engine(1), "playouts 200\nplay b c3,f6,h8\nplay w a1,c9,h2,j10\nsolve\nboardsize 7\nsolve\n");
    assert_eq!(out[3..], ["= unknown", "= ", "= unknown"], "setup turns are never solved");
}

#[test]
fn solve_errors() {
    let win = "set_position Bbwbwbw/wbwbwbw/bwb2wb/wbwsbwb/bwbwbwb/wbwbwbb/bwbwb1s b\nplay b f1\n";
    let out = replies(&mut engine(1), &format!("{win}1 solve\nsolve 0\nsolve x\nsolve 1 2\n"));
    assert_eq!(
        out[2..],
        [
            "?1 cannot solve: the game is over",
            "? syntax error: unexpected '0'; usage: solve [SECONDS]",
            "? syntax error: unexpected 'x'; usage: solve [SECONDS]",
            "? syntax error: unexpected '2'; usage: solve [SECONDS]",
        ]
    );
}

#[test]
fn memory_reports_and_sets_one_limit() {
    let mut e = engine(1);
    assert_eq!(
        replies(&mut e, "memory\nmemory 64\nmemory\nthreads 4\nmemory\n"),
        ["= 256", "= ", "= 64", "= ", "= 64"]
    );
    assert_eq!(
        replies(&mut e, "memory 15\nmemory x\nmemory 1048577\nmemory\n"),
        [
            "? syntax error: memory must be 16 to 1048576 MB, not 15",
            "? syntax error: unexpected 'x'; usage: memory [MB]",
            "? syntax error: memory must be 16 to 1048576 MB, not 1048577",
            "= 64"
        ]
    );
}

#[test]
fn resign_threshold_is_checked() {
    let mut e = engine(1);
    assert_eq!(
        replies(&mut e, "resign_threshold 0.1\nresign_threshold 1.01\nresign_threshold -0.1\nresign_threshold\n"),
        [
            "= ",
            "? syntax error: unexpected '1.01'; usage: resign_threshold THRESHOLD",
            "? syntax error: unexpected '-0.1'; usage: resign_threshold THRESHOLD",
            "? syntax error: missing argument; usage: resign_threshold THRESHOLD",
        ]
    );
}

#[test]
fn the_engine_resigns_on_its_third_turn_in_a_row_below_the_threshold() {
    let opening = "playouts 200\nplay b c3,f6,h8\nplay w a1,c9,h2,j10\n";
    let turns = "genmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\n";
    // Threshold 1: every unproven win rate is below it. Each colour counts its own turns.
    let out = replies(&mut engine(1), &format!("resign_threshold 1\n{opening}{turns}"));
    assert!(out[4..8].iter().all(|r| r != "= resign"), "{out:?}");
    assert_eq!(out[8], "= resign", "black's third turn: {out:?}");
    // Off by default.
    let out = replies(&mut engine(1), &format!("{opening}{turns}"));
    assert!(out.iter().all(|r| r != "= resign"), "{out:?}");
    // Undo starts the count again.
    let undo = "genmove b\ngenmove w\nundo\nundo\ngenmove b\ngenmove w\ngenmove b\n";
    let out = replies(&mut engine(1), &format!("resign_threshold 1\n{opening}{undo}"));
    assert!(out[4..].iter().all(|r| r != "= resign"), "{out:?}");
}
