//! Monte Carlo tree search over the split turn: first the shooter move (or none), then
//! the shot. Two configurations share the tree: the plain UCT baseline (uniform
//! expansion, UCB1, uniform random playouts to the end) and our engine (priors from the
//! evaluation, PUCT, playouts cut off and scored by the evaluation, immediate wins solved).

use crate::rules::{Color, Move, PlayoutPolicy, Position, Rng, Square, Turn};
use crate::search::eval::{Evaluation, evaluate_with};
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
    /// The side to move here has a turn that wins at once.
    proven_win: bool,
    visits: u32,
    /// Sum of rewards for the player who chose the edge into this node.
    value: f32,
    prior: f32,
}

impl Node {
    fn new(shooter_move: Option<(Square, Square)>, shot: Option<Square>, prior: f32) -> Node {
        Node {
            shooter_move,
            shot,
            first_child: 0,
            children: 0,
            expanded: false,
            proven_win: false,
            visits: 0,
            value: 0.0,
            prior,
        }
    }

    fn mean(&self) -> f32 {
        if self.visits == 0 { 0.5 } else { self.value / self.visits as f32 }
    }
}

/// A complete turn at the root with its statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RootTurn {
    /// The turn.
    pub turn: Turn,
    /// Playouts through it.
    pub visits: u64,
    /// Summed rewards for the side to move.
    pub value: f64,
}

/// A search tree rooted at a position in play.
#[derive(Clone, Debug)]
pub struct Tree {
    config: MctsConfig,
    root_position: Position,
    nodes: Vec<Node>,
    root: u32,
    path: Vec<u32>,
    shots: Vec<(Square, f32)>,
}

impl Tree {
    /// An empty tree at `position`, which must be in play and not over.
    pub fn new(config: MctsConfig, position: Position) -> Tree {
        Tree {
            config,
            root_position: position,
            nodes: vec![Node::new(None, None, 1.0)],
            root: 0,
            path: Vec::with_capacity(64),
            shots: Vec::with_capacity(64),
        }
    }

    /// The root position.
    pub fn position(&self) -> &Position {
        &self.root_position
    }

    /// Playouts through the root.
    pub fn root_visits(&self) -> u64 {
        u64::from(self.nodes[self.root as usize].visits)
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
        true
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

    /// Runs one playout: select, expand, simulate, back up.
    pub fn iterate(&mut self, rng: &mut Rng) {
        let mut pos = self.root_position.clone();
        self.path.clear();
        let mut node = self.root;
        self.path.push(node);
        let value_black = loop {
            // A move-choice node: `pos` is the position, the side to move chooses.
            if let Some(winner) = pos.winner() {
                break if winner == Color::Black { 1.0 } else { 0.0 };
            }
            let side = pos.side_to_move();
            if !self.nodes[node as usize].expanded {
                let may_expand = node == self.root || self.nodes[node as usize].visits >= self.config.expand_visits;
                if may_expand && self.nodes.len() + 512 < self.config.max_nodes {
                    self.expand_moves(node, &pos);
                } else {
                    break self.simulate(&mut pos, rng);
                }
            }
            if self.nodes[node as usize].proven_win {
                break if side == Color::Black { 1.0 } else { 0.0 };
            }
            let b = self.select(node, rng);
            self.path.push(b);
            let shooter_move = self.nodes[b as usize].shooter_move;
            if !self.nodes[b as usize].expanded {
                self.expand_shots(b, &pos, shooter_move);
            }
            let a = self.select(b, rng);
            self.path.push(a);
            let Some(shot) = self.nodes[a as usize].shot else { break 0.5 };
            let turn = Turn::new(shooter_move, shot);
            pos.play_turn_unchecked(turn);
            node = a;
        };
        self.backup(value_black);
    }

    fn backup(&mut self, value_black: f64) {
        // Each edge is chosen by the side to move at the move-choice node above it.
        let mut chooser = self.root_position.side_to_move();
        for (depth, &id) in self.path.iter().enumerate() {
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            if depth > 0 {
                let reward = if chooser == Color::Black { value_black } else { 1.0 - value_black };
                node.value += reward as f32;
                if depth % 2 == 0 {
                    chooser = !chooser;
                }
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

    fn push_children(&mut self, parent: u32, children: impl Iterator<Item = Node>) {
        let first = self.nodes.len() as u32;
        self.nodes.extend(children);
        let count = (self.nodes.len() as u32 - first).min(u32::from(u16::MAX)) as u16;
        self.nodes.truncate(first as usize + count as usize);
        let p = &mut self.nodes[parent as usize];
        p.first_child = first;
        p.children = count;
        p.expanded = true;
    }

    fn expand_moves(&mut self, node: u32, pos: &Position) {
        if !self.config.baseline && winning_turn(pos).is_some() {
            self.nodes[node as usize].proven_win = true;
            self.nodes[node as usize].expanded = true;
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
        self.push_children(node, moves.into_iter().map(|m| Node::new(m, None, if m.is_none() { stay } else { other })));
    }

    fn expand_shots(&mut self, node: u32, pos: &Position, shooter_move: Option<(Square, Square)>) {
        let targets = match shooter_move {
            Some((from, to)) => pos.shots_after_move(from, to),
            None => pos.shooters().iter().fold(crate::rules::Bitboard::EMPTY, |acc, s| acc | pos.shooter_reach(s)),
        };
        self.shots.clear();
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
        self.push_children(node, shots.iter().map(|&(sq, prior)| Node::new(None, Some(sq), prior)));
        self.shots = shots;
    }

    fn select(&self, node: u32, rng: &mut Rng) -> u32 {
        let parent = &self.nodes[node as usize];
        let first = parent.first_child;
        let count = u32::from(parent.children);
        if self.config.baseline {
            // UCB1; unvisited children first, in random order.
            let unvisited = (first..first + count).filter(|&c| self.nodes[c as usize].visits == 0).count() as u32;
            if unvisited > 0 {
                let k = rng.below(unvisited);
                if let Some(c) = (first..first + count).filter(|&c| self.nodes[c as usize].visits == 0).nth(k as usize)
                {
                    return c;
                }
            }
            let log_n = (parent.visits.max(1) as f32).ln();
            return (first..first + count)
                .max_by(|&a, &b| {
                    let ucb = |c: u32| {
                        let n = &self.nodes[c as usize];
                        n.mean() + self.config.exploration * (log_n / n.visits as f32).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .unwrap_or(first);
        }
        let sqrt_n = (parent.visits as f32 + 1.0).sqrt();
        let mut best = first;
        let mut best_score = f32::MIN;
        for c in first..first + count {
            let n = &self.nodes[c as usize];
            let q = if n.visits == 0 { 0.35 } else { n.mean() };
            let score = q + self.config.exploration * n.prior * sqrt_n / (1.0 + n.visits as f32);
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        best
    }

    /// Every complete root turn that has been tried, with its statistics.
    pub fn root_turns(&self) -> Vec<RootTurn> {
        let mut out = Vec::new();
        let root = &self.nodes[self.root as usize];
        if root.proven_win {
            return out;
        }
        for b in root.first_child..root.first_child + u32::from(root.children) {
            let bn = &self.nodes[b as usize];
            if !bn.expanded {
                continue;
            }
            for a in bn.first_child..bn.first_child + u32::from(bn.children) {
                let an = &self.nodes[a as usize];
                if an.visits == 0 {
                    continue;
                }
                let Some(shot) = an.shot else { continue };
                let turn = Turn::new(bn.shooter_move, shot);
                out.push(RootTurn { turn, visits: u64::from(an.visits), value: f64::from(an.value) });
            }
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
            .filter(|&c| self.nodes[c as usize].visits > 0)
            .max_by_key(|&c| self.nodes[c as usize].visits)
    }
}
