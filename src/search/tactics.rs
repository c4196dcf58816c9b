//! Immediate wins: turns that end the game in the mover's favour at once.
//!
//! Only a turn that immobilizes a shooter can end the game, and a turn changes the
//! surroundings of a shooter in at most three squares: the shooter's origin (freed), its
//! destination and the shot (filled). So instead of trying every legal turn, the search
//! for a winning turn tries only the turns that can fill the last empty neighbours of
//! some shooter: shots into the liberties of shooters with one or two empty neighbours,
//! and moves whose destination leaves the moved shooter at most one empty neighbour.

//!
//! Under the modern rules a shooter is trapped when it has no move at all, so the
//! liberties above do not apply: there a turn can only trap a shooter whose reachable
//! squares, apart from those along its fullest ray, number at most one (the shot cuts
//! one ray, the moved shooter's destination fills one square); when too few shooters
//! are that tight (plus the moved one) no turn wins, and otherwise every legal turn is
//! tried. The same holds with `claimed-block`, where claimed shooters block lines.

use crate::rules::{Bitboard, Phase, Position, Square, Turn, group_of, queen_reach};

/// A turn that wins the game for the side to move right away, if there is one.
pub fn winning_turn(pos: &Position) -> Option<Turn> {
    if pos.phase() != Phase::Play || pos.is_over() {
        return None;
    }
    if pos.rules().is_modern() {
        return modern_winning_turn(pos);
    }
    let side = pos.side_to_move();
    let needed = u32::from(pos.variant().claims_to_win()).saturating_sub(pos.claims(side));
    let empty = pos.empty_squares();
    // Liberties of shooters that one turn could close: one or two empty neighbours.
    let mut single = Bitboard::EMPTY;
    let mut double = Bitboard::EMPTY;
    let mut tight_libs = [Bitboard::EMPTY; 16];
    let mut tight = 0;
    for s in pos.shooters() {
        let libs = s.bitboard().neighbours() & empty;
        match libs.count() {
            1 => single |= libs,
            2 => double |= libs,
            _ => continue,
        }
        if let Some(slot) = tight_libs.get_mut(tight) {
            *slot = libs;
        }
        tight += 1;
    }
    // One turn fills two squares (the destination and the shot; vacating the origin only
    // frees one), so it closes at most the moved shooter and those whose liberties lie
    // within some two squares.
    // (No board has more shooters than the array holds; if one did, the plain count bounds.)
    if needed >= 2
        && (tight as u32 + 1 < needed
            || tight_libs.get(..tight).is_some_and(|libs| max_closed_by_two(libs, single | double) + 1 < needed))
    {
        return None;
    }
    let wins = |turn: Turn| {
        let mut next = pos.clone();
        next.play_turn_unchecked(turn);
        next.winner() == Some(side)
    };
    let blockers = pos.blockers();
    let mut unmoved = Bitboard::EMPTY;
    for s in pos.shooters() {
        unmoved |= queen_reach(s, blockers);
    }
    if let Some(turn) = (unmoved & single).iter().map(Turn::shot_only).find(|&t| wins(t)) {
        return Some(turn);
    }
    let libs = single | double;
    for from in pos.shooters() {
        let vacated = blockers ^ from.bitboard();
        for to in queen_reach(from, blockers) {
            let after = vacated | to.bitboard();
            let own = to.bitboard().neighbours() & pos.variant().board() & !after;
            // Filling a shooter's last liberty with the move leaves the shot free (it may
            // still matter, by growing a group next to a claimed shooter). Otherwise the
            // shot must close a shooter: the moved one's last liberty, another's last,
            // or the second of two when the move filled the first. (Vacating `from`
            // only frees squares, so no other shooter can be closed.)
            let shots = || queen_reach(to, vacated);
            let closing = if double.contains(to) { single | libs } else { single };
            let candidates = if own.is_empty() || single.contains(to) {
                // The move closes a shooter whatever the shot; the shot still matters
                // where it closes another (as below, or into the vacated origin, which
                // may be the only liberty left of a shooter next to it), or where it joins
                // a group of ours that touches a closed shooter (the claim goes to the
                // biggest group). Any other shot gives the same outcome: try one of them.
                let mut closed = Bitboard::EMPTY;
                let mut touching = Bitboard::EMPTY;
                for s in pos.shooters() {
                    if s != from && (s.bitboard().neighbours() & empty & !to.bitboard()).is_empty() {
                        closed |= s.bitboard();
                    }
                }
                if own.is_empty() {
                    closed |= to.bitboard();
                }
                // (A closed shooter has no empty neighbour, so the shot can only grow a
                // group next to it.)
                let ours = pos.stones(side);
                for start in closed.orthogonal_neighbours() & ours {
                    touching |= group_of(start, ours);
                }
                let t = closing | own | from.bitboard() | touching.orthogonal_neighbours();
                let all = shots();
                let rest = all & !t;
                (all & t) | rest.first().map_or(Bitboard::EMPTY, Square::bitboard)
            } else {
                let t = if own.count() == 1 { closing | own } else { closing };
                if t.is_empty() {
                    continue;
                }
                shots() & t
            };
            if let Some(turn) = candidates.iter().map(|q| Turn::with_move(from, to, q)).find(|&t| wins(t)) {
                return Some(turn);
            }
        }
    }
    None
}

/// The most shooters of `tight` (their liberty sets) that filling two squares of
/// `squares` (the union of those liberties) closes.
fn max_closed_by_two(tight: &[Bitboard], squares: Bitboard) -> u32 {
    let mut best = 0;
    for a in squares {
        for b in squares {
            let filled = a.bitboard() | b.bitboard();
            let closed = tight.iter().filter(|&&l| (l & !filled).is_empty()).count() as u32;
            best = best.max(closed);
        }
    }
    best
}

/// The modern rules' winning turn: a cheap exact test for "no turn can win", then
/// every legal turn.
fn modern_winning_turn(pos: &Position) -> Option<Turn> {
    let side = pos.side_to_move();
    let needed = u32::from(pos.variant().claims_to_win()).saturating_sub(pos.claims(side));
    let tight = pos.shooters().iter().filter(|&s| reach_beyond_fullest_ray(pos, s) <= 1).count() as u32;
    // With claimed-block the bound holds too: a claim blocks lines, but never a line
    // along which another shooter reached an empty square (see `Position::apply_turn`).
    if tight + 1 < needed {
        return None;
    }
    let mut turns = Vec::new();
    pos.legal_turns(&mut turns);
    turns.into_iter().find(|&turn| {
        let mut next = pos.clone();
        next.play_turn_unchecked(turn);
        next.winner() == Some(side)
    })
}

/// The squares a shooter on `sq` reaches outside the ray (of its 8) where it reaches most.
fn reach_beyond_fullest_ray(pos: &Position, sq: Square) -> u32 {
    const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    let reach = pos.shooter_reach(sq);
    let mut fullest = 0;
    for (df, dr) in DIRECTIONS {
        let mut ray = Bitboard::EMPTY;
        let (mut f, mut r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        while let Some(next) = u8::try_from(f).ok().zip(u8::try_from(r).ok()).and_then(|(f, r)| Square::new(f, r)) {
            ray |= next.bitboard();
            f += df;
            r += dr;
        }
        fullest = fullest.max((ray & reach).count());
    }
    reach.count() - fullest
}

/// Whether playing `turn` lets the opponent win on the next turn (or loses at once).
pub fn hands_over_win(pos: &Position, turn: Turn) -> bool {
    let mut next = pos.clone();
    next.play_turn_unchecked(turn);
    match next.winner() {
        Some(winner) => winner != pos.side_to_move(),
        None => winning_turn(&next).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{PlayoutPolicy, Rng};

    /// Brute force: try every legal turn.
    fn slow_winning_turns(pos: &Position) -> usize {
        let mut turns = Vec::new();
        pos.legal_turns(&mut turns);
        turns
            .into_iter()
            .filter(|&t| {
                let mut next = pos.clone();
                next.play_turn_unchecked(t);
                next.winner() == Some(pos.side_to_move())
            })
            .count()
    }

    #[test]
    fn finds_a_win_exactly_when_brute_force_does() {
        let mut rng = Rng::new(99);
        let mut checked = 0;
        for size in [7u8, 9, 10] {
            for game in 0..120 {
                let all = crate::rules::Rules::all();
                let rules = all[game % all.len()];
                let variant = crate::rules::Variant::from_size(size).unwrap();
                let mut pos = crate::rules::Position::with_rules(variant, rules);
                while !pos.is_over() {
                    if pos.phase() == Phase::Play {
                        let fast = winning_turn(&pos);
                        assert_eq!(fast.is_some(), slow_winning_turns(&pos) > 0, "{pos}");
                        if let Some(t) = fast {
                            let mut next = pos.clone();
                            next.play(crate::rules::Move::Turn(t)).unwrap();
                            assert_eq!(next.winner(), Some(pos.side_to_move()));
                        }
                        checked += 1;
                    }
                    let mv = pos.random_move(&mut rng, PlayoutPolicy::Uniform).unwrap();
                    pos.play_unchecked(mv);
                }
            }
        }
        assert!(checked > 1000);
    }
}
