//! The tactics suite (`data/tactics.txt`, made by `crates/rules/examples/gen_tactics.rs`): with a fixed
//! playout budget our engine takes every immediate win and avoids every handed-over loss.

use veletas_engine::search::{Algorithm, Limits, SearchSettings, Searcher};
use veletas_rules::{Game, Move, Position};

const SUITE: &str = include_str!("../../../../data/tactics.txt");

fn entries() -> Vec<(String, Position)> {
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "malformed line: {line}");
            (fields[0].to_string(), fields[1].parse().unwrap_or_else(|e| panic!("{line}: {e}")))
        })
        .collect()
}

fn outcome_after(pos: &Position, mv: Move) -> (bool, bool) {
    let mut next = pos.clone();
    next.play(mv).expect("the engine plays legal moves");
    let wins = next.winner() == Some(pos.side_to_move());
    let loses_next = match next.winner() {
        Some(w) => w != pos.side_to_move(),
        None => next.legal_moves().into_iter().any(|reply| {
            let mut after = next.clone();
            after.play_unchecked(reply);
            after.winner() == Some(next.side_to_move())
        }),
    };
    (wins, loses_next)
}

#[test]
fn suite_has_both_kinds_on_every_size() {
    let entries = entries();
    for size in [7, 9, 10] {
        for kind in ["win", "avoid"] {
            assert!(entries.iter().any(|(k, p)| k == kind && p.variant().size() == size), "{kind} on {size}x{size}");
        }
    }
}

#[test]
fn engine_solves_the_whole_suite_with_a_fixed_budget() {
    let mut failures = Vec::new();
    for (kind, pos) in entries() {
        let game = Game::from_position(pos.clone());
        let mut player = Searcher::new(SearchSettings { player: Algorithm::Veletas, seed: 7, ..Default::default() });
        let limits = Limits { iterations: Some(300), ..Default::default() };
        let best = player.choose(&game, &limits).expect("a move").best;
        let (wins, loses_next) = outcome_after(&pos, best);
        let solved = if kind == "win" { wins } else { !loses_next };
        if !solved {
            failures.push(format!("{kind} ; {pos} : played {best}"));
        }
    }
    assert!(failures.is_empty(), "unsolved:\n{}", failures.join("\n"));
}

#[test]
fn suite_is_not_trivial_for_a_random_player() {
    let mut failed = 0;
    for (kind, pos) in entries() {
        let game = Game::from_position(pos.clone());
        let mut player = Searcher::new(SearchSettings { player: Algorithm::Random, seed: 7, ..Default::default() });
        let best = player.choose(&game, &Limits::default()).expect("a move").best;
        let (wins, loses_next) = outcome_after(&pos, best);
        failed += usize::from(if kind == "win" { !wins } else { loses_next });
    }
    assert!(failed * 2 > entries().len(), "random play fails only {failed} positions");
}
