//! Properties over random games of the modern rules (and the `no-corners` and
//! `claimed-block` options) on
//! every size: listed moves are legal and `is_legal` agrees with the list, `undo`
//! restores, notation and position strings round-trip, move counts are equal under the
//! 8 symmetries of the board (the no-corners board is symmetric too), and the uniform
//! policy only draws listed moves.

use std::collections::HashSet;

use veletas_rules::{Bitboard, Game, Move, Phase, Piece, PlayoutPolicy, Position, Rng, Rules, Square, Turn, Variant};

/// Lists of setup moves above this size are not built (10x10 setups: counts only).
const LIST_LIMIT: u64 = 200_000;

const MODERN_RULES: [Rules; 4] =
    [Rules::MODERN, Rules::MODERN.with_no_corners(true), Rules::BOARDSPACE, Rules::BOARDSPACE.with_no_corners(true)];

/// Every position of `games` random modern games per size and option.
fn positions(games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for variant in Variant::all() {
        for rules in MODERN_RULES {
            for game in 0..games {
                let mut pos = if game % 3 == 2 {
                    Position::random_start(variant, rules, &mut rng)
                } else {
                    Position::with_rules(variant, rules)
                };
                let policy = if game % 2 == 0 { PlayoutPolicy::Uniform } else { PlayoutPolicy::Cheap };
                loop {
                    out.push(pos.clone());
                    let Some(mv) = pos.random_move(&mut rng, policy) else { break };
                    pos.play_unchecked(mv);
                }
            }
        }
    }
    out
}

fn random_square(rng: &mut Rng) -> Square {
    Square::new(rng.below(10) as u8, rng.below(10) as u8).unwrap()
}

/// A random move of the same kind as those legal at `pos`, legal or not.
fn random_candidate(pos: &Position, rng: &mut Rng) -> Move {
    match (pos.phase(), rng.below(8)) {
        (_, 0) => Move::Swap,
        (Phase::Play, _) => {
            let shot = random_square(rng);
            if rng.below(3) == 0 {
                Move::Turn(Turn::shot_only(shot))
            } else {
                let from = pos.shooters().nth(rng.below(pos.shooters().count().max(1))).unwrap_or(shot);
                Move::Turn(Turn::with_move(from, random_square(rng), shot))
            }
        }
        _ => {
            let k = pos.variant().setup_count(pos.side_to_move());
            let mut shooters = Bitboard::EMPTY;
            while shooters.count() < u32::from(k) {
                shooters |= random_square(rng).bitboard();
            }
            Move::SetupWithStone { shooters, stone: random_square(rng) }
        }
    }
}

#[test]
fn listed_moves_are_legal_and_is_legal_agrees_with_the_list() {
    let mut rng = Rng::new(3);
    let mut checked = 0;
    for pos in positions(3, 1) {
        if pos.count_legal_moves() > LIST_LIMIT {
            for _ in 0..50 {
                let mv = pos.random_move(&mut rng, PlayoutPolicy::Uniform).unwrap();
                assert!(pos.is_legal(mv), "{mv} at {pos}");
            }
            continue;
        }
        let listed: HashSet<Move> = pos.legal_moves().into_iter().collect();
        assert_eq!(listed.len() as u64, pos.count_legal_moves(), "{pos}");
        for &mv in &listed {
            assert!(pos.is_legal(mv), "{mv} listed but illegal at {pos}");
        }
        for _ in 0..200 {
            let mv = random_candidate(&pos, &mut rng);
            assert_eq!(pos.is_legal(mv), listed.contains(&mv), "{mv} at {pos}");
            checked += 1;
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn undo_restores_and_strings_round_trip() {
    let mut rng = Rng::new(4);
    for variant in Variant::all() {
        for rules in MODERN_RULES {
            let mut game = Game::from_position(Position::with_rules(variant, rules));
            let mut seen = vec![game.position().clone()];
            while let Some(mv) = game.position().random_move(&mut rng, PlayoutPolicy::Cheap) {
                let pos = game.position().clone();
                assert_eq!(pos.to_string().parse::<Position>().as_ref(), Ok(&pos), "{pos}");
                let text = mv.to_string();
                assert_eq!(pos.parse_move(&text), Ok(mv), "{text}");
                assert_eq!(pos.parse_move(&text.to_uppercase()), Ok(mv), "{text}");
                game.play(mv).unwrap();
                seen.push(game.position().clone());
            }
            while game.undo().is_ok() {
                seen.pop();
                assert_eq!(Some(game.position()), seen.last());
            }
            assert_eq!(game.position(), &Position::with_rules(variant, rules));
        }
    }
}

/// The square `sq` under symmetry `t` (0..8) of a board of side `n`.
fn transform(t: u8, n: u8, sq: Square) -> Square {
    let (mut f, mut r) = (sq.file(), sq.rank());
    if t & 1 != 0 {
        f = n - 1 - f;
    }
    if t & 2 != 0 {
        r = n - 1 - r;
    }
    if t & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    Square::new(f, r).unwrap()
}

/// The position under symmetry `t`, through its position string.
fn transformed(pos: &Position, t: u8) -> Position {
    let n = pos.variant().size();
    let mut grid = vec![vec!['.'; usize::from(n)]; usize::from(n)];
    for rank in 0..n {
        for file in 0..n {
            let sq = Square::new(file, rank).unwrap();
            let c = match pos.piece_at(sq) {
                None => continue,
                Some(Piece::Shooter) => 's',
                Some(Piece::Stone(c)) => c.letter(),
                Some(Piece::Claimed(c)) => c.letter().to_ascii_uppercase(),
            };
            let to = transform(t, n, sq);
            grid[usize::from(to.rank())][usize::from(to.file())] = c;
        }
    }
    let ranks: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            let (mut text, mut run) = (String::new(), 0);
            for &c in row {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        text += &run.to_string();
                    }
                    run = 0;
                    text.push(c);
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            text
        })
        .collect();
    let full = pos.to_string();
    let tail = full.split_once(' ').unwrap().1;
    format!("{} {tail}", ranks.join("/")).parse().unwrap()
}

#[test]
fn move_counts_are_equal_under_the_eight_symmetries() {
    for (i, pos) in positions(2, 5).into_iter().enumerate() {
        if i % 3 != 0 {
            continue;
        }
        let count = pos.count_legal_moves();
        for t in 1..8 {
            let other = transformed(&pos, t);
            assert_eq!(other.count_legal_moves(), count, "symmetry {t} of {pos}: {other}");
            if pos.phase() == Phase::Play && i % 9 == 0 {
                assert_eq!(other.perft(2), pos.perft(2), "symmetry {t} of {pos}");
            }
        }
    }
}

#[test]
fn random_moves_of_both_policies_are_listed() {
    let mut rng = Rng::new(8);
    for (i, pos) in positions(1, 9).into_iter().enumerate() {
        if pos.phase() != Phase::Play || pos.is_over() || i % 2 != 0 {
            continue;
        }
        let listed: HashSet<Move> = pos.legal_moves().into_iter().collect();
        for policy in [PlayoutPolicy::Cheap, PlayoutPolicy::Uniform] {
            for _ in 0..20 {
                let mv = Move::Turn(pos.random_turn(&mut rng, policy).unwrap());
                assert!(listed.contains(&mv), "{mv} at {pos}");
            }
        }
    }
}

#[test]
fn the_uniform_policy_is_uniform_on_a_modern_position() {
    // 7x7 modern, shooters passing over each other: chi-square over every legal turn.
    let pos: Position = "7/7/2ss3/3s3/7/1b5/5w1 b modern".parse().unwrap();
    let moves = pos.legal_moves();
    let index: std::collections::HashMap<Move, usize> = moves.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let per = 40;
    let draws = moves.len() * per;
    let mut counts = vec![0u32; moves.len()];
    let mut rng = Rng::new(17);
    for _ in 0..draws {
        let mv = Move::Turn(pos.random_turn(&mut rng, PlayoutPolicy::Uniform).unwrap());
        counts[index[&mv]] += 1;
    }
    let expected = per as f64;
    let chi2: f64 = counts.iter().map(|&c| (f64::from(c) - expected).powi(2) / expected).sum();
    let df = (moves.len() - 1) as f64;
    // Mean df, standard deviation sqrt(2 df): 6 deviations is far beyond chance.
    assert!((chi2 - df).abs() < 6.0 * (2.0 * df).sqrt(), "chi2 {chi2} for {df} degrees of freedom");
}

#[test]
fn modern_setup_draws_cover_the_swap_and_stay_legal() {
    let mut rng = Rng::new(21);
    let pos: Position = "7/7/7/3s3/7/7/b6 w modern".parse().unwrap();
    let total = pos.count_legal_moves();
    let mut swaps = 0;
    let draws = 200_000;
    for _ in 0..draws {
        let mv = pos.random_setup(&mut rng).unwrap();
        assert!(pos.is_legal(mv));
        swaps += u32::from(mv == Move::Swap);
    }
    // One legal move in `total` is the swap.
    let expected = draws as f64 / total as f64;
    assert!((f64::from(swaps) - expected).abs() < 6.0 * expected.sqrt() + 1.0, "{swaps} swaps, expected {expected}");
}

#[test]
fn modern_random_setups_are_uniform_over_shooters_and_stone() {
    // 7x7, Black: 25 interior squares for the shooter, then 48 squares for the stone.
    let pos = Position::with_rules(Variant::from_size(7).unwrap(), Rules::MODERN);
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1200);
    let index: std::collections::HashMap<Move, usize> = moves.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let per = 40;
    let mut counts = vec![0u32; moves.len()];
    let mut rng = Rng::new(23);
    for _ in 0..moves.len() * per {
        counts[index[&pos.random_setup(&mut rng).unwrap()]] += 1;
    }
    let expected = per as f64;
    let chi2: f64 = counts.iter().map(|&c| (f64::from(c) - expected).powi(2) / expected).sum();
    let df = (moves.len() - 1) as f64;
    assert!((chi2 - df).abs() < 6.0 * (2.0 * df).sqrt(), "chi2 {chi2} for {df} degrees of freedom");
}
