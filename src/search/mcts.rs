//! Monte Carlo tree search over the split turn: first the shooter move (or none), then
//! the shot. Two configurations share the tree: the plain UCT baseline (uniform
//! expansion, UCB1, uniform random playouts to the end) and our engine (priors from the
//! evaluation, PUCT, playouts cut off and scored by the evaluation, immediate wins solved).
//!
//! **The solver** (ours, [`MctsConfig::solver`]; MCTS-solver after Winands, Björnsson and
//! Saito, 2008): a node whose outcome is certain carries a [`Proven`] result, the winner
//! and the turns left until the game ends. Colours are absolute, so the split turn needs
//! no care about whose view a level has: at a move-choice node and at the shot-choice
//! nodes below it the same player acts. A node is won by its actor as soon as one child
//! is (the fewest turns among those known), and lost once every child is lost (the most
//! turns). Proofs come from the leaves: finished games, immediate wins (checked when a
//! node is first reached), and they are backed up along the path of each playout.
//! Selection skips children lost for the actor; a playout that reaches a proven node
//! scores its exact result. Proofs are facts about positions, so they survive tree
//! reuse, and each root-parallel tree proves on its own.

use crate::rules::{Bitboard, Color, Move, PlayoutPolicy, Position, Rng, Square, Turn};
use crate::search::eval::{Evaluation, evaluate_with};
use crate::search::stats::{STATS_BYTES, Stats};
use crate::search::tactics::winning_turn;

/// How the tree searches.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// The static evaluation of cut-off playouts and shot priors (ours only).
    pub eval: Evaluation,
    /// Back proven wins and losses up the tree (ours only; see the module's notes).
    pub solver: bool,
}

/// A proven outcome: who wins, and in how many turns from the node's position (a
/// shot-choice node counts the turn under way; a finished game is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Proven {
    /// The winner with best play.
    pub winner: Color,
    /// Turns of both players until the game ends along the proof (1: the side to move
    /// wins at once; 3: on its second turn; an even count when the loser's last turn
    /// must hand the win over), saturated at 255. The solver keeps the
    /// first proof it finds below the root, so this bounds the best play's length.
    pub turns: u8,
}

impl Proven {
    fn new(winner: Color, turns: u32) -> Proven {
        Proven { winner, turns: turns.min(255) as u8 }
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The shooter move of the edge into a shot-choice node.
    shooter_move: Option<(Square, Square)>,
    /// The shot of the edge into a move-choice node (None for the root and for
    /// shot-choice nodes).
    shot: Option<Square>,
    first_child: u32,
    children: u16,
    expanded: bool,
    /// The outcome, once proven (with the solver off only immediate wins are marked).
    proof: Option<Proven>,
    // Visits, rewards and prior are in the tree's `Stats`, indexed like the nodes.
}

impl Node {
    fn new(shooter_move: Option<(Square, Square)>, shot: Option<Square>) -> Node {
        Node { shooter_move, shot, first_child: 0, children: 0, expanded: false, proof: None }
    }
}

/// The size of one tree node in bytes, its statistics included (the unit of the trees'
/// memory limit).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + STATS_BYTES;
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

/// A search tree rooted at a position in play.
#[derive(Clone, Debug)]
pub struct Tree {
    config: MctsConfig,
    root_position: Position,
    nodes: Vec<Node>,
    /// The visits, rewards and priors of the nodes.
    stats: Stats,
    root: u32,
    path: Vec<u32>,
    shots: Vec<(Square, f32)>,
    /// Every root child has been proven (nothing is left to find a faster win in).
    exhausted: bool,
}

impl Tree {
    /// An empty tree at `position`, which must be in play and not over.
    pub fn new(config: MctsConfig, position: Position) -> Tree {
        Tree {
            config,
            root_position: position,
            nodes: {
                // The whole limit at once: only the pages used become resident, and the
                // vector never reallocates (which would hold two copies for a moment).
                let mut nodes = Vec::with_capacity(config.max_nodes);
                nodes.push(Node::new(None, None));
                nodes
            },
            stats: {
                let mut stats = Stats::with_capacity(config.max_nodes);
                stats.push(1.0);
                stats
            },
            root: 0,
            path: Vec::with_capacity(64),
            shots: Vec::with_capacity(64),
            exhausted: false,
        }
    }

    /// The root position.
    pub fn position(&self) -> &Position {
        &self.root_position
    }

    /// Playouts through the root.
    pub fn root_visits(&self) -> u64 {
        u64::from(self.stats.visits(self.root))
    }

    /// Moves the root down along `turns` played since, keeping the subtree; returns
    /// false (and leaves the tree as it was) when a turn is not in the tree.
    pub fn advance(&mut self, turns: &[Turn]) -> bool {
        let mut node = self.root;
        let mut position = self.root_position.clone();
        for turn in turns {
            let Some(b) = self.find_child(node, |n| n.shooter_move == turn.shooter_move()) else {
                return false;
            };
            let Some(a) = self.find_child(b, |n| n.shot == Some(turn.shot())) else {
                return false;
            };
            position.play_turn_unchecked(*turn);
            node = a;
        }
        if position.is_over() || !self.nodes[node as usize].expanded {
            return false;
        }
        self.root = node;
        self.root_position = position;
        self.exhausted = false;
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
        let n = &self.nodes[node as usize];
        if !n.expanded {
            return None;
        }
        (n.first_child..n.first_child + u32::from(n.children)).find(|&c| pred(&self.nodes[c as usize]))
    }

    /// Runs one playout: select, expand, simulate, back up (and, with the solver, back
    /// proofs up the path).
    pub fn iterate(&mut self, rng: &mut Rng) {
        let mut pos = self.root_position.clone();
        self.path.clear();
        let mut node = self.root;
        self.path.push(node);
        let solver = self.config.solver;
        // A root won in more than three turns keeps searching its unproven children for
        // a faster win (no immediate win exists, or the root would have none).
        let seeking = self.seeking_faster();
        let value_black = loop {
            // A move-choice node: `pos` is the position, the side to move chooses.
            if let Some(winner) = pos.winner() {
                if solver {
                    self.nodes[node as usize].proof = Some(Proven::new(winner, 0));
                }
                break if winner == Color::Black { 1.0 } else { 0.0 };
            }
            let side = pos.side_to_move();
            let open_root = seeking && node == self.root;
            if solver
                && !open_root
                && let Some(proof) = self.nodes[node as usize].proof
            {
                break if proof.winner == Color::Black { 1.0 } else { 0.0 };
            }
            if !self.nodes[node as usize].expanded {
                let may_expand = node == self.root || self.stats.visits(node) >= self.config.expand_visits;
                if may_expand && self.has_room() {
                    self.expand_moves(node, &pos);
                } else {
                    if solver && self.stats.visits(node) == 0 && winning_turn(&pos).is_some() {
                        self.prove_immediate_win(node, side);
                        break if side == Color::Black { 1.0 } else { 0.0 };
                    }
                    break self.simulate(&mut pos, rng);
                }
            }
            if !open_root && self.nodes[node as usize].proof.is_some() {
                break if side == Color::Black { 1.0 } else { 0.0 };
            }
            let b = self.select(node, side, open_root, rng);
            if open_root && self.skipped(b, side, true, true) {
                // Every root child is proven: nothing faster to find.
                self.exhausted = true;
                break if side == Color::Black { 1.0 } else { 0.0 };
            }
            self.path.push(b);
            let shooter_move = self.nodes[b as usize].shooter_move;
            if !self.nodes[b as usize].expanded {
                if self.has_room() {
                    self.expand_shots(b, &pos, shooter_move);
                } else {
                    // No room for the shots: finish the turn at random below the tree.
                    let Some(turn) = random_shot(&pos, shooter_move, rng) else { break 0.5 };
                    pos.play_turn_unchecked(turn);
                    break match pos.winner() {
                        Some(w) => f64::from(u8::from(w == Color::Black)),
                        None => self.simulate(&mut pos, rng),
                    };
                }
            }
            let a = self.select(b, side, open_root, rng);
            self.path.push(a);
            let Some(shot) = self.nodes[a as usize].shot else { break 0.5 };
            let turn = Turn::new(shooter_move, shot);
            pos.play_turn_unchecked(turn);
            node = a;
        };
        self.backup(value_black);
        if solver {
            self.back_up_proofs();
        }
    }

    /// Whether the tree may still grow by one node's children.
    fn has_room(&self) -> bool {
        self.nodes.len() + 512 < self.config.max_nodes
    }

    fn prove_immediate_win(&mut self, node: u32, side: Color) {
        let n = &mut self.nodes[node as usize];
        n.proof = Some(Proven::new(side, 1));
        // A won node needs no children: playouts stop there.
        n.expanded = true;
    }

    /// Proves what the last playout's path allows, from its end up: a node whose child
    /// was just proven may be proven in turn.
    fn back_up_proofs(&mut self) {
        let root_side = self.root_position.side_to_move();
        for i in (0..self.path.len()).rev() {
            let id = self.path[i];
            if i == 0 && self.seeking_faster() {
                // A won root takes the fastest win among its children.
                if let Some(p) = self.proof_from_children(id, root_side, false)
                    && self.nodes[id as usize].proof.is_some_and(|old| p.winner == root_side && p.turns < old.turns)
                {
                    self.nodes[id as usize].proof = Some(p);
                }
                continue;
            }
            if self.nodes[id as usize].proof.is_some() {
                continue;
            }
            // path[0] is the root (move choice), path[1] its shot choice, path[2] the next
            // move choice (the opponent's), and so on: the actor changes every two levels.
            let actor = if (i / 2) % 2 == 0 { root_side } else { !root_side };
            let shot_choice = i % 2 == 1;
            match self.proof_from_children(id, actor, shot_choice) {
                Some(p) => self.nodes[id as usize].proof = Some(p),
                None => break,
            }
        }
    }

    /// The proof of an expanded node from its children's: won by `actor` when a child is
    /// (fewest turns), lost when every child is lost (most turns).
    fn proof_from_children(&self, id: u32, actor: Color, shot_choice: bool) -> Option<Proven> {
        let n = &self.nodes[id as usize];
        if !n.expanded || n.children == 0 {
            return None;
        }
        let extra = u32::from(shot_choice);
        let mut fastest_win: Option<u32> = None;
        let mut slowest_loss = 0;
        let mut all_lost = true;
        for c in n.first_child..n.first_child + u32::from(n.children) {
            match self.nodes[c as usize].proof {
                Some(p) if p.winner == actor => {
                    let t = u32::from(p.turns) + extra;
                    fastest_win = Some(fastest_win.map_or(t, |f: u32| f.min(t)));
                }
                Some(p) => slowest_loss = slowest_loss.max(u32::from(p.turns) + extra),
                None => all_lost = false,
            }
        }
        match fastest_win {
            Some(t) => Some(Proven::new(actor, t)),
            None if all_lost => Some(Proven::new(!actor, slowest_loss)),
            None => None,
        }
    }

    /// Whether the root is won, but in more than three turns, and some root child is
    /// still unproven: the search goes on for a faster win.
    fn seeking_faster(&self) -> bool {
        let side = self.root_position.side_to_move();
        self.config.solver && !self.exhausted && self.root_proof().is_some_and(|p| p.winner == side && p.turns > 3)
    }

    /// Whether the search of this tree is over: the root is proven (and no faster win
    /// is being looked for).
    pub fn is_settled(&self) -> bool {
        self.root_proof().is_some() && !self.seeking_faster()
    }

    /// The root's outcome, once proven.
    pub fn root_proof(&self) -> Option<Proven> {
        self.nodes[self.root as usize].proof
    }

    /// The turn to play at a proven root: the fastest win, or the longest loss (then the
    /// most visited among equals); `None` when the root is not proven or was won without
    /// children (an immediate win, found by [`winning_turn`]).
    pub fn proven_turn(&self) -> Option<(Turn, Proven)> {
        let root_proof = self.root_proof()?;
        let side = self.root_position.side_to_move();
        let mut best: Option<(Turn, Proven, u32)> = None;
        for (turn, a) in self.root_edges() {
            let an = &self.nodes[a as usize];
            let Some(p) = an.proof else { continue };
            let better = match best {
                None => true,
                Some((_, bp, bv)) => {
                    if root_proof.winner == side {
                        p.winner == side && (bp.winner != side || p.turns < bp.turns)
                    } else {
                        p.turns > bp.turns || (p.turns == bp.turns && self.stats.visits(a) > bv)
                    }
                }
            };
            if better && (root_proof.winner != side || p.winner == side) {
                best = Some((turn, p, self.stats.visits(a)));
            }
        }
        best.map(|(t, p, _)| (t, Proven::new(p.winner, u32::from(p.turns) + 1)))
    }

    /// Every complete root turn in the tree with its shot-choice node.
    fn root_edges(&self) -> impl Iterator<Item = (Turn, u32)> + '_ {
        let root = &self.nodes[self.root as usize];
        (root.first_child..root.first_child + u32::from(root.children)).flat_map(move |b| {
            let bn = &self.nodes[b as usize];
            let range = if bn.expanded { bn.first_child..bn.first_child + u32::from(bn.children) } else { 0..0 };
            range.filter_map(move |a| self.nodes[a as usize].shot.map(|shot| (Turn::new(bn.shooter_move, shot), a)))
        })
    }

    fn backup(&mut self, value_black: f64) {
        // Each edge is chosen by the side to move at the move-choice node above it.
        let mut chooser = self.root_position.side_to_move();
        for (depth, &id) in self.path.iter().enumerate() {
            if depth > 0 {
                let reward = if chooser == Color::Black { value_black } else { 1.0 - value_black };
                self.stats.visit(id, Some(reward as f32));
                if depth % 2 == 0 {
                    chooser = !chooser;
                }
            } else {
                self.stats.visit(id, None);
            }
        }
    }

    fn simulate(&mut self, pos: &mut Position, rng: &mut Rng) -> f64 {
        if self.config.baseline {
            return if pos.playout(rng, PlayoutPolicy::Uniform) == Color::Black { 1.0 } else { 0.0 };
        }
        for _ in 0..self.config.cutoff {
            match pos.random_turn(rng, PlayoutPolicy::Cheap) {
                Some(turn) => pos.play_turn_unchecked(turn),
                None => break,
            }
        }
        evaluate_with(pos, self.config.eval)
    }

    /// Adds the children of `parent` (nodes with their priors), at most `u16::MAX`.
    fn push_children(&mut self, parent: u32, children: impl Iterator<Item = (Node, f32)>) {
        let first = self.nodes.len() as u32;
        for (node, prior) in children {
            self.nodes.push(node);
            self.stats.push(prior);
        }
        let count = (self.nodes.len() as u32 - first).min(u32::from(u16::MAX)) as u16;
        self.nodes.truncate(first as usize + count as usize);
        self.stats.truncate(first as usize + count as usize);
        let p = &mut self.nodes[parent as usize];
        p.first_child = first;
        p.children = count;
        p.expanded = true;
    }

    fn expand_moves(&mut self, node: u32, pos: &Position) {
        if !self.config.baseline && winning_turn(pos).is_some() {
            self.prove_immediate_win(node, pos.side_to_move());
            return;
        }
        let mut moves: Vec<Option<(Square, Square)>> = vec![None];
        for from in pos.shooters() {
            moves.extend(pos.shooter_reach(from).iter().map(|to| Some((from, to))));
        }
        let n = moves.len() as f32;
        // Staying put keeps a quarter of the prior mass: most good turns only shoot.
        let stay = if n > 1.0 { 0.25 } else { 1.0 };
        let other = if n > 1.0 { 0.75 / (n - 1.0) } else { 0.0 };
        self.push_children(
            node,
            moves.into_iter().map(|m| (Node::new(m, None), if m.is_none() { stay } else { other })),
        );
    }

    fn expand_shots(&mut self, node: u32, pos: &Position, shooter_move: Option<(Square, Square)>) {
        let targets = shot_targets(pos, shooter_move);
        self.shots.clear();
        // The shots that end the game, by winner (Color::index).
        let mut ends = [Bitboard::EMPTY; 2];
        if self.config.baseline {
            let n = targets.count().max(1) as f32;
            self.shots.extend(targets.iter().map(|sq| (sq, 1.0 / n)));
        } else {
            let side = pos.side_to_move();
            let mut best = f32::MIN;
            for shot in targets {
                let turn = Turn::new(shooter_move, shot);
                let mut next = pos.clone();
                next.play_turn_unchecked(turn);
                if let Some(winner) = next.winner() {
                    ends[winner.index()] |= shot.bitboard();
                }
                let p = evaluate_with(&next, self.config.eval);
                let v = (if side == Color::Black { p } else { 1.0 - p }) as f32;
                best = best.max(v);
                self.shots.push((shot, v));
            }
            let t = self.config.prior_temperature;
            let mut total = 0.0;
            for (_, v) in self.shots.iter_mut() {
                *v = ((*v - best) / t).exp();
                total += *v;
            }
            for (_, v) in self.shots.iter_mut() {
                *v /= total;
            }
        }
        let shots = std::mem::take(&mut self.shots);
        self.push_children(node, shots.iter().map(|&(sq, prior)| (Node::new(None, Some(sq)), prior)));
        self.shots = shots;
        if self.config.solver {
            // Shots that end the game are proven at once.
            let first = self.nodes[node as usize].first_child;
            for c in first..first + u32::from(self.nodes[node as usize].children) {
                let Some(shot) = self.nodes[c as usize].shot else { continue };
                if let Some(winner) = Color::ALL.into_iter().find(|w| ends[w.index()].contains(shot)) {
                    self.nodes[c as usize].proof = Some(Proven::new(winner, 0));
                }
            }
        }
    }

    /// The child of `node` to visit; `actor` chooses there. With the solver, children
    /// lost for `actor` are skipped while another remains, and every proven child when
    /// `skip_proven` (a won root looking for a faster win).
    fn select(&self, node: u32, actor: Color, skip_proven: bool, rng: &mut Rng) -> u32 {
        let parent = &self.nodes[node as usize];
        let first = parent.first_child;
        let count = u32::from(parent.children);
        if self.config.baseline {
            // UCB1; unvisited children first, in random order.
            let unvisited = (first..first + count).filter(|&c| self.stats.visits(c) == 0).count() as u32;
            if unvisited > 0 {
                let k = rng.below(unvisited);
                if let Some(c) = (first..first + count).filter(|&c| self.stats.visits(c) == 0).nth(k as usize) {
                    return c;
                }
            }
            let log_n = (self.stats.visits(node).max(1) as f32).ln();
            return (first..first + count)
                .max_by(|&a, &b| {
                    let ucb = |c: u32| {
                        self.stats.mean(c) + self.config.exploration * (log_n / self.stats.visits(c) as f32).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .unwrap_or(first);
        }
        let sqrt_n = (self.stats.visits(node) as f32 + 1.0).sqrt();
        let whole = skip_proven && node == self.root;
        self.stats.puct_best(first, count, self.config.exploration, sqrt_n, |c| {
            self.config.solver && self.skipped(c, actor, whole, skip_proven)
        })
    }

    /// Whether selection passes over child `c`: lost for `actor`; or, when looking for a
    /// faster win (`skip_proven`), proven, and at the root (`whole`) with every child of
    /// its own proven too (the no-move choice holds all the shot-only turns).
    fn skipped(&self, c: u32, actor: Color, whole: bool, skip_proven: bool) -> bool {
        let n = &self.nodes[c as usize];
        match n.proof {
            None => false,
            Some(p) if p.winner != actor => true,
            Some(_) if !skip_proven => false,
            Some(_) if !whole => true,
            Some(_) => {
                (n.first_child..n.first_child + u32::from(n.children)).all(|a| self.nodes[a as usize].proof.is_some())
            }
        }
    }

    /// Every complete root turn that has been tried, with its statistics.
    pub fn root_turns(&self) -> Vec<RootTurn> {
        let mut out = Vec::new();
        for (turn, a) in self.root_edges() {
            let an = &self.nodes[a as usize];
            let visits = self.stats.visits(a);
            if visits == 0 {
                continue;
            }
            let proof = if self.config.solver { an.proof } else { None };
            out.push(RootTurn { turn, visits: u64::from(visits), value: f64::from(self.stats.value(a)), proof });
        }
        out
    }

    /// The principal variation after `first`: the most visited turns below it.
    pub fn principal_variation(&self, first: Turn, max_len: usize) -> Vec<Move> {
        let mut pv = vec![Move::Turn(first)];
        let mut node = self.root;
        let mut turn = first;
        while pv.len() <= max_len {
            let Some(b) = self.find_child(node, |n| n.shooter_move == turn.shooter_move()) else { break };
            let Some(a) = self.find_child(b, |n| n.shot == Some(turn.shot())) else { break };
            node = a;
            let Some(nb) = self.most_visited(node) else { break };
            let Some(na) = self.most_visited(nb) else { break };
            let Some(shot) = self.nodes[na as usize].shot else { break };
            turn = Turn::new(self.nodes[nb as usize].shooter_move, shot);
            if pv.len() >= max_len {
                break;
            }
            pv.push(Move::Turn(turn));
        }
        pv
    }

    fn most_visited(&self, node: u32) -> Option<u32> {
        let n = &self.nodes[node as usize];
        if !n.expanded || n.children == 0 {
            return None;
        }
        (n.first_child..n.first_child + u32::from(n.children))
            .filter(|&c| self.stats.visits(c) > 0)
            .max_by_key(|&c| self.stats.visits(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIN2: &str = include_str!("../../data/win2.txt");

    fn config() -> MctsConfig {
        MctsConfig {
            baseline: false,
            exploration: 1.4,
            cutoff: 4,
            prior_temperature: 0.04,
            max_nodes: 1 << 20,
            expand_visits: 4,
            solver: true,
            eval: Evaluation::Hand,
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
        let n = &tree.nodes[node as usize];
        let mut checked = 0;
        if let Some(p) = n.proof
            && p.turns <= 2
        {
            assert!(forced_within(pos, p.winner, u32::from(p.turns)), "{pos}: {p:?}");
            checked += 1;
        }
        if !n.expanded {
            return checked;
        }
        for b in n.first_child..n.first_child + u32::from(n.children) {
            let bn = &tree.nodes[b as usize];
            if !bn.expanded {
                continue;
            }
            for a in bn.first_child..bn.first_child + u32::from(bn.children) {
                let an = &tree.nodes[a as usize];
                if let Some(shot) = an.shot
                    && (tree.stats.visits(a) > 0 || an.proof.is_some())
                {
                    checked += check(tree, a, &after(pos, Turn::new(bn.shooter_move, shot)));
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
            let mut tree = Tree::new(config(), pos.clone());
            for _ in 0..100_000 {
                if tree.is_settled() {
                    break;
                }
                tree.iterate(&mut rng);
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
        let mut tree = Tree::new(MctsConfig { solver: false, ..config() }, pos);
        let mut rng = Rng::new(1);
        for _ in 0..5_000 {
            tree.iterate(&mut rng);
        }
        assert!(tree.nodes.iter().all(|n| n.proof.is_none_or(|p| p.turns == 1)));
        assert!(tree.root_proof().is_none() && tree.root_turns().iter().all(|t| t.proof.is_none()));
    }
}
