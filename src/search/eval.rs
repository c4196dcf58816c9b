//! Static evaluation: how likely Black is to win a position, from its claims and the
//! state of each unclaimed shooter.

use crate::rules::{Bitboard, Color, Position, group_of};

/// How close a shooter with this many empty neighbours is to being claimed (index =
/// empty neighbours, 1..=8).
const IMMINENCE: [f64; 9] = [1.0, 0.95, 0.7, 0.5, 0.38, 0.3, 0.24, 0.2, 0.17];

/// Scale from expected claim difference to win probability.
const CLAIM_SCALE: f64 = 1.1;

/// The biggest group of each colour orthogonally adjacent to `adjacent`'s squares,
/// computed with flood fills over the stones.
fn biggest_groups(pos: &Position, adjacent: Bitboard) -> [u32; 2] {
    Color::ALL.map(|color| {
        let stones = pos.stones(color);
        let mut todo = adjacent & stones;
        let mut best = 0;
        while let Some(start) = todo.first() {
            let group = group_of(start, stones);
            best = best.max(group.count());
            todo &= !group;
        }
        best
    })
}

/// The probability that Black wins, in `(0, 1)`, or exactly 0 or 1 once the game is over.
pub fn evaluate(pos: &Position) -> f64 {
    if let Some(winner) = pos.winner() {
        return if winner == Color::Black { 1.0 } else { 0.0 };
    }
    let side = pos.side_to_move();
    let empty = pos.empty_squares();
    let mut expected_black = f64::from(pos.claims(Color::Black));
    let mut expected_white = f64::from(pos.claims(Color::White));
    for shooter in pos.shooters() {
        let libs = (shooter.bitboard().neighbours() & empty).count() as usize;
        let [black, white] = biggest_groups(pos, shooter.bitboard().orthogonal_neighbours());
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
            0.5 + 0.5 * (0.6 * diff).tanh() * IMMINENCE[libs.min(8)]
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
