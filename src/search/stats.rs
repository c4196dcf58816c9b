//! The statistics of the search tree's nodes (visits, summed reward, prior), kept apart
//! from the nodes, one array per field, so that selection's pass over a node's children
//! reads them contiguously and the compiler computes the scores several at a time. The
//! arithmetic is exactly that of the one-child-at-a-time loop (the same operations in
//! the same order on each child), so the same child is chosen.

/// One array per statistic, indexed like the tree's nodes.
#[derive(Clone, Debug)]
pub(crate) struct Stats {
    visits: Vec<u32>,
    /// Sum of rewards for the player who chose the edge into the node.
    value: Vec<f32>,
    prior: Vec<f32>,
}

/// Bytes the statistics take per node (part of a node's size for the memory limit).
pub(crate) const STATS_BYTES: usize = 2 * std::mem::size_of::<f32>() + std::mem::size_of::<u32>();

/// Children scored at once: the scores of a block go through a small buffer.
const BLOCK: usize = 64;

/// A child's value while it has no visits, in PUCT selection.
const UNVISITED_VALUE: f32 = 0.35;

impl Stats {
    /// Room for `capacity` nodes (reserved, becoming resident only as it is used).
    pub(crate) fn with_capacity(capacity: usize) -> Stats {
        Stats {
            visits: Vec::with_capacity(capacity),
            value: Vec::with_capacity(capacity),
            prior: Vec::with_capacity(capacity),
        }
    }

    /// Adds a node with no visits and `prior`.
    #[inline]
    pub(crate) fn push(&mut self, prior: f32) {
        self.visits.push(0);
        self.value.push(0.0);
        self.prior.push(prior);
    }

    /// Keeps the first `len` nodes.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.visits.truncate(len);
        self.value.truncate(len);
        self.prior.truncate(len);
    }

    /// Visits of node `id`.
    #[inline]
    pub(crate) fn visits(&self, id: u32) -> u32 {
        self.visits[id as usize]
    }

    /// Summed reward of node `id`.
    #[inline]
    pub(crate) fn value(&self, id: u32) -> f32 {
        self.value[id as usize]
    }

    /// Mean reward of node `id` (0.5 before any visit).
    #[inline]
    pub(crate) fn mean(&self, id: u32) -> f32 {
        let visits = self.visits(id);
        if visits == 0 { 0.5 } else { self.value(id) / visits as f32 }
    }

    /// Counts a visit of node `id`, adding `reward` to its sum when given.
    #[inline]
    pub(crate) fn visit(&mut self, id: u32, reward: Option<f32>) {
        self.visits[id as usize] += 1;
        if let Some(r) = reward {
            self.value[id as usize] += r;
        }
    }

    /// PUCT: the child among `first..first + count` with the highest
    /// `q + exploration * prior * sqrt_n / (1 + visits)` (q the mean reward, or 0.35
    /// without visits), the first one among equals, passing over those `skipped` tells;
    /// `first` when every child is passed over.
    #[inline]
    pub(crate) fn puct_best(
        &self,
        first: u32,
        count: u32,
        exploration: f32,
        sqrt_n: f32,
        mut skipped: impl FnMut(u32) -> bool,
    ) -> u32 {
        let range = first as usize..(first + count) as usize;
        let (visits, value, prior) = (&self.visits[range.clone()], &self.value[range.clone()], &self.prior[range]);
        let mut best = first;
        let mut best_score = f32::MIN;
        let mut scores = [0f32; BLOCK];
        let mut start = 0;
        while start < visits.len() {
            let end = (start + BLOCK).min(visits.len());
            let (v, w, p) = (&visits[start..end], &value[start..end], &prior[start..end]);
            let s = &mut scores[..end - start];
            // Branch-free, so that it vectorizes: the mean is computed for every child and
            // discarded for the unvisited ones.
            for i in 0..s.len() {
                let n = v[i] as f32;
                let mean = w[i] / n;
                let q = if v[i] == 0 { UNVISITED_VALUE } else { mean };
                s[i] = q + exploration * p[i] * sqrt_n / (1.0 + n);
            }
            // The block's best is its first child with the block's highest score, unless
            // that child is skipped: then the block is gone through child by child.
            let top = block_max(s);
            if top > best_score {
                let i = s.iter().position(|&x| x == top).unwrap_or(0);
                let c = first + (start + i) as u32;
                if !skipped(c) {
                    best_score = top;
                    best = c;
                } else {
                    for (i, &score) in s.iter().enumerate() {
                        // A skipped child must not count, so it is asked about only when it
                        // would become the best (the same choice as skipping it first).
                        let c = first + (start + i) as u32;
                        if score > best_score && !skipped(c) {
                            best_score = score;
                            best = c;
                        }
                    }
                }
            }
            start = end;
        }
        best
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
    use crate::rules::Rng;

    /// The loop the block version replaces, one child at a time.
    fn plain_best(stats: &Stats, first: u32, count: u32, c: f32, sqrt_n: f32, skipped: impl Fn(u32) -> bool) -> u32 {
        let mut best = first;
        let mut best_score = f32::MIN;
        for id in first..first + count {
            if skipped(id) {
                continue;
            }
            let visits = stats.visits(id);
            let q = if visits == 0 { UNVISITED_VALUE } else { stats.mean(id) };
            let score = q + c * stats.prior[id as usize] * sqrt_n / (1.0 + visits as f32);
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
            let len = 1 + rng.below(300);
            let mut stats = Stats::with_capacity(len as usize);
            // Few distinct priors and small counts, so that ties are common.
            let priors = [0.25, 0.75 / 137.0, 0.1, 0.003];
            for _ in 0..len {
                stats.push(priors[rng.below(4) as usize]);
            }
            for id in 0..len {
                for _ in 0..rng.below(4) * rng.below(6) {
                    stats.visit(id, Some(rng.below(3) as f32 * 0.5));
                }
            }
            let first = rng.below(len);
            let count = rng.below(len - first + 1);
            let sqrt_n = ((round % 50) as f32 + 1.0).sqrt();
            let skip_mod = 1 + rng.below(5);
            let skipped = |id: u32| round % 3 == 0 && id.is_multiple_of(skip_mod);
            assert_eq!(
                stats.puct_best(first, count, 1.4, sqrt_n, skipped),
                plain_best(&stats, first, count, 1.4, sqrt_n, skipped),
                "round {round}"
            );
        }
    }
}
