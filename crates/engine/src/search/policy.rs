//! The learned move policy: prior probabilities for the first step of a turn, the
//! shooter move or none, from cheap features of each move ([`MoveContext::features`]) and
//! a softmax over them, with one weight vector per rule family (classic, modern). The
//! weights are data (`crates/engine/data/policy-weights.txt`), fitted by
//! `crates/engine/examples/train_policy.rs` to the root visits of self-play searches (docs/learning.md).
//!
//! A feature vector describes what the move does to its shooter: how free it stands
//! before and after (empty neighbours, and the squares it reaches, which is what traps it
//! in the modern rules), whose groups it leaves and reaches (the claim goes to the
//! biggest group touching it), and where it lands. The no-move choice has only its own
//! indicator, so its weight is its share against the moves' scores.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::net::accumulator::Kernels;
use crate::net::inputs::Planes;
use crate::net::policy_net::{HEADS, PolicyNetWeights, QuantizedPolicyNet, STAY, from_head, to_head};
use crate::search::eval::LoadWeightsError;
use crate::search::linear_file::{FAMILY_NAMES, LinearFileError, LinearFormat, read_linear};
use veletas_rules::record::{MAX_SMALL_FILE_BYTES, read_bounded};
use veletas_rules::{Bitboard, Color, Position, Square, group_of};

/// The number of features of a move.
pub const MOVE_FEATURES: usize = 19;

/// The features' names, in order (the weights file names them).
pub const MOVE_FEATURE_NAMES: [&str; MOVE_FEATURES] = [
    "stay",
    "from_free",
    "to_free",
    "to_free0",
    "to_free1",
    "from_free01",
    "own_from",
    "opp_from",
    "own_to",
    "opp_to",
    "lead_from",
    "lead_to",
    "reach_from",
    "reach_to",
    "reach_to0",
    "distance",
    "edge_to",
    "shooters_near_to",
    "own_near_to",
];

/// The features of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveFeatures(pub [f64; MOVE_FEATURES]);

/// What every move of a position shares, computed once: the side to move, the empty
/// squares, and for each colour the size of the group on each square.
pub struct MoveContext {
    side: Color,
    empty: Bitboard,
    edge: Bitboard,
    stones: [Bitboard; 2],
    /// Group size by square index, per colour (0: no stone of that colour).
    group: [[u8; 128]; 2],
}

/// A group size as a feature: saturating at 16 stones, over 8.
fn size_feature(size: u32) -> f64 {
    f64::from(size.min(16)) / 8.0
}

/// The from-square part of a move's features (see [`MoveContext::leaving_facts`]).
#[derive(Clone, Copy, Debug)]
struct FromFacts {
    free: u32,
    own: u32,
    opp: u32,
    reach: u32,
}

/// The features of the no-move choice: its indicator alone.
fn stay_features() -> MoveFeatures {
    let mut f = [0.0; MOVE_FEATURES];
    f[0] = 1.0;
    MoveFeatures(f)
}

impl MoveContext {
    /// The context of `pos`'s moves.
    pub fn new(pos: &Position) -> MoveContext {
        let mut group = [[0u8; 128]; 2];
        let stones = [pos.stones(Color::Black), pos.stones(Color::White)];
        for color in Color::ALL {
            let mut todo = stones[color.index()];
            while let Some(start) = todo.first() {
                let g = group_of(start, stones[color.index()]);
                let size = g.count().min(255) as u8;
                for sq in g {
                    group[color.index()][sq.index()] = size;
                }
                todo &= !g;
            }
        }
        let board = pos.variant().board();
        let interior = pos.variant().interior();
        MoveContext { side: pos.side_to_move(), empty: pos.empty_squares(), edge: board & !interior, stones, group }
    }

    /// The biggest group of `color` orthogonally next to `sq`.
    fn biggest_next_to(&self, sq: Square, color: Color) -> u32 {
        let mut best = 0;
        for n in sq.orthogonal_neighbours() & self.stones[color.index()] {
            best = best.max(u32::from(self.group[color.index()][n.index()]));
        }
        best
    }

    /// The features of `mv` (a shooter's move from, to; `None` for no move) in `pos`,
    /// the position this context was made from.
    pub fn features(&self, pos: &Position, mv: Option<(Square, Square)>) -> MoveFeatures {
        match mv {
            None => stay_features(),
            Some((from, to)) => self.move_features(pos, from, to, &self.leaving_facts(pos, from)),
        }
    }

    /// What the features read of the square a move leaves: the same for every move of
    /// one shooter, so [`PolicyModel::priors`] reads it once per shooter.
    fn leaving_facts(&self, pos: &Position, from: Square) -> FromFacts {
        let (own, opp) = (self.side, !self.side);
        FromFacts {
            free: (from.neighbours() & self.empty).count(),
            own: self.biggest_next_to(from, own),
            opp: self.biggest_next_to(from, opp),
            reach: pos.reach_count(from),
        }
    }

    /// The features of the move `from`-`to`, `facts` being [`MoveContext::leaving_facts`]
    /// of `from`.
    fn move_features(&self, pos: &Position, from: Square, to: Square, facts: &FromFacts) -> MoveFeatures {
        let mut f = [0.0; MOVE_FEATURES];
        let (own, opp) = (self.side, !self.side);
        let empty_after = (self.empty | from.bitboard()) & !to.bitboard();
        let from_free = facts.free;
        let to_free = (to.neighbours() & empty_after).count();
        f[1] = f64::from(from_free) / 8.0;
        f[2] = f64::from(to_free) / 8.0;
        f[3] = f64::from(u8::from(to_free == 0));
        f[4] = f64::from(u8::from(to_free == 1));
        f[5] = f64::from(u8::from(from_free <= 1));
        let (own_from, opp_from) = (facts.own, facts.opp);
        let (own_to, opp_to) = (self.biggest_next_to(to, own), self.biggest_next_to(to, opp));
        f[6] = size_feature(own_from);
        f[7] = size_feature(opp_from);
        f[8] = size_feature(own_to);
        f[9] = size_feature(opp_to);
        // A claim now would go to the bigger group; a tie to the opponent of the mover.
        let lead = |own: u32, opp: u32| if own > opp { 1.0 } else { -1.0 };
        f[10] = lead(own_from, opp_from);
        f[11] = lead(own_to, opp_to);
        f[12] = f64::from(facts.reach) / 16.0;
        let reach_to = pos.shots_after_move_count(from, to);
        f[13] = f64::from(reach_to) / 16.0;
        f[14] = f64::from(u8::from(reach_to <= 1));
        let distance = from.file().abs_diff(to.file()).max(from.rank().abs_diff(to.rank()));
        f[15] = f64::from(distance) / 8.0;
        f[16] = f64::from(u8::from(self.edge.contains(to)));
        f[17] = f64::from((to.neighbours() & pos.shooters() & !from.bitboard()).count()) / 4.0;
        f[18] = f64::from((to.neighbours() & self.stones[own.index()]).count()) / 8.0;
        MoveFeatures(f)
    }
}

/// The policy's weights: one vector for the classic rules, one for the modern rules.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyModel {
    /// Weights by rule family: `[classic, modern]`, in feature order.
    pub weights: [[f64; MOVE_FEATURES]; 2],
}

/// The rule family's index in [`PolicyModel::weights`], as in the evaluation's weights.
pub use super::eval::family;

impl PolicyModel {
    /// The model whose priors are uniform over the moves, with `stay` for the no-move
    /// choice's share when there are `moves` moves (the search's old priors, for
    /// comparisons).
    pub fn zero() -> PolicyModel {
        PolicyModel { weights: [[0.0; MOVE_FEATURES]; 2] }
    }

    /// A move's score (its log-prior up to a constant).
    pub fn score(&self, family: usize, features: &MoveFeatures) -> f64 {
        self.weights[family].iter().zip(features.0.iter()).map(|(w, f)| w * f).sum::<f64>().clamp(-50.0, 50.0)
    }

    /// Reads `FAMILY NAME WEIGHT` lines (`classic` or `modern`; `#` comments and blank
    /// lines skipped); every feature of both families must be given once.
    pub fn parse(text: &str) -> Result<PolicyModel, LinearFileError> {
        let format = LinearFormat {
            what: "policy weights",
            model: "move policy",
            names: &MOVE_FEATURE_NAMES,
            shared_lines: false,
            bound: Some(1e3),
        };
        Ok(PolicyModel { weights: read_linear(text, &format)? })
    }

    /// The model as a weights file.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, weights) in FAMILY_NAMES.iter().zip(self.weights.iter()) {
            for (feature, w) in MOVE_FEATURE_NAMES.iter().zip(weights.iter()) {
                out.push_str(&format!("{name} {feature} {w:.6}\n"));
            }
        }
        out
    }

    /// The priors of `moves` in `pos` (summing to 1), into `out`.
    pub fn priors(&self, pos: &Position, moves: &[Option<(Square, Square)>], out: &mut Vec<f32>) {
        self.priors_with(pos, moves, out, None);
    }

    /// [`PolicyModel::priors`] with a policy network's heads added to the scores
    /// ([`crate::net::policy_net`]).
    pub fn priors_with(
        &self,
        pos: &Position,
        moves: &[Option<(Square, Square)>],
        out: &mut Vec<f32>,
        net: Option<&QuantizedPolicyNet>,
    ) {
        out.clear();
        let mut heads = [0.0f32; HEADS];
        if let Some(net) = net {
            net.heads(&Planes::of(pos), &mut heads);
        }
        let context = MoveContext::new(pos);
        let family = family(pos);
        let mut best = f64::MIN;
        let mut scores = Vec::with_capacity(moves.len());
        let mut from_facts: Option<(Square, FromFacts)> = None;
        for &mv in moves {
            let features = match mv {
                None => stay_features(),
                Some((from, to)) => {
                    // The moves of one shooter come together: its facts are read once.
                    let facts = match from_facts {
                        Some((sq, facts)) if sq == from => facts,
                        _ => {
                            let facts = context.leaving_facts(pos, from);
                            from_facts = Some((from, facts));
                            facts
                        }
                    };
                    context.move_features(pos, from, to, &facts)
                }
            };
            let mut s = self.score(family, &features);
            if net.is_some() {
                s += f64::from(match mv {
                    None => heads[STAY],
                    Some((from, to)) => heads[from_head(from.index())] + heads[to_head(to.index())],
                });
            }
            best = best.max(s);
            scores.push(s);
        }
        // Each move's exponential once (the same numbers, summed in the same order).
        for s in scores.iter_mut() {
            *s = (*s - best).exp();
        }
        let total: f64 = scores.iter().sum();
        out.extend(scores.iter().map(|e| (e / total) as f32));
    }
}

/// The learned policy built into the binary (`crates/engine/data/policy-weights.txt`).
pub const POLICY_WEIGHTS: &str = include_str!("../../data/policy-weights.txt");

/// The built-in policy, parsed once (should the file not parse, which a test rules out,
/// uniform priors stand in).
pub fn builtin_policy() -> &'static PolicyModel {
    builtin_weights().model()
}

fn builtin_weights() -> &'static Arc<PolicyWeights> {
    static WEIGHTS: OnceLock<Arc<PolicyWeights>> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        let model = PolicyModel::parse(POLICY_WEIGHTS).unwrap_or_else(|e| {
            log::error!("{e}");
            PolicyModel::zero()
        });
        Arc::new(PolicyWeights { model, net: None, file: None })
    })
}

/// The move policy's weights in force, and the file they were read from (`None`: the
/// built-in ones). They travel with the search's settings, as the evaluation's do.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyWeights {
    model: PolicyModel,
    /// A policy network correcting the model's scores (a policy network file's).
    net: Option<QuantizedPolicyNet>,
    file: Option<String>,
}

impl PolicyWeights {
    /// The built-in weights (`crates/engine/data/policy-weights.txt`).
    pub fn builtin() -> Arc<PolicyWeights> {
        Arc::clone(builtin_weights())
    }

    /// The model.
    pub fn model(&self) -> &PolicyModel {
        &self.model
    }

    /// The file the weights were read from; `None` for the built-in ones.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// Whether a policy network corrects the model.
    pub fn has_net(&self) -> bool {
        self.net.is_some()
    }

    /// The priors of `moves` in `pos` (summing to 1), into `out`: the model's, corrected
    /// by the policy network when there is one.
    pub fn priors(&self, pos: &Position, moves: &[Option<(Square, Square)>], out: &mut Vec<f32>) {
        self.model.priors_with(pos, moves, out, self.net.as_ref());
    }
}

impl std::fmt::Display for PolicyWeights {
    /// `builtin`, or the file's path.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.file.as_deref().unwrap_or("builtin"))
    }
}

/// Reads a weights file of `veletas train-policy -o FILE` (at most
/// [`MAX_SMALL_FILE_BYTES`], every feature of both rule families given once): what
/// `--policy FILE` and the protocol's `policy FILE` do.
pub fn load_policy(path: &Path) -> Result<Arc<PolicyWeights>, LoadWeightsError> {
    let text = read_bounded(path, MAX_SMALL_FILE_BYTES)?;
    let file = Some(path.display().to_string());
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.starts_with("veletas-policy-net")) {
        let parsed = PolicyNetWeights::parse(&text).map_err(LoadWeightsError::PolicyNet)?;
        let model = PolicyModel::parse(&parsed.base).map_err(LoadWeightsError::NetBase)?;
        let net = Some(QuantizedPolicyNet::new(&parsed.weights, Kernels::detect()));
        return Ok(Arc::new(PolicyWeights { model, net, file }));
    }
    let model = PolicyModel::parse(&text)?;
    Ok(Arc::new(PolicyWeights { model, net: None, file }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::{Rng, Turn};

    fn moves_of(pos: &Position) -> Vec<Option<(Square, Square)>> {
        let mut moves = vec![None];
        for from in pos.shooters() {
            moves.extend(pos.shooter_reach(from).iter().map(|to| Some((from, to))));
        }
        moves
    }

    #[test]
    fn the_built_in_weights_parse_and_round_trip() {
        let model = PolicyModel::parse(POLICY_WEIGHTS).unwrap();
        assert_eq!(PolicyModel::parse(&model.to_text()).unwrap(), model);
        assert!(
            PolicyModel::parse("classic stay 1\n")
                .unwrap_err()
                .to_string()
                .contains("no classic weight for 'from_free'")
        );
        assert!(PolicyModel::parse("odd stay 1\n").unwrap_err().to_string().contains("unknown rule family"));
        assert!(PolicyModel::parse("classic stay inf\n").unwrap_err().to_string().contains("bad weight"));
    }

    #[test]
    fn priors_sum_to_one_and_zero_weights_are_uniform() {
        let mut rng = Rng::new(3);
        let mut pos: Position = "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b".parse().unwrap();
        let mut out = Vec::new();
        for _ in 0..30 {
            if pos.is_over() {
                break;
            }
            let moves = moves_of(&pos);
            builtin_policy().priors(&pos, &moves, &mut out);
            assert_eq!(out.len(), moves.len());
            assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            PolicyModel::zero().priors(&pos, &moves, &mut out);
            assert!(out.iter().all(|&p| (p - 1.0 / moves.len() as f32).abs() < 1e-6));
            let turn: Turn = pos.random_turn(&mut rng, veletas_rules::PlayoutPolicy::Uniform).unwrap();
            pos.play_turn_unchecked(turn);
        }
    }

    #[test]
    fn features_say_what_the_move_does_to_its_shooter() {
        // 7x7: the shooter on a1 stands next to Black's stones b1 and b2, a2 its one
        // empty neighbour; it can only move up the a-file.
        let pos: Position = "7/7/2s4/7/4s2/1b5/sb5 b".parse().unwrap();
        let context = MoveContext::new(&pos);
        let square = |name: &str| -> Square { name.parse().unwrap() };
        let f = context.features(&pos, Some((square("a1"), square("a4")))).0;
        assert_eq!(f[0], 0.0);
        assert_eq!(f[1], 1.0 / 8.0); // a2 free around a1
        assert_eq!(f[2], 5.0 / 8.0); // a3, a5, b3, b4, b5 free around a4
        assert_eq!(f[5], 1.0); // it was in danger
        assert_eq!(f[6], 2.0 / 8.0); // Black's group b1-b2 touches a1
        assert_eq!((f[8], f[9]), (0.0, 0.0));
        assert_eq!((f[10], f[11]), (1.0, -1.0)); // Black would claim it on a1, not on a4
        assert_eq!(f[15], 3.0 / 8.0);
        assert_eq!(f[16], 1.0);
        // One step up keeps it next to the group and frees a1.
        let g = context.features(&pos, Some((square("a1"), square("a2")))).0;
        assert_eq!(g[2], 3.0 / 8.0); // a1, a3, b3
        assert_eq!(g[8], 2.0 / 8.0);
        assert_eq!(g[18], 2.0 / 8.0);
        let stay = context.features(&pos, None).0;
        assert_eq!(stay[0], 1.0);
        assert!(stay[1..].iter().all(|&x| x == 0.0));
    }
}
