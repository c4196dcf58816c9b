//! The `showboard` diagram: for people, not for programs (they use `position`).

use std::fmt::Write as _;

use veletas_rules::{Color, Phase, Piece, Position, Square};

/// The letter a piece has in the diagram: the same as in the position string.
fn letter(piece: Option<Piece>) -> char {
    match piece {
        None => '.',
        Some(Piece::Shooter) => 's',
        Some(Piece::Stone(Color::Black)) => 'b',
        Some(Piece::Stone(Color::White)) => 'w',
        Some(Piece::Claimed(Color::Black)) => 'B',
        Some(Piece::Claimed(Color::White)) => 'W',
    }
}

/// Draws `position`: ranks from the top, file letters and rank numbers on all edges,
/// then a legend, the side to move and phase, and the claims. The text starts with a
/// newline (so the diagram begins on its own line after `= `) and has no empty line.
pub fn diagram(position: &Position) -> String {
    let size = position.variant().size();
    let files: String = (0..size).map(|f| format!(" {}", char::from(b'a' + f))).collect();
    let mut out = String::new();
    let _ = write!(out, "\n   {files}");
    for rank in (0..size).rev() {
        let _ = write!(out, "\n{:>2} ", rank + 1);
        for file in 0..size {
            let square = Square::new(file, rank);
            let wall = square.is_some_and(|sq| !position.on_board(sq));
            let piece = square.and_then(|sq| position.piece_at(sq));
            let _ = write!(out, " {}", if wall { ' ' } else { letter(piece) });
        }
        let _ = write!(out, "  {}", rank + 1);
    }
    let _ = write!(out, "\n   {files}");
    out.push_str("\nlegend: s shooter, b/w black/white stone, B/W shooter claimed by black/white, . empty");
    if position.rules() != veletas_rules::Rules::CLASSIC {
        let corners = if position.rules().no_corners { ", no-corners (no corner squares)" } else { "" };
        let block = if position.rules().claimed_block() { ", claimed-block (claimed shooters block)" } else { "" };
        let _ = write!(out, "\nrules: {}{corners}{block}", position.rules().set);
    }
    let side = position.side_to_move();
    match (position.winner(), position.phase()) {
        (Some(winner), _) => {
            let _ = write!(out, "\ngame over: {winner} wins");
        }
        (None, Phase::BlackSetup | Phase::WhiteSetup) => {
            let n = position.variant().setup_count(side);
            let plural = if n == 1 { "" } else { "s" };
            let stone = if position.rules().is_modern() { " and a stone" } else { "" };
            let swap = if position.swap_available() { ", or swap" } else { "" };
            let _ = write!(out, "\nto move: {side} (setup: place {n} shooter{plural}{stone}{swap})");
        }
        (None, Phase::Play) => {
            let _ = write!(out, "\nto move: {side} (play: move a shooter or not, then shoot)");
        }
    }
    let _ = write!(
        out,
        "\nclaims: black {}, white {}; {} to win",
        position.claims(Color::Black),
        position.claims(Color::White),
        position.variant().claims_to_win()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_of_a_small_position() {
        let pos: Position = "7/7/2s4/7/4s2/1s5/7 b".parse().unwrap();
        let expected = "
    a b c d e f g
 7  . . . . . . .  7
 6  . . . . . . .  6
 5  . . s . . . .  5
 4  . . . . . . .  4
 3  . . . . s . .  3
 2  . s . . . . .  2
 1  . . . . . . .  1
    a b c d e f g
legend: s shooter, b/w black/white stone, B/W shooter claimed by black/white, . empty
to move: black (play: move a shooter or not, then shoot)
claims: black 0, white 0; 2 to win";
        assert_eq!(diagram(&pos), expected);
        assert!(!diagram(&pos).contains("\n\n"));
    }

    #[test]
    fn diagram_of_a_modern_no_corners_setup() {
        let pos: Position = "7/7/7/3s3/7/7/1b5 w modern no-corners".parse().unwrap();
        let text = diagram(&pos);
        assert!(text.contains("\n 1    b . . . .    1"), "{text}");
        assert!(text.contains("\n 7    . . . . .    7"), "{text}");
        assert!(text.contains("\nrules: modern, no-corners (no corner squares)"), "{text}");
        assert!(text.contains("to move: white (setup: place 2 shooters and a stone, or swap)"), "{text}");
        assert!(!text.contains("\n\n"));
    }
}
