//! Speed work must not change what the engine plays: with a fixed seed and playout
//! budget, the search chooses exactly the moves (and reports exactly the visits and win
//! rates) recorded in `tests/data/search_pinned.txt`, and the random playout policies draw
//! exactly the recorded turns. The recorded values were taken from the code before the
//! speed-ups of issue 11; a change that alters the search's or a policy's behaviour (not
//! just its speed) must say so and record new values, with the reason, in that file.
//!
//! On a mismatch the test prints the new lines, so that a deliberate change can be
//! recorded by copying them.

use veletas_engine::search::{Algorithm, Limits, SearchResult, SearchSettings, Searcher};
use veletas_rules::{Game, PlayoutPolicy, Position, Rng, Rules, Variant};

const PINNED: &str = include_str!("../data/search_pinned.txt");

/// FNV-1a, 64 bits: a fingerprint of everything a search reported.
struct Fingerprint(u64);

impl Fingerprint {
    fn new() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn add_result(&mut self, r: &SearchResult) {
        self.add(r.best.to_string().as_bytes());
        self.add(&r.visits.to_le_bytes());
        self.add(&r.win_rate.to_bits().to_le_bytes());
        self.add(format!("{:?}", r.proven).as_bytes());
        for c in &r.candidates {
            self.add(c.mv.to_string().as_bytes());
            self.add(&c.visits.to_le_bytes());
            self.add(&c.win_rate.to_bits().to_le_bytes());
            for m in &c.pv {
                self.add(m.to_string().as_bytes());
            }
        }
    }
}

/// The 10x10 opening of the bench (`crates/engine/data/bench.txt`).
const OPENING: &str = "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b";

/// Plays `player` against itself from `start` for at most `plies` moves with `iterations`
/// per move; returns the moves and the fingerprint of every search result.
fn self_play(settings: SearchSettings, start: Position, iterations: u64, plies: usize) -> (String, u64) {
    let mut player = Searcher::new(settings);
    let mut game = Game::from_position(start);
    let limits = Limits { iterations: Some(iterations), ..Default::default() };
    let mut moves = Vec::new();
    let mut print = Fingerprint::new();
    while moves.len() < plies {
        let Some(result) = player.choose(&game, &limits) else { break };
        print.add_result(&result);
        moves.push(result.best.to_string());
        game.play(result.best).expect("the engine plays legal moves");
    }
    (moves.join(" "), print.0)
}

/// Random games with `policy` from the empty board: the turns drawn, fingerprinted.
fn random_turns(variant: Variant, rules: Rules, policy: PlayoutPolicy, games: u32, seed: u64) -> (String, u64) {
    let mut rng = Rng::new(seed);
    let mut print = Fingerprint::new();
    let mut turns = 0;
    for _ in 0..games {
        let mut pos = Position::with_rules(variant, rules);
        while let Some(mv) = pos.random_move(&mut rng, policy) {
            print.add(mv.to_string().as_bytes());
            pos.play_unchecked(mv);
            turns += 1;
        }
        // Whole playouts too (they take their own path through the rules).
        let winner = Position::with_rules(variant, rules).playout(&mut rng, policy);
        print.add(winner.to_string().as_bytes());
    }
    (format!("{turns} turns"), print.0)
}

fn engine(seed: u64) -> SearchSettings {
    // The no-move choice's prior share when these were recorded (now 0.1), their cutoff
    // (now 6), and the move-choice priors they were recorded with (the learned move policy,
    // on by default since, has cases of its own): the code paths are the same whatever the
    // share and the cutoff.
    SearchSettings {
        seed,
        tree_reuse: true,
        stay_prior: 0.25,
        move_policy: false,
        cutoff: 4,
        ..SearchSettings::default()
    }
}

/// The engine as it plays by default: the learned move policy for the move-choice priors.
fn engine_with_policy(seed: u64) -> SearchSettings {
    SearchSettings { seed, tree_reuse: true, ..SearchSettings::default() }
}

/// Every pinned case: its name and what it gives now.
fn cases() -> Vec<(String, (String, u64))> {
    let opening: Position = OPENING.parse().unwrap();
    let empty = |size: u8, rules: Rules| Position::with_rules(Variant::from_size(size).unwrap(), rules);
    let mut out = vec![
        ("engine 7x7 classic, 300 iterations, seed 1".into(), self_play(engine(1), empty(7, Rules::CLASSIC), 300, 200)),
        ("engine 9x9 classic, 400 iterations, seed 2".into(), self_play(engine(2), empty(9, Rules::CLASSIC), 400, 40)),
        ("engine 10x10 opening, 3000 iterations, seed 3".into(), self_play(engine(3), opening.clone(), 3000, 6)),
        ("engine 9x9 modern, 400 iterations, seed 4".into(), self_play(engine(4), empty(9, Rules::MODERN), 400, 40)),
        (
            "engine 7x7 claimed-block, 300 iterations, seed 5".into(),
            self_play(engine(5), empty(7, Rules::BOARDSPACE), 300, 200),
        ),
        (
            "engine 10x10 opening, no tree reuse, learned eval, 4000 iterations, seed 6".into(),
            self_play(
                SearchSettings {
                    tree_reuse: false,
                    eval: veletas_engine::search::eval::StaticEval::learned(),
                    ..engine(6)
                },
                opening,
                4000,
                2,
            ),
        ),
        (
            "engine with the move policy 7x7 classic, 300 iterations, seed 1".into(),
            self_play(engine_with_policy(1), empty(7, Rules::CLASSIC), 300, 200),
        ),
        (
            "engine with the move policy 9x9 modern, 400 iterations, seed 4".into(),
            self_play(engine_with_policy(4), empty(9, Rules::MODERN), 400, 40),
        ),
        (
            "uct 7x7 classic, 300 iterations, seed 7".into(),
            self_play(SearchSettings { player: Algorithm::Uct, ..engine(7) }, empty(7, Rules::CLASSIC), 300, 200),
        ),
        (
            "greedy 9x9 modern, seed 8".into(),
            self_play(SearchSettings { player: Algorithm::Greedy, ..engine(8) }, empty(9, Rules::MODERN), 1, 200),
        ),
    ];
    for variant in Variant::all() {
        for rules in [Rules::CLASSIC, Rules::MODERN, Rules::BOARDSPACE] {
            for policy in [PlayoutPolicy::Cheap, PlayoutPolicy::Uniform] {
                let name =
                    format!("random {}x{} {} {policy:?}, 10 games, seed 9", variant.size(), variant.size(), rules);
                out.push((name, random_turns(variant, rules, policy, 10, 9)));
            }
        }
    }
    out
}

fn line(name: &str, (moves, print): &(String, u64)) -> String {
    format!("{name} | {print:016x} | {moves}")
}

#[test]
fn fixed_seed_and_budget_choose_the_recorded_moves() {
    let recorded: Vec<&str> = PINNED.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    let now: Vec<String> = cases().iter().map(|(name, got)| line(name, got)).collect();
    let differ: Vec<&String> = now.iter().filter(|l| !recorded.contains(&l.as_str())).collect();
    assert!(
        differ.is_empty() && recorded.len() == now.len(),
        "the search or a playout policy chose differently ({} of {} cases); now:\n{}",
        differ.len(),
        now.len(),
        now.join("\n")
    );
    // The pins are about something: whole games were played and searched.
    assert!(now.iter().filter(|l| l.starts_with("engine")).all(|l| l.split(' ').count() > 12));
}
