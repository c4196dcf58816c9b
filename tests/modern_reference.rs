//! The fast generator against the plain reference in `tests/modern_ref`, move for move,
//! on random games of the modern rules (and the classic rules with `no-corners`) on all
//! sizes: same legal moves (as notation), same counts, same positions after each move,
//! same winner.
//!
//! `cargo test --release --test modern_reference -- --ignored` runs the long version.

mod modern_ref;

use modern_ref::{RefMove, RefPos, Sq};
use veletas::rules::{Move, Phase, PlayoutPolicy, Position, Rng, Rules, Variant};

/// Setup phases with more legal moves than this are compared by count (and the played
/// setup checked square by square), not by listing every move.
const LIST_LIMIT: u64 = 200_000;

fn sq_of(sq: veletas::rules::Square) -> Sq {
    (usize::from(sq.file()), usize::from(sq.rank()))
}

/// The reference's version of a fast move.
fn to_ref(mv: Move) -> RefMove {
    let sorted = |b: veletas::rules::Bitboard| {
        let mut v: Vec<Sq> = b.iter().map(sq_of).collect();
        v.sort();
        v
    };
    match mv {
        Move::Swap => RefMove::Swap,
        Move::Setup(b) => RefMove::Setup(sorted(b), None),
        Move::SetupWithStone { shooters, stone } => RefMove::Setup(sorted(shooters), Some(sq_of(stone))),
        Move::Turn(t) => RefMove::Turn(t.shooter_move().map(|(a, b)| (sq_of(a), sq_of(b))), sq_of(t.shot())),
    }
}

/// Compares the two generators at `pos`; returns the number of moves compared.
fn compare_moves(pos: &Position, reference: &RefPos) -> u64 {
    let count = pos.count_legal_moves();
    if pos.phase() != Phase::Play && count > LIST_LIMIT {
        assert_eq!(count, reference.count_moves(), "setup count at {pos}");
        return 0;
    }
    let mut fast: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    let mut slow: Vec<String> = reference.moves().iter().map(RefMove::notation).collect();
    assert_eq!(fast.len() as u64, count, "count_legal_moves vs the list at {pos}");
    fast.sort_unstable();
    slow.sort_unstable();
    let before = fast.len();
    fast.dedup();
    assert_eq!(fast.len(), before, "a move listed twice at {pos}");
    assert_eq!(fast, slow, "moves differ at {pos}");
    count
}

/// Plays `games` random games per size under `rules` and compares every position.
/// Returns (games, positions, moves compared).
fn run(rules: Rules, games: usize, seed: u64) -> (usize, u64, u64) {
    let mut rng = Rng::new(seed);
    let (mut positions, mut moves) = (0, 0);
    for variant in Variant::all() {
        for game in 0..games {
            let mut pos = if game % 4 == 3 {
                Position::random_start(variant, rules, &mut rng)
            } else {
                Position::with_rules(variant, rules)
            };
            let policy = if game % 2 == 0 { PlayoutPolicy::Cheap } else { PlayoutPolicy::Uniform };
            let mut reference = RefPos::from_fast(&pos);
            loop {
                assert_eq!(RefPos::from_fast(&pos), reference, "positions differ at {pos}");
                assert_eq!(pos.winner().map(|c| c == veletas::rules::Color::Black), reference.winner(), "{pos}");
                positions += 1;
                moves += compare_moves(&pos, &reference);
                let Some(mv) = pos.random_move(&mut rng, policy) else {
                    assert!(pos.is_over(), "no move at {pos}");
                    break;
                };
                assert!(pos.is_legal(mv), "{mv} at {pos}");
                let slow = to_ref(mv);
                if let RefMove::Setup(set, stone) = &slow {
                    assert!(reference.setup_is_legal(set, *stone), "{mv} illegal for the reference at {pos}");
                }
                pos.play(mv).unwrap();
                reference.play(&slow);
            }
        }
    }
    (games * 3, positions, moves)
}

#[test]
fn modern_generators_agree_on_random_games() {
    let (games, positions, moves) = run(Rules::MODERN, 4, 1);
    assert!(games == 12 && positions > 100 && moves > 10_000, "{positions} {moves}");
}

#[test]
fn modern_no_corners_generators_agree_on_random_games() {
    run(Rules::MODERN.with_no_corners(true), 4, 2);
}

#[test]
fn classic_no_corners_generators_agree_on_random_games() {
    run(Rules::CLASSIC.with_no_corners(true), 4, 3);
}

#[test]
fn classic_generators_agree_with_this_reference_too() {
    run(Rules::CLASSIC, 2, 4);
}

#[test]
#[ignore = "minutes: many games of every rule set and size"]
fn generators_agree_on_many_random_games() {
    let mut total = (0, 0, 0);
    for (i, rules) in Rules::all().into_iter().enumerate() {
        let (g, p, m) = run(rules, 100, 100 + i as u64);
        println!("{rules}: {g} games, {p} positions, {m} moves compared");
        total = (total.0 + g, total.1 + p, total.2 + m);
    }
    println!("total: {} games, {} positions, {} moves compared", total.0, total.1, total.2);
}
