//! Static evaluation: how likely Black is to win a position, from its claims and the
//! state of each unclaimed shooter.
//!
//! Two evaluations share one pass over the shooters: the hand-written one ([`evaluate`]),
//! and a learned one ([`StaticEval::Learned`]): a logistic model over [`Features`] (the
//! hand-written logit among them) whose weights are learned from game outcomes
//! (`veletas train-eval`, docs/learning.md): the built-in ones of
//! `crates/engine/data/eval-weights.txt`, or a weights file read at run time
//! ([`load_weights`]: `--eval FILE`, the protocol's `eval FILE`).
//!
//! The weights travel with the search's settings ([`StaticEval::Learned`] holds them in
//! an [`Arc`]): each engine, and each protocol session, has its own, and evaluating reads
//! them through a plain reference (no lock, no allocation).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::eval_model::{BUCKETS, bucket, builtin_weights};
use super::linear_file::LinearFileError;
use super::net_eval::{NetEval, NetEvalError};
use veletas_rules::record::{MAX_SMALL_FILE_BYTES, RecordFileError, read_bounded};
use veletas_rules::{Bitboard, Color, Position, Square, group_of, queen_reach};

pub use super::eval_model::{
    EvalModel, FAMILY_NAMES, FEATURES, Features, LEARNED_WEIGHTS, LearnedWeights, family, feature_names,
};

/// Which static evaluation the search uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum StaticEval {
    /// The hand-written evaluation.
    #[default]
    Hand,
    /// The learned logistic model with these weights ([`StaticEval::learned`]: the
    /// built-in ones; [`load_weights`]: a file's).
    Learned(Arc<LearnedWeights>),
    /// A value network on top of a learned logistic model ([`load_weights`] of a network
    /// file; [`crate::search::net_eval`]).
    Net(Arc<NetEval>),
}

impl StaticEval {
    /// The learned evaluation with the built-in weights.
    pub fn learned() -> StaticEval {
        StaticEval::Learned(Arc::clone(builtin_weights()))
    }

    /// The built-in value network on top of its linear model (`--eval net`), parsed once
    /// from [`VALUE_NET`]; `None` should the file not parse (which a test rules out).
    pub fn net() -> Option<StaticEval> {
        static NET: OnceLock<Option<Arc<NetEval>>> = OnceLock::new();
        NET.get_or_init(|| match NetEval::parse(VALUE_NET, None) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                log::error!("the built-in value network: {e}");
                None
            }
        })
        .as_ref()
        .map(|net| StaticEval::Net(Arc::clone(net)))
    }
}

/// The value network built into the binary (`crates/engine/data/value-net.txt`).
pub const VALUE_NET: &str = include_str!("../../data/value-net.txt");

impl std::str::FromStr for StaticEval {
    type Err = EvalNameError;

    fn from_str(text: &str) -> Result<StaticEval, EvalNameError> {
        match text {
            "hand" => Ok(StaticEval::Hand),
            "learned" => Ok(StaticEval::learned()),
            "net" => StaticEval::net().ok_or(EvalNameError::NoNet),
            _ => Err(EvalNameError::Unknown(text.to_string())),
        }
    }
}

/// A text that names no built-in evaluation ([`StaticEval`]'s parser).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalNameError {
    /// `net`, in a build whose value network does not parse.
    #[error("the built-in value network does not parse")]
    NoNet,
    /// Neither hand, learned nor net.
    #[error("unknown evaluation '{0}': use hand, learned or net")]
    Unknown(String),
}

impl std::fmt::Display for StaticEval {
    /// `hand`, `learned` (the built-in weights) or `learned FILE` (a file's weights).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StaticEval::Hand => f.write_str("hand"),
            StaticEval::Learned(weights) => match weights.file() {
                None => f.write_str("learned"),
                Some(file) => write!(f, "learned {file}"),
            },
            StaticEval::Net(net) => match net.file() {
                None => f.write_str("net"),
                Some(file) => write!(f, "net {file}"),
            },
        }
    }
}

/// Why a weights file cannot be the learned evaluation's (nothing changes).
#[derive(Debug, thiserror::Error)]
pub enum LoadWeightsError {
    /// The file cannot be read: missing, no regular file, too big, not UTF-8.
    #[error("cannot read the weights file: {0}")]
    Read(#[from] RecordFileError),
    /// The text is no set of weights for this build's features.
    #[error(transparent)]
    Parse(#[from] LinearFileError),
    /// The text is a network file, and a bad one.
    #[error("{0}")]
    Net(#[from] NetEvalError),
    /// The text is a policy network file, and a bad one.
    #[error("{0}")]
    PolicyNet(#[source] crate::net::NetFileError),
    /// The policy network file's base policy is no set of weights for this build's features.
    #[error("the network's base policy: {0}")]
    NetBase(#[source] LinearFileError),
}

/// Reads a weights file of `veletas train-eval -o FILE` (at most
/// [`MAX_SMALL_FILE_BYTES`]) as the learned evaluation with its weights: what
/// `--eval FILE` and the protocol's `eval FILE` do.
pub fn load_weights(path: &Path) -> Result<StaticEval, LoadWeightsError> {
    let text = read_bounded(path, MAX_SMALL_FILE_BYTES)?;
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.starts_with("veletas-net")) {
        let net = NetEval::parse(&text, Some(path.display().to_string()))?;
        return Ok(StaticEval::Net(Arc::new(net)));
    }
    let model = EvalModel::parse(&text)?;
    Ok(StaticEval::Learned(Arc::new(LearnedWeights::new(model, Some(path.display().to_string())))))
}

/// How close a shooter with this many empty neighbours is to being claimed (index =
/// empty neighbours, 1..=8).
const IMMINENCE: [f64; 9] = [1.0, 0.95, 0.7, 0.5, 0.38, 0.3, 0.24, 0.2, 0.17];

/// Scale from expected claim difference to win probability.
const CLAIM_SCALE: f64 = 1.1;

/// The most unclaimed shooters a position holds (the 10x10 board has 7).
const MAX_SHOOTERS: usize = 8;

/// Square indices (those of the 10x10 layout, which every board uses, are below 128).
const SQUARES: usize = 128;

/// For each of the first `n` shooters, whose orthogonal neighbours are `adjacent`, the
/// size of the biggest group of `stones` orthogonally next to it (0 for none). Each group
/// next to some shooter is filled once.
fn biggest_adjacent_groups(stones: Bitboard, adjacent: &[Bitboard; MAX_SHOOTERS], n: usize) -> [u32; MAX_SHOOTERS] {
    let mut best = [0u32; MAX_SHOOTERS];
    let mut todo = adjacent[..n].iter().fold(Bitboard::EMPTY, |acc, &a| acc | a) & stones;
    while let Some(start) = todo.first() {
        let group = group_of(start, stones);
        todo &= !group;
        let size = group.count();
        for (b, &a) in best[..n].iter_mut().zip(adjacent) {
            if !(a & group).is_empty() {
                *b = (*b).max(size);
            }
        }
    }
    best
}

/// tanh, closely enough for a heuristic and much cheaper than the library's.
const fn fast_tanh(x: f64) -> f64 {
    if x >= 3.0 {
        1.0
    } else if x <= -3.0 {
        -1.0
    } else {
        x * (27.0 + x * x) / (27.0 + 9.0 * x * x)
    }
}

/// `fast_tanh(0.6 * d)` for the group difference `d` from -6 to 6 (beyond, as at the
/// ends: 0.6 * 6 is past 3 already), computed once when compiling (IEEE arithmetic, so
/// the same values as computed at run time).
static CONTROL_TANH: [f64; 13] = {
    let mut table = [0.0; 13];
    let mut i = 0;
    while i < 13 {
        table[i] = fast_tanh(0.6 * (i as f64 - 6.0));
        i += 1;
    }
    table
};

/// `fast_tanh(0.6 * (d + 0.5))` for the group difference `d` from -7 to 6 (beyond, as
/// at the ends), as [`CONTROL_TANH`].
static TEMPO_TANH: [f64; 14] = {
    let mut table = [0.0; 14];
    let mut i = 0;
    while i < 14 {
        table[i] = fast_tanh(0.6 * ((i as f64 - 7.0) + 0.5));
        i += 1;
    }
    table
};

/// One pass over the shooters: the hand-written evaluation's logit and the features.
/// `None` once the game is over.
pub fn analyse(pos: &Position) -> Option<(f64, Features)> {
    analyse_with::<true>(pos)
}

/// What the evaluation reads of one unclaimed shooter: its room (classic: empty
/// neighbours; modern: reachable squares) and the biggest black and white groups
/// orthogonally next to it (0 for none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ShooterFacts {
    libs: usize,
    black: u32,
    white: u32,
}

/// The unclaimed shooters a pass reads (in square order, at most [`MAX_SHOOTERS`]):
/// their squares, orthogonal neighbours and facts; the first `n` entries are used.
#[derive(Clone, Copy, Debug)]
struct ShooterTable {
    n: usize,
    squares: [Square; MAX_SHOOTERS],
    adjacent: [Bitboard; MAX_SHOOTERS],
    facts: [ShooterFacts; MAX_SHOOTERS],
}

impl ShooterTable {
    /// The shooters of `set`, with `stones` (Black's, White's) and `room` counting each
    /// one's room.
    fn new(set: Bitboard, stones: [Bitboard; 2], room: impl Fn(Square) -> usize) -> ShooterTable {
        let mut squares = [Square::from_index_unchecked(0); MAX_SHOOTERS];
        let mut adjacent = [Bitboard::EMPTY; MAX_SHOOTERS];
        let mut n = 0;
        for (i, shooter) in set.iter().take(MAX_SHOOTERS).enumerate() {
            squares[i] = shooter;
            adjacent[i] = shooter.orthogonal_neighbours();
            n = i + 1;
        }
        let black = biggest_adjacent_groups(stones[0], &adjacent, n);
        let white = biggest_adjacent_groups(stones[1], &adjacent, n);
        let mut facts = [ShooterFacts::default(); MAX_SHOOTERS];
        for i in 0..n {
            facts[i] = ShooterFacts { libs: room(squares[i]), black: black[i], white: white[i] };
        }
        ShooterTable { n, squares, adjacent, facts }
    }
}

/// [`analyse`], the features filled only when `FEATURES` (the hand-written evaluation
/// needs the logit alone).
#[inline]
fn analyse_with<const FEATURES_TOO: bool>(pos: &Position) -> Option<(f64, Features)> {
    if pos.winner().is_some() {
        return None;
    }
    let empty = pos.empty_squares();
    let modern = pos.rules().is_modern();
    let room = |shooter: Square| {
        if modern { pos.reach_count(shooter) as usize } else { (shooter.neighbours() & empty).count() as usize }
    };
    let table = ShooterTable::new(pos.shooters(), [pos.stones(Color::Black), pos.stones(Color::White)], room);
    let claims = [pos.claims(Color::Black), pos.claims(Color::White)];
    Some(score::<FEATURES_TOO>(pos.side_to_move(), claims, pos.variant().claims_to_win(), &table.facts[..table.n]))
}

/// The hand-written logit and the features of a position in play where `side` moves,
/// with `claims` (Black's, White's), `need` claims to win, and these unclaimed shooters.
#[inline]
fn score<const FEATURES_TOO: bool>(side: Color, claims: [u32; 2], need: u8, facts: &[ShooterFacts]) -> (f64, Features) {
    let mut terms = [ShooterTerms::default(); MAX_SHOOTERS];
    let mut n = 0;
    for (t, &fact) in terms.iter_mut().zip(facts) {
        *t = ShooterTerms::new(side, fact);
        n += 1;
    }
    score_terms::<FEATURES_TOO>(side, claims, need, &terms[..n])
}

/// What one unclaimed shooter adds to [`score`] where `side` moves, worked out apart
/// from the sums so that [`ShotEvaluator`] works it out once a turn for the shooters a
/// shot leaves as they are (the sums then add the very same numbers in the same order).
#[derive(Clone, Copy, Debug, Default)]
struct ShooterTerms {
    /// The liberty bucket of its learned features.
    bucket: usize,
    /// Its term of the control feature of its bucket.
    control: f64,
    /// Whether both colours' biggest groups next to it are as big (a tempo feature).
    tie: bool,
    /// The probability that Black ends up with it.
    p_black: f64,
}

impl ShooterTerms {
    #[inline]
    fn new(side: Color, ShooterFacts { libs, black, white }: ShooterFacts) -> ShooterTerms {
        let d = (i64::from(black) - i64::from(white)).clamp(-6, 6);
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
            // The move is worth a stone: fast_tanh(0.6 * (mine - theirs + 0.5)).
            let d = (i64::from(mine) - i64::from(theirs)).clamp(-7, 6);
            0.5 + 0.5 * TEMPO_TANH[(d + 7) as usize] * IMMINENCE[libs.min(8)]
        };
        ShooterTerms {
            bucket: bucket(libs),
            control: CONTROL_TANH[(d + 6) as usize],
            tie: black == white,
            p_black: if side == Color::Black { p_side } else { 1.0 - p_side },
        }
    }
}

/// [`score`] from the shooters' terms.
#[inline]
fn score_terms<const FEATURES_TOO: bool>(
    side: Color,
    claims: [u32; 2],
    need: u8,
    terms: &[ShooterTerms],
) -> (f64, Features) {
    score_terms_by::<FEATURES_TOO>(side, claims, need, terms.len(), |i| terms[i])
}

/// [`score_terms`] of the `n` shooters whose terms `term` gives, in order.
#[inline(always)]
fn score_terms_by<const FEATURES_TOO: bool>(
    side: Color,
    claims: [u32; 2],
    need: u8,
    n: usize,
    term: impl Fn(usize) -> ShooterTerms,
) -> (f64, Features) {
    let mut f = [0.0; FEATURES];
    let mut expected_black = f64::from(claims[0]);
    let mut expected_white = f64::from(claims[1]);
    f[0] = 1.0;
    f[2] = expected_black - expected_white;
    let to_move = if side == Color::Black { 1.0 } else { -1.0 };
    f[3] = to_move;
    for i in 0..n {
        let ShooterTerms { bucket: b, control, tie, p_black } = term(i);
        if FEATURES_TOO {
            f[4 + b] += control;
            if tie {
                f[4 + BUCKETS + b] += to_move;
            }
        }
        expected_black += p_black;
        expected_white += 1.0 - p_black;
    }
    let need = f64::from(need);
    // Both near a majority: the difference matters more.
    let urgency = 1.0 + 0.5 * ((expected_black.max(expected_white) - need + 1.5).max(0.0));
    let logit = CLAIM_SCALE * urgency * (expected_black - expected_white);
    f[1] = logit;
    (logit, Features(f))
}

/// The probability that Black wins from the hand-written `logit` and the `features` of a
/// position in play, by evaluation `kind`.
#[inline]
fn probability(kind: &StaticEval, family: usize, logit: f64, features: &Features) -> f64 {
    sigmoid(model_logit(kind, family, logit, features))
}

/// Black's logit from the hand-written `logit` and the `features` of a position in play,
/// by evaluation `kind` (a network's linear model alone: see [`evaluate_linear`]).
#[inline]
fn model_logit(kind: &StaticEval, family: usize, logit: f64, features: &Features) -> f64 {
    match kind {
        StaticEval::Hand => logit,
        StaticEval::Learned(weights) => weights.model().logit(family, features),
        StaticEval::Net(net) => net.model().logit(family, features),
    }
}

/// The logistic function.
pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The probability that Black wins, in `(0, 1)`, or exactly 0 or 1 once the game is over
/// (the hand-written evaluation).
pub fn evaluate(pos: &Position) -> f64 {
    evaluate_with(pos, &StaticEval::Hand)
}

/// The probability that Black wins by evaluation `kind`.
pub fn evaluate_with(pos: &Position, kind: &StaticEval) -> f64 {
    evaluate_by::<true>(pos, kind)
}

/// The probability that Black wins by evaluation `kind` without a value network's
/// correction: a network's linear model alone (the search's shot priors, computed shot by
/// shot with [`ShotEvaluator`]'s incremental pass, which has no network either).
pub fn evaluate_linear(pos: &Position, kind: &StaticEval) -> f64 {
    evaluate_by::<false>(pos, kind)
}

fn evaluate_by<const NET: bool>(pos: &Position, kind: &StaticEval) -> f64 {
    let analysis = match kind {
        StaticEval::Hand => analyse_with::<false>(pos),
        StaticEval::Learned(_) | StaticEval::Net(_) => analyse_with::<true>(pos),
    };
    if let (true, StaticEval::Net(net), Some((_, features))) = (NET, kind, &analysis) {
        return sigmoid(net.logit(pos, net.model().logit(family(pos), features)));
    }
    match analysis {
        None => {
            if pos.winner() == Some(Color::Black) {
                1.0
            } else {
                0.0
            }
        }
        Some((logit, features)) => probability(kind, family(pos), logit, &features),
    }
}

/// The evaluations of the positions after each shot of one turn, prepared once for the
/// turn's move: a shot adds one stone of the mover's colour, so it changes only the
/// shooters whose room holds it and the biggest group of the mover's colour next to the
/// shooters it joins; the other colour's groups and every fill but one stay as they are.
/// [`ShotEvaluator::evaluate`] gives the very same number as [`evaluate_with`] on the
/// position after the turn (a test checks it bit for bit), or `None` when the shot traps
/// a shooter (claims change: play the turn and evaluate that).
#[derive(Clone, Debug)]
pub struct ShotEvaluator<'a> {
    kind: &'a StaticEval,
    mover: Color,
    modern: bool,
    /// The shooters and their facts after the move, before the shot.
    table: ShooterTable,
    /// The shooters' terms of the score after the move, before the shot.
    terms: [ShooterTerms; MAX_SHOOTERS],
    /// By square: the shooters (bit `i` for `table.squares[i]`) whose room holds the
    /// square, so that a shot there changes it (in the modern rules, the squares of their
    /// lines up to the first blocker: a shot there cuts them).
    roomy: [u8; SQUARES],
    /// By square: the shooters orthogonally next to it.
    touching: [u8; SQUARES],
    /// A shooter has no room after the move already: every shot leaves it claimed.
    trapped: bool,
    /// The mover's stones, and the empty squares and line blockers after the move.
    own: Bitboard,
    empty: Bitboard,
    blockers: Bitboard,
    claims: [u32; 2],
    need: u8,
}

impl<'a> ShotEvaluator<'a> {
    /// Prepares the shots of the turn of `pos` (in play, not over) that starts with
    /// `shooter_move` (`None`: a shot without a move), for evaluation `kind`.
    pub fn new(pos: &Position, shooter_move: Option<(Square, Square)>, kind: &'a StaticEval) -> ShotEvaluator<'a> {
        let mover = pos.side_to_move();
        let modern = pos.rules().is_modern();
        let (mut set, mut empty) = (pos.shooters(), pos.empty_squares());
        if let Some((from, to)) = shooter_move {
            set = (set & !from.bitboard()) | to.bitboard();
            empty = (empty | from.bitboard()) & !to.bitboard();
        }
        // The move changes no blocker: only stones (and, with claimed-block, claimed
        // shooters) block lines where shooters do not, and in the classic rules the room
        // is counted from the empty neighbours.
        let blockers = pos.blockers();
        let room = |shooter: Square| {
            let room = if modern { queen_reach(shooter, blockers) } else { shooter.neighbours() };
            (room & empty).count() as usize
        };
        let table = ShooterTable::new(set, [pos.stones(Color::Black), pos.stones(Color::White)], room);
        let mut lines = [Bitboard::EMPTY; MAX_SHOOTERS];
        if modern {
            for (line, &shooter) in lines.iter_mut().zip(&table.squares[..table.n]) {
                *line = queen_reach(shooter, blockers);
            }
        }
        let mut terms = [ShooterTerms::default(); MAX_SHOOTERS];
        for (term, &fact) in terms.iter_mut().zip(&table.facts[..table.n]) {
            *term = ShooterTerms::new(!mover, fact);
        }
        let (mut roomy, mut touching) = ([0u8; SQUARES], [0u8; SQUARES]);
        let shooters = table.squares.iter().zip(&lines).zip(&table.adjacent).take(table.n);
        for (i, ((shooter, &line), &adjacent)) in shooters.enumerate() {
            let room = if modern { line } else { shooter.neighbours() };
            for sq in room {
                if let Some(r) = roomy.get_mut(sq.index()) {
                    *r |= 1 << i;
                }
            }
            for sq in adjacent {
                if let Some(t) = touching.get_mut(sq.index()) {
                    *t |= 1 << i;
                }
            }
        }
        let trapped = table.facts[..table.n].iter().any(|f| f.libs == 0);
        ShotEvaluator {
            kind,
            mover,
            modern,
            table,
            terms,
            roomy,
            touching,
            trapped,
            own: pos.stones(mover),
            empty,
            blockers,
            claims: [pos.claims(Color::Black), pos.claims(Color::White)],
            need: pos.variant().claims_to_win(),
        }
    }

    /// The probability that Black wins after the shot on `shot` (a legal shot of the
    /// turn), or `None` when the shot traps a shooter.
    pub fn evaluate(&self, shot: Square) -> Option<f64> {
        self.logit(shot).map(sigmoid)
    }

    /// [`ShotEvaluator::evaluate`]'s logit (Black's).
    pub fn logit(&self, shot: Square) -> Option<f64> {
        if self.trapped {
            return None;
        }
        let table = &self.table;
        let stone = shot.bitboard();
        // The mover's group holding the shot: bigger than any group it joined, so it is
        // the biggest next to every shooter it touches that any of those touched.
        let alone = (stone.orthogonal_neighbours() & self.own).is_empty();
        let group = if alone { stone } else { group_of(shot, self.own | stone) };
        let size = group.count();
        // The shooters whose room the shot cuts, and those its group touches.
        let roomy = self.roomy.get(shot.index()).copied().unwrap_or(0);
        let touched = if alone {
            self.touching.get(shot.index()).copied().unwrap_or(0)
        } else {
            (0..table.n).filter(|&i| !(table.adjacent[i] & group).is_empty()).fold(0u8, |m, i| m | 1 << i)
        };
        // Their terms after the shot; the others' are the turn's.
        let changed = roomy | touched;
        let mut fresh = [ShooterTerms::default(); MAX_SHOOTERS];
        let mut todo = changed;
        while todo != 0 {
            let i = todo.trailing_zeros() as usize & (MAX_SHOOTERS - 1);
            let bit = 1u8 << i;
            todo &= !bit;
            let mut fact = table.facts[i];
            if roomy & bit != 0 {
                fact.libs = if self.modern {
                    (queen_reach(table.squares[i], self.blockers | stone) & self.empty & !stone).count() as usize
                } else {
                    fact.libs - 1
                };
                if fact.libs == 0 {
                    return None;
                }
            }
            if touched & bit != 0 {
                let best = if self.mover == Color::Black { &mut fact.black } else { &mut fact.white };
                *best = (*best).max(size);
            }
            fresh[i] = ShooterTerms::new(!self.mover, fact);
        }
        let term = |i: usize| if changed >> i & 1 != 0 { fresh[i] } else { self.terms[i] };
        let (n, side) = (table.n, !self.mover);
        let (logit, features) = match self.kind {
            StaticEval::Hand => score_terms_by::<false>(side, self.claims, self.need, n, term),
            StaticEval::Learned(_) | StaticEval::Net(_) => {
                score_terms_by::<true>(side, self.claims, self.need, n, term)
            }
        };
        Some(model_logit(self.kind, usize::from(self.modern), logit, &features))
    }
}

/// The evaluation from the point of view of `color`.
pub fn evaluate_for(pos: &Position, color: Color) -> f64 {
    let p = evaluate(pos);
    if color == Color::Black { p } else { 1.0 - p }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::{Phase, PlayoutPolicy, Rng, Rules, Variant};

    /// The evaluation's pass as first written (group list, shifts and `fast_tanh` per
    /// shooter): the fast pass must give the very same numbers.
    fn plain_analyse(pos: &Position) -> Option<(f64, Features)> {
        if pos.winner().is_some() {
            return None;
        }
        let side = pos.side_to_move();
        let empty = pos.empty_squares();
        let mut f = [0.0; FEATURES];
        let mut expected_black = f64::from(pos.claims(Color::Black));
        let mut expected_white = f64::from(pos.claims(Color::White));
        f[0] = 1.0;
        f[2] = expected_black - expected_white;
        let to_move = if side == Color::Black { 1.0 } else { -1.0 };
        f[3] = to_move;
        for shooter in pos.shooters() {
            let libs = if pos.rules().is_modern() {
                pos.shooter_reach(shooter).count() as usize
            } else {
                (shooter.bitboard().neighbours() & empty).count() as usize
            };
            let adjacent = shooter.bitboard().orthogonal_neighbours();
            let [black, white] = [Color::Black, Color::White].map(|c| {
                let stones = pos.stones(c);
                (adjacent & stones).iter().map(|s| group_of(s, stones).count()).max().unwrap_or(0)
            });
            let b = bucket(libs);
            f[4 + b] += fast_tanh(0.6 * (f64::from(black) - f64::from(white)));
            if black == white {
                f[4 + BUCKETS + b] += to_move;
            }
            let (mine, theirs) = if side == Color::Black { (black, white) } else { (white, black) };
            let p_side = if libs <= 1 {
                if mine > theirs {
                    0.95
                } else if theirs > mine {
                    0.2
                } else {
                    0.5
                }
            } else {
                let diff = f64::from(mine) - f64::from(theirs) + 0.5;
                0.5 + 0.5 * fast_tanh(0.6 * diff) * IMMINENCE[libs.min(8)]
            };
            let p_black = if side == Color::Black { p_side } else { 1.0 - p_side };
            expected_black += p_black;
            expected_white += 1.0 - p_black;
        }
        let need = f64::from(pos.variant().claims_to_win());
        let urgency = 1.0 + 0.5 * ((expected_black.max(expected_white) - need + 1.5).max(0.0));
        let logit = CLAIM_SCALE * urgency * (expected_black - expected_white);
        f[1] = logit;
        Some((logit, Features(f)))
    }

    fn bits(a: &Option<(f64, Features)>) -> Option<(u64, Vec<u64>)> {
        a.as_ref().map(|(l, f)| (l.to_bits(), f.0.iter().map(|x| x.to_bits()).collect()))
    }

    #[test]
    fn fast_pass_gives_the_plain_pass_numbers_bit_for_bit() {
        let mut rng = Rng::new(17);
        let mut checked = 0;
        for variant in Variant::all() {
            for (game, rules) in (0..30).zip(Rules::all().into_iter().cycle()) {
                let mut pos = Position::with_rules(variant, rules);
                let policy = if game % 2 == 0 { PlayoutPolicy::Cheap } else { PlayoutPolicy::Uniform };
                loop {
                    if pos.phase() == Phase::Play {
                        let plain = plain_analyse(&pos);
                        assert_eq!(bits(&analyse(&pos)), bits(&plain), "{pos}");
                        let hand = analyse_with::<false>(&pos).map(|(l, _)| l.to_bits());
                        assert_eq!(hand, plain.map(|(l, _)| l.to_bits()), "{pos}");
                        checked += 1;
                    }
                    let Some(mv) = pos.random_move(&mut rng, policy) else { break };
                    pos.play_unchecked(mv);
                }
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    #[test]
    fn shot_evaluator_gives_the_played_positions_numbers_bit_for_bit() {
        let mut rng = Rng::new(23);
        let (mut checked, mut trapping) = (0, 0);
        for variant in Variant::all() {
            for (game, rules) in (0..12).zip(Rules::all().into_iter().cycle()) {
                let mut pos = Position::with_rules(variant, rules);
                let policy = if game % 2 == 0 { PlayoutPolicy::Cheap } else { PlayoutPolicy::Uniform };
                loop {
                    if pos.phase() == Phase::Play && !pos.is_over() {
                        let mut moves = vec![None];
                        for from in pos.shooters() {
                            moves.extend(pos.shooter_reach(from).iter().map(|to| Some((from, to))));
                        }
                        for (k, &m) in moves.iter().enumerate() {
                            // Every move of the first turns, then a sample.
                            if k > 3 && rng.below(8) != 0 {
                                continue;
                            }
                            let targets = match m {
                                Some((from, to)) => pos.shots_after_move(from, to),
                                None => pos.shooters().iter().fold(Bitboard::EMPTY, |a, s| a | pos.shooter_reach(s)),
                            };
                            for kind in [StaticEval::Hand, StaticEval::learned()] {
                                let shots = ShotEvaluator::new(&pos, m, &kind);
                                for shot in targets {
                                    let mut next = pos.clone();
                                    next.play_turn_unchecked(veletas_rules::Turn::new(m, shot));
                                    let claimed = next.claims(Color::Black) + next.claims(Color::White)
                                        != pos.claims(Color::Black) + pos.claims(Color::White);
                                    match shots.evaluate(shot) {
                                        Some(p) => {
                                            assert!(!claimed, "{pos}: {m:?} {shot}");
                                            let full = evaluate_with(&next, &kind);
                                            assert_eq!(p.to_bits(), full.to_bits(), "{pos}: {m:?} {shot} {kind}");
                                            checked += 1;
                                        }
                                        None => {
                                            assert!(claimed, "{pos}: {m:?} {shot}");
                                            trapping += 1;
                                        }
                                    }
                                }
                            }
                        }
                    }
                    let Some(mv) = pos.random_move(&mut rng, policy) else { break };
                    pos.play_unchecked(mv);
                }
            }
        }
        assert!(checked > 100_000 && trapping > 500, "{checked} {trapping}");
    }

    #[test]
    fn tanh_tables_hold_the_function_over_the_whole_range() {
        for d in -120i64..=120 {
            let c = CONTROL_TANH[(d.clamp(-6, 6) + 6) as usize];
            assert_eq!(c.to_bits(), fast_tanh(0.6 * d as f64).to_bits(), "{d}");
            let t = TEMPO_TANH[(d.clamp(-7, 6) + 7) as usize];
            assert_eq!(t.to_bits(), fast_tanh(0.6 * (d as f64 + 0.5)).to_bits(), "{d}");
        }
    }
}
