//! Tests of the tree search.

use super::*;

const WIN2: &str = include_str!("../../../../../data/win2.txt");

fn config() -> MctsConfig {
    MctsConfig {
        baseline: false,
        exploration: 1.4,
        cutoff: 4,
        prior_temperature: 0.04,
        max_nodes: 1 << 20,
        expand_visits: 4,
        shot_expand_visits: 1,
        unvisited_value: stats::UNVISITED_VALUE,
        stay_prior: crate::search::DEFAULT_STAY_PRIOR,
        move_policy: false,
        policy: crate::search::policy::PolicyWeights::builtin(),
        solver: true,
        net_priors: true,
        eval: StaticEval::Hand,
    }
}

fn after(pos: &Position, turn: Turn) -> Position {
    let mut next = pos.clone();
    next.play_turn_unchecked(turn);
    next
}

fn turns(pos: &Position) -> Vec<Turn> {
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    list
}

/// Brute force (minimax over the legal turns): `winner` can force the game to end in
/// its favour within `turns` turns of both players.
fn forced_within(pos: &Position, winner: Color, turns: u32) -> bool {
    match pos.winner() {
        Some(w) => return w == winner,
        None if turns == 0 => return false,
        None => {}
    }
    let mut each = self::turns(pos).into_iter().map(|t| forced_within(&after(pos, t), winner, turns - 1));
    if pos.side_to_move() == winner { each.any(|x| x) } else { each.all(|x| x) }
}

/// Checks every proof of two turns or fewer at the move-choice nodes below `node`
/// against brute force; returns how many were checked.
fn check(tree: &Tree, node: u32, pos: &Position) -> usize {
    let n = tree.node(node);
    let mut checked = 0;
    if let Some(p) = n.proof()
        && p.turns <= 2
    {
        assert!(forced_within(pos, p.winner, u32::from(p.turns)), "{pos}: {p:?}");
        checked += 1;
    }
    for b in n.child_range() {
        let bn = tree.node(b);
        for a in bn.child_range() {
            let an = tree.node(a);
            if let Some(shot) = an.shot()
                && (an.visits() > 0 || an.proof().is_some())
            {
                checked += check(tree, a, &after(pos, Turn::new(bn.shooter_move(), shot)));
            }
        }
    }
    checked
}

#[test]
fn every_short_proof_in_the_tree_agrees_with_brute_force() {
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for line in WIN2.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let pos: Position = line.split(';').next().unwrap().trim().parse().unwrap();
        let tree = Tree::new(config(), pos.clone());
        let mut ws = Workspace::new(false);
        for _ in 0..100_000 {
            if tree.is_settled() {
                break;
            }
            tree.iterate(&mut ws, &mut rng);
        }
        // Won (no immediate win exists; the fastest win is 3 turns away, but the
        // search may settle for a longer one first within this budget).
        let root = tree.root_proof().expect("proven");
        assert!(root.winner == pos.side_to_move() && root.turns >= 3 && root.turns % 2 == 1, "{pos}: {root:?}");
        checked += check(&tree, tree.root, &pos);
    }
    assert!(checked > 1000, "only {checked} proofs checked");
}

#[test]
fn without_the_solver_only_immediate_wins_are_marked() {
    let line = WIN2.lines().find(|l| !l.starts_with('#')).unwrap();
    let pos: Position = line.split(';').next().unwrap().trim().parse().unwrap();
    let tree = Tree::new(MctsConfig { solver: false, ..config() }, pos);
    let (mut rng, mut ws) = (Rng::new(1), Workspace::new(false));
    for _ in 0..5_000 {
        tree.iterate(&mut ws, &mut rng);
    }
    assert!((0..tree.nodes.len() as u32).all(|id| tree.node(id).proof().is_none_or(|p| p.turns == 1)));
    assert!(tree.root_proof().is_none() && tree.root_turns().iter().all(|t| t.proof.is_none()));
}

/// Runs `per_thread` playouts in each of `threads` threads on one shared tree.
fn search_shared(tree: &Tree, threads: u64, per_thread: u64, seed: u64) {
    std::thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                let (mut rng, mut ws) = (Rng::new(seed + t), Workspace::new(true));
                for _ in 0..per_thread {
                    tree.iterate(&mut ws, &mut rng);
                }
            });
        }
    });
}

/// Checks the statistics of a tree at rest: no visit lost, every value a sum of
/// rewards in [0, 1]; returns the nodes checked.
fn check_counts(tree: &Tree, node: u32) -> usize {
    let n = tree.node(node);
    let children: u64 = n.child_range().map(|c| u64::from(tree.node(c).visits())).sum();
    // Playouts end at a node or go on into exactly one child.
    assert!(u64::from(n.visits()) >= children, "node {node}: {} visits, children {children}", n.visits());
    assert!(n.value() >= 0.0 && n.value() <= n.visits() as f32 + 0.01, "node {node}");
    1 + n.child_range().map(|c| check_counts(tree, c)).sum::<usize>()
}

#[test]
fn a_shared_tree_loses_no_visits() {
    let line = WIN2.lines().find(|l| !l.starts_with('#')).unwrap();
    let pos: Position = line.split(';').next().unwrap().trim().parse().unwrap();
    for (solver, max_nodes) in [(false, 1 << 20), (false, MIN_NODES), (true, MIN_NODES)] {
        let tree = Tree::new(MctsConfig { solver, max_nodes, ..config() }, pos.clone());
        search_shared(&tree, 4, 3_000, 5);
        // The root is proven quickly with the solver, and the playouts after that
        // stop at the root: they count there too.
        assert_eq!(tree.root_visits(), 12_000, "solver {solver}, {max_nodes} nodes");
        assert!(check_counts(&tree, tree.root) > 100);
        assert!(tree.nodes.len() <= max_nodes, "{} nodes", tree.nodes.len());
    }
}

#[test]
fn threads_sharing_a_tree_prove_the_wins_and_every_short_proof_agrees_with_brute_force() {
    let mut checked = 0;
    for line in WIN2.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).step_by(2) {
        let pos: Position = line.split(';').next().unwrap().trim().parse().unwrap();
        let tree = Tree::new(config(), pos.clone());
        std::thread::scope(|scope| {
            for t in 0..2 {
                let tree = &tree;
                scope.spawn(move || {
                    let (mut rng, mut ws) = (Rng::new(20 + t), Workspace::new(true));
                    for _ in 0..50_000 {
                        if tree.is_settled() {
                            break;
                        }
                        tree.iterate(&mut ws, &mut rng);
                    }
                });
            }
        });
        let root = tree.root_proof().expect("proven");
        assert!(root.winner == pos.side_to_move() && root.turns >= 3 && root.turns % 2 == 1, "{pos}: {root:?}");
        let (turn, p) = tree.proven_turn().expect("a proven turn");
        assert_eq!(p, root, "{pos}");
        if p.turns == 3 {
            assert!(forced_within(&after(&pos, turn), pos.side_to_move(), 2), "{pos}: {turn}");
        }
        checked += check(&tree, tree.root, &pos);
        check_counts(&tree, tree.root);
    }
    assert!(checked > 500, "only {checked} proofs checked");
}

/// Selection scores only the children it has reached and the next one: that is exact
/// only because a node's children are stored highest prior first and none past the
/// reached ones has been visited. After a search with the move policy, every expanded
/// node holds both, and selection there chooses as scoring all the children would.
#[test]
fn children_are_kept_highest_prior_first_and_selection_chooses_as_a_full_scan_would() {
    let pos: Position = "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b".parse().unwrap();
    let config = MctsConfig { move_policy: true, eval: StaticEval::learned(), ..config() };
    let mut tree = Tree::new(config, pos.clone());
    let (mut rng, mut ws) = (Rng::new(5), Workspace::new(false));
    for _ in 0..3000 {
        tree.iterate_alone(&mut ws, &mut rng);
    }
    let (mut nodes, mut scored) = (0, 0);
    // The move-choice nodes with their side to move, from the root down the visited turns.
    let mut stack = vec![(tree.root, pos.side_to_move())];
    while let Some((id, side)) = stack.pop() {
        let n = tree.node(id);
        for (node, actor) in std::iter::once((id, side)).chain(n.child_range().map(|b| (b, side))) {
            let parent = tree.node(node);
            let range = parent.child_range();
            if range.is_empty() {
                continue;
            }
            nodes += 1;
            let priors: Vec<f32> = range.clone().map(|c| tree.node(c).prior()).collect();
            assert!(priors.windows(2).all(|w| w[0] >= w[1]), "node {node}: priors out of order {priors:?}");
            let tried = parent.tried();
            assert!(range.clone().skip(tried as usize).all(|c| tree.node(c).visits() == 0), "node {node}");
            if parent.visits() == 0 {
                continue;
            }
            let sqrt_n = (parent.visits() as f32 + 1.0).sqrt();
            let block = tree.nodes.stat_block(range.clone());
            // SAFETY: the tree is held by `&mut`; no other thread writes it.
            let plain = unsafe { block.plain() };
            let skipped = |c: u32| tree.skipped(c, actor, false, false);
            let mut scratch = stats::Scratch::default();
            let full = stats::puct_best(plain, range.start, tree.puct(), sqrt_n, &mut scratch, skipped);
            let chosen = tree.select(node, actor, false, &mut rng, true, &mut scratch);
            assert_eq!(chosen, full, "node {node}: tried {tried} of {}", range.len());
            scored += 1;
        }
        for b in n.child_range() {
            for a in tree.node(b).child_range() {
                if tree.node(a).visits() > 1 {
                    stack.push((a, !side));
                }
            }
        }
    }
    assert!(nodes > 500 && scored > 200, "{nodes} nodes, {scored} scored");
    // Selection above raised no node's count past its first unvisited child.
    tree.iterate_alone(&mut ws, &mut rng);
}

/// `shot_expand_visits`: a shooter's move gets its shots in the tree only at that visit;
/// before, the playout finishes the turn with a random shot.
#[test]
fn a_shooters_move_gets_its_shots_only_at_its_shot_expand_visit() {
    let pos: Position = "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b".parse().unwrap();
    for (visits, fewest) in [(1, 1), (3, 3)] {
        let mut tree = Tree::new(MctsConfig { shot_expand_visits: visits, ..config() }, pos.clone());
        let (mut rng, mut ws) = (Rng::new(8), Workspace::new(false));
        for _ in 0..2000 {
            tree.iterate_alone(&mut ws, &mut rng);
        }
        // The shot-choice nodes: the children of the move-choice nodes (the root's, and
        // those below every shot in the tree).
        let mut least = u32::MAX;
        let mut unexpanded_visited = 0;
        let mut stack = vec![tree.root];
        while let Some(id) = stack.pop() {
            for b in tree.node(id).child_range() {
                let bn = tree.node(b);
                if bn.child_range().is_empty() {
                    unexpanded_visited += u32::from(bn.visits() > 0);
                    continue;
                }
                least = least.min(bn.visits());
                stack.extend(bn.child_range());
            }
        }
        assert_eq!(least, fewest, "shot-expand-visits {visits}");
        assert_eq!(unexpanded_visited > 0, visits > 1, "shot-expand-visits {visits}");
    }
    let param = |s: &str| s.parse::<crate::search::SearchParam>();
    assert_eq!(param("shot-expand-visits=5"), Ok(crate::search::SearchParam::ShotExpandVisits(5)));
    assert!(param("shot-expand-visits=0").is_err());
}
