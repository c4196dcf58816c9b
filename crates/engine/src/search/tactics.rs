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
//! liberties above do not apply: there the shot cuts a whole ray and the destination
//! fills one square, so a turn can only trap a shooter whose reach after the move lies on
//! one ray, and only by a shot on that ray's nearest square (see
//! `modern_winning_turn`). The same holds with `claimed-block`, where claimed shooters
//! block lines.

use veletas_rules::{Bitboard, Phase, Position, Square, Turn, group_of, nearest_on_ray, off_fullest_ray, queen_reach};

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
        let libs = s.neighbours() & empty;
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
    // A shot without a move can only win into a last liberty, and every last liberty is
    // a shot without a move: its own shooter, next to it, reaches it.
    if let Some(turn) = single.iter().map(Turn::shot_only).find(|&t| wins(t)) {
        return Some(turn);
    }
    let libs = single | double;
    let tight = Tight::new(empty, single, libs);
    for from in pos.shooters() {
        let vacated = blockers ^ from.bitboard();
        let sees_single = tight.sees_single(vacated);
        for to in queen_reach(from, blockers) & tight.destinations(from, sees_single) {
            let after = vacated | to.bitboard();
            let own = to.neighbours() & pos.variant().board() & !after;
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
                    if s != from && (s.neighbours() & empty & !to.bitboard()).is_empty() {
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
                if t.is_empty() || (t == single && !sees_single.contains(to)) {
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

/// What the classic winning-turn search knows of the shooters' liberties before trying
/// moves, to pass over the destinations that cannot win.
struct Tight {
    /// The last liberties of shooters with one empty neighbour.
    single: Bitboard,
    /// The liberties of shooters with one or two empty neighbours.
    libs: Bitboard,
    /// Squares with two or more empty neighbours, and with none.
    crowded: Bitboard,
    lonely: Bitboard,
}

impl Tight {
    fn new(empty: Bitboard, single: Bitboard, libs: Bitboard) -> Tight {
        Tight { single, libs, crowded: empty.neighbours_twice(), lonely: !empty.neighbours() }
    }

    /// The squares from which a shot reaches a last liberty with `vacated` the line
    /// blockers (a line is open both ways: a shot from T reaches Q exactly when one from
    /// Q would reach T).
    fn sees_single(&self, vacated: Bitboard) -> Bitboard {
        let mut sees = Bitboard::EMPTY;
        for q in self.single {
            sees |= queen_reach(q, vacated);
        }
        sees
    }

    /// The destinations of `from`'s moves that may win (`sees_single`: of the position
    /// with `from` vacated): a liberty, one that leaves the moved shooter at most one
    /// empty neighbour (it had at most one, or none next to the vacated origin), or one
    /// whose shot reaches a last liberty. From any other the shot would have to close a
    /// last liberty it cannot reach.
    fn destinations(&self, from: Square, sees_single: Bitboard) -> Bitboard {
        let near_from = from.neighbours();
        let low = (!self.crowded & !near_from) | (self.lonely & near_from);
        self.libs | sees_single | low
    }
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

/// The modern rules' winning turn. A shooter there is trapped when no empty square is
/// left along its lines (shooters are passed over), and a turn fills two squares: the
/// moved shooter's destination (which blocks nothing) and the shot (which cuts its ray
/// beyond). So a shooter the turn traps is one whose reach after the move is empty, or
/// lies on one ray, cut by a shot on its nearest square. For each move only those shots
/// are played out, plus, when the move alone traps a shooter, the shots that grow a group
/// of ours next to it and one other shot (any other gives the same claims). The moved
/// shooter shoots from its destination, so it is trapped only by its own cutting shot.
fn modern_winning_turn(pos: &Position) -> Option<Turn> {
    let side = pos.side_to_move();
    let needed = u32::from(pos.variant().claims_to_win()).saturating_sub(pos.claims(side));
    let shooters = pos.shooters();
    let empty = pos.empty_squares();
    // Blockers do not change in a turn's move: only stones (and, with claimed-block,
    // claimed shooters) block, and the moved shooter is unclaimed.
    let blockers = pos.blockers();
    // Filling one square takes at most one square off a shooter's reach outside the ray
    // the shot cuts, and vacating the origin only adds to it: only these can be trapped
    // without being moved.
    let mut tight = Bitboard::EMPTY;
    let mut unmoved = Bitboard::EMPTY;
    for s in shooters {
        let reach = pos.shooter_reach(s);
        unmoved |= reach;
        if off_fullest_ray(s, reach) <= 1 {
            tight |= s.bitboard();
        }
    }
    // With claimed-block the bound holds too: a claim blocks lines, but never a line
    // along which another shooter reached an empty square (see `Position::apply_turn`).
    if tight.count() + 1 < needed {
        return None;
    }
    let wins = |turn: Turn| {
        let mut next = pos.clone();
        next.play_turn_unchecked(turn);
        next.winner() == Some(side)
    };
    let ours = pos.stones(side);
    // The shots worth playing out, from `shots`, after a move that leaves `empty_after`
    // and puts a shooter on `moved` (the other tight shooters are `others`).
    let candidates = |others: Bitboard, moved: Option<Square>, empty_after: Bitboard, shots: Bitboard| {
        let mut cutting = Bitboard::EMPTY;
        let mut trapped = Bitboard::EMPTY;
        for s in others.iter().chain(moved) {
            let reach = queen_reach(s, blockers) & empty_after;
            match nearest_on_ray(s, reach) {
                Some(q) => cutting |= q.bitboard(),
                None if reach.is_empty() => trapped |= s.bitboard(),
                None => {}
            }
        }
        let mut wanted = cutting & shots;
        if !trapped.is_empty() {
            // Claims go to the biggest orthogonal group: our shot can only change them by
            // growing one of our groups next to a trapped shooter (or starting one there).
            let mut touching = trapped;
            for start in trapped.orthogonal_neighbours() & ours {
                touching |= group_of(start, ours);
            }
            wanted |= shots & touching.orthogonal_neighbours();
            wanted |= (shots & !wanted).first().map_or(Bitboard::EMPTY, Square::bitboard);
        }
        wanted
    };
    let shots = candidates(tight, None, empty, unmoved);
    if let Some(turn) = shots.iter().map(Turn::shot_only).find(|&t| wins(t)) {
        return Some(turn);
    }
    for from in shooters {
        let others = tight & !from.bitboard();
        for to in pos.shooter_reach(from) {
            let empty_after = (empty | from.bitboard()) & !to.bitboard();
            let shots = queen_reach(to, blockers) & empty_after;
            let wanted = candidates(others, Some(to), empty_after, shots);
            if let Some(turn) = wanted.iter().map(|q| Turn::with_move(from, to, q)).find(|&t| wins(t)) {
                return Some(turn);
            }
        }
    }
    None
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
    use veletas_rules::{PlayoutPolicy, Rng};

    /// On every position of random classic games, a destination is kept exactly when the
    /// move leaves its shooter at most one empty neighbour, lands on a liberty of a
    /// shooter with one or two, or its shot reaches a last liberty.
    #[test]
    fn the_destinations_kept_are_those_that_may_close_a_shooter() {
        let mut rng = Rng::new(17);
        let (mut kept, mut passed) = (0, 0);
        for start in ["7/7/2s4/7/4s2/1s5/7 b", "9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b"] {
            for _ in 0..20 {
                let mut pos: Position = start.parse().unwrap();
                while !pos.is_over() {
                    let empty = pos.empty_squares();
                    let (mut single, mut double) = (Bitboard::EMPTY, Bitboard::EMPTY);
                    for s in pos.shooters() {
                        let libs = s.neighbours() & empty;
                        match libs.count() {
                            1 => single |= libs,
                            2 => double |= libs,
                            _ => {}
                        }
                    }
                    let tight = Tight::new(empty, single, single | double);
                    let blockers = pos.blockers();
                    for from in pos.shooters() {
                        let vacated = blockers ^ from.bitboard();
                        let keep = tight.destinations(from, tight.sees_single(vacated));
                        for to in queen_reach(from, blockers) {
                            let free_after =
                                (to.neighbours() & pos.variant().board() & !(vacated | to.bitboard())).count();
                            let may = free_after <= 1
                                || (single | double).contains(to)
                                || !(queen_reach(to, vacated) & single).is_empty();
                            assert_eq!(keep.contains(to), may, "{pos}: {from}-{to}");
                            if may { kept += 1 } else { passed += 1 }
                        }
                    }
                    let turn = pos.random_turn(&mut rng, PlayoutPolicy::Cheap).unwrap();
                    pos.play_turn_unchecked(turn);
                }
            }
        }
        assert!(kept > 1000 && passed > 1000, "{kept} kept, {passed} passed over");
    }

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
                let all = veletas_rules::Rules::all();
                let rules = all[game % all.len()];
                let variant = veletas_rules::Variant::from_size(size).unwrap();
                let mut pos = veletas_rules::Position::with_rules(variant, rules);
                while !pos.is_over() {
                    if pos.phase() == Phase::Play {
                        let fast = winning_turn(&pos);
                        assert_eq!(fast.is_some(), slow_winning_turns(&pos) > 0, "{pos}");
                        if let Some(t) = fast {
                            let mut next = pos.clone();
                            next.play(veletas_rules::Move::Turn(t)).unwrap();
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
