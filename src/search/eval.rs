//! Static evaluation: how likely Black is to win a position, from its claims and the
//! state of each unclaimed shooter.

use crate::rules::{Bitboard, Color, Position, group_of};

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

/// The probability that Black wins, in `(0, 1)`, or exactly 0 or 1 once the game is over.
pub fn evaluate(pos: &Position) -> f64 {
    if let Some(winner) = pos.winner() {
        return if winner == Color::Black { 1.0 } else { 0.0 };
    }
    let side = pos.side_to_move();
    let empty = pos.empty_squares();
    let modern = pos.rules().is_modern();
    let mut expected_black = f64::from(pos.claims(Color::Black));
    let mut expected_white = f64::from(pos.claims(Color::White));
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
    let x = CLAIM_SCALE * urgency * (expected_black - expected_white);
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation from the point of view of `color`.
pub fn evaluate_for(pos: &Position, color: Color) -> f64 {
    let p = evaluate(pos);
    if color == Color::Black { p } else { 1.0 - p }
}
