//! Self-play games for the move policy: every searched position with the share of the
//! root's playouts each first step (a shooter's move, or none) received, in the sample
//! format of [`veletas_engine::learning::policy_fit`] (`GAME | POSITION | MOVE:PLAYOUTS ...`).
//!
//! Usage: `cargo run --release -p veletas-engine --example policy_data -- GAMES PLAYOUTS SIZE RULES SEED [FIRST_GAME]`
//! (RULES `classic` or `modern`); the lines go to stdout, a line per game to stderr.
//!
//! The engine plays both sides with a fixed playout budget and the default settings (one
//! thread, no tree reuse, so each search starts from its own position). The setup is
//! random, and the first four turns of each side are drawn in proportion to the root's
//! playouts instead of taken as the most visited, so that games differ; every later turn
//! is the search's choice. Game numbers start at FIRST_GAME (default 1), so runs with
//! other seeds can be appended to one file.

use veletas_engine::search::{Limits, SearchSettings, Searcher};
use veletas_rules::{Game, Move, Phase, Position, Rng, RuleSet, Rules, Square, Turn, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, name: &str| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
            eprintln!("usage: policy_data GAMES PLAYOUTS SIZE RULES SEED [FIRST_GAME] (bad or missing {name})");
            std::process::exit(2)
        })
    };
    let (games, playouts, size, seed) =
        (number(0, "GAMES"), number(1, "PLAYOUTS"), number(2, "SIZE"), number(4, "SEED"));
    let first_game = if args.len() > 5 { number(5, "FIRST_GAME") } else { 1 };
    let set = match args.get(3).map(String::as_str) {
        Some("classic") => RuleSet::Classic,
        Some("modern") => RuleSet::Modern,
        _ => {
            eprintln!("usage: RULES is classic or modern");
            std::process::exit(2)
        }
    };
    let Some(variant) = u8::try_from(size).ok().and_then(Variant::from_size) else {
        eprintln!("SIZE is 7, 9 or 10");
        std::process::exit(2)
    };
    let Ok(rules) = Rules::new(set, false, false) else { return };
    let mut rng = Rng::new(seed);
    let settings = SearchSettings { seed, tree_reuse: false, threads: 1, ..SearchSettings::default() };
    let mut searcher = Searcher::new(settings);
    let limits = Limits { iterations: Some(playouts), ..Default::default() };
    for g in first_game..first_game + games {
        let mut game = Game::from_position(Position::with_rules(variant, rules));
        let mut turns = 0;
        while !game.position().is_over() {
            let pos = game.position().clone();
            if pos.phase() != Phase::Play {
                let Some(mv) = pos.random_setup(&mut rng) else { break };
                if game.play(mv).is_err() {
                    break;
                }
                continue;
            }
            let Some(result) = searcher.choose(&game, &limits) else { break };
            let visits = searcher.root_visits(&pos);
            let mut by_step: Vec<(Option<(Square, Square)>, u64)> = Vec::new();
            for (turn, v) in &visits {
                match by_step.iter_mut().find(|(s, _)| *s == turn.shooter_move()) {
                    Some(entry) => entry.1 += v,
                    None => by_step.push((turn.shooter_move(), *v)),
                }
            }
            if !by_step.is_empty() {
                let words: Vec<String> =
                    by_step.iter().map(|(s, v)| format!("{}:{v}", veletas_rules::record::step_word(*s))).collect();
                println!("{g} | {pos} | {}", words.join(" "));
            }
            let turn = if turns < 8 && !visits.is_empty() { drawn(&visits, &mut rng) } else { result.best };
            if game.play(turn).is_err() {
                break;
            }
            turns += 1;
        }
        eprintln!("game {g}: {turns} turns, winner {:?}", game.position().winner());
    }
}

/// A root turn drawn in proportion to its playouts.
fn drawn(visits: &[(Turn, u64)], rng: &mut Rng) -> Move {
    let total: u64 = visits.iter().map(|(_, v)| v).sum();
    let mut k = rng.below_u64(total.max(1));
    for (turn, v) in visits {
        if k < *v {
            return Move::Turn(*turn);
        }
        k -= v;
    }
    Move::Turn(visits[0].0)
}
