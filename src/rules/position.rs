//! The position: pieces on the board, claims, side to move; legality and playing turns.

use std::fmt;

use crate::rules::bitboard::{Bitboard, between, neighbours_of, queen_reach};
use crate::rules::color::Color;
use crate::rules::lines::Lines;
use crate::rules::moves::{Move, Turn};
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// The stage of the game a position is in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Black is to place its shooters.
    BlackSetup,
    /// White is to place its shooters.
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

/// A position of Veletas. Build it with [`Position::new`] or by parsing a position
/// string ([`std::str::FromStr`]); both only give reachable kinds of position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    stones: [Bitboard; 2],
    shooters: Bitboard,
    claimed: [Bitboard; 2],
    /// Every occupied square plus the squares off this variant's board.
    blockers: Bitboard,
    /// The same blocked squares, one occupancy word per line.
    lines: Lines,
    variant: Variant,
    side_to_move: Color,
}

/// Why a turn is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A play turn during setup.
    #[error("{0} must place {1} shooters first")]
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
}

impl Position {
    /// The empty board of a variant: Black to place its shooters.
    pub fn new(variant: Variant) -> Position {
        Position {
            stones: [Bitboard::EMPTY; 2],
            shooters: Bitboard::EMPTY,
            claimed: [Bitboard::EMPTY; 2],
            blockers: variant.walls(),
            lines: Lines::new(variant.walls()),
            variant,
            side_to_move: Color::Black,
        }
    }

    /// Assembles a position from its parts. The caller (the position-string parser)
    /// has checked that they form a reachable kind of position.
    pub(crate) fn from_parts(
        variant: Variant,
        stones: [Bitboard; 2],
        shooters: Bitboard,
        claimed: [Bitboard; 2],
        side_to_move: Color,
    ) -> Position {
        let blockers = stones[0] | stones[1] | shooters | claimed[0] | claimed[1] | variant.walls();
        Position { stones, shooters, claimed, blockers, lines: Lines::new(blockers), variant, side_to_move }
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.variant
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

    /// The empty squares of the board.
    pub fn empty_squares(&self) -> Bitboard {
        self.variant.board() & !self.blockers
    }

    /// Every occupied square plus the squares off the board: what blocks a queen line.
    pub fn blockers(&self) -> Bitboard {
        self.blockers
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

    /// Whether `sq` is on the board in use.
    pub fn on_board(&self, sq: Square) -> bool {
        self.variant.board().contains(sq)
    }

    /// Reads a move in notation, taking the phase into account: during a setup turn of
    /// one shooter (7x7, Black), a lone square is that setup turn, not a shot.
    pub fn parse_move(&self, text: &str) -> Result<Move, crate::rules::ParseMoveError> {
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
        match (mv, self.phase()) {
            (Move::Setup(squares), Phase::BlackSetup | Phase::WhiteSetup) => self.check_setup(squares),
            (Move::Turn(_), Phase::BlackSetup | Phase::WhiteSetup) => {
                Err(IllegalMove::SetupExpected(self.side_to_move, self.variant.setup_count(self.side_to_move)))
            }
            (Move::Setup(_), Phase::Play) => Err(IllegalMove::PlayExpected),
            (Move::Turn(turn), Phase::Play) => self.check_turn(turn),
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    fn check_on_board(&self, sq: Square) -> Result<(), IllegalMove> {
        if self.on_board(sq) { Ok(()) } else { Err(IllegalMove::OffBoard(sq, self.variant.size())) }
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
                let (a, b) = if other.file_major_key() < sq.file_major_key() { (other, sq) } else { (sq, other) };
                return Err(IllegalMove::Adjacent(a, b));
            }
            placed |= sq.bitboard();
        }
        Ok(())
    }

    fn first_blocker(&self, from: Square, to: Square) -> Result<Option<Square>, IllegalMove> {
        let path = between(from, to).ok_or(IllegalMove::NotOnLine(from, to))?;
        Ok((path & self.blockers).iter().min_by_key(|sq| distance(from, *sq)))
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
                if from == to || self.blockers.contains(to) {
                    return Err(IllegalMove::Occupied(to));
                }
                if let Some(at) = self.first_blocker(from, to)? {
                    return Err(IllegalMove::PathBlocked(from, to, at));
                }
                let after = self.blockers ^ from.bitboard() ^ to.bitboard();
                if after.contains(shot) {
                    return Err(IllegalMove::Occupied(shot));
                }
                let path = between(to, shot).ok_or(IllegalMove::NotOnLine(to, shot))?;
                if let Some(at) = (path & after).iter().min_by_key(|sq| distance(to, *sq)) {
                    return Err(IllegalMove::ShotBlocked(to, shot, at));
                }
                Ok(())
            }
            None => {
                self.check_on_board(shot)?;
                if self.blockers.contains(shot) {
                    return Err(IllegalMove::Occupied(shot));
                }
                if self.shooters.iter().any(|s| queen_reach(s, self.blockers).contains(shot)) {
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
                self.blockers |= squares;
                for sq in squares {
                    self.lines.toggle(sq);
                }
                self.side_to_move = !self.side_to_move;
            }
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
        let mover = self.side_to_move;
        let shot = turn.shot().bitboard();
        let mut near = neighbours_of(turn.shot());
        if let Some((from, to)) = turn.shooter_move() {
            let swap = from.bitboard() | to.bitboard();
            self.shooters ^= swap;
            self.blockers ^= swap;
            self.lines.toggle(from);
            self.lines.toggle(to);
            near |= neighbours_of(to) | to.bitboard();
        }
        self.stones[mover.index()] |= shot;
        self.blockers |= shot;
        self.lines.toggle(turn.shot());
        // Only shooters next to the shot or the moved shooter's new square (or that
        // shooter itself) can have lost their last empty neighbour.
        let candidates = self.shooters & near;
        let claimed = !candidates.is_empty() && self.claim_immobilized(candidates, mover);
        self.side_to_move = !mover;
        claimed
    }

    fn claim_immobilized(&mut self, candidates: Bitboard, mover: Color) -> bool {
        let free = !self.blockers;
        let mut claimed = false;
        // Claiming changes no group and no empty square, so judging the shooters one by
        // one is the same as judging them all on the position before the claims.
        for sq in candidates {
            if (neighbours_of(sq) & free).is_empty() {
                let owner = self.claim_owner(sq, mover);
                self.shooters ^= sq.bitboard();
                self.claimed[owner.index()] |= sq.bitboard();
                claimed = true;
            }
        }
        claimed
    }

    /// Who claims an immobilized shooter on `sq` after `mover`'s turn: the owner of the
    /// biggest orthogonally adjacent group; no group or a tie gives it to the opponent.
    fn claim_owner(&self, sq: Square, mover: Color) -> Color {
        let black = self.biggest_adjacent_group(sq, Color::Black);
        let white = self.biggest_adjacent_group(sq, Color::White);
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Color::Black,
            std::cmp::Ordering::Less => Color::White,
            std::cmp::Ordering::Equal => !mover,
        }
    }

    /// The size of the biggest group of `color` orthogonally adjacent to `sq`.
    pub fn biggest_adjacent_group(&self, sq: Square, color: Color) -> u32 {
        let stones = self.stones(color);
        let mut todo = sq.bitboard().orthogonal_neighbours() & stones;
        let mut best = 0;
        while let Some(start) = todo.first() {
            let group = group_of(start, stones);
            best = best.max(group.count());
            todo &= !group;
        }
        best
    }
}

/// The orthogonally connected group of `stones` that holds `start`.
pub fn group_of(start: Square, stones: Bitboard) -> Bitboard {
    let mut group = start.bitboard();
    loop {
        let grown = (group | group.orthogonal_neighbours()) & stones;
        if grown == group {
            return group;
        }
        group = grown;
    }
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
