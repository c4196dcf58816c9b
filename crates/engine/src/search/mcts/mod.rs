//! Monte Carlo tree search over the split turn: first the shooter move (or none), then
//! the shot. Two configurations share the tree: the plain UCT baseline (uniform
//! expansion, UCB1, uniform random playouts to the end) and our engine (priors from the
//! evaluation, PUCT, playouts cut off and scored by the evaluation, immediate wins solved).
//!
//! **The solver** (ours, [`MctsConfig::solver`]) proves positions won or lost; its
//! submodule `solver` says how.
//!
//! **Threads** share one tree (tree-parallel; the nodes are atomics, see `search::nodes`):
//! each playout counts its visits on the way down, so the others see it as a loss until
//! its value arrives (virtual loss) and spread over other lines, and a leaf is expanded by
//! the one thread that claims it while the others simulate from it. One thread searches
//! exactly as an unshared tree does.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::eval::{ShotEvaluator, StaticEval, evaluate_linear, evaluate_with, sigmoid};
pub use crate::search::nodes::Proven;
use crate::search::nodes::{Child, MAX_BLOCK, Node, NodeRef, Nodes};
use crate::search::stats;
use crate::search::tactics::winning_turn;
use veletas_rules::{Bitboard, Color, Move, PlayoutPolicy, Position, Rng, Square, Turn};

mod solver;

/// How the tree searches.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The plain UCT baseline instead of our engine.
    pub baseline: bool,
    /// Exploration constant (UCB1's c for the baseline, PUCT's for ours).
    pub exploration: f32,
    /// Plies of random play before the evaluation scores a playout (ours only).
    pub cutoff: u32,
    /// Softmax temperature of the shot priors, in win-probability units (ours only).
    pub prior_temperature: f32,
    /// Tree size limit in nodes; past it leaves are no longer expanded.
    pub max_nodes: usize,
    /// Visits a move-choice leaf needs before it is expanded (its children cost memory).
    pub expand_visits: u32,
    /// Visits a shot-choice node needs before its shots are added (before: a random shot).
    pub shot_expand_visits: u32,
    /// The value of a child without visits in PUCT selection (ours only).
    pub unvisited_value: f32,
    /// The prior share of the no-move choice at a move-choice node (ours only), when
    /// the moves share the rest equally (without `move_policy`).
    pub stay_prior: f32,
    /// Move-choice priors from the learned move policy ([`crate::search::policy`])
    /// instead of `stay_prior` and equal shares (ours only).
    pub move_policy: bool,
    /// The move policy's weights.
    pub policy: std::sync::Arc<crate::search::policy::PolicyWeights>,
    /// The static evaluation of cut-off playouts and shot priors (ours only).
    pub eval: StaticEval,
    /// Back proven wins and losses up the tree (ours only; see the module's notes).
    pub solver: bool,
    /// With a value network as `eval`, the shot priors are the network's values too
    /// (else the linear model's it corrects).
    pub net_priors: bool,
}

/// The size of one tree node in bytes (the unit of the tree's memory limit).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + stats::STATS_BYTES;
/// The smallest node limit of a tree (room for the root's children and then some).
pub const MIN_NODES: usize = 4096;

/// A complete turn at the root with its statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootTurn {
    /// The turn.
    pub turn: Turn,
    /// Playouts through it.
    pub visits: u64,
    /// Summed rewards for the side to move.
    pub value: f64,
    /// The outcome after this turn, when proven.
    pub proof: Option<Proven>,
}

/// The squares a shot may hit after `shooter_move` (or none).
fn shot_targets(pos: &Position, shooter_move: Option<(Square, Square)>) -> Bitboard {
    match shooter_move {
        Some((from, to)) => pos.shots_after_move(from, to),
        None => pos.shooters().iter().fold(Bitboard::EMPTY, |acc, s| acc | pos.shooter_reach(s)),
    }
}

/// A uniformly random shot completing the turn that starts with `shooter_move`.
fn random_shot(pos: &Position, shooter_move: Option<(Square, Square)>, rng: &mut Rng) -> Option<Turn> {
    let targets = shot_targets(pos, shooter_move);
    let n = targets.count();
    if n == 0 {
        return None;
    }
    targets.nth(rng.below(n)).map(|shot| Turn::new(shooter_move, shot))
}

/// One search thread's scratch space for [`Tree::iterate`], and how it counts visits.
#[derive(Debug, Default)]
pub struct Workspace {
    /// Other threads search the same tree: visits are counted on the way down (a
    /// virtual loss until the playout's value arrives) with atomic adds.
    shared: bool,
    path: Vec<u32>,
    shots: Vec<(Square, f32)>,
    moves: Vec<Option<(Square, Square)>>,
    priors: Vec<f32>,
    /// The order of a node's new children, highest prior first (sort keys).
    order: Vec<u64>,
    scratch: stats::Scratch,
}

impl Workspace {
    /// Scratch space for a thread; `shared` when several threads search the tree at once.
    pub fn new(shared: bool) -> Workspace {
        Workspace {
            shared,
            path: Vec::with_capacity(64),
            shots: Vec::with_capacity(64),
            moves: Vec::new(),
            priors: Vec::new(),
            order: Vec::new(),
            scratch: stats::Scratch::default(),
        }
    }
}

/// A search tree rooted at a position in play, searched by one thread or by several at
/// once (tree-parallel: each [`Tree::iterate`] takes `&self`).
#[derive(Debug)]
pub struct Tree {
    config: MctsConfig,
    root_position: Position,
    nodes: Nodes,
    root: u32,
    /// Every root child has been proven (nothing is left to find a faster win in).
    exhausted: AtomicBool,
}

impl Tree {
    /// An empty tree at `position`, which must be in play and not over.
    pub fn new(config: MctsConfig, position: Position) -> Tree {
        // Chunks of the limit are allocated as the tree grows: only the memory used
        // becomes resident, and no node ever moves.
        let nodes = Nodes::new(config.max_nodes);
        Tree { config, root_position: position, nodes, root: 0, exhausted: AtomicBool::new(false) }
    }

    #[inline(always)]
    fn node(&self, id: u32) -> NodeRef<'_> {
        self.nodes.get(id)
    }

    /// The first child's id and the children of `n` (none until it is expanded).
    fn children(&self, n: &Node) -> (u32, &[Node]) {
        let range = n.child_range();
        (range.start, self.nodes.block(range))
    }

    /// The root position.
    pub fn position(&self) -> &Position {
        &self.root_position
    }

    /// Playouts through the root.
    pub fn root_visits(&self) -> u64 {
        u64::from(self.node(self.root).visits())
    }

    /// Moves the root down along `turns` played since, keeping the subtree; returns
    /// false (and leaves the tree as it was) when a turn is not in the tree.
    pub fn advance(&mut self, turns: &[Turn]) -> bool {
        let mut node = self.root;
        let mut position = self.root_position.clone();
        for turn in turns {
            let Some(b) = self.find_child(node, |n| n.shooter_move() == turn.shooter_move()) else {
                return false;
            };
            let Some(a) = self.find_child(b, |n| n.shot() == Some(turn.shot())) else {
                return false;
            };
            position.play_turn_unchecked(*turn);
            node = a;
        }
        if position.is_over() || !self.node(node).is_expanded() {
            return false;
        }
        self.root = node;
        self.root_position = position;
        self.exhausted = AtomicBool::new(false);
        true
    }

    /// The bytes the tree's nodes take (the nodes in use; the limit is reserved but
    /// becomes resident only as the tree grows).
    pub fn memory_used(&self) -> u64 {
        (self.nodes.len() * NODE_BYTES) as u64
    }

    /// Whether the tree has grown past half its node limit (reuse then costs memory).
    pub fn is_crowded(&self) -> bool {
        self.nodes.len() > self.config.max_nodes / 2
    }

    fn find_child(&self, node: u32, pred: impl Fn(&Node) -> bool) -> Option<u32> {
        self.node(node).child_range().find(|&c| pred(&self.node(c)))
    }

    /// Runs one playout: select, expand, simulate, back up (and, with the solver, back
    /// proofs up the path). Several threads may run playouts at once, each with its own
    /// [`Workspace`] made `shared`: a node's visits then count on the way down, so the
    /// others see a playout under way as a loss (virtual loss) and spread out, and a node
    /// is expanded by the one thread that claims it while the others simulate from it.
    /// One thread alone (not `shared`) searches exactly as the tree did before it was
    /// shared.
    pub fn iterate(&self, ws: &mut Workspace, rng: &mut Rng) {
        self.playout(ws, rng, false);
    }

    /// [`Tree::iterate`] by the one thread that holds the tree (`&mut`): exactly the
    /// same search, with selection reading the statistics in place (faster).
    pub fn iterate_alone(&mut self, ws: &mut Workspace, rng: &mut Rng) {
        self.playout(ws, rng, true);
    }

    /// One playout; `alone`: only called through `&mut self` (no other thread can touch
    /// the tree meanwhile).
    fn playout(&self, ws: &mut Workspace, rng: &mut Rng, alone: bool) {
        let shared = ws.shared;
        let mut pos = self.root_position.clone();
        ws.path.clear();
        let mut node = self.root;
        // The visits of the current node before this playout.
        let mut seen = self.enter(node, shared);
        ws.path.push(node);
        let solver = self.config.solver;
        // A root won in more than three turns keeps searching its unproven children for
        // a faster win (no immediate win exists, or the root would have none).
        let seeking = self.seeking_faster();
        let value_black = loop {
            // A move-choice node: `pos` is the position, the side to move chooses.
            let n = self.node(node);
            if let Some(winner) = pos.winner() {
                if solver {
                    n.set_proof(Proven::new(winner, 0));
                }
                break if winner == Color::Black { 1.0 } else { 0.0 };
            }
            let side = pos.side_to_move();
            let open_root = seeking && node == self.root;
            if solver
                && !open_root
                && let Some(proof) = n.proof()
            {
                break if proof.winner == Color::Black { 1.0 } else { 0.0 };
            }
            if !n.is_expanded() {
                let may_expand = node == self.root || seen >= self.config.expand_visits;
                // Another thread may be expanding the node: this playout simulates.
                let expanded = may_expand && self.has_room() && n.try_claim() && self.expand_moves(node, &pos, ws);
                if !expanded {
                    if solver && seen == 0 && winning_turn(&pos).is_some() {
                        self.prove_immediate_win(node, side);
                        break if side == Color::Black { 1.0 } else { 0.0 };
                    }
                    break self.simulate(&mut pos, rng);
                }
            }
            if !open_root && n.proof().is_some() {
                break if side == Color::Black { 1.0 } else { 0.0 };
            }
            let b = self.select(node, side, open_root, rng, alone, &mut ws.scratch);
            if open_root && self.skipped(b, side, true, true) {
                // Every root child is proven: nothing faster to find.
                self.exhausted.store(true, Ordering::Relaxed);
                break if side == Color::Black { 1.0 } else { 0.0 };
            }
            let b_seen = self.enter(b, shared);
            ws.path.push(b);
            let bn = self.node(b);
            let shooter_move = bn.shooter_move();
            let ready = bn.is_expanded()
                || (b_seen >= self.config.shot_expand_visits.saturating_sub(1)
                    && self.has_room()
                    && bn.try_claim()
                    && self.expand_shots(b, &pos, shooter_move, ws));
            if !ready {
                // Too few visits or no room for the shots (or another thread is adding
                // them): finish the turn at random below the tree.
                let Some(turn) = random_shot(&pos, shooter_move, rng) else { break 0.5 };
                pos.play_turn_unchecked(turn);
                break match pos.winner() {
                    Some(w) => f64::from(u8::from(w == Color::Black)),
                    None => self.simulate(&mut pos, rng),
                };
            }
            let a = self.select(b, side, open_root, rng, alone, &mut ws.scratch);
            seen = self.enter(a, shared);
            ws.path.push(a);
            let Some(shot) = self.node(a).shot() else { break 0.5 };
            let turn = Turn::new(shooter_move, shot);
            pos.play_turn_unchecked(turn);
            node = a;
        };
        self.backup(value_black, ws);
        if solver {
            self.back_up_proofs(ws);
        }
    }

    /// Enters node `id` on the way down; returns its visits before this playout. A
    /// shared tree counts the visit now (a virtual loss until the value comes back).
    fn enter(&self, id: u32, shared: bool) -> u32 {
        let n = self.node(id);
        if shared { n.add_visit(true) } else { n.visits() }
    }

    /// Whether the tree may still grow by one node's children.
    fn has_room(&self) -> bool {
        self.nodes.len() + 512 < self.nodes.max()
    }

    /// Every complete root turn in the tree with its shot-choice node.
    fn root_edges(&self) -> impl Iterator<Item = (Turn, u32)> + '_ {
        self.node(self.root).child_range().flat_map(move |b| {
            let bn = self.node(b);
            let shooter_move = bn.shooter_move();
            bn.child_range().filter_map(move |a| self.node(a).shot().map(|shot| (Turn::new(shooter_move, shot), a)))
        })
    }

    fn backup(&self, value_black: f64, ws: &Workspace) {
        // Each edge is chosen by the side to move at the move-choice node above it.
        let mut chooser = self.root_position.side_to_move();
        for (depth, &id) in ws.path.iter().enumerate() {
            let node = self.node(id);
            if !ws.shared {
                node.add_visit(false);
            }
            if depth > 0 {
                let reward = if chooser == Color::Black { value_black } else { 1.0 - value_black };
                node.add_value(reward as f32, ws.shared);
                if depth % 2 == 0 {
                    chooser = !chooser;
                }
            }
        }
    }

    fn simulate(&self, pos: &mut Position, rng: &mut Rng) -> f64 {
        if self.config.baseline {
            return if pos.playout(rng, PlayoutPolicy::Uniform) == Color::Black { 1.0 } else { 0.0 };
        }
        for _ in 0..self.config.cutoff {
            match pos.random_turn(rng, PlayoutPolicy::Cheap) {
                Some(turn) => pos.play_turn_unchecked(turn),
                None => break,
            }
        }
        evaluate_with(pos, &self.config.eval)
    }

    /// Reserves and writes the children of claimed node `parent`, the `count` of
    /// `child(i)`, highest prior first (equal priors in their order; the baseline's in
    /// their order), so that selection need only look at the children it has reached
    /// and the next one ([`Node::tried`]); `order`: a buffer. False (the claim given
    /// back) when the tree has no room for them.
    fn add_children(&self, parent: u32, count: usize, order: &mut Vec<u64>, child: impl Fn(usize) -> Child) -> bool {
        order.clear();
        if self.config.baseline {
            order.extend(0..count as u64);
        } else {
            // Descending prior, then ascending index: a non-negative f32's bits order as
            // its value does (anything else counts as 0).
            order.extend((0..count).map(|i| {
                let p = child(i).prior;
                let bits = if p > 0.0 { p.to_bits() } else { 0 };
                u64::from(!bits) << 32 | i as u64
            }));
            order.sort_unstable();
        }
        let count = count.min(usize::from(u16::MAX)).min(MAX_BLOCK as usize) as u16;
        let Some(first) = self.nodes.alloc(u32::from(count)) else {
            self.node(parent).unclaim();
            return false;
        };
        self.nodes.init_block(first, usize::from(count), |i| child((order[i] & 0xffff_ffff) as usize));
        self.node(parent).publish(first, count);
        true
    }

    /// Expands claimed move-choice node `node` (or proves its immediate win).
    fn expand_moves(&self, node: u32, pos: &Position, ws: &mut Workspace) -> bool {
        if !self.config.baseline && winning_turn(pos).is_some() {
            self.node(node).set_proof(Proven::new(pos.side_to_move(), 1));
            self.node(node).publish(0, 0);
            return true;
        }
        ws.moves.clear();
        ws.moves.push(None);
        for from in pos.shooters() {
            ws.moves.extend(pos.shooter_reach(from).iter().map(|to| Some((from, to))));
        }
        if self.config.move_policy {
            self.config.policy.priors(pos, &ws.moves, &mut ws.priors);
            let (moves, priors) = (&ws.moves, &ws.priors);
            return self.add_children(node, moves.len(), &mut ws.order, |i| Child {
                shooter_move: moves[i],
                shot: None,
                prior: priors[i],
                proof: None,
            });
        }
        let n = ws.moves.len() as f32;
        // Staying put keeps its share of the prior mass (`stay_prior`, a tenth by
        // default); the moves share the rest equally.
        let share = self.config.stay_prior;
        let stay = if n > 1.0 { share } else { 1.0 };
        let other = if n > 1.0 { (1.0 - share) / (n - 1.0) } else { 0.0 };
        let moves = &ws.moves;
        self.add_children(node, moves.len(), &mut ws.order, |i| {
            let m = moves[i];
            Child { shooter_move: m, shot: None, prior: if m.is_none() { stay } else { other }, proof: None }
        })
    }

    /// Expands claimed shot-choice node `node`.
    fn expand_shots(
        &self,
        node: u32,
        pos: &Position,
        shooter_move: Option<(Square, Square)>,
        ws: &mut Workspace,
    ) -> bool {
        let targets = shot_targets(pos, shooter_move);
        ws.shots.clear();
        // The shots that end the game, by winner (Color::index).
        let mut ends = [Bitboard::EMPTY; 2];
        if self.config.baseline {
            let n = targets.count().max(1) as f32;
            ws.shots.extend(targets.iter().map(|sq| (sq, 1.0 / n)));
        } else {
            let side = pos.side_to_move();
            let mut best = f32::MIN;
            let shots = ShotEvaluator::new(pos, shooter_move, &self.config.eval);
            // With a value network (and `net_priors`), the priors are its values too: the
            // accumulator after the move, plus each shot's stone.
            let net = match &self.config.eval {
                StaticEval::Net(net) if self.config.net_priors => Some((net, net.after_move(pos, shooter_move))),
                _ => None,
            };
            for shot in targets {
                let logit = shots.logit(shot);
                // A shot that traps a shooter changes the claims: play it out.
                let p = match (logit, &net) {
                    (Some(logit), Some((net, acc))) => sigmoid(net.logit_after_shot(acc, logit, side, shot)),
                    (Some(logit), None) => sigmoid(logit),
                    (None, _) => {
                        let mut next = pos.clone();
                        next.play_turn_unchecked(Turn::new(shooter_move, shot));
                        if let Some(winner) = next.winner() {
                            ends[winner.index()] |= shot.bitboard();
                        }
                        if net.is_some() {
                            evaluate_with(&next, &self.config.eval)
                        } else {
                            evaluate_linear(&next, &self.config.eval)
                        }
                    }
                };
                let v = (if side == Color::Black { p } else { 1.0 - p }) as f32;
                best = best.max(v);
                ws.shots.push((shot, v));
            }
            let t = self.config.prior_temperature;
            let mut total = 0.0;
            for (_, v) in ws.shots.iter_mut() {
                *v = ((*v - best) / t).exp();
                total += *v;
            }
            for (_, v) in ws.shots.iter_mut() {
                *v /= total;
            }
        }
        let shots = &ws.shots;
        let solver = self.config.solver;
        self.add_children(node, shots.len(), &mut ws.order, |i| {
            let (shot, prior) = shots[i];
            // Shots that end the game are proven at once.
            let winner = || Color::ALL.into_iter().find(|w| ends[w.index()].contains(shot));
            let proof = if solver { winner().map(|w| Proven::new(w, 0)) } else { None };
            Child { shooter_move: None, shot: Some(shot), prior, proof }
        })
    }

    /// The child of `node` to visit; `actor` chooses there. With the solver, children
    /// lost for `actor` are skipped while another remains, and every proven child when
    /// `skip_proven` (a won root looking for a faster win).
    /// `alone`: see [`Tree::playout`]; `scratch`: the thread's buffers.
    fn select(
        &self,
        node: u32,
        actor: Color,
        skip_proven: bool,
        rng: &mut Rng,
        alone: bool,
        scratch: &mut stats::Scratch,
    ) -> u32 {
        let parent = self.node(node);
        let range = parent.child_range();
        let first = range.start;
        if self.config.baseline {
            // UCB1; unvisited children first, in random order.
            let unvisited = range.clone().filter(|&c| self.node(c).visits() == 0).count() as u32;
            if unvisited > 0 {
                let k = rng.below(unvisited);
                if let Some(c) = range.clone().filter(|&c| self.node(c).visits() == 0).nth(k as usize) {
                    return c;
                }
            }
            let log_n = (parent.visits().max(1) as f32).ln();
            return range
                .max_by(|&a, &b| {
                    let ucb = |c: u32| {
                        let n = self.node(c);
                        n.mean() + self.config.exploration * (log_n / n.visits() as f32).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .unwrap_or(first);
        }
        let sqrt_n = (parent.visits() as f32 + 1.0).sqrt();
        let whole = skip_proven && node == self.root;
        let solver = self.config.solver;
        let block = self.nodes.stat_block(range);
        // Selection asks about the proofs of the children at hand.
        let children = block.nodes;
        let skipped = |c: u32| {
            solver && children.get((c - first) as usize).is_some_and(|n| self.skips(n, actor, whole, skip_proven))
        };
        // The children are stored highest prior first, and an unvisited child's score
        // grows with its prior alone: past the children reached so far (all unvisited),
        // the first one not passed over scores at least as high as every later one (the
        // first among equals wins), so the rest need no scoring.
        let len = children.len() as u32;
        let mut end = parent.tried().min(len);
        while end < len && skipped(first + end) {
            end += 1;
        }
        let block = block.prefix((end + 1).min(len) as usize);
        let best = if alone {
            // SAFETY: `alone` playouts run only from `iterate_alone`, which holds the
            // tree by `&mut`: no other thread writes its nodes.
            let plain = unsafe { block.plain() };
            stats::puct_best(plain, first, self.puct(), sqrt_n, scratch, skipped)
        } else {
            // SAFETY: `range` is the child range of `parent`, seen expanded.
            let published = unsafe { block.published() };
            stats::puct_best(published, first, self.puct(), sqrt_n, scratch, skipped)
        };
        parent.reach(best - first + 1, !alone);
        best
    }

    /// The constants of PUCT selection.
    fn puct(&self) -> stats::Puct {
        stats::Puct { exploration: self.config.exploration, unvisited: self.config.unvisited_value }
    }

    /// Whether selection passes over child `c`: lost for `actor`; or, when looking for a
    /// faster win (`skip_proven`), proven, and at the root (`whole`) with every child of
    /// its own proven too (the no-move choice holds all the shot-only turns).
    fn skipped(&self, c: u32, actor: Color, whole: bool, skip_proven: bool) -> bool {
        self.skips(&self.node(c), actor, whole, skip_proven)
    }

    /// [`Tree::skipped`] for a node at hand.
    #[inline]
    fn skips(&self, n: &Node, actor: Color, whole: bool, skip_proven: bool) -> bool {
        match n.proof() {
            None => false,
            Some(p) if p.winner != actor => true,
            Some(_) if !skip_proven => false,
            Some(_) if !whole => true,
            Some(_) => self.children(n).1.iter().all(|a| a.proof().is_some()),
        }
    }

    /// Every first step of the root (a shooter's move, or none: `None`) that received a
    /// playout, with the playouts through it, no move first, then the shooters' moves by
    /// their squares: the move policy's training target.
    pub fn root_first_steps(&self) -> Vec<(Option<(Square, Square)>, u64)> {
        let mut steps: Vec<_> = self
            .node(self.root)
            .child_range()
            .filter_map(|b| {
                let bn = self.node(b);
                let visits = u64::from(bn.visits());
                (visits > 0).then(|| (bn.shooter_move(), visits))
            })
            .collect();
        steps.sort_unstable_by_key(|&(step, _)| step);
        steps
    }

    /// Every complete root turn that has been tried, with its statistics.
    pub fn root_turns(&self) -> Vec<RootTurn> {
        let mut out = Vec::new();
        for (turn, a) in self.root_edges() {
            let an = self.node(a);
            if an.visits() == 0 {
                continue;
            }
            let proof = if self.config.solver { an.proof() } else { None };
            out.push(RootTurn { turn, visits: u64::from(an.visits()), value: f64::from(an.value()), proof });
        }
        out
    }

    /// The principal variation after `first`: the most visited turns below it.
    pub fn principal_variation(&self, first: Turn, max_len: usize) -> Vec<Move> {
        let mut pv = vec![Move::Turn(first)];
        let mut node = self.root;
        let mut turn = first;
        while pv.len() <= max_len {
            let Some(b) = self.find_child(node, |n| n.shooter_move() == turn.shooter_move()) else { break };
            let Some(a) = self.find_child(b, |n| n.shot() == Some(turn.shot())) else { break };
            node = a;
            let Some(nb) = self.most_visited(node) else { break };
            let Some(na) = self.most_visited(nb) else { break };
            let Some(shot) = self.node(na).shot() else { break };
            turn = Turn::new(self.node(nb).shooter_move(), shot);
            if pv.len() >= max_len {
                break;
            }
            pv.push(Move::Turn(turn));
        }
        pv
    }

    /// The most visited child of `node` that has visits; among equals the first by its
    /// edge (a shooter move or a shot, in notation order), not by its place in the tree.
    fn most_visited(&self, node: u32) -> Option<u32> {
        self.node(node)
            .child_range()
            .filter(|&c| self.node(c).visits() > 0)
            .max_by_key(|&c| (self.node(c).visits(), std::cmp::Reverse(edge_order(&self.node(c)))))
    }
}
/// The order of a child's edge independent of its place among its siblings: no move
/// first, then shooter moves and shots by their squares.
fn edge_order(n: &Node) -> (Option<(Square, Square)>, Option<Square>) {
    (n.shooter_move(), n.shot())
}

#[cfg(test)]
mod tests;
