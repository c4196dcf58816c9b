//! The shape of a field's results, which decides where the maximum-likelihood ratings
//! exist. They are finite exactly when the "beat" graph (an edge from `i` to `j` when
//! `i` won a game against `j`) is strongly connected: otherwise some group of engines
//! never lost to (or never beat) the rest, and the likelihood grows without end as the
//! gap between them does.
//!
//! The strongly connected components of that graph are found; the largest one with at
//! least two engines (ties: more games, then first appearance) is the field's main group
//! and keeps pure maximum-likelihood ratings. Every other engine carries a prior (one
//! virtual game against the field's mean) and a [`RatingBound`], read against the anchor's
//! component when there is an anchor and the main group otherwise: `>` when a chain of
//! wins leads from its component to that one (its rating is a lower bound), `<` when one
//! leads the other way, `~` when neither does. With neither an anchor nor a main group,
//! `>` marks a component that never lost to the rest of the field, `<` one that never beat it.

use super::RatingBound;

/// What [`analyse`] finds.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Shape {
    /// Engines that need the prior.
    pub prior: Vec<bool>,
    /// Each engine's mark.
    pub marks: Vec<RatingBound>,
    /// Connected components of the games graph (pairs that played, either result).
    pub groups: usize,
}

/// Strongly connected components of the graph with an edge `i → j` when `edge(i, j)`:
/// the component of each node, numbered from 0 (Kosaraju's algorithm, iterative).
fn strong_components(n: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    // First pass: nodes in order of finishing time.
    let mut visited = vec![false; n];
    let mut finished = Vec::with_capacity(n);
    for root in 0..n {
        if visited[root] {
            continue;
        }
        visited[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(child) = (*next..n).find(|&j| !visited[j] && edge(node, j)) {
                *next = child + 1;
                visited[child] = true;
                stack.push((child, 0));
            } else {
                finished.push(node);
                stack.pop();
            }
        }
    }
    // Second pass on the reversed graph, latest-finished first.
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &root in finished.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = count;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            for (j, slot) in component.iter_mut().enumerate() {
                if *slot == usize::MAX && edge(j, node) {
                    *slot = count;
                    stack.push(j);
                }
            }
        }
        count += 1;
    }
    component
}

/// The components reached from `start` along `edge(from, to)` (`start` included).
fn reaching(components: usize, start: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut reached = vec![false; components];
    reached[start] = true;
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        for (d, seen) in reached.iter_mut().enumerate() {
            if !*seen && edge(c, d) {
                *seen = true;
                stack.push(d);
            }
        }
    }
    reached
}

/// Analyses the win matrix `wins[i * n + j]` (games `i` won against `j`); `anchor` is the
/// engine whose rating is fixed, if any.
pub(super) fn analyse(n: usize, wins: &[u64], anchor: Option<usize>) -> Shape {
    let beat = |i: usize, j: usize| wins[i * n + j] > 0;
    let strong = strong_components(n, beat);
    let played = |i: usize, j: usize| beat(i, j) || beat(j, i);
    let groups = strong_components(n, played).into_iter().max().map_or(0, |m| m + 1);

    let components = strong.iter().max().map_or(0, |m| m + 1);
    if components == 1 {
        return Shape { prior: vec![false; n], marks: vec![RatingBound::Exact; n], groups };
    }
    let mut size = vec![0usize; components];
    let mut games = vec![0u64; components];
    let mut lost_outside = vec![false; components];
    let mut won_outside = vec![false; components];
    for i in 0..n {
        size[strong[i]] += 1;
        for j in 0..n {
            games[strong[i]] += wins[i * n + j] + wins[j * n + i];
            if strong[i] != strong[j] && wins[i * n + j] > 0 {
                won_outside[strong[i]] = true;
                lost_outside[strong[j]] = true;
            }
        }
    }
    // Each component's first engine (in order of appearance), for the last tie-break.
    let first: Vec<usize> =
        (0..components).map(|c| strong.iter().position(|&s| s == c).unwrap_or(usize::MAX)).collect();
    let main = (0..components)
        .filter(|&c| size[c] >= 2)
        .max_by(|&a, &b| size[a].cmp(&size[b]).then(games[a].cmp(&games[b])).then(first[b].cmp(&first[a])));
    let prior = (0..n).map(|i| Some(strong[i]) != main).collect();
    // Marks are read against the anchor's component when there is an anchor (its rating
    // is the one fixed), else against the main group.
    let reference = anchor.map(|a| strong[a]).or(main);
    let marks = match reference {
        Some(r) => {
            // Component c is above r when a chain of wins leads from c to r, below it when
            // one leads from r to c (never both: they would be one component).
            let mut beats = vec![false; components * components];
            for i in 0..n {
                for j in 0..n {
                    if wins[i * n + j] > 0 {
                        beats[strong[i] * components + strong[j]] = true;
                    }
                }
            }
            let above = reaching(components, r, |c, d| beats[d * components + c]);
            let below = reaching(components, r, |c, d| beats[c * components + d]);
            (0..n)
                .map(|i| match strong[i] {
                    c if c == r => RatingBound::Exact,
                    c if above[c] => RatingBound::AtLeast,
                    c if below[c] => RatingBound::AtMost,
                    _ => RatingBound::Unpinned,
                })
                .collect()
        }
        None => (0..n)
            .map(|i| match (won_outside[strong[i]], lost_outside[strong[i]]) {
                (true, false) => RatingBound::AtLeast,
                (false, true) => RatingBound::AtMost,
                _ => RatingBound::Unpinned,
            })
            .collect(),
    };
    Shape { prior, marks, groups }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(n: usize, results: &[(usize, usize, u64)]) -> Vec<u64> {
        let mut wins = vec![0; n * n];
        for &(i, j, w) in results {
            wins[i * n + j] = w;
        }
        wins
    }

    #[test]
    fn a_strongly_connected_field_needs_no_prior() {
        let wins = matrix(3, &[(0, 1, 2), (1, 2, 1), (2, 0, 1)]);
        let shape = analyse(3, &wins, None);
        assert_eq!(shape.prior, [false; 3]);
        assert_eq!(shape.marks, [RatingBound::Exact; 3]);
        assert_eq!(shape.groups, 1);
    }

    #[test]
    fn perfect_and_zero_scores_are_marked_around_the_main_group() {
        // 0 and 1 split their games; 2 beat everyone; 3 lost to everyone.
        let wins = matrix(4, &[(0, 1, 2), (1, 0, 1), (2, 0, 1), (2, 1, 1), (2, 3, 1), (0, 3, 1), (1, 3, 1)]);
        let shape = analyse(4, &wins, None);
        assert_eq!(shape.prior, [false, false, true, true]);
        assert_eq!(shape.marks, [RatingBound::Exact, RatingBound::Exact, RatingBound::AtLeast, RatingBound::AtMost]);
    }

    #[test]
    fn separate_groups_are_counted_and_unpinned() {
        let wins = matrix(5, &[(0, 1, 2), (1, 0, 1), (1, 2, 1), (2, 0, 1), (3, 4, 1), (4, 3, 1)]);
        let shape = analyse(5, &wins, None);
        assert_eq!(shape.groups, 2);
        assert_eq!(shape.prior, [false, false, false, true, true]);
        assert_eq!(shape.marks[3], RatingBound::Unpinned);
    }

    #[test]
    fn a_transitive_sweep_has_no_main_group() {
        let wins = matrix(3, &[(0, 1, 1), (1, 2, 1), (0, 2, 1)]);
        let shape = analyse(3, &wins, None);
        assert_eq!(shape.prior, [true; 3]);
        assert_eq!(shape.marks, [RatingBound::AtLeast, RatingBound::Unpinned, RatingBound::AtMost]);
    }

    #[test]
    fn marks_are_read_against_the_anchor() {
        // 0 and 1 split their games and both beat 2; 3 played only 1 and lost.
        let wins = matrix(4, &[(0, 1, 2), (1, 0, 1), (0, 2, 3), (1, 2, 1), (1, 3, 1)]);
        // Anchored in the main group: as without an anchor.
        assert_eq!(
            analyse(4, &wins, Some(0)).marks,
            [RatingBound::Exact, RatingBound::Exact, RatingBound::AtMost, RatingBound::AtMost]
        );
        // Anchored at the engine that never won: it is exact, the main group is above
        // it, and 3 (never played 2, only lost to the main group) cannot be placed.
        let shape = analyse(4, &wins, Some(2));
        assert_eq!(
            shape.marks,
            [RatingBound::AtLeast, RatingBound::AtLeast, RatingBound::Exact, RatingBound::Unpinned]
        );
        assert_eq!(shape.prior, [false, false, true, true]);
        // A transitive sweep anchored in the middle.
        let sweep = matrix(3, &[(0, 1, 1), (1, 2, 1), (0, 2, 1)]);
        assert_eq!(analyse(3, &sweep, Some(1)).marks, [RatingBound::AtLeast, RatingBound::Exact, RatingBound::AtMost]);
    }
}
