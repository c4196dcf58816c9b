//! The fast generator against the plain reference in `tests/modern_ref`, move for move,
//! on random games of the modern rules (with and without the `no-corners` and
//! `claimed-block` options, and the classic rules with `no-corners`) on all sizes: same
//! legal moves (as notation), same counts, same positions after each move, same winner.
//!
//! `cargo test --release --test modern_reference -- --ignored` runs the long version.

use crate::modern_ref;

use modern_ref::{RefMove, RefPos, Sq};
use veletas_rules::{Move, Phase, PlayoutPolicy, Position, Rng, Rules, Variant};

/// Setup phases with more legal moves than this are compared by count (and the played
/// setup checked square by square), not by listing every move.
const LIST_LIMIT: u64 = 200_000;

fn sq_of(sq: veletas_rules::Square) -> Sq {
    (usize::from(sq.file()), usize::from(sq.rank()))
}

/// The reference's version of a fast move.
fn to_ref(mv: Move) -> RefMove {
    let sorted = |b: veletas_rules::Bitboard| {
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

/// The same position with the `claimed-block` option flipped, if that gives a position
/// (in play, a shooter may be trapped under one and not the other).
fn flipped(pos: &Position) -> Option<Position> {
    let text = pos.to_string();
    let other = match text.strip_suffix(" claimed-block") {
        Some(plain) => plain.to_string(),
        None => format!("{text} claimed-block"),
    };
    other.parse().ok()
}

/// Plays `games` random games per size under `rules` and compares every position.
/// Returns (games, positions, moves compared).
fn run(rules: Rules, games: usize, seed: u64) -> (usize, u64, u64) {
    let (games, positions, moves, _) = run_counting(rules, games, seed);
    (games, positions, moves)
}

/// A random position in play under `rules` (modern) with claimed shooters that are not
/// trapped: stones on about a third of the squares, one claim per side short of a win.
/// Such positions do not arise in games (a shooter is claimed when trapped, and only a
/// shooter leaving its shadow lets lines through it reach an empty square again), so
/// random games rarely tell `claimed-block` apart; these put it to the test at once.
fn crafted_start(variant: Variant, rules: Rules, rng: &mut Rng) -> Position {
    let n = usize::from(variant.size());
    let shooters = usize::from(variant.shooters());
    loop {
        let mut cells = vec![b'.'; n * n];
        let mut free: Vec<usize> = (0..n * n).collect();
        let mut take = |rng: &mut Rng| free.swap_remove(rng.below(free.len() as u32) as usize);
        for (i, piece) in [b'B', b'W'].into_iter().enumerate() {
            if i == 0 || n > 7 {
                cells[take(rng)] = piece;
            }
        }
        for _ in 0..shooters - if n > 7 { 2 } else { 1 } {
            cells[take(rng)] = b's';
        }
        for cell in cells.iter_mut().filter(|c| **c == b'.') {
            *cell = match rng.below(6) {
                0 => b'b',
                1 => b'w',
                _ => b'.',
            };
        }
        let ranks: Vec<String> = (0..n)
            .rev()
            .map(|rank| {
                let mut text = String::new();
                let mut run = 0;
                for file in 0..n {
                    match cells[rank * n + file] {
                        b'.' => run += 1,
                        piece => {
                            if run > 0 {
                                text.push_str(&run.to_string());
                                run = 0;
                            }
                            text.push(piece as char);
                        }
                    }
                }
                if run > 0 {
                    text.push_str(&run.to_string());
                }
                text
            })
            .collect();
        let side = if rng.below(2) == 0 { "b" } else { "w" };
        let text = format!("{} {side} {rules}", ranks.join("/"));
        if let Ok(pos) = text.parse::<Position>() {
            return pos;
        }
    }
}

/// [`run`], also counting the positions in play where flipping `claimed-block` changes
/// the number of legal moves (modern rules only): where the option was put to the test.
fn run_counting(rules: Rules, games: usize, seed: u64) -> (usize, u64, u64, u64) {
    run_games(rules, games, seed, false)
}

/// [`run_counting`]; with `crafted`, every other game starts from a [`crafted_start`].
fn run_games(rules: Rules, games: usize, seed: u64, crafted: bool) -> (usize, u64, u64, u64) {
    let mut rng = Rng::new(seed);
    let (mut positions, mut moves, mut telling) = (0, 0, 0);
    for variant in Variant::all() {
        for game in 0..games {
            let mut pos = if crafted && game % 2 == 1 {
                crafted_start(variant, rules, &mut rng)
            } else if game % 4 == 3 {
                Position::random_start(variant, rules, &mut rng)
            } else {
                Position::with_rules(variant, rules)
            };
            let policy = if game % 2 == 0 { PlayoutPolicy::Cheap } else { PlayoutPolicy::Uniform };
            let mut reference = RefPos::from_fast(&pos);
            loop {
                assert_eq!(RefPos::from_fast(&pos), reference, "positions differ at {pos}");
                assert_eq!(pos.winner().map(|c| c == veletas_rules::Color::Black), reference.winner(), "{pos}");
                positions += 1;
                moves += compare_moves(&pos, &reference);
                let claims = pos.claims(veletas_rules::Color::Black) + pos.claims(veletas_rules::Color::White);
                if rules.is_modern() && pos.phase() == Phase::Play && claims > 0 && !pos.is_over() {
                    telling +=
                        u64::from(flipped(&pos).is_none_or(|p| p.count_legal_moves() != pos.count_legal_moves()));
                }
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
    (games * 3, positions, moves, telling)
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
fn claimed_block_generators_agree_on_random_games() {
    for (rules, seed) in [(Rules::BOARDSPACE, 5), (Rules::BOARDSPACE.with_no_corners(true), 6)] {
        let (games, positions, moves, telling) = run_games(rules, 6, seed, true);
        println!("{rules}: {games} games, {positions} positions, {moves} moves, {telling} telling positions");
        assert!(games == 18 && positions > 200 && moves > 10_000, "{positions} {moves}");
        // The option was put to the test: positions where a claimed shooter blocks.
        assert!(telling >= 10, "{rules}: only {telling} positions where claimed-block matters");
    }
}

#[test]
fn plain_modern_generators_agree_from_crafted_positions_too() {
    let (.., telling) = run_games(Rules::MODERN, 4, 7, true);
    assert!(telling >= 10, "{telling}");
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
    let sample = crate::common::sample::Sample::from_env();
    let mut total = (0, 0, 0);
    for (i, rules) in Rules::all().into_iter().enumerate() {
        let (g, p, m, t) = run_games(rules, sample.games(100), sample.seed(100 + i as u64), rules.is_modern());
        println!("{rules}: {g} games, {p} positions, {m} moves compared, {t} where claimed-block matters");
        total = (total.0 + g, total.1 + p, total.2 + m);
    }
    println!("total: {} games, {} positions, {} moves compared", total.0, total.1, total.2);
}
