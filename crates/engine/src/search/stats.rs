//! PUCT selection over the statistics of a node's children (visits and summed reward side
//! by side, prior), which the node store keeps in arrays of each chunk (see
//! [`super::nodes`]), so that selection reads them contiguously and the compiler computes
//! the scores several at a time. The arithmetic is exactly that of the
//! one-child-at-a-time loop (the same operations in the same order on each child), so the
//! same child is chosen.

use crate::search::nodes::{PlainTally, Tally};

/// Bytes the statistics take per node (part of a node's size for the memory limit).
pub(crate) const STATS_BYTES: usize = std::mem::size_of::<Tally>() + std::mem::size_of::<f32>();

/// Children scored at once: the scores of a block go through a small buffer.
const BLOCK: usize = 64;

/// A child's value while it has no visits, in PUCT selection, by default.
pub(crate) const UNVISITED_VALUE: f32 = 0.35;

/// The constants of PUCT selection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Puct {
    /// The exploration constant.
    pub exploration: f32,
    /// The value a child without visits counts as (first-play urgency).
    pub unvisited: f32,
}

/// Selection's buffers (a thread's, kept between selections so that they are not
/// cleared at every one): the scores of a block of children, and their tallies as
/// copied from a shared tree.
#[derive(Debug)]
pub(crate) struct Scratch {
    scores: [f32; BLOCK],
    tallies: [PlainTally; BLOCK],
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch { scores: [0.0; BLOCK], tallies: [PlainTally::default(); BLOCK] }
    }
}

/// Children's tallies as selection reads them, a block at a time: plain ones in place,
/// shared ones (which other threads may change meanwhile) copied first.
pub(crate) trait Tallies {
    /// How many children.
    fn count(&self) -> usize;
    /// The tallies of children `start..end` (at most [`BLOCK`]), read through `buffer`
    /// when they must be copied.
    fn block<'a>(&'a self, start: usize, end: usize, buffer: &'a mut [PlainTally; BLOCK]) -> &'a [PlainTally];
}

impl Tallies for [PlainTally] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn block<'a>(&'a self, start: usize, end: usize, _: &'a mut [PlainTally; BLOCK]) -> &'a [PlainTally] {
        &self[start..end]
    }
}

impl Tallies for [Tally] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }

    /// Copied with relaxed loads into `buffer`, which the scoring loop reads as plain numbers.
    #[inline(always)]
    fn block<'a>(&'a self, start: usize, end: usize, buffer: &'a mut [PlainTally; BLOCK]) -> &'a [PlainTally] {
        let k = end - start;
        for (b, t) in buffer[..k].iter_mut().zip(&self[start..end]) {
            *b = t.load();
        }
        &buffer[..k]
    }
}

/// PUCT: the child among the block (`tally`, `prior`; ids from `first`) with the highest
/// `q + exploration * prior * sqrt_n / (1 + visits)` (q the mean reward, or
/// [`Puct::unvisited`] without visits), the first one among equals, passing over those
/// `skipped` tells; `first` when every child is passed over. Shared tallies ([`Tally`],
/// which other threads may change meanwhile) are copied a block at a time; plain ones
/// ([`PlainTally`], when no other thread can write them) are read in place ([`Tallies`]);
/// `prior` (written once, before the block was published) is read in place.
#[inline]
pub(crate) fn puct_best<T: Tallies + ?Sized>(
    (tally, prior): (&T, &[f32]),
    first: u32,
    puct: Puct,
    sqrt_n: f32,
    scratch: &mut Scratch,
    mut skipped: impl FnMut(u32) -> bool,
) -> u32 {
    let len = tally.count().min(prior.len());
    let mut best = (first, f32::MIN);
    let Scratch { scores, tallies: buffer } = scratch;
    let mut start = 0;
    while start < len {
        let end = (start + BLOCK).min(len);
        let s = &mut scores[..end - start];
        score(tally.block(start, end, buffer), &prior[start..end], s, puct, sqrt_n);
        take_best(s, first + start as u32, &mut best, &mut skipped);
        start = end;
    }
    best.0
}

/// The PUCT scores of a block of children into `s`.
#[inline(always)]
fn score(t: &[PlainTally], p: &[f32], s: &mut [f32], puct: Puct, sqrt_n: f32) {
    let Puct { exploration, unvisited } = puct;
    let (t, p) = (&t[..s.len()], &p[..s.len()]);
    // Branch-free, so that it vectorizes: the mean is computed for every child and
    // discarded for the unvisited ones.
    for i in 0..s.len() {
        // Through `i32`, which converts four at a time in one instruction (`u32` takes
        // six): the same number below 2^31 visits (f32 sums of rewards stop growing at
        // 2^24 long before).
        let n = t[i].visits.min(i32::MAX as u32) as i32 as f32;
        let mean = t[i].value / n;
        let q = if t[i].visits == 0 { unvisited } else { mean };
        s[i] = q + exploration * p[i] * sqrt_n / (1.0 + n);
    }
}

/// Updates `best` (id, score) with the block of scores `s` of the children from `first`.
#[inline(always)]
fn take_best(s: &[f32], first: u32, best: &mut (u32, f32), skipped: &mut impl FnMut(u32) -> bool) {
    // The block's best is its first child with the block's highest score, unless that
    // child is skipped: then the block is gone through child by child.
    let top = block_max(s);
    if top > best.1 {
        let i = s.iter().position(|&x| x == top).unwrap_or(0);
        let c = first + i as u32;
        if !skipped(c) {
            *best = (c, top);
        } else {
            for (i, &score) in s.iter().enumerate() {
                // A skipped child must not count, so it is asked about only when it would
                // become the best (the same choice as skipping it first).
                let c = first + i as u32;
                if score > best.1 && !skipped(c) {
                    *best = (c, score);
                }
            }
        }
    }
}

/// The highest of `scores` (none NaN), `f32::MIN` for none: eight running maxima side by
/// side, which the compiler vectorizes, then the rest.
#[inline]
fn block_max(scores: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [f32::MIN; LANES];
    let mut chunks = scores.chunks_exact(LANES);
    for chunk in &mut chunks {
        for j in 0..LANES {
            lanes[j] = if chunk[j] > lanes[j] { chunk[j] } else { lanes[j] };
        }
    }
    let mut top = lanes.iter().fold(f32::MIN, |a, &b| if b > a { b } else { a });
    for &x in chunks.remainder() {
        if x > top {
            top = x;
        }
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;
    use veletas_rules::Rng;

    /// The loop the block version replaces, one child at a time.
    fn plain_best(
        visits: &[u32],
        value: &[f32],
        prior: &[f32],
        first: u32,
        puct: Puct,
        sqrt_n: f32,
        skipped: impl Fn(u32) -> bool,
    ) -> u32 {
        let Puct { exploration: c, unvisited: fpu } = puct;
        let mut best = first;
        let mut best_score = f32::MIN;
        for i in 0..visits.len() {
            let id = first + i as u32;
            if skipped(id) {
                continue;
            }
            let q = if visits[i] == 0 { fpu } else { value[i] / visits[i] as f32 };
            let score = q + c * prior[i] * sqrt_n / (1.0 + visits[i] as f32);
            if score > best_score {
                best_score = score;
                best = id;
            }
        }
        best
    }

    #[test]
    fn block_selection_chooses_as_the_plain_loop_does() {
        let mut rng = Rng::new(3);
        for round in 0..3000 {
            let len = 1 + rng.below(300) as usize;
            // Few distinct priors and small counts, so that ties are common.
            let priors = [0.25, 0.75 / 137.0, 0.1, 0.003];
            let prior: Vec<f32> = (0..len).map(|_| priors[rng.below(4) as usize]).collect();
            let mut visits = vec![0u32; len];
            let mut value = vec![0f32; len];
            for i in 0..len {
                for _ in 0..rng.below(4) * rng.below(6) {
                    visits[i] += 1;
                    value[i] += rng.below(3) as f32 * 0.5;
                }
            }
            let plain: Vec<PlainTally> =
                visits.iter().zip(&value).map(|(&visits, &value)| PlainTally { visits, value }).collect();
            let tally: Vec<Tally> = plain.iter().map(|&t| Tally::new(t)).collect();
            let start = rng.below(len as u32) as usize;
            let end = start + rng.below((len - start) as u32 + 1) as usize;
            let first = 1000 + start as u32;
            let sqrt_n = ((round % 50) as f32 + 1.0).sqrt();
            let skip_mod = 1 + rng.below(5);
            let skipped = |id: u32| round % 3 == 0 && id.is_multiple_of(skip_mod);
            let block = (&tally[start..end], &prior[start..end]);
            let fpu = [UNVISITED_VALUE, 0.0, 0.6][round % 3];
            let puct = Puct { exploration: 1.4, unvisited: fpu };
            let (v, w, p) = (&visits[start..end], &value[start..end], &prior[start..end]);
            let expected = plain_best(v, w, p, first, puct, sqrt_n, skipped);
            let plain = (&plain[start..end], p);
            let scratch = &mut Scratch::default();
            assert_eq!(puct_best(block, first, puct, sqrt_n, scratch, skipped), expected, "round {round}");
            assert_eq!(puct_best(plain, first, puct, sqrt_n, scratch, skipped), expected, "round {round}");
        }
    }
}
