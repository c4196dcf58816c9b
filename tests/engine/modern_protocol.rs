//! The modern rules over the protocol: `rules`, `option`, the swap, extended position
//! strings, `genmove` through whole modern games (swap decisions included), and the
//! command-line flags.

use std::process::{Command, Stdio};

use veletas::cli::EngineArgs;
use veletas_engine::player::RandomPlayer;
use veletas_engine::protocol::{Engine, run};
use veletas_engine::search::Algorithm;
use veletas_rules::{Color, Move, Phase, Position, Variant};

use crate::support::{VELETAS as BIN, engine, session};

fn replies_with(engine: &mut Engine, input: &str) -> Vec<String> {
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, engine).unwrap();
    let out = String::from_utf8(output).unwrap();
    out.split_terminator("\n\n").map(str::to_string).collect()
}

fn replies(input: &str) -> Vec<String> {
    replies_with(&mut Engine::new(Variant::STANDARD, Box::new(RandomPlayer::new(1))), input)
}

#[test]
fn rules_reports_and_switches_the_rule_set_starting_a_new_game() {
    let r = replies(
        "boardsize 9\nplay b c3,g7\nrules modern\nposition\nrules\nboardsize 7\nrules\nclear_board\nrules\nrules classic\nrules\n",
    );
    assert_eq!(r[2], "= ");
    assert_eq!(r[3], "= 9/9/9/9/9/9/9/9/9 b modern");
    assert_eq!(r[4], "= 9x9, 5 shooters (black places 2, white 3), 3 claims win; rules modern");
    assert_eq!(r[6], "= 7x7, 3 shooters (black places 1, white 2), 2 claims win; rules modern");
    assert_eq!(r[8], "= 7x7, 3 shooters (black places 1, white 2), 2 claims win; rules modern");
    assert_eq!(r[10], "= 7x7, 3 shooters (black places 1, white 2), 2 claims win; rules classic");
    let r = replies("rules chess\nrules modern classic\nrules\n");
    assert!(r[0].starts_with("? syntax error"), "{}", r[0]);
    assert!(r[1].starts_with("? syntax error"), "{}", r[1]);
    assert!(r[2].ends_with("rules classic"));
}

#[test]
fn the_no_corners_option_is_reported_set_and_kept() {
    let r = replies(
        "option no-corners\noption no-corners on\noption no-corners\nrules modern\nrules\noption no-corners off\nrules\noption no-corners maybe\noption corners\n",
    );
    assert_eq!(r[0], "= off");
    assert_eq!(r[2], "= on");
    assert!(r[4].ends_with("; rules modern, no-corners"), "{}", r[4]);
    assert!(r[6].ends_with("; rules modern"), "{}", r[6]);
    assert!(r[7].starts_with("? syntax error: expected on or off"), "{}", r[7]);
    assert!(r[8].starts_with("? syntax error: unknown option"), "{}", r[8]);
}

#[test]
fn swap_is_played_and_undone_over_the_protocol() {
    let r = replies(
        "rules modern\nboardsize 7\nplay b d4/a1\nis_legal w swap\nplay w swap\nposition\nis_legal w swap\nundo\nposition\n",
    );
    assert_eq!(r[3], "= true");
    assert_eq!(r[4], "= ");
    assert_eq!(r[5], "= 7/7/7/3s3/7/7/b6 w modern noswap");
    assert_eq!(r[6], "= false");
    assert_eq!(r[8], "= 7/7/7/3s3/7/7/b6 w modern swap");
}

#[test]
fn set_position_takes_the_words_of_the_rules() {
    let r = replies(
        "set_position 7/7/7/3s3/7/7/1b5 w no-corners modern noswap\nposition\nrules\nset_position 7/7/7/3s3/7/7/b6 w modern no-corners\nset_position 7/7/7/7/7/7/7 b modern swap\nset_position 7/7/7/7/7/7/7 b modern x y z\nposition\n",
    );
    assert_eq!(r[1], "= 7/7/7/3s3/7/7/1b5 w modern noswap no-corners");
    assert!(r[2].ends_with("rules modern, no-corners"));
    assert!(r[3].starts_with("? invalid position: a1 is a corner"), "{}", r[3]);
    assert!(r[4].starts_with("? invalid position: swap/noswap"), "{}", r[4]);
    assert_eq!(
        r[5],
        "? invalid position: unknown word 'x' after the side to move: expected classic or modern, no-corners, \
         claimed-block, swap or noswap: '7/7/7/7/7/7/7 b modern x y z'"
    );
    assert_eq!(r[6], "= 7/7/7/3s3/7/7/1b5 w modern noswap no-corners");
}

#[test]
fn legal_moves_refuses_lists_of_millions() {
    let r = replies("rules modern\nlegal_moves\nperft 1\nboardsize 7\nlegal_moves\n");
    assert_eq!(r[1], "? cannot list: 4041408 legal moves, more than 1000000");
    assert_eq!(r[2], "= 4041408");
    assert_eq!(r[4].split(' ').count(), 1 + 1200);
}

/// Whole games of the search player under the modern rules, every move checked.
fn play_games(rules_line: &str, games: u64) {
    for seed in 0..games {
        let mut args = EngineArgs { playouts: 60, ..EngineArgs::default() };
        if seed % 2 == 1 {
            args.player = Algorithm::Greedy;
        }
        let mut engine = Engine::new(Variant::from_size(7).unwrap(), Box::new(args.player(seed).unwrap()));
        replies_with(&mut engine, &format!("{rules_line}\n"));
        loop {
            let pos: Position = engine.game().position().clone();
            if pos.is_over() {
                break;
            }
            let color = if pos.side_to_move() == Color::Black { "b" } else { "w" };
            let reply = replies_with(&mut engine, &format!("genmove {color}\n")).pop().unwrap();
            let text = reply.strip_prefix("= ").unwrap_or_else(|| panic!("{reply} at {pos}"));
            let mv = pos.parse_move(text).unwrap();
            assert!(pos.is_legal(mv), "{text} at {pos}");
            if mv == Move::Swap {
                assert_eq!(engine.game().position().side_to_move(), Color::White);
            }
            assert!(engine.game().moves().len() < 400);
        }
        assert_eq!(engine.game().position().phase(), Phase::Play);
    }
}

#[test]
fn genmove_plays_whole_modern_games() {
    play_games("rules modern", 4);
}

#[test]
fn genmove_plays_whole_modern_no_corners_games() {
    play_games("rules modern\noption no-corners on", 2);
}

fn binary(args: &[&str], input: &str) -> String {
    String::from_utf8(session(&mut engine(args), input.as_bytes()).stdout).unwrap()
}

#[test]
fn command_line_flags_choose_the_rules() {
    let out = binary(&["--rules", "modern", "--no-corners", "--size", "7"], "rules\nposition\n");
    assert_eq!(
        out,
        "= 7x7, 3 shooters (black places 1, white 2), 2 claims win; rules modern, no-corners\n\n= 7/7/7/7/7/7/7 b modern no-corners\n\n"
    );
    assert_eq!(binary(&["--rules", "MODERN", "--size", "7", "perft", "1"], ""), "1200\n");
    assert_eq!(
        binary(&["--rules", "modern", "--no-corners", "--size", "7", "perft", "1"], ""),
        format!("{}\n", 25 * 44)
    );
    let status = Command::new(BIN).args(["--rules", "chess"]).stderr(Stdio::null()).status().unwrap();
    assert!(!status.success());
}
