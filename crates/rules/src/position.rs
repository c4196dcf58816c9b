//! The position: pieces on the board, claims, side to move; legality and playing turns.

use std::fmt;

use crate::bitboard::{Bitboard, between, lines_through, queen_reach};
use crate::color::Color;
use crate::facts::{bit_of, facts, neighbours_of};
use crate::lines::Lines;
use crate::moves::{Move, Turn};
use crate::ruleset::Rules;
use crate::square::Square;
use crate::variant::Variant;

/// The stage of the game a position is in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Black is to place its shooters (and, in the modern rules, a stone).
    BlackSetup,
    /// White is to place its shooters (and, in the modern rules, a stone, unless it swaps).
    WhiteSetup,
    /// All shooters are placed: players move and shoot (the game may be over).
    Play,
}

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// An unclaimed shooter.
    Shooter,
    /// A stone of a colour (part of that colour's groups).
    Stone(Color),
    /// A shooter claimed by a colour.
    Claimed(Color),
}

/// A position of Veletas. Build it with [`Position::new`], [`Position::with_rules`],
/// [`Position::random_start`] or by parsing a position string ([`std::str::FromStr`]);
/// all of them only give reachable kinds of position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    stones: [Bitboard; 2],
    shooters: Bitboard,
    claimed: [Bitboard; 2],
    /// What blocks a queen line under the modern rules: the walls (squares off the
    /// board, and the corners with `no-corners`) and the stones, and with `claimed-block`
    /// the claimed shooters. Empty (and never updated) under the classic rules, where
    /// every filled square blocks: [`Position::blockers`] is then `filled`.
    blockers: Bitboard,
    /// Every square that cannot be landed on: the walls and every piece.
    filled: Bitboard,
    /// The blocked and filled squares, one occupancy word per line.
    lines: Lines,
    variant: Variant,
    rules: Rules,
    /// Whether White may still swap (modern rules, White's setup turn only).
    swap_available: bool,
    side_to_move: Color,
}

/// Why a turn is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A play turn during setup.
    #[error(
        "a play turn during setup: {0} must place {1} shooter{s} first (a setup turn lists squares, e.g. 'd4')",
        s = if *.1 == 1 { "" } else { "s" }
    )]
    SetupExpected(Color, u8),
    /// A setup turn after setup.
    #[error("setup is over: expected a play turn")]
    PlayExpected,
    /// A square not on the board in use.
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(Square, u8),
    /// A setup turn with the wrong number of shooters.
    #[error("{0} places {1} shooters, not {2}")]
    SetupCount(Color, u8, u32),
    /// A shooter placed next to another.
    #[error("shooters on {0} and {1} would be adjacent")]
    Adjacent(Square, Square),
    /// A move from a square without an unclaimed shooter.
    #[error("there is no shooter on {0}")]
    NoShooter(Square),
    /// A move of a claimed shooter.
    #[error("the shooter on {0} is claimed")]
    ClaimedShooter(Square),
    /// A move or shot onto an occupied square.
    #[error("{0} is not empty")]
    Occupied(Square),
    /// A move that is not along a queen line.
    #[error("{1} is not on a line from {0}")]
    NotOnLine(Square, Square),
    /// A move whose path crosses a piece.
    #[error("the path from {0} to {1} is blocked at {2}")]
    PathBlocked(Square, Square, Square),
    /// A shot whose path crosses a piece.
    #[error("the shot from {0} to {1} is blocked at {2}")]
    ShotBlocked(Square, Square, Square),
    /// A shot without a move that no shooter can make.
    #[error("no unclaimed shooter has a clear line to {0}")]
    NoShooterSees(Square),
    /// A corner square with the `no-corners` option.
    #[error("{0} is a corner, which does not exist with no-corners")]
    MissingCorner(Square),
    /// A modern setup shooter on the edge of the board.
    #[error("{0} is on the edge: setup shooters must stand off the edge")]
    ShooterOnEdge(Square),
    /// A classic setup turn (shooters only) under the modern rules.
    #[error("{0} places {1} shooters and a stone, written shooters/stone")]
    StoneExpected(Color, u8),
    /// A setup turn with a stone under the classic rules.
    #[error("the classic rules place no stone during setup")]
    NoSetupStone,
    /// A swap anywhere but White's first setup turn of the modern rules.
    #[error("swap is only possible in White's setup turn of the modern rules, once")]
    SwapUnavailable,
}

impl Position {
    /// The empty board of a variant under the classic rules: Black to place its shooters.
    pub fn new(variant: Variant) -> Position {
        Position::with_rules(variant, Rules::CLASSIC)
    }

    /// The empty board of a variant under `rules`: Black to place its shooters.
    pub fn with_rules(variant: Variant, rules: Rules) -> Position {
        let none = [Bitboard::EMPTY; 2];
        Position::from_parts(variant, rules, false, none, Bitboard::EMPTY, none, Color::Black)
    }

    /// Assembles a position from its parts. The caller (the position-string parser, or
    /// a constructor) has checked that they form a reachable kind of position.
    pub(crate) fn from_parts(
        variant: Variant,
        rules: Rules,
        swap_available: bool,
        stones: [Bitboard; 2],
        shooters: Bitboard,
        claimed: [Bitboard; 2],
        side_to_move: Color,
    ) -> Position {
        let walls = walls_of(variant, rules);
        let filled = stones[0] | stones[1] | shooters | claimed[0] | claimed[1] | walls;
        let blockers = match (rules.is_modern(), rules.claimed_block()) {
            (false, _) => Bitboard::EMPTY,
            (true, false) => stones[0] | stones[1] | walls,
            (true, true) => stones[0] | stones[1] | claimed[0] | claimed[1] | walls,
        };
        Position {
            stones,
            shooters,
            claimed,
            blockers,
            filled,
            lines: Lines::new(if rules.is_modern() { blockers } else { filled }, filled, rules.is_modern()),
            variant,
            rules,
            swap_available,
            side_to_move,
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rules being played.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether White may swap now (modern rules, White's setup turn, not swapped yet).
    pub fn swap_available(&self) -> bool {
        self.swap_available
    }

    /// The squares that are never played on: off this variant's board, and the four
    /// corners with the `no-corners` option.
    pub fn walls(&self) -> Bitboard {
        walls_of(self.variant, self.rules)
    }

    /// The player whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The stones of `color` (claim markers not included).
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// The unclaimed shooters.
    pub fn shooters(&self) -> Bitboard {
        self.shooters
    }

    /// The shooters claimed by `color`.
    pub fn claimed(&self, color: Color) -> Bitboard {
        self.claimed[color.index()]
    }

    /// The number of shooters claimed by `color`.
    pub fn claims(&self, color: Color) -> u32 {
        self.claimed[color.index()].count()
    }

    /// The empty squares of the board (corners excluded with `no-corners`).
    pub fn empty_squares(&self) -> Bitboard {
        self.variant.board() & !self.filled
    }

    /// What blocks a queen line: the walls (see [`Position::walls`]) and the stones,
    /// in the classic rules every shooter too, and with `claimed-block` the claimed
    /// shooters. The squares a shooter reaches are [`Position::shooter_reach`].
    #[inline]
    pub fn blockers(&self) -> Bitboard {
        if self.rules.is_modern() { self.blockers } else { self.filled }
    }

    /// The empty squares a shooter on `sq` reaches along its 8 lines: up to the first
    /// blocker, landing only on empty squares (so, in the modern rules, passing over
    /// shooters). Also the shots without a move from `sq`.
    #[inline]
    pub fn shooter_reach(&self, sq: Square) -> Bitboard {
        queen_reach(sq, self.blockers()) & !self.filled
    }

    /// The number of squares in [`Position::shooter_reach`], from the per-line tables.
    #[inline]
    pub fn reach_count(&self, sq: Square) -> u32 {
        self.lines.reach(sq).count()
    }

    /// The shots after the shooter on `from` moves to `to`: its reach from `to` once
    /// `from` is empty.
    #[inline]
    pub fn shots_after_move(&self, from: Square, to: Square) -> Bitboard {
        let vacated = !from.bitboard();
        queen_reach(to, self.blockers() & vacated) & !(self.filled & vacated)
    }

    /// The number of shots after the shooter on `from` moves to `to` (the count of
    /// [`Position::shots_after_move`]), from the per-line tables: four lookups instead of
    /// the queen lines of a bitboard.
    #[inline]
    pub fn shots_after_move_count(&self, from: Square, to: Square) -> u32 {
        if self.lines.passable() {
            self.lines.reach_without_of::<true>(to, from).count()
        } else {
            self.lines.reach_without_of::<false>(to, from).count()
        }
    }

    /// Whether an unclaimed shooter on `sq` would be claimed now: in the classic rules
    /// no empty neighbour, in the modern rules no legal move (no empty square on its
    /// lines before a stone or a wall, or with `claimed-block` a claimed shooter).
    /// Walls and corners count as occupied.
    #[inline]
    pub fn is_immobilized(&self, sq: Square) -> bool {
        if self.rules.is_modern() { self.lines.reaches_nothing(sq) } else { is_trapped(sq, !self.filled) }
    }

    /// The blocked squares as per-line occupancy words.
    pub(crate) fn lines(&self) -> &Lines {
        &self.lines
    }

    /// What stands on `sq`, if anything.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.shooters.contains(sq) {
            return Some(Piece::Shooter);
        }
        for color in Color::ALL {
            if self.stones(color).contains(sq) {
                return Some(Piece::Stone(color));
            }
            if self.claimed(color).contains(sq) {
                return Some(Piece::Claimed(color));
            }
        }
        None
    }

    /// The stage of the game, which follows from the shooters on the board.
    pub fn phase(&self) -> Phase {
        let placed = (self.shooters | self.claimed[0] | self.claimed[1]).count();
        if placed == 0 {
            Phase::BlackSetup
        } else if placed < u32::from(self.variant.shooters()) {
            Phase::WhiteSetup
        } else {
            Phase::Play
        }
    }

    /// The winner, once a player holds a majority of the shooters.
    pub fn winner(&self) -> Option<Color> {
        let need = u32::from(self.variant.claims_to_win());
        Color::ALL.into_iter().find(|&c| self.claims(c) >= need)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Whether `sq` is on the board in use (the corners are not, with `no-corners`).
    pub fn on_board(&self, sq: Square) -> bool {
        (self.variant.board() & !self.walls()).contains(sq)
    }

    /// Reads a move in notation, taking the phase into account: during a setup turn of
    /// one shooter (7x7, Black, classic rules), a lone square is that setup turn, not a
    /// shot.
    pub fn parse_move(&self, text: &str) -> Result<Move, crate::moves::ParseMoveError> {
        let mv: Move = text.parse()?;
        Ok(match (mv, self.phase()) {
            (Move::Turn(turn), Phase::BlackSetup | Phase::WhiteSetup) if turn.shooter_move().is_none() => {
                Move::Setup(turn.shot().bitboard())
            }
            _ => mv,
        })
    }

    /// Checks that `mv` is legal here, saying why not.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let setup = self.phase() != Phase::Play;
        let modern = self.rules.is_modern();
        let count = self.variant.setup_count(self.side_to_move);
        match mv {
            Move::Swap if self.swap_available => Ok(()),
            Move::Swap => Err(IllegalMove::SwapUnavailable),
            Move::Setup(_) | Move::SetupWithStone { .. } if !setup => Err(IllegalMove::PlayExpected),
            Move::Setup(_) if modern => Err(IllegalMove::StoneExpected(self.side_to_move, count)),
            Move::Setup(squares) => self.check_setup(squares),
            Move::SetupWithStone { .. } if !modern => Err(IllegalMove::NoSetupStone),
            Move::SetupWithStone { shooters, stone } => self.check_modern_setup(shooters, stone),
            Move::Turn(_) if setup && modern => Err(IllegalMove::StoneExpected(self.side_to_move, count)),
            Move::Turn(_) if setup => Err(IllegalMove::SetupExpected(self.side_to_move, count)),
            Move::Turn(turn) => self.check_turn(turn),
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    fn check_on_board(&self, sq: Square) -> Result<(), IllegalMove> {
        if self.on_board(sq) {
            Ok(())
        } else if self.variant.board().contains(sq) {
            Err(IllegalMove::MissingCorner(sq))
        } else {
            Err(IllegalMove::OffBoard(sq, self.variant.size()))
        }
    }

    fn check_setup(&self, squares: Bitboard) -> Result<(), IllegalMove> {
        let side = self.side_to_move;
        let want = self.variant.setup_count(side);
        for sq in squares {
            self.check_on_board(sq)?;
        }
        if squares.count() != u32::from(want) {
            return Err(IllegalMove::SetupCount(side, want, squares.count()));
        }
        let mut placed = self.shooters;
        for sq in squares {
            if placed.contains(sq) {
                return Err(IllegalMove::Occupied(sq));
            }
            if let Some(other) = (placed & sq.bitboard().neighbours()).first() {
                let (a, b) = Square::in_notation_order(other, sq);
                return Err(IllegalMove::Adjacent(a, b));
            }
            placed |= sq.bitboard();
        }
        Ok(())
    }

    fn check_modern_setup(&self, squares: Bitboard, stone: Square) -> Result<(), IllegalMove> {
        let side = self.side_to_move;
        let want = self.variant.setup_count(side);
        for sq in squares.iter().chain([stone]) {
            self.check_on_board(sq)?;
        }
        if squares.count() != u32::from(want) {
            return Err(IllegalMove::SetupCount(side, want, squares.count()));
        }
        for sq in squares {
            if self.filled.contains(sq) {
                return Err(IllegalMove::Occupied(sq));
            }
            if !self.variant.interior().contains(sq) {
                return Err(IllegalMove::ShooterOnEdge(sq));
            }
        }
        if self.filled.contains(stone) || squares.contains(stone) {
            return Err(IllegalMove::Occupied(stone));
        }
        Ok(())
    }

    fn first_blocker(&self, from: Square, to: Square) -> Result<Option<Square>, IllegalMove> {
        let path = between(from, to).ok_or(IllegalMove::NotOnLine(from, to))?;
        Ok((path & self.blockers()).iter().min_by_key(|sq| distance(from, *sq)))
    }

    fn check_turn(&self, turn: Turn) -> Result<(), IllegalMove> {
        let shot = turn.shot();
        match turn.shooter_move() {
            Some((from, to)) => {
                self.check_on_board(from)?;
                self.check_on_board(to)?;
                self.check_on_board(shot)?;
                if !self.shooters.contains(from) {
                    return Err(if self.claimed[0].contains(from) || self.claimed[1].contains(from) {
                        IllegalMove::ClaimedShooter(from)
                    } else {
                        IllegalMove::NoShooter(from)
                    });
                }
                if from == to || self.filled.contains(to) {
                    return Err(IllegalMove::Occupied(to));
                }
                if let Some(at) = self.first_blocker(from, to)? {
                    return Err(IllegalMove::PathBlocked(from, to, at));
                }
                let moved = from.bitboard() ^ to.bitboard();
                if (self.filled ^ moved).contains(shot) {
                    return Err(IllegalMove::Occupied(shot));
                }
                let after = if self.rules.is_modern() { self.blockers } else { self.filled ^ moved };
                let path = between(to, shot).ok_or(IllegalMove::NotOnLine(to, shot))?;
                if let Some(at) = (path & after).iter().min_by_key(|sq| distance(to, *sq)) {
                    return Err(IllegalMove::ShotBlocked(to, shot, at));
                }
                Ok(())
            }
            None => {
                self.check_on_board(shot)?;
                if self.filled.contains(shot) {
                    return Err(IllegalMove::Occupied(shot));
                }
                if self.shooters.iter().any(|s| self.shooter_reach(s).contains(shot)) {
                    Ok(())
                } else {
                    Err(IllegalMove::NoShooterSees(shot))
                }
            }
        }
    }

    /// Plays `mv` if it is legal; otherwise leaves the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv`, which must be legal (as from [`Position::legal_moves`]); an illegal
    /// move leaves the position in an unspecified state.
    pub fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Setup(squares) => {
                self.shooters |= squares;
                self.filled |= squares;
                for sq in squares {
                    self.lines.toggle(sq);
                }
                self.side_to_move = !self.side_to_move;
            }
            Move::SetupWithStone { shooters, stone } => {
                self.shooters |= shooters;
                self.filled |= shooters | stone.bitboard();
                for sq in shooters {
                    self.lines.toggle_unlandable(sq);
                }
                self.stones[self.side_to_move.index()] |= stone.bitboard();
                self.blockers |= stone.bitboard();
                self.lines.toggle(stone);
                self.swap_available = self.side_to_move == Color::Black;
                self.side_to_move = !self.side_to_move;
            }
            Move::Swap => self.swap_available = false,
            Move::Turn(turn) => self.play_turn_unchecked(turn),
        }
    }

    /// Plays a legal play turn: the fast path for search and playouts.
    #[inline]
    pub fn play_turn_unchecked(&mut self, turn: Turn) {
        self.apply_turn(turn);
    }

    /// Plays a legal play turn and tells whether it claimed any shooter (only then can
    /// the game have ended).
    #[inline]
    pub(crate) fn apply_turn(&mut self, turn: Turn) -> bool {
        if self.rules.is_modern() {
            return self.apply_modern_turn(turn);
        }
        let near = self.place_classic(turn);
        // Only shooters next to the shot or to the moved shooter's new square can have
        // lost their last empty neighbour. The moved shooter itself is one only when it
        // is next to the shot: the square next to it on the way it came (the one it left,
        // or one it crossed) is empty unless the shot landed there.
        let candidates = self.shooters & near;
        // The filled squares read half by half, as `place_classic` just stored them (one
        // 16-byte load of two 8-byte stores waits for both to reach the cache).
        let (filled_lo, filled_hi) = (self.filled.0 as u64, (self.filled.0 >> 64) as u64);
        let free = Bitboard(u128::from(!filled_lo) | u128::from(!filled_hi) << 64);
        for sq in candidates {
            if is_trapped(sq, free) {
                // Read again, not `free`: handing `free` on lets the compiler merge the two
                // halves above into the one 16-byte load again.
                self.claim(immobilized(candidates, !self.filled), !self.side_to_move);
                return true;
            }
        }
        false
    }

    /// The pieces and lines of a classic turn; returns the squares next to the shot and
    /// to the moved shooter's new square. Kept out of line: the callers' loops then keep
    /// their registers, and this leaf needs few saved (on random games, 3.6 instructions
    /// a turn fewer than with it inlined).
    #[inline(never)]
    fn place_classic(&mut self, turn: Turn) -> Bitboard {
        let mover = self.side_to_move;
        let shot = facts(turn.shot());
        let mut near = shot.neighbours;
        if let Some((from, to)) = turn.shooter_move() {
            let (from, to) = (facts(from), facts(to));
            self.lines.toggle_facts(from);
            self.lines.toggle_facts(to);
            let moved = from.bit | to.bit;
            self.shooters ^= moved;
            self.filled ^= moved;
            near |= to.neighbours;
        }
        // The shot after the move: it may land on the square just vacated.
        self.lines.toggle_facts(shot);
        self.filled |= shot.bit;
        self.stones[mover.index()] |= shot.bit;
        self.side_to_move = !mover;
        near
    }

    /// [`Position::apply_turn`] under the modern rules: shooters are passed over (they
    /// are not line blockers), and since a stone anywhere on a shooter's lines can cut
    /// its last move, every unclaimed shooter on the lines of the changed squares is
    /// checked for being trapped. Kept apart so
    /// that the classic path stays as small as it was.
    #[inline(never)]
    fn apply_modern_turn(&mut self, turn: Turn) -> bool {
        let mover = self.side_to_move;
        let shot = bit_of(turn.shot());
        // Only a shooter on a line through the shot (now a blocker) or through the moved
        // shooter's new square (now not landable; the shooter itself included) can have
        // lost its last move: the vacated square only adds to what others reach.
        let mut near = lines_through(turn.shot());
        if let Some((from, to)) = turn.shooter_move() {
            let moved = bit_of(from) | bit_of(to);
            self.shooters ^= moved;
            self.filled ^= moved;
            self.lines.toggle_unlandable(from);
            self.lines.toggle_unlandable(to);
            near |= lines_through(to);
        }
        self.stones[mover.index()] |= shot;
        self.blockers |= shot;
        self.filled |= shot;
        self.lines.toggle(turn.shot());
        let mut claimed = false;
        // Claiming changes no group, no empty square and (without claimed-block) no line
        // blocker: judging the shooters one by one is judging them all on the position
        // before the claims.
        for sq in self.shooters & near {
            if self.lines.reaches_nothing(sq) {
                let owner = self.claim_owner(sq, mover);
                self.shooters ^= sq.bitboard();
                self.claimed[owner.index()] |= sq.bitboard();
                claimed = true;
            }
        }
        if claimed && self.rules.claimed_block() {
            self.block_claimed_shooters();
        }
        self.side_to_move = !mover;
        claimed
    }

    /// With `claimed-block`, after a turn's claims: the shooters just claimed become line
    /// blockers. That traps no further shooter, so one round is all: a trapped shooter
    /// reaches no empty square, so every line through it meets a blocker, past unclaimed
    /// shooters only, before any empty square on each side; a shooter passing over it
    /// reached nothing beyond it that the new blocker takes away. (The reference in
    /// `tests/modern_ref` repeats the claims until none is found, as boardspace.net's own
    /// code does, and the cross-check confirms this.) Rare, so kept off the main path.
    #[cold]
    #[inline(never)]
    fn block_claimed_shooters(&mut self) {
        let fresh = (self.claimed[0] | self.claimed[1]) & !self.blockers;
        self.blockers |= fresh;
        for sq in fresh {
            self.lines.toggle_unlandable(sq);
            self.lines.toggle(sq);
        }
    }

    /// Claims the immobilized shooters `trapped` after `mover`'s classic turn (the
    /// game's side to move is already the opponent). Claiming changes no group and no
    /// empty square, so each owner is judged on the position before the claims. Rare
    /// (about one turn in ten), so kept off the main path.
    #[cold]
    #[inline(never)]
    fn claim(&mut self, trapped: Bitboard, mover: Color) {
        for sq in trapped {
            let owner = self.claim_owner(sq, mover);
            self.claimed[owner.index()] |= bit_of(sq);
        }
        self.shooters ^= trapped;
    }

    /// Who claims an immobilized shooter on `sq` after `mover`'s turn: the owner of the
    /// biggest orthogonally adjacent group; no group or a tie gives it to the opponent.
    fn claim_owner(&self, sq: Square, mover: Color) -> Color {
        // With stones of one colour only next to it (or none), no group needs filling.
        let adjacent = sq.orthogonal_neighbours();
        let black_seeds = adjacent & self.stones(Color::Black);
        let white_seeds = adjacent & self.stones(Color::White);
        match (black_seeds.is_empty(), white_seeds.is_empty()) {
            (true, true) => return !mover,
            (false, true) => return Color::Black,
            (true, false) => return Color::White,
            (false, false) => {}
        }
        // One step from the seeds tells whether every adjacent group of a colour is a
        // lone stone: then the other colour, with a group of two or more, has the bigger
        // one (over random games, a colour's adjacent stones are all alone in about
        // a third of the claims that get here).
        let (black, white) = (self.stones(Color::Black), self.stones(Color::White));
        let black_near = grow(black_seeds, black);
        let white_near = grow(white_seeds, white);
        match (black_near == black_seeds, white_near == white_seeds) {
            (true, true) => return !mover,
            (true, false) => return Color::White,
            (false, true) => return Color::Black,
            (false, false) => {}
        }
        let black = biggest_group(black_seeds, black_near, black);
        let white = biggest_group(white_seeds, white_near, white);
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Color::Black,
            std::cmp::Ordering::Less => Color::White,
            std::cmp::Ordering::Equal => !mover,
        }
    }

    /// The size of the biggest group of `color` orthogonally adjacent to `sq`.
    pub fn biggest_adjacent_group(&self, sq: Square, color: Color) -> u32 {
        let stones = self.stones(color);
        let seeds = sq.orthogonal_neighbours() & stones;
        biggest_group(seeds, grow(seeds, stones), stones)
    }
}

/// The size of the biggest group of `stones` (a position's stones) holding a square of
/// `seeds` (squares of `stones`, orthogonally next to one square); `near` is `seeds`
/// grown by one step.
#[inline]
fn biggest_group(seeds: Bitboard, near: Bitboard, stones: Bitboard) -> u32 {
    if seeds.count() == 1 {
        // One group: carry on from the step already taken.
        return fill_from(near, stones).count();
    }
    let mut todo = seeds;
    let mut best = 0;
    while let Some(start) = todo.first() {
        let group = fill_group(start, stones);
        best = best.max(group.count());
        todo &= !group;
    }
    best
}

/// Whether a shooter on `sq` has no empty neighbour, `free` being the empty squares
/// (classic rules).
#[inline(always)]
fn is_trapped(sq: Square, free: Bitboard) -> bool {
    (neighbours_of(sq) & free).is_empty()
}

/// The shooters of `candidates` with no empty neighbour, `free` being the empty squares
/// (classic rules).
#[inline(always)]
fn immobilized(candidates: Bitboard, free: Bitboard) -> Bitboard {
    let mut trapped = Bitboard::EMPTY;
    for sq in candidates {
        if is_trapped(sq, free) {
            trapped |= bit_of(sq);
        }
    }
    trapped
}

/// The orthogonally connected group of `stones` that holds `start`.
pub fn group_of(start: Square, stones: Bitboard) -> Bitboard {
    // Squares of the layout only (a caller's set might hold padding bits, which the
    // shifts of `grow` would reach).
    fill_group(start, stones & Bitboard(crate::bitboard::FULL_BOARD))
}

/// [`group_of`] for `stones` on the layout's squares only (a position's stones).
#[inline]
fn fill_group(start: Square, stones: Bitboard) -> Bitboard {
    fill_from(start.bitboard(), stones)
}

/// The squares of `stones` orthogonally connected to `group` (squares of `stones`).
#[inline]
fn fill_from(mut group: Bitboard, stones: Bitboard) -> Bitboard {
    loop {
        let grown = grow(group, stones);
        if grown == group {
            return group;
        }
        group = grown;
    }
}

/// `group` (squares of `stones`) and the squares of `stones` orthogonally next to it.
/// A shift may carry a square off the board in use, or into the padding column, but
/// never onto one of `stones`: no mask of the board is needed.
#[inline(always)]
fn grow(group: Bitboard, stones: Bitboard) -> Bitboard {
    let g = group.0;
    let s = u32::from(crate::square::STRIDE);
    Bitboard((g | g << 1 | g >> 1 | g << s | g >> s) & stones.0)
}

/// The squares never played on under `rules`: off the board, and the corners with
/// `no-corners`.
fn walls_of(variant: Variant, rules: Rules) -> Bitboard {
    if rules.no_corners { variant.walls() | variant.corners() } else { variant.walls() }
}

fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::BlackSetup => "black setup",
            Phase::WhiteSetup => "white setup",
            Phase::Play => "play",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn a_group_grows_orthogonally_within_the_board_only() {
        let stones: Bitboard = ["a2", "b2", "b3", "c4", "j1", "a3"].iter().map(|s| sq(s)).collect();
        let group: Bitboard = ["a2", "b2", "b3", "a3"].iter().map(|s| sq(s)).collect();
        assert_eq!(group_of(sq("a2"), stones), group);
        // A set with a bit in the padding column (index 10, after j1, before a2) does not
        // join a2 and j1 through it.
        let padded = Bitboard(stones.0 | 1 << 10);
        assert_eq!(group_of(sq("a2"), padded), group);
        assert_eq!(group_of(sq("j1"), padded), sq("j1").bitboard());
    }
}
