//! A slow, deliberately plain reference implementation of the Veletas rules, written
//! from the rulebook alone. It shares no code with `crates/rules/`: the board is a grid of
//! cells indexed by (file, rank), lines are walked one square at a time along the eight
//! direction vectors, and groups are found by breadth-first search. Speed does not
//! matter here; being obviously right does.
//!
//! The only contact with the fast implementation is at the edges: [`RefPos::from_fast`]
//! reads a fast position square by square through `Position::piece_at`, and
//! [`fast_key`] turns a fast move into the same plain key that [`RefMove::key`] gives.

use std::collections::VecDeque;

use veletas_rules::{Color, Move, Piece, Position, Square};

/// A square as (file, rank), both from 0: `a1` is (0, 0), `b3` is (1, 2).
pub type Sq = (usize, usize);

/// The eight queen directions as (file step, rank step).
pub const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// The four orthogonal directions.
pub const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// A player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    pub fn from_color(color: Color) -> Side {
        match color {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    /// An unclaimed shooter.
    Shooter,
    Stone(Side),
    /// A shooter claimed by a player (a stone on top of it; part of no group).
    Claimed(Side),
}

/// Number of shooters in the game on a board of `size` (rulebook: 7 on 10x10, 5 on
/// 9x9, 3 on 7x7).
pub fn shooters_in_game(size: usize) -> usize {
    match size {
        7 => 3,
        9 => 5,
        10 => 7,
        _ => panic!("no variant on a {size}x{size} board"),
    }
}

/// How many shooters `side` places in its setup turn.
pub fn setup_count(size: usize, side: Side) -> usize {
    match (size, side) {
        (7, Side::Black) => 1,
        (7, Side::White) => 2,
        (9, Side::Black) => 2,
        (9, Side::White) => 3,
        (10, Side::Black) => 3,
        (10, Side::White) => 4,
        _ => panic!("no variant on a {size}x{size} board"),
    }
}

/// Claims that win: a majority of the shooters.
pub fn claims_to_win(size: usize) -> usize {
    match size {
        7 => 2,
        9 => 3,
        10 => 4,
        _ => panic!("no variant on a {size}x{size} board"),
    }
}

/// The notation of a square: file letter from `a`, rank from 1.
pub fn square_name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// Whether two different squares touch orthogonally or diagonally.
pub fn touching(a: Sq, b: Sq) -> bool {
    a != b && a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1
}

/// A plain number for a square, shared by both sides of a comparison: file * 10 + rank.
fn square_number(file: usize, rank: usize) -> u128 {
    (file * 10 + rank) as u128
}

/// A turn: a setup placement, or an optional shooter move followed by a shot.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RefMove {
    /// The squares of a setup turn.
    Setup(Vec<Sq>),
    /// A play turn.
    Turn { shooter_move: Option<(Sq, Sq)>, shot: Sq },
}

impl RefMove {
    /// The canonical notation: `c3,f6,h8` (by file, then rank), `e2-e6/g8` or `g8`.
    pub fn notation(&self) -> String {
        match self {
            RefMove::Setup(squares) => {
                let mut sorted = squares.clone();
                sorted.sort();
                sorted.iter().map(|&sq| square_name(sq)).collect::<Vec<_>>().join(",")
            }
            RefMove::Turn { shooter_move: Some((from, to)), shot } => {
                format!("{}-{}/{}", square_name(*from), square_name(*to), square_name(*shot))
            }
            RefMove::Turn { shooter_move: None, shot } => square_name(*shot),
        }
    }

    /// A plain key that identifies the move: a set of square bits for a setup; for a
    /// turn, the shot's number plus 1 + the origin's and destination's numbers above it.
    pub fn key(&self) -> u128 {
        match self {
            RefMove::Setup(squares) => squares.iter().map(|&(f, r)| 1u128 << square_number(f, r)).sum(),
            RefMove::Turn { shooter_move, shot } => {
                let shot = square_number(shot.0, shot.1);
                match shooter_move {
                    None => shot,
                    Some((from, to)) => {
                        shot | (square_number(to.0, to.1) + 1) << 8 | (square_number(from.0, from.1) + 1) << 16
                    }
                }
            }
        }
    }
}

fn sq_of(square: Square) -> Sq {
    (usize::from(square.file()), usize::from(square.rank()))
}

/// The key of a fast move, in the same scheme as [`RefMove::key`].
pub fn fast_key(mv: &Move) -> u128 {
    match mv {
        Move::Setup(bits) => RefMove::Setup(bits.iter().map(sq_of).collect()).key(),
        Move::Turn(turn) => RefMove::Turn {
            shooter_move: turn.shooter_move().map(|(from, to)| (sq_of(from), sq_of(to))),
            shot: sq_of(turn.shot()),
        }
        .key(),
        Move::SetupWithStone { .. } | Move::Swap => panic!("{mv} is not a classic move"),
    }
}

/// A position: the grid (indexed `[file][rank]`, only the first `size` of each used)
/// and the player to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub size: usize,
    pub grid: [[Cell; 10]; 10],
    pub to_move: Side,
}

impl RefPos {
    /// The empty board: Black to place its shooters.
    pub fn empty(size: usize) -> RefPos {
        shooters_in_game(size);
        RefPos { size, grid: [[Cell::Empty; 10]; 10], to_move: Side::Black }
    }

    /// Reads a position string (trusted to be well formed; panics otherwise).
    pub fn parse(text: &str) -> RefPos {
        let (board, side) = text.split_once(' ').expect("board and side");
        let rows: Vec<&str> = board.split('/').collect();
        let mut pos = RefPos::empty(rows.len());
        pos.to_move = match side {
            "b" => Side::Black,
            "w" => Side::White,
            _ => panic!("bad side in {text}"),
        };
        for (i, row) in rows.iter().enumerate() {
            let rank = pos.size - 1 - i;
            let mut file = 0;
            let mut run = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as usize;
                    continue;
                }
                file += run;
                run = 0;
                pos.grid[file][rank] = match c {
                    's' => Cell::Shooter,
                    'b' => Cell::Stone(Side::Black),
                    'w' => Cell::Stone(Side::White),
                    'B' => Cell::Claimed(Side::Black),
                    'W' => Cell::Claimed(Side::White),
                    _ => panic!("bad character {c} in {text}"),
                };
                file += 1;
            }
            assert_eq!(file + run, pos.size, "rank {} of {text}", rank + 1);
        }
        pos
    }

    /// Reads a fast position square by square.
    pub fn from_fast(position: &Position) -> RefPos {
        let mut pos = RefPos::empty(usize::from(position.variant().size()));
        pos.to_move = Side::from_color(position.side_to_move());
        for file in 0..pos.size {
            for rank in 0..pos.size {
                let square = Square::new(file as u8, rank as u8).unwrap();
                pos.grid[file][rank] = match position.piece_at(square) {
                    None => Cell::Empty,
                    Some(Piece::Shooter) => Cell::Shooter,
                    Some(Piece::Stone(c)) => Cell::Stone(Side::from_color(c)),
                    Some(Piece::Claimed(c)) => Cell::Claimed(Side::from_color(c)),
                };
            }
        }
        pos
    }

    /// The position string: ranks from the top, runs of empty squares as numbers.
    pub fn to_position_string(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..self.size).rev() {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..self.size {
                let letter = match self.grid[file][rank] {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Shooter => 's',
                    Cell::Stone(Side::Black) => 'b',
                    Cell::Stone(Side::White) => 'w',
                    Cell::Claimed(Side::Black) => 'B',
                    Cell::Claimed(Side::White) => 'W',
                };
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(letter);
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        let side = match self.to_move {
            Side::Black => 'b',
            Side::White => 'w',
        };
        format!("{} {side}", rows.join("/"))
    }

    pub fn at(&self, sq: Sq) -> Cell {
        self.grid[sq.0][sq.1]
    }

    fn set(&mut self, sq: Sq, cell: Cell) {
        self.grid[sq.0][sq.1] = cell;
    }

    /// The square `steps` steps from `sq` in direction `dir`, if it is on the board.
    fn step(&self, sq: Sq, dir: (i32, i32), steps: i32) -> Option<Sq> {
        let file = sq.0 as i32 + dir.0 * steps;
        let rank = sq.1 as i32 + dir.1 * steps;
        let size = self.size as i32;
        if file >= 0 && file < size && rank >= 0 && rank < size { Some((file as usize, rank as usize)) } else { None }
    }

    /// Every square of the board, file by file.
    pub fn squares(&self) -> Vec<Sq> {
        let mut all = Vec::new();
        for file in 0..self.size {
            for rank in 0..self.size {
                all.push((file, rank));
            }
        }
        all
    }

    /// The squares holding `cell`.
    pub fn squares_with(&self, cell: Cell) -> Vec<Sq> {
        self.squares().into_iter().filter(|&sq| self.at(sq) == cell).collect()
    }

    /// The empty squares along one direction from `sq`, up to the first piece or the edge.
    pub fn empty_line(&self, sq: Sq, dir: (i32, i32)) -> Vec<Sq> {
        let mut line = Vec::new();
        let mut steps = 1;
        while let Some(next) = self.step(sq, dir, steps) {
            if self.at(next) != Cell::Empty {
                break;
            }
            line.push(next);
            steps += 1;
        }
        line
    }

    /// The empty squares a queen on `sq` reaches without jumping.
    pub fn queen_targets(&self, sq: Sq) -> Vec<Sq> {
        DIRECTIONS.iter().flat_map(|&dir| self.empty_line(sq, dir)).collect()
    }

    /// Shooters placed so far, claimed or not.
    pub fn shooters_placed(&self) -> usize {
        self.squares().iter().filter(|&&sq| matches!(self.at(sq), Cell::Shooter | Cell::Claimed(_))).count()
    }

    /// Whether some shooters are still to be placed.
    pub fn in_setup(&self) -> bool {
        self.shooters_placed() < shooters_in_game(self.size)
    }

    pub fn claims(&self, side: Side) -> usize {
        self.squares_with(Cell::Claimed(side)).len()
    }

    /// The player holding a majority of the shooters, if any.
    pub fn winner(&self) -> Option<Side> {
        [Side::Black, Side::White].into_iter().find(|&side| self.claims(side) >= claims_to_win(self.size))
    }

    /// Every legal move (each once), none once the game is over.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.winner().is_some() {
            Vec::new()
        } else if self.in_setup() {
            let mut moves = Vec::new();
            self.each_setup(&mut |squares| moves.push(RefMove::Setup(squares.to_vec())));
            moves
        } else {
            self.play_turns()
        }
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u64 {
        if self.winner().is_none() && self.in_setup() {
            let mut count = 0;
            self.each_setup(&mut |_| count += 1);
            count
        } else {
            self.legal_moves().len() as u64
        }
    }

    /// Whether a shooter may be placed on `sq` in setup: empty, and next to no shooter.
    fn free_for_setup(&self, sq: Sq) -> bool {
        self.at(sq) == Cell::Empty
            && self.squares().iter().all(|&other| !touching(sq, other) || self.at(other) == Cell::Empty)
    }

    /// Calls `f` with every legal setup placement (squares in increasing file-major order).
    fn each_setup(&self, f: &mut dyn FnMut(&[Sq])) {
        let allowed: Vec<Sq> = self.squares().into_iter().filter(|&sq| self.free_for_setup(sq)).collect();
        let k = setup_count(self.size, self.to_move);
        let mut chosen = Vec::new();
        choose(&allowed, 0, k, &mut chosen, f);
    }

    /// Whether `squares` is a legal setup turn here.
    pub fn is_legal_setup(&self, squares: &[Sq]) -> bool {
        squares.len() == setup_count(self.size, self.to_move)
            && squares.iter().all(|&sq| sq.0 < self.size && sq.1 < self.size && self.free_for_setup(sq))
            && squares.iter().all(|&a| squares.iter().all(|&b| a == b || !touching(a, b)))
    }

    /// The play turns: shots without a move (each target once, however many shooters
    /// see it), then every shooter move with every shot from the destination.
    fn play_turns(&self) -> Vec<RefMove> {
        let shooters = self.squares_with(Cell::Shooter);
        let mut turns = Vec::new();
        let mut seen = [[false; 10]; 10];
        for &shooter in &shooters {
            for shot in self.queen_targets(shooter) {
                if !seen[shot.0][shot.1] {
                    seen[shot.0][shot.1] = true;
                    turns.push(RefMove::Turn { shooter_move: None, shot });
                }
            }
        }
        for &from in &shooters {
            for to in self.queen_targets(from) {
                let mut moved = self.clone();
                moved.set(from, Cell::Empty);
                moved.set(to, Cell::Shooter);
                for shot in moved.queen_targets(to) {
                    turns.push(RefMove::Turn { shooter_move: Some((from, to)), shot });
                }
            }
        }
        turns
    }

    /// The position after `mv`, which must be legal.
    pub fn play(&self, mv: &RefMove) -> RefPos {
        let mover = self.to_move;
        let mut next = self.clone();
        next.to_move = mover.other();
        match mv {
            RefMove::Setup(squares) => {
                for &sq in squares {
                    assert_eq!(next.at(sq), Cell::Empty);
                    next.set(sq, Cell::Shooter);
                }
            }
            RefMove::Turn { shooter_move, shot } => {
                if let Some((from, to)) = *shooter_move {
                    assert_eq!(next.at(from), Cell::Shooter);
                    assert_eq!(next.at(to), Cell::Empty);
                    next.set(from, Cell::Empty);
                    next.set(to, Cell::Shooter);
                }
                assert_eq!(next.at(*shot), Cell::Empty);
                next.set(*shot, Cell::Stone(mover));
                // Judge every immobilized shooter on this same position, then claim.
                let judged: Vec<(Sq, Side)> = next
                    .squares_with(Cell::Shooter)
                    .into_iter()
                    .filter(|&sq| next.is_immobilized(sq))
                    .map(|sq| (sq, next.claimant(sq, mover)))
                    .collect();
                for (sq, side) in judged {
                    next.set(sq, Cell::Claimed(side));
                }
            }
        }
        next
    }

    /// Whether the shooter on `sq` has no empty neighbour (the edge counts as full).
    pub fn is_immobilized(&self, sq: Sq) -> bool {
        DIRECTIONS.iter().all(|&dir| self.step(sq, dir, 1).is_none_or(|n| self.at(n) != Cell::Empty))
    }

    /// Who claims the immobilized shooter on `sq` after `mover`'s turn.
    pub fn claimant(&self, sq: Sq, mover: Side) -> Side {
        let black = self.biggest_adjacent_group(sq, Side::Black);
        let white = self.biggest_adjacent_group(sq, Side::White);
        if black > white {
            Side::Black
        } else if white > black {
            Side::White
        } else {
            mover.other()
        }
    }

    /// The size of the biggest group of `side` orthogonally next to `sq` (0 if none).
    pub fn biggest_adjacent_group(&self, sq: Sq, side: Side) -> usize {
        ORTHOGONAL
            .iter()
            .filter_map(|&dir| self.step(sq, dir, 1))
            .filter(|&n| self.at(n) == Cell::Stone(side))
            .map(|n| self.group_size(n))
            .max()
            .unwrap_or(0)
    }

    /// The number of stones in the orthogonally connected group holding the stone on `start`.
    pub fn group_size(&self, start: Sq) -> usize {
        let colour = self.at(start);
        let mut visited = [[false; 10]; 10];
        let mut queue = VecDeque::from([start]);
        visited[start.0][start.1] = true;
        let mut size = 0;
        while let Some(sq) = queue.pop_front() {
            size += 1;
            for &dir in &ORTHOGONAL {
                if let Some(n) = self.step(sq, dir, 1)
                    && !visited[n.0][n.1]
                    && self.at(n) == colour
                {
                    visited[n.0][n.1] = true;
                    queue.push_back(n);
                }
            }
        }
        size
    }

    /// The number of move sequences of exactly `depth` moves (games that end sooner
    /// count nothing).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => self.legal_moves().iter().map(|mv| self.play(mv).perft(depth - 1)).sum(),
        }
    }
}

/// Calls `f` with every way to pick `k` pairwise non-touching squares from
/// `allowed[start..]`, added to `chosen`, each set once.
fn choose(allowed: &[Sq], start: usize, k: usize, chosen: &mut Vec<Sq>, f: &mut dyn FnMut(&[Sq])) {
    if k == 0 {
        f(chosen);
        return;
    }
    for i in start..allowed.len() {
        if chosen.iter().all(|&c| !touching(c, allowed[i])) {
            chosen.push(allowed[i]);
            choose(allowed, i + 1, k - 1, chosen, f);
            chosen.pop();
        }
    }
}
