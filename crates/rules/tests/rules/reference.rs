//! The fast rules core against the slow reference in `common/reference.rs`, position by
//! position over seeded random games of every size: the legal move lists as sets, the
//! move counts, and the position each move leads to (grid, claims, side, winner).

use crate::common;

use common::reference::{RefMove, RefPos, Side, Sq, fast_key};
use common::sample::Sample;
use veletas_rules::{Color, Move, Phase, PlayoutPolicy, Position, Rng, Variant};

fn side(color: Color) -> Side {
    Side::from_color(color)
}

/// The fast position and the reference describe the same game state.
fn assert_same_state(pos: &Position, reference: &RefPos) {
    let text = pos.to_string();
    assert_eq!(text, reference.to_position_string(), "position strings differ");
    assert_eq!(&RefPos::from_fast(pos), reference, "piece_at differs from the reference grid at {text}");
    for color in Color::ALL {
        assert_eq!(pos.claims(color) as usize, reference.claims(side(color)), "claims of {color} at {text}");
    }
    assert_eq!(pos.winner().map(side), reference.winner(), "winner at {text}");
    assert_eq!(pos.is_over(), reference.winner().is_some(), "is_over at {text}");
    let phase_in_setup = pos.phase() != Phase::Play;
    assert_eq!(phase_in_setup, reference.in_setup(), "phase at {text}");
}

/// Moves with their keys, sorted by key.
type FastList = Vec<(u128, Move)>;
type RefList = Vec<(u128, RefMove)>;

/// The fast legal moves sorted by key, checked to hold no duplicates.
fn fast_moves_by_key(pos: &Position) -> FastList {
    let mut moves: Vec<(u128, Move)> = pos.legal_moves().into_iter().map(|mv| (fast_key(&mv), mv)).collect();
    moves.sort_unstable_by_key(|&(key, _)| key);
    assert!(moves.windows(2).all(|w| w[0].0 != w[1].0), "duplicate moves in the fast list at {pos}");
    moves
}

/// The reference legal moves sorted by key.
fn reference_moves_by_key(reference: &RefPos) -> RefList {
    let mut moves: Vec<(u128, RefMove)> = reference.legal_moves().into_iter().map(|mv| (mv.key(), mv)).collect();
    moves.sort_unstable_by_key(|(key, _)| *key);
    assert!(moves.windows(2).all(|w| w[0].0 != w[1].0), "duplicate moves in the reference list");
    moves
}

/// Compares the move lists of both sides as sets (and the fast count with their
/// length); returns both lists, sorted alike so that equal indices are the same move.
fn assert_same_moves(pos: &Position, reference: &RefPos, notation: bool) -> (FastList, RefList) {
    let fast = fast_moves_by_key(pos);
    let slow = reference_moves_by_key(reference);
    if fast.len() != slow.len() || fast.iter().zip(&slow).any(|(a, b)| a.0 != b.0) {
        let fast_only: Vec<String> = fast
            .iter()
            .filter(|(k, _)| slow.binary_search_by_key(k, |s| s.0).is_err())
            .map(|(_, m)| m.to_string())
            .collect();
        let slow_only: Vec<String> = slow
            .iter()
            .filter(|(k, _)| fast.binary_search_by_key(k, |f| f.0).is_err())
            .map(|(_, m)| m.notation())
            .collect();
        panic!(
            "move lists differ at {pos}: {} fast, {} reference\nonly fast: {:?}\nonly reference: {:?}",
            fast.len(),
            slow.len(),
            &fast_only[..fast_only.len().min(20)],
            &slow_only[..slow_only.len().min(20)]
        );
    }
    assert_eq!(pos.count_legal_moves(), slow.len() as u64, "count_legal_moves at {pos}");
    if notation {
        let mut fast_text: Vec<String> = fast.iter().map(|(_, mv)| mv.to_string()).collect();
        let mut slow_text: Vec<String> = slow.iter().map(|(_, mv)| mv.notation()).collect();
        fast_text.sort_unstable();
        slow_text.sort_unstable();
        assert_eq!(fast_text, slow_text, "notation differs at {pos}");
    }
    (fast, slow)
}

/// The squares of a fast setup move.
fn setup_squares(mv: &Move) -> Vec<Sq> {
    match mv {
        Move::Setup(bits) => bits.iter().map(|sq| (usize::from(sq.file()), usize::from(sq.rank()))).collect(),
        _ => panic!("{mv} is not a classic setup turn"),
    }
}

struct Run {
    size: u8,
    policy: PlayoutPolicy,
    games: usize,
    seed: u64,
    /// Compare the full setup lists (else only the setup counts, and only in the
    /// first `setup_count_games` games, since a 10x10 setup list is 720,731 long).
    setup_lists: bool,
    setup_count_games: usize,
    /// Compare the notation of every move in the first this many games.
    notation_games: usize,
}

#[derive(Default, Debug)]
struct Tally {
    games: u64,
    positions: u64,
    moves_compared: u64,
    claims: u64,
    wins: [u64; 2],
}

/// Plays `run.games` random games, checking every position against the reference. One
/// move in four is drawn uniformly from the legal list instead of by the policy, so the
/// games also wander where the policy rarely goes.
fn check_random_games(run: &Run) -> Tally {
    let variant = Variant::from_size(run.size).unwrap();
    let mut rng = Rng::new(run.seed);
    let mut tally = Tally::default();
    for game in 0..run.games {
        let mut pos = Position::new(variant);
        let mut reference = RefPos::empty(usize::from(run.size));
        loop {
            assert_same_state(&pos, &reference);
            tally.positions += 1;
            if reference.winner().is_some() {
                assert!(pos.legal_moves().is_empty());
                assert_eq!(pos.count_legal_moves(), 0);
                assert_eq!(pos.random_move(&mut rng, run.policy), None);
                break;
            }
            let in_setup = reference.in_setup();
            let (mv, reference_move) = if in_setup && !run.setup_lists {
                if game < run.setup_count_games {
                    assert_eq!(pos.count_legal_moves(), reference.count_moves(), "setup count at {pos}");
                    tally.moves_compared += 1;
                }
                let mv = pos.random_move(&mut rng, run.policy).expect("a setup turn");
                let squares = setup_squares(&mv);
                assert!(reference.is_legal_setup(&squares), "random setup {mv} is illegal at {pos}");
                (mv, RefMove::Setup(squares))
            } else {
                let (fast, slow) = assert_same_moves(&pos, &reference, game < run.notation_games);
                tally.moves_compared += slow.len() as u64;
                if rng.below(4) == 0 {
                    let i = rng.below(slow.len() as u32) as usize;
                    (fast[i].1, slow[i].1.clone())
                } else {
                    let mv = pos.random_move(&mut rng, run.policy).expect("a move while the game is on");
                    let i = slow
                        .binary_search_by_key(&fast_key(&mv), |s| s.0)
                        .unwrap_or_else(|_| panic!("random move {mv} is not legal at {pos}"));
                    (mv, slow[i].1.clone())
                }
            };
            let claims_before = pos.claims(Color::Black) + pos.claims(Color::White);
            pos.play(mv).unwrap_or_else(|e| panic!("{mv} rejected at {pos}: {e}"));
            reference = reference.play(&reference_move);
            tally.claims += u64::from(pos.claims(Color::Black) + pos.claims(Color::White) - claims_before);
        }
        tally.games += 1;
        tally.wins[pos.winner().unwrap().index()] += 1;
    }
    eprintln!("{}x{} {:?}: {tally:?}", run.size, run.size, run.policy);
    tally
}

fn quick_run(size: u8, policy: PlayoutPolicy, games: usize, seed: u64) -> Run {
    Run { size, policy, games, seed, setup_lists: size < 10, setup_count_games: 2, notation_games: 5 }
}

#[test]
fn random_7x7_games_cheap_policy_agree_with_reference() {
    let tally = check_random_games(&quick_run(7, PlayoutPolicy::Cheap, 3000, 71));
    assert!(tally.wins[0] > 0 && tally.wins[1] > 0);
}

#[test]
fn random_7x7_games_uniform_policy_agree_with_reference() {
    let tally = check_random_games(&quick_run(7, PlayoutPolicy::Uniform, 3000, 72));
    assert!(tally.wins[0] > 0 && tally.wins[1] > 0);
}

#[test]
fn random_9x9_games_cheap_policy_agree_with_reference() {
    check_random_games(&quick_run(9, PlayoutPolicy::Cheap, 300, 91));
}

#[test]
fn random_9x9_games_uniform_policy_agree_with_reference() {
    check_random_games(&quick_run(9, PlayoutPolicy::Uniform, 300, 92));
}

#[test]
fn random_10x10_games_cheap_policy_agree_with_reference() {
    check_random_games(&quick_run(10, PlayoutPolicy::Cheap, 300, 101));
}

#[test]
fn random_10x10_games_uniform_policy_agree_with_reference() {
    check_random_games(&quick_run(10, PlayoutPolicy::Uniform, 300, 102));
}

/// The long runs, one per size: `cargo test --release --test rules reference -- --ignored`.
/// CI runs a sample of them (see [`Sample`]).
fn long_run(size: u8, games: usize) {
    let sample = Sample::from_env();
    for (policy, seed) in [(PlayoutPolicy::Cheap, 1), (PlayoutPolicy::Uniform, 2)] {
        let run = Run {
            size,
            policy,
            games: sample.games(games),
            seed: sample.seed(seed * 1000 + u64::from(size)),
            setup_lists: size < 10,
            setup_count_games: 20,
            notation_games: 50,
        };
        check_random_games(&run);
    }
}

#[test]
#[ignore]
fn many_random_7x7_games_agree_with_reference() {
    long_run(7, 50_000);
}

#[test]
#[ignore]
fn many_random_9x9_games_agree_with_reference() {
    long_run(9, 5_000);
}

#[test]
#[ignore]
fn many_random_10x10_games_agree_with_reference() {
    long_run(10, 3_000);
}

fn after_setup(size: u8, black: &str) -> Position {
    let mut pos = Position::new(Variant::from_size(size).unwrap());
    let mv = pos.parse_move(black).unwrap();
    pos.play(mv).unwrap();
    pos
}

#[test]
fn setup_lists_match_reference_on_7x7_after_every_black_placement() {
    let empty = Position::new(Variant::from_size(7).unwrap());
    let (black_setups, _) = assert_same_moves(&empty, &RefPos::from_fast(&empty), true);
    assert_eq!(black_setups.len(), 49);
    for (_, mv) in black_setups {
        let mut pos = empty.clone();
        pos.play(mv).unwrap();
        assert_same_moves(&pos, &RefPos::parse(&pos.to_string()), true);
    }
}

#[test]
fn setup_lists_match_reference_on_9x9() {
    let empty = Position::new(Variant::from_size(9).unwrap());
    let (black_setups, _) = assert_same_moves(&empty, &RefPos::from_fast(&empty), true);
    assert_eq!(black_setups.len(), 2_968);
    let mut rng = Rng::new(9);
    let mut picks: Vec<Position> = vec![after_setup(9, "c3,g7"), after_setup(9, "a1,i9"), after_setup(9, "a1,c1")];
    for _ in 0..12 {
        let mut pos = empty.clone();
        pos.play(black_setups[rng.below(black_setups.len() as u32) as usize].1).unwrap();
        picks.push(pos);
    }
    for pos in picks {
        assert_same_moves(&pos, &RefPos::parse(&pos.to_string()), true);
    }
}

#[test]
fn setup_counts_match_reference_on_10x10() {
    let empty = Position::new(Variant::STANDARD);
    assert_eq!(empty.count_legal_moves(), RefPos::from_fast(&empty).count_moves());
    let mut rng = Rng::new(10);
    let mut picks = vec![after_setup(10, "c3,f6,h8"), after_setup(10, "a1,a10,j1"), after_setup(10, "e5,e7,g5")];
    for _ in 0..3 {
        let mut pos = empty.clone();
        pos.play(empty.random_setup(&mut rng).unwrap()).unwrap();
        picks.push(pos);
    }
    for pos in picks {
        let reference = RefPos::parse(&pos.to_string());
        assert_eq!(pos.count_legal_moves(), reference.count_moves(), "at {pos}");
        assert_eq!(pos.legal_moves().len() as u64, pos.count_legal_moves(), "at {pos}");
    }
}
