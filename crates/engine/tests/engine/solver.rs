//! The solver (MCTS-solver in `search::mcts`): on positions with a forced win in two turns
//! (`data/win2.txt`, made by `crates/engine/examples/gen_win2.rs`) the engine proves and plays the win,
//! the loser's position after the forcing turn is proven lost, and `solve` says so. Every
//! stored position and every answer is checked by a plain brute-force search over the legal
//! turns here, which uses only the rules (no search code).

use veletas_engine::search::{Algorithm, Limits, Proven, SearchSettings, Searcher, Solution};
use veletas_rules::{Game, Move, Position, Turn};

const DATA: &str = include_str!("../../../../data/win2.txt");

/// (position, stored forcing first turn).
fn positions() -> Vec<(Position, Turn)> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "malformed line: {line}");
            let pos: Position = fields[0].parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            let turn = match pos.parse_move(fields[1]) {
                Ok(Move::Turn(t)) => t,
                other => panic!("{line}: not a turn: {other:?}"),
            };
            (pos, turn)
        })
        .collect()
}

fn legal_turns(pos: &Position) -> Vec<Turn> {
    let mut turns = Vec::new();
    pos.legal_turns(&mut turns);
    turns
}

fn after(pos: &Position, turn: Turn) -> Position {
    let mut next = pos.clone();
    next.play(Move::Turn(turn)).expect("a legal turn");
    next
}

/// Brute force: some legal turn ends the game with the side to move winning.
fn wins_at_once(pos: &Position) -> bool {
    legal_turns(pos).into_iter().any(|t| after(pos, t).winner() == Some(pos.side_to_move()))
}

/// Brute force: after `first` the game goes on and every reply leaves the first player a
/// turn that wins at once (or hands it the win).
fn forces_win_next_turn(pos: &Position, first: Turn) -> bool {
    let side = pos.side_to_move();
    let next = after(pos, first);
    !next.is_over()
        && legal_turns(&next).into_iter().all(|reply| {
            let then = after(&next, reply);
            match then.winner() {
                Some(w) => w == side,
                None => wins_at_once(&then),
            }
        })
}

fn solver_player(seed: u64) -> Searcher {
    Searcher::new(SearchSettings { player: Algorithm::Veletas, seed, ..Default::default() })
}

const BUDGET: u64 = 50_000;

#[test]
fn every_stored_position_is_a_forced_win_in_two_by_brute_force() {
    let positions = positions();
    for size in [7, 9, 10] {
        assert!(positions.iter().filter(|(p, _)| p.variant().size() == size).count() >= 3, "{size}x{size}");
    }
    for (pos, first) in &positions {
        assert!(!wins_at_once(pos), "{pos}: wins at once");
        assert!(forces_win_next_turn(pos, *first), "{pos}: {first} does not force the win");
    }
}

#[test]
fn the_engine_proves_and_plays_the_forced_win_with_a_fixed_budget() {
    let mut failures = Vec::new();
    for (pos, _) in positions() {
        let game = Game::from_position(pos.clone());
        let limits = Limits { iterations: Some(BUDGET), ..Default::default() };
        let result = solver_player(3).choose(&game, &limits).expect("a move");
        let Move::Turn(turn) = result.best else { panic!("not a turn") };
        let proven = Some(Proven { winner: pos.side_to_move(), turns: 3 });
        if result.proven != proven || !forces_win_next_turn(&pos, turn) || result.win_rate != 1.0 {
            failures.push(format!("{pos}: played {turn}, proven {:?}, {} visits", result.proven, result.visits));
        }
    }
    assert!(failures.is_empty(), "not solved:\n{}", failures.join("\n"));
}

#[test]
fn the_position_after_the_forcing_turn_is_proven_lost() {
    for (pos, first) in positions() {
        let game = Game::from_position(after(&pos, first));
        let limits = Limits { iterations: Some(BUDGET), ..Default::default() };
        // The opponent's every turn loses; the longest line lasts two turns.
        assert_eq!(solver_player(5).solve(&game, &limits), Solution::Loss(2), "{}", game.position());
    }
}

#[test]
fn solve_answers_win_with_a_forcing_turn() {
    for (pos, _) in positions() {
        let game = Game::from_position(pos.clone());
        let limits = Limits { iterations: Some(BUDGET), ..Default::default() };
        // Whatever the player in force: solving uses the engine's search.
        let uct = Searcher::new(SearchSettings { player: Algorithm::Uct, seed: 9, ..Default::default() });
        match uct.solve(&game, &limits) {
            Solution::Win(turn, 3) => assert!(forces_win_next_turn(&pos, turn), "{pos}: {turn}"),
            other => panic!("{pos}: {other:?}"),
        }
    }
}

#[test]
fn solve_is_unknown_when_the_budget_is_too_small() {
    let (pos, _) = positions().into_iter().find(|(p, _)| p.variant().size() == 10).expect("a 10x10 position");
    let limits = Limits { iterations: Some(50), ..Default::default() };
    assert_eq!(solver_player(1).solve(&Game::from_position(pos), &limits), Solution::Unknown);
}

#[test]
fn without_the_solver_nothing_is_proven() {
    let (pos, _) = positions().into_iter().next().expect("a position");
    let settings = SearchSettings { solver: false, seed: 2, ..Default::default() };
    let limits = Limits { iterations: Some(2_000), ..Default::default() };
    let result = Searcher::new(settings).choose(&Game::from_position(pos), &limits).expect("a move");
    assert_eq!((result.proven, result.visits), (None, 2_000));
}

#[test]
fn threads_sharing_the_tree_prove_the_win() {
    for (pos, _) in positions().into_iter().step_by(3) {
        let settings = SearchSettings { threads: 2, seed: 4, ..Default::default() };
        let limits = Limits { iterations: Some(4 * BUDGET), ..Default::default() };
        let result = Searcher::new(settings).choose(&Game::from_position(pos.clone()), &limits).expect("a move");
        let Move::Turn(turn) = result.best else { panic!("not a turn") };
        assert_eq!(result.proven, Some(Proven { winner: pos.side_to_move(), turns: 3 }), "{pos}");
        assert!(forces_win_next_turn(&pos, turn), "{pos}: {turn}");
    }
}

#[test]
fn a_reused_tree_keeps_its_proofs() {
    for (pos, _) in positions() {
        let mut player = solver_player(6);
        let mut game = Game::from_position(pos.clone());
        let limits = Limits { iterations: Some(BUDGET), ..Default::default() };
        let first = player.choose(&game, &limits).expect("a move");
        game.play(first.best).expect("legal");
        // The same player now moves for the loser: the tree goes on below the forcing
        // turn, where the loss is already proven, so no playout is needed.
        let reply = player.choose(&game, &limits).expect("a move");
        assert_eq!(reply.proven, Some(Proven { winner: pos.side_to_move(), turns: 2 }), "{pos}");
        assert_eq!((reply.visits, reply.win_rate), (0, 0.0), "{pos}");
        game.play(reply.best).expect("legal");
        let Move::Turn(last) = player.choose(&game, &limits).expect("a move").best else { panic!("not a turn") };
        assert_eq!(after(game.position(), last).winner(), Some(pos.side_to_move()), "{pos}: {last}");
    }
}
