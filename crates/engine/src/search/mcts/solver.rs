//! The solver of the tree search (ours, [`super::MctsConfig::solver`]; MCTS-solver
//! after Winands, Björnsson and Saito, 2008): a node whose outcome is certain carries a
//! [`Proven`] result, the winner and the turns left until the game ends. Colours are
//! absolute, so the split turn needs no care about whose view a level has: at a
//! move-choice node and at the shot-choice nodes below it the same player acts. A node
//! is won by its actor as soon as one child is (the fewest turns among those known),
//! and lost once every child is lost (the most turns). Proofs come from the leaves:
//! finished games, immediate wins (checked when a node is first reached), and they are
//! backed up along the path of each playout. Selection skips children lost for the
//! actor; a playout that reaches a proven node scores its exact result. Proofs are
//! facts about positions, so they survive tree reuse, and the threads searching one
//! tree prove together (a proof is written once and never changes, except a won root's,
//! which only gets faster).

use std::sync::atomic::Ordering;

use super::{Proven, Tree, Workspace};
#[cfg(doc)]
use crate::search::tactics::winning_turn;
use veletas_rules::{Color, Turn};

impl Tree {
    pub(super) fn prove_immediate_win(&self, node: u32, side: Color) {
        let n = self.node(node);
        n.set_proof(Proven::new(side, 1));
        // A won node needs no children: playouts stop there (unless another thread is
        // expanding it; that thread finds the win too).
        n.close();
    }

    /// Proves what the last playout's path allows, from its end up: a node whose child
    /// was just proven may be proven in turn.
    pub(super) fn back_up_proofs(&self, ws: &Workspace) {
        let root_side = self.root_position.side_to_move();
        for i in (0..ws.path.len()).rev() {
            let id = ws.path[i];
            let n = self.node(id);
            if i == 0 && self.seeking_faster() {
                // A won root takes the fastest win among its children.
                if let Some(p) = self.proof_from_children(id, root_side, false)
                    && let Some(old) = n.proof()
                    && p.winner == root_side
                    && p.turns < old.turns
                {
                    n.replace_proof(old, p);
                }
                continue;
            }
            if n.proof().is_some() {
                continue;
            }
            // path[0] is the root (move choice), path[1] its shot choice, path[2] the next
            // move choice (the opponent's), and so on: the actor changes every two levels.
            let actor = if (i / 2) % 2 == 0 { root_side } else { !root_side };
            let shot_choice = i % 2 == 1;
            match self.proof_from_children(id, actor, shot_choice) {
                Some(p) => n.set_proof(p),
                None => break,
            }
        }
    }

    /// The proof of an expanded node from its children's: won by `actor` when a child is
    /// (fewest turns), lost when every child is lost (most turns).
    pub(super) fn proof_from_children(&self, id: u32, actor: Color, shot_choice: bool) -> Option<Proven> {
        let (_, children) = self.children(&self.node(id));
        if children.is_empty() {
            return None;
        }
        let extra = u32::from(shot_choice);
        let mut fastest_win: Option<u32> = None;
        let mut slowest_loss = 0;
        let mut all_lost = true;
        for child in children {
            match child.proof() {
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
    pub(super) fn seeking_faster(&self) -> bool {
        let side = self.root_position.side_to_move();
        self.config.solver
            && !self.exhausted.load(Ordering::Relaxed)
            && self.root_proof().is_some_and(|p| p.winner == side && p.turns > 3)
    }

    /// Whether the search of this tree is over: the root is proven (and no faster win
    /// is being looked for).
    pub fn is_settled(&self) -> bool {
        self.root_proof().is_some() && !self.seeking_faster()
    }

    /// The root's outcome, once proven.
    pub fn root_proof(&self) -> Option<Proven> {
        self.node(self.root).proof()
    }

    /// The turn to play at a proven root: the fastest win, or the longest loss (then the
    /// most visited among equals); `None` when the root is not proven or was won without
    /// children (an immediate win, found by [`winning_turn`]).
    pub fn proven_turn(&self) -> Option<(Turn, Proven)> {
        let root_proof = self.root_proof()?;
        let side = self.root_position.side_to_move();
        let mut best: Option<(Turn, Proven, u32)> = None;
        for (turn, a) in self.root_edges() {
            let an = self.node(a);
            let Some(p) = an.proof() else { continue };
            let better = match best {
                None => true,
                Some((bt, bp, bv)) => {
                    // Among equals the first turn in notation order (not the tree's order).
                    let first = (turn.shooter_move(), turn.shot()) < (bt.shooter_move(), bt.shot());
                    if root_proof.winner == side {
                        p.winner == side && (bp.winner != side || p.turns < bp.turns || (p.turns == bp.turns && first))
                    } else {
                        p.turns > bp.turns
                            || (p.turns == bp.turns && (an.visits() > bv || (an.visits() == bv && first)))
                    }
                }
            };
            if better && (root_proof.winner != side || p.winner == side) {
                best = Some((turn, p, an.visits()));
            }
        }
        best.map(|(t, p, _)| (t, Proven::new(p.winner, u32::from(p.turns) + 1)))
    }
}
