//! One position as an SVG picture: the board, its coordinates, the pieces, the last turn
//! and a status band (side to move, claims).
//!
//! The picture is built from a few parts that the HTML viewer ([`super::viewer`]) reuses
//! as they are: the shared `<defs>` ([`defs`]), the empty board of a size and rules
//! ([`frame`]), one template per piece drawn around the origin ([`piece_template`]) and
//! one per square mark of the last turn ([`mark_template`]), placed with `translate` at
//! the centre of their square ([`Layout::center`]). The viewer's JavaScript places the
//! same templates at the same centres, so the page and `veletas render` draw alike.
//!
//! Readable without colour: stones are circles (black, or white with a dark outline),
//! shooters are red diamonds, a claimed shooter carries a small stone of the claimer's
//! colour, the last turn is outlined (dashed where the shooter came from, solid where it
//! went and where it shot) with an arrow for the move and a dotted line for the shot.

use std::fmt::Write as _;

use super::html_escape;
use veletas_rules::{Bitboard, Color, Move, Phase, Piece, Position, Rules, Square, Variant};

/// The side of a square in the picture's own units (the `viewBox`).
pub const CELL: u32 = 40;
/// The room left of and below the board for the coordinates.
const COORDINATE_MARGIN: u32 = 28;
/// The room around the board on the sides without coordinates.
const PAD: u32 = 8;
/// The height of one line of the status band.
const STATUS_LINE: u32 = 20;

/// The colour of the last turn's marks.
pub const MARK_COLOUR: &str = "#1f5fbf";

/// How to draw a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// The picture's width in pixels (its height follows).
    pub width: u32,
    /// Whether to write the file letters and rank numbers.
    pub coordinates: bool,
    /// Whether to add the status band below the board (side to move, claims, notes).
    pub status: bool,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions { width: 480, coordinates: true, status: true }
    }
}

/// Where things go: the board of a size, with or without coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    size: u32,
    coordinates: bool,
}

impl Layout {
    /// The layout of a `size` x `size` board.
    pub fn new(size: u8, coordinates: bool) -> Layout {
        Layout { size: u32::from(size), coordinates }
    }

    /// The x of the board's left edge.
    pub fn left(self) -> u32 {
        if self.coordinates { COORDINATE_MARGIN } else { PAD }
    }

    /// The y of the board's top edge.
    pub fn top(self) -> u32 {
        PAD
    }

    /// The width of the whole picture.
    pub fn width(self) -> u32 {
        self.left() + self.size * CELL + PAD
    }

    /// The height of the board with its coordinates, without a status band.
    pub fn board_height(self) -> u32 {
        self.top() + self.size * CELL + if self.coordinates { COORDINATE_MARGIN } else { PAD }
    }

    /// The top-left corner of `sq` (rank 1 at the bottom, file `a` on the left).
    pub fn corner(self, sq: Square) -> (u32, u32) {
        let x = self.left() + u32::from(sq.file()) * CELL;
        let y = self.top() + (self.size - 1 - u32::from(sq.rank())) * CELL;
        (x, y)
    }

    /// The centre of `sq`.
    pub fn center(self, sq: Square) -> (u32, u32) {
        let (x, y) = self.corner(sq);
        (x + CELL / 2, y + CELL / 2)
    }
}

/// The definitions every picture uses: the hatching of missing corners and the arrowhead.
pub fn defs() -> String {
    format!(
        "<defs><pattern id=\"veletas-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#ffffff\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#9a9a9a\" stroke-width=\"3\"/></pattern>\
         <marker id=\"veletas-arrow\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"3.2\" \
         markerHeight=\"3.2\" orient=\"auto\"><path d=\"M0,0L10,5L0,10Z\" fill=\"{MARK_COLOUR}\"/></marker></defs>"
    )
}

/// The empty board of `variant` under `rules`: squares, grid, the missing corners under
/// `no-corners` (hatched, outside the board's outline) and, in `layout`, the coordinates.
pub fn frame(variant: Variant, rules: Rules, layout: Layout) -> String {
    let n = u32::from(variant.size());
    let (left, top, side) = (layout.left(), layout.top(), n * CELL);
    let mut out = String::new();
    let _ = write!(
        out,
        "<rect class=\"board\" x=\"{left}\" y=\"{top}\" width=\"{side}\" height=\"{side}\" fill=\"#f0dcb4\"/>"
    );
    let mut grid = String::new();
    for i in 1..n {
        let _ = write!(grid, "M{} {top}V{}M{left} {}H{}", left + i * CELL, top + side, top + i * CELL, left + side);
    }
    let _ = write!(out, "<path class=\"grid\" d=\"{grid}\" stroke=\"#8c7450\" stroke-width=\"1\" fill=\"none\"/>");
    let _ = write!(
        out,
        "<rect class=\"edge\" x=\"{left}\" y=\"{top}\" width=\"{side}\" height=\"{side}\" fill=\"none\" \
         stroke=\"#5b4528\" stroke-width=\"2\"/>"
    );
    if rules.no_corners {
        for sq in variant.corners() {
            let (x, y) = layout.corner(sq);
            let _ = write!(
                out,
                "<rect class=\"missing-corner\" data-square=\"{sq}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" \
                 height=\"{CELL}\" fill=\"url(#veletas-hatch)\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
            );
        }
    }
    if layout.coordinates {
        out.push_str(
            "<g class=\"coordinates\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"15\" \
             fill=\"#333333\" text-anchor=\"middle\">",
        );
        let below = top + side + 19;
        for file in 0..n {
            let x = left + file * CELL + CELL / 2;
            let _ = write!(out, "<text x=\"{x}\" y=\"{below}\">{}</text>", char::from(b'a' + file as u8));
        }
        for rank in 0..n {
            let y = top + (n - 1 - rank) * CELL + CELL / 2 + 5;
            let _ = write!(out, "<text x=\"{}\" y=\"{y}\">{}</text>", left / 2, rank + 1);
        }
        out.push_str("</g>");
    }
    out
}

/// The letter of a piece in the position string (`s`, `b`, `w`, `B`, `W`).
pub fn piece_letter(piece: Piece) -> char {
    match piece {
        Piece::Shooter => 's',
        Piece::Stone(Color::Black) => 'b',
        Piece::Stone(Color::White) => 'w',
        Piece::Claimed(Color::Black) => 'B',
        Piece::Claimed(Color::White) => 'W',
    }
}

/// Every piece, in the order of [`piece_letter`]'s letters `s`, `b`, `w`, `B`, `W`.
pub const PIECES: [Piece; 5] = [
    Piece::Shooter,
    Piece::Stone(Color::Black),
    Piece::Stone(Color::White),
    Piece::Claimed(Color::Black),
    Piece::Claimed(Color::White),
];

const SHOOTER: &str = "<path d=\"M0,-17L17,0L0,17L-17,0Z\" fill=\"#d2302c\" stroke=\"#4d0a08\" stroke-width=\"2\" \
                       stroke-linejoin=\"round\"/>";

/// The class attribute of a piece's group: `piece stone black`, `piece shooter`,
/// `piece shooter claimed white`...
pub fn piece_class(piece: Piece) -> String {
    match piece {
        Piece::Shooter => "piece shooter".to_string(),
        Piece::Stone(c) => format!("piece stone {c}"),
        Piece::Claimed(c) => format!("piece shooter claimed {c}"),
    }
}

/// A piece drawn around the origin (the centre of its square).
pub fn piece_template(piece: Piece) -> String {
    let stone = |color: Color, r: f32, width: f32| match color {
        Color::Black => format!("<circle r=\"{r}\" fill=\"#1c1c1c\" stroke=\"#ffffff\" stroke-width=\"{width}\"/>"),
        Color::White => format!("<circle r=\"{r}\" fill=\"#fbfbf8\" stroke=\"#1c1c1c\" stroke-width=\"{width}\"/>"),
    };
    match piece {
        Piece::Shooter => SHOOTER.to_string(),
        Piece::Stone(Color::Black) => {
            "<circle r=\"15.5\" fill=\"#1c1c1c\" stroke=\"#000000\" stroke-width=\"1.5\"/>".to_string()
        }
        Piece::Stone(Color::White) => stone(Color::White, 15.0, 2.0),
        Piece::Claimed(c) => format!("{SHOOTER}{}", stone(c, 8.5, 1.6)),
    }
}

/// The marks of the last turn on a square, drawn around the origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareMark {
    /// Where the shooter came from: a dashed outline.
    From,
    /// Where the shooter went, where it shot, or a square of a setup: a solid outline.
    To,
}

impl SquareMark {
    /// The mark's name, used as its class.
    pub fn name(self) -> &'static str {
        match self {
            SquareMark::From => "from",
            SquareMark::To => "to",
        }
    }
}

/// A square mark drawn around the origin.
pub fn mark_template(mark: SquareMark) -> String {
    let dash = if mark == SquareMark::From { " stroke-dasharray=\"5 4\"" } else { "" };
    format!(
        "<rect x=\"-18\" y=\"-18\" width=\"36\" height=\"36\" rx=\"3\" fill=\"{MARK_COLOUR}\" fill-opacity=\"0.16\" \
         stroke=\"{MARK_COLOUR}\" stroke-width=\"2.5\"{dash}/>"
    )
}

/// The attributes of the arrow of a shooter's move (`class` first).
pub const MOVE_LINE: &str = "class=\"path move\" stroke=\"#1f5fbf\" stroke-width=\"4\" stroke-linecap=\"round\" \
                             stroke-opacity=\"0.85\" marker-end=\"url(#veletas-arrow)\"";
/// The attributes of the dotted line of a shot (`class` first).
pub const SHOT_LINE: &str = "class=\"path shot\" stroke=\"#1f5fbf\" stroke-width=\"3\" stroke-linecap=\"round\" \
                             stroke-dasharray=\"0.1 7\" stroke-opacity=\"0.9\"";
/// How far from the centres the move's arrow stops at each end (start, end): it starts
/// in the emptied square and stops at the edge of the shooter.
pub const MOVE_INSET: (u32, u32) = (6, 20);
/// How far from the centres the shot's line stops: from the shooter's edge to the stone's.
pub const SHOT_INSET: (u32, u32) = (19, 17);
/// The shortest lines drawn, once shortened (move, shot): an arrow to a neighbouring
/// square is drawn, a dotted shot at a neighbouring square is not.
pub const MIN_LINE: (u32, u32) = (4, 24);

/// A line from the centre of `from` to the centre of `to`, shortened at both ends by
/// `inset`; nothing when shorter than `min` once shortened.
fn line(layout: Layout, from: Square, to: Square, inset: (u32, u32), min: u32, attributes: &str) -> String {
    let ((x1, y1), (x2, y2)) = (layout.center(from), layout.center(to));
    let (dx, dy) = (f64::from(x2) - f64::from(x1), f64::from(y2) - f64::from(y1));
    let length = dx.hypot(dy);
    if length - f64::from(inset.0 + inset.1) < f64::from(min) {
        return String::new();
    }
    let (start, end) = (f64::from(inset.0) / length, f64::from(inset.1) / length);
    let at = |t: f64| (f64::from(x1) + dx * t, f64::from(y1) + dy * t);
    let ((ax, ay), (bx, by)) = (at(start), at(1.0 - end));
    format!("<line {attributes} x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\"/>")
}

/// The squares a turn marks, and the lines it draws: (marks, lines).
pub fn last_turn(layout: Layout, mv: &Move) -> (String, String) {
    let mut marks = String::new();
    let mut lines = String::new();
    let mut mark = |sq: Square, mark: SquareMark| {
        let (x, y) = layout.center(sq);
        let _ = write!(
            marks,
            "<g class=\"mark {}\" data-square=\"{sq}\" transform=\"translate({x} {y})\">{}</g>",
            mark.name(),
            mark_template(mark)
        );
    };
    // Setup squares in notation order (by file, then rank), as the move is written.
    let in_notation_order = |squares: Bitboard| {
        let mut list: Vec<Square> = squares.iter().collect();
        list.sort_by_key(|sq| sq.file_major_key());
        list
    };
    match *mv {
        Move::Setup(squares) => in_notation_order(squares).into_iter().for_each(|sq| mark(sq, SquareMark::To)),
        Move::SetupWithStone { shooters, stone } => {
            in_notation_order(shooters).into_iter().for_each(|sq| mark(sq, SquareMark::To));
            mark(stone, SquareMark::To);
        }
        Move::Swap => {}
        Move::Turn(turn) => {
            if let Some((from, to)) = turn.shooter_move() {
                mark(from, SquareMark::From);
                mark(to, SquareMark::To);
                lines.push_str(&line(layout, from, to, MOVE_INSET, MIN_LINE.0, MOVE_LINE));
                lines.push_str(&line(layout, to, turn.shot(), SHOT_INSET, MIN_LINE.1, SHOT_LINE));
            }
            mark(turn.shot(), SquareMark::To);
        }
    }
    (marks, lines)
}

/// The pieces of `position`, each a group with its class, square and letter.
pub fn pieces(position: &Position, layout: Layout) -> String {
    let mut out = String::new();
    for sq in position.variant().board() {
        if let Some(piece) = position.piece_at(sq) {
            let (x, y) = layout.center(sq);
            let _ = write!(
                out,
                "<g class=\"{}\" data-square=\"{sq}\" data-piece=\"{}\" transform=\"translate({x} {y})\">{}</g>",
                piece_class(piece),
                piece_letter(piece),
                piece_template(piece)
            );
        }
    }
    out
}

fn capitalized(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The lines of the status band: who is to move (or has won), the claims, and notes
/// (rules other than classic, White's swap).
pub fn status_lines(position: &Position, last: Option<&Move>) -> Vec<String> {
    let side = capitalized(position.side_to_move());
    let first = match (position.winner(), position.phase()) {
        (Some(winner), _) => format!("{} wins", capitalized(winner)),
        (None, Phase::BlackSetup | Phase::WhiteSetup) => format!("{side} to move (setup)"),
        (None, Phase::Play) => format!("{side} to move"),
    };
    let claims = format!(
        "Claims: Black {}, White {} ({} to win)",
        position.claims(Color::Black),
        position.claims(Color::White),
        position.variant().claims_to_win()
    );
    let mut lines = vec![first, claims];
    let mut notes = Vec::new();
    let rules = position.rules();
    if rules != Rules::CLASSIC {
        notes.push(rules.label());
    }
    if last == Some(&Move::Swap) {
        notes.push("White swapped".to_string());
    }
    if !notes.is_empty() {
        lines.push(notes.join(", "));
    }
    lines
}

/// The picture of `position`, with `last` (the turn that led to it) marked if given.
pub fn render(position: &Position, last: Option<&Move>, options: &SvgOptions) -> String {
    let variant = position.variant();
    let layout = Layout::new(variant.size(), options.coordinates);
    let status = if options.status { status_lines(position, last) } else { Vec::new() };
    let status_height = if status.is_empty() { 0 } else { STATUS_LINE * status.len() as u32 + 6 };
    let (w, h) = (layout.width(), layout.board_height() + status_height);
    let pixels_high = (u64::from(options.width) * u64::from(h)).div_ceil(u64::from(w));
    let title = format!("Veletas {0}x{0}: {1}", variant.size(), status.first().cloned().unwrap_or_default());
    let mut out = String::with_capacity(8192);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"veletas-board\" width=\"{}\" height=\"{pixels_high}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\">\n<title>{}</title>\n<desc>{}</desc>\n",
        options.width,
        html_escape(&title),
        html_escape(&position.to_string())
    );
    let _ = writeln!(out, "<rect class=\"background\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
    let _ = writeln!(out, "{}", defs());
    let _ = writeln!(out, "{}", frame(variant, position.rules(), layout));
    let (marks, lines) = last.map(|mv| last_turn(layout, mv)).unwrap_or_default();
    let _ = writeln!(out, "<g class=\"marks\">{marks}</g>");
    let _ = writeln!(out, "<g class=\"pieces\">{}</g>", pieces(position, layout));
    let _ = writeln!(out, "<g class=\"lines\" fill=\"none\">{lines}</g>");
    if !status.is_empty() {
        let _ = write!(
            out,
            "<g class=\"status\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"15\" \
             fill=\"#222222\">"
        );
        let base = layout.board_height() + if options.coordinates { 2 } else { 6 };
        for (i, text) in status.iter().enumerate() {
            let y = base + STATUS_LINE * (i as u32 + 1) - 5;
            let weight = if i == 0 { " font-weight=\"bold\"" } else { "" };
            let _ = write!(out, "<text x=\"{}\" y=\"{y}\"{weight}>{}</text>", layout.left(), html_escape(text));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_one_is_at_the_bottom_and_file_a_on_the_left() {
        let layout = Layout::new(7, true);
        let a1 = layout.center("a1".parse().unwrap());
        let g7 = layout.center("g7".parse().unwrap());
        assert!(a1.0 < g7.0 && a1.1 > g7.1, "{a1:?} {g7:?}");
        assert_eq!(layout.corner("a7".parse().unwrap()), (layout.left(), layout.top()));
    }

    #[test]
    fn the_height_follows_the_width() {
        let position = Position::new(Variant::STANDARD);
        let svg = render(&position, None, &SvgOptions { width: 200, ..SvgOptions::default() });
        assert!(svg.contains("width=\"200\""), "{svg}");
    }
}
