//! Static evaluation: how likely Black is to win a position, from its claims and the
//! state of each unclaimed shooter.
//!
//! Two evaluations share one pass over the shooters: the hand-written one ([`evaluate`]),
//! and a learned one ([`Evaluation::Learned`]): a logistic model over [`Features`] (the
//! hand-written logit among them) whose weights are learned from game outcomes
//! (`veletas train-eval`, docs/learning.md) and read from `data/eval-weights.txt`.

use std::sync::OnceLock;

use crate::rules::{Bitboard, Color, Position, group_of};

/// Which static evaluation the search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-written evaluation.
    #[default]
    Hand,
    /// The learned logistic model (`data/eval-weights.txt`).
    Learned,
}

impl std::str::FromStr for Evaluation {
    type Err = String;

    fn from_str(text: &str) -> Result<Evaluation, String> {
        match text {
            "hand" => Ok(Evaluation::Hand),
            "learned" => Ok(Evaluation::Learned),
            _ => Err(format!("unknown evaluation '{text}': use hand or learned")),
        }
    }
}

impl std::fmt::Display for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Evaluation::Hand => "hand",
            Evaluation::Learned => "learned",
        })
    }
}

/// Liberty buckets of the learned features: 1, 2, 3, 4, 5-6, 7 and more.
const BUCKETS: usize = 6;

fn bucket(libs: usize) -> usize {
    match libs {
        0 | 1 => 0,
        2 => 1,
        3 => 2,
        4 => 3,
        5 | 6 => 4,
        _ => 5,
    }
}

/// The number of features.
pub const FEATURES: usize = 4 + 2 * BUCKETS;

/// The names of the features, in order (the weights file uses them).
pub fn feature_names() -> [String; FEATURES] {
    let mut names: [String; FEATURES] = std::array::from_fn(|_| String::new());
    names[0] = "bias".into();
    names[1] = "hand_logit".into();
    names[2] = "claims".into();
    names[3] = "black_to_move".into();
    let labels = ["1", "2", "3", "4", "5_6", "7_plus"];
    for (b, label) in labels.iter().enumerate() {
        names[4 + b] = format!("control_libs_{label}");
        names[4 + BUCKETS + b] = format!("tempo_libs_{label}");
    }
    names
}

/// A position's features, from Black's point of view: a bias, the hand-written
/// evaluation's logit, the claim difference, who moves, and per liberty bucket of the
/// unclaimed shooters the sum of `tanh(0.6 (black group - white group))` next to them
/// (control) and the number of them where the groups are level, signed by who moves
/// (tempo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features(pub [f64; FEATURES]);

/// How close a shooter with this many empty neighbours is to being claimed (index =
/// empty neighbours, 1..=8).
const IMMINENCE: [f64; 9] = [1.0, 0.95, 0.7, 0.5, 0.38, 0.3, 0.24, 0.2, 0.17];

/// Scale from expected claim difference to win probability.
const CLAIM_SCALE: f64 = 1.1;

/// The groups of one colour that touch some unclaimed shooter orthogonally, with sizes.
struct Groups {
    list: [(Bitboard, u32); 32],
    len: usize,
}

impl Groups {
    fn touching_shooters(pos: &Position, color: Color) -> Groups {
        let stones = pos.stones(color);
        let mut todo = pos.shooters().orthogonal_neighbours() & stones;
        let mut groups = Groups { list: [(Bitboard::EMPTY, 0); 32], len: 0 };
        while let Some(start) = todo.first() {
            let group = group_of(start, stones);
            todo &= !group;
            if groups.len < groups.list.len() {
                groups.list[groups.len] = (group, group.count());
                groups.len += 1;
            }
        }
        groups
    }

    /// The size of the biggest group with a stone among `adjacent`.
    fn biggest_touching(&self, adjacent: Bitboard) -> u32 {
        self.list[..self.len].iter().filter(|(g, _)| !(*g & adjacent).is_empty()).map(|&(_, n)| n).max().unwrap_or(0)
    }
}

/// tanh, closely enough for a heuristic and much cheaper than the library's.
fn fast_tanh(x: f64) -> f64 {
    if x >= 3.0 {
        1.0
    } else if x <= -3.0 {
        -1.0
    } else {
        x * (27.0 + x * x) / (27.0 + 9.0 * x * x)
    }
}

/// One pass over the shooters: the hand-written evaluation's logit and the features.
/// `None` once the game is over.
pub fn analyse(pos: &Position) -> Option<(f64, Features)> {
    if pos.winner().is_some() {
        return None;
    }
    let side = pos.side_to_move();
    let empty = pos.empty_squares();
    let modern = pos.rules().is_modern();
    let mut f = [0.0; FEATURES];
    let mut expected_black = f64::from(pos.claims(Color::Black));
    let mut expected_white = f64::from(pos.claims(Color::White));
    f[0] = 1.0;
    f[2] = expected_black - expected_white;
    let to_move = if side == Color::Black { 1.0 } else { -1.0 };
    f[3] = to_move;
    let groups = [Groups::touching_shooters(pos, Color::Black), Groups::touching_shooters(pos, Color::White)];
    for shooter in pos.shooters() {
        // Classic: empty neighbours; modern: reachable squares (trapped at none).
        let libs = if modern {
            pos.shooter_reach(shooter).count() as usize
        } else {
            (shooter.bitboard().neighbours() & empty).count() as usize
        };
        let adjacent = shooter.bitboard().orthogonal_neighbours();
        let [black, white] = [groups[0].biggest_touching(adjacent), groups[1].biggest_touching(adjacent)];
        let b = bucket(libs);
        f[4 + b] += fast_tanh(0.6 * (f64::from(black) - f64::from(white)));
        if black == white {
            f[4 + BUCKETS + b] += to_move;
        }
        let (mine, theirs) = if side == Color::Black { (black, white) } else { (white, black) };
        // Probability that the side to move ends up with this shooter.
        let p_side = if libs <= 1 {
            // The side to move closes it when that wins it; otherwise the opponent will.
            if mine > theirs {
                0.95
            } else if theirs > mine {
                0.2
            } else {
                0.5
            }
        } else {
            let diff = f64::from(mine) - f64::from(theirs) + 0.5; // the move is worth a stone
            0.5 + 0.5 * fast_tanh(0.6 * diff) * IMMINENCE[libs.min(8)]
        };
        let p_black = if side == Color::Black { p_side } else { 1.0 - p_side };
        expected_black += p_black;
        expected_white += 1.0 - p_black;
    }
    let need = f64::from(pos.variant().claims_to_win());
    // Both near a majority: the difference matters more.
    let urgency = 1.0 + 0.5 * ((expected_black.max(expected_white) - need + 1.5).max(0.0));
    let logit = CLAIM_SCALE * urgency * (expected_black - expected_white);
    f[1] = logit;
    Some((logit, Features(f)))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The probability that Black wins, in `(0, 1)`, or exactly 0 or 1 once the game is over
/// (the hand-written evaluation).
pub fn evaluate(pos: &Position) -> f64 {
    evaluate_with(pos, Evaluation::Hand)
}

/// The probability that Black wins by evaluation `kind`.
pub fn evaluate_with(pos: &Position, kind: Evaluation) -> f64 {
    match analyse(pos) {
        None => {
            if pos.winner() == Some(Color::Black) {
                1.0
            } else {
                0.0
            }
        }
        Some((logit, features)) => match kind {
            Evaluation::Hand => sigmoid(logit),
            Evaluation::Learned => sigmoid(learned_model().logit(&features)),
        },
    }
}

/// Weights of the learned evaluation: one per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalModel {
    /// The weights, in feature order.
    pub weights: [f64; FEATURES],
}

impl EvalModel {
    /// The model's logit for `features`.
    pub fn logit(&self, features: &Features) -> f64 {
        self.weights.iter().zip(features.0.iter()).map(|(w, f)| w * f).sum::<f64>().clamp(-30.0, 30.0)
    }

    /// Reads `NAME WEIGHT` lines (`#` comments and blank lines skipped); every feature
    /// must be given once.
    pub fn parse(text: &str) -> Result<EvalModel, String> {
        let names = feature_names();
        let mut weights = [f64::NAN; FEATURES];
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |what: String| format!("weights line {}: {what}", n + 1);
            let (name, value) =
                line.split_once(char::is_whitespace).ok_or_else(|| err("expected NAME WEIGHT".into()))?;
            let index = names.iter().position(|x| x == name).ok_or_else(|| err(format!("unknown feature '{name}'")))?;
            if !weights[index].is_nan() {
                return Err(err(format!("'{name}' given twice")));
            }
            weights[index] = value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|w| w.is_finite())
                .ok_or_else(|| err(format!("bad weight '{}'", value.trim())))?;
        }
        if let Some(missing) = weights.iter().position(|w| w.is_nan()) {
            return Err(format!("weights: no weight for '{}'", names[missing]));
        }
        Ok(EvalModel { weights })
    }

    /// The model as a weights file.
    pub fn to_text(&self) -> String {
        feature_names().iter().zip(self.weights.iter()).map(|(n, w)| format!("{n} {w:.6}\n")).collect()
    }
}

/// The learned weights built into the binary (`data/eval-weights.txt`).
pub const LEARNED_WEIGHTS: &str = include_str!("../../data/eval-weights.txt");

/// The learned model, parsed once from [`LEARNED_WEIGHTS`] (a file a test checks; should
/// it not parse, the hand-written evaluation's weights stand in).
pub fn learned_model() -> &'static EvalModel {
    static MODEL: OnceLock<EvalModel> = OnceLock::new();
    MODEL.get_or_init(|| {
        EvalModel::parse(LEARNED_WEIGHTS).unwrap_or_else(|e| {
            log::error!("{e}");
            let mut weights = [0.0; FEATURES];
            weights[1] = 1.0;
            EvalModel { weights }
        })
    })
}

/// The evaluation from the point of view of `color`.
pub fn evaluate_for(pos: &Position, color: Color) -> f64 {
    let p = evaluate(pos);
    if color == Color::Black { p } else { 1.0 - p }
}
