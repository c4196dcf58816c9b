//! A slow, deliberately plain reference implementation of both rule sets with the
//! `no-corners` option and the modern rules' `claimed-block` option, written from the
//! rule texts (the classic rulebook, issue 6, and issue 11 for claimed-block: a claimed
//! shooter blocks, an unclaimed one is passed over, claims repeat while a claim traps
//! another shooter) for checking the modern rules. It shares no code with `crates/rules/` nor with
//! `tests/common/reference.rs`: the board is a grid indexed `[file][rank]`, lines are
//! walked one square at a time, groups are found by flood fill, and moves are compared
//! by their notation strings.
//!
//! The contact points with the fast implementation are [`RefPos::from_fast`] (which
//! reads a fast position square by square through `Position::piece_at`) and the
//! notation strings of moves.

#![allow(dead_code)]

use veletas_rules::{Color, Piece, Position, RuleSet, Square};

/// A square as (file, rank), both from 0.
pub type Sq = (usize, usize);

/// The eight queen directions.
const DIRS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// What stands on a square: 0 empty, or a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Shooter,
    /// A stone: true for Black.
    Stone(bool),
    /// A claimed shooter: true when Black claimed it.
    Claimed(bool),
}

/// A move of the reference, written in the notation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RefMove {
    Swap,
    /// Shooters (sorted by file then rank) and, in the modern rules, the stone.
    Setup(Vec<Sq>, Option<Sq>),
    Turn(Option<(Sq, Sq)>, Sq),
}

pub fn name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

impl RefMove {
    /// The move in the notation of the rules (issue 2 and issue 6).
    pub fn notation(&self) -> String {
        match self {
            RefMove::Swap => "swap".to_string(),
            RefMove::Setup(shooters, stone) => {
                let list: Vec<String> = shooters.iter().map(|&s| name(s)).collect();
                match stone {
                    Some(st) => format!("{}/{}", list.join(","), name(*st)),
                    None => list.join(","),
                }
            }
            RefMove::Turn(Some((from, to)), shot) => format!("{}-{}/{}", name(*from), name(*to), name(*shot)),
            RefMove::Turn(None, shot) => name(*shot),
        }
    }
}

/// A position of the reference.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub size: usize,
    pub modern: bool,
    pub no_corners: bool,
    /// The claimed-block option (modern only): claimed shooters stop lines.
    pub claimed_block: bool,
    pub grid: Vec<Vec<Cell>>,
    /// true when Black is to move.
    pub black_to_move: bool,
    pub swap_available: bool,
}

/// Shooters in the game: 7 on 10x10, 5 on 9x9, 3 on 7x7.
fn total_shooters(size: usize) -> usize {
    match size {
        7 => 3,
        9 => 5,
        _ => 7,
    }
}

impl RefPos {
    /// Reads a fast position square by square.
    pub fn from_fast(pos: &Position) -> RefPos {
        let size = usize::from(pos.variant().size());
        let mut grid = vec![vec![Cell::Empty; size]; size];
        for (f, column) in grid.iter_mut().enumerate() {
            for (r, cell) in column.iter_mut().enumerate() {
                let sq = Square::new(f as u8, r as u8).unwrap();
                *cell = match pos.piece_at(sq) {
                    None => Cell::Empty,
                    Some(Piece::Shooter) => Cell::Shooter,
                    Some(Piece::Stone(c)) => Cell::Stone(c == Color::Black),
                    Some(Piece::Claimed(c)) => Cell::Claimed(c == Color::Black),
                };
            }
        }
        RefPos {
            size,
            modern: pos.rules().set == RuleSet::Modern,
            no_corners: pos.rules().no_corners,
            claimed_block: pos.rules().claimed_block,
            grid,
            black_to_move: pos.side_to_move() == Color::Black,
            swap_available: pos.swap_available(),
        }
    }

    /// Whether (f, r) is a square of the board (corners do not exist with no-corners).
    pub fn exists(&self, f: i32, r: i32) -> bool {
        let n = self.size as i32;
        if f < 0 || r < 0 || f >= n || r >= n {
            return false;
        }
        let corner = (f == 0 || f == n - 1) && (r == 0 || r == n - 1);
        !(self.no_corners && corner)
    }

    fn cell(&self, sq: Sq) -> Cell {
        self.grid[sq.0][sq.1]
    }

    fn all_squares(&self) -> Vec<Sq> {
        let mut out = Vec::new();
        for f in 0..self.size {
            for r in 0..self.size {
                if self.exists(f as i32, r as i32) {
                    out.push((f, r));
                }
            }
        }
        out
    }

    fn placed_shooters(&self) -> usize {
        self.all_squares().iter().filter(|&&s| matches!(self.cell(s), Cell::Shooter | Cell::Claimed(_))).count()
    }

    fn claims(&self, black: bool) -> usize {
        self.all_squares().iter().filter(|&&s| self.cell(s) == Cell::Claimed(black)).count()
    }

    /// The winner (true: Black), once a player holds a majority of the shooters.
    pub fn winner(&self) -> Option<bool> {
        let need = total_shooters(self.size) / 2 + 1;
        [true, false].into_iter().find(|&b| self.claims(b) >= need)
    }

    /// The empty squares a shooter on `from` reaches, walking each line square by
    /// square: classic stops at any piece; modern passes over shooters (claimed or not,
    /// unclaimed only with claimed-block) and stops at stones; both stop at the edge and
    /// at missing corners.
    pub fn destinations(&self, from: Sq) -> Vec<Sq> {
        let mut out = Vec::new();
        for (df, dr) in DIRS {
            let (mut f, mut r) = (from.0 as i32 + df, from.1 as i32 + dr);
            while self.exists(f, r) {
                let cell = self.grid[f as usize][r as usize];
                match cell {
                    Cell::Empty => out.push((f as usize, r as usize)),
                    Cell::Stone(_) => break,
                    Cell::Claimed(_) if self.claimed_block => break,
                    Cell::Shooter | Cell::Claimed(_) => {
                        if !self.modern {
                            break;
                        }
                    }
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    /// Whether the unclaimed shooter on `sq` is immobilized (classic: no empty square
    /// among the 8 neighbours; modern: no destination at all).
    pub fn stuck(&self, sq: Sq) -> bool {
        if self.modern {
            return self.destinations(sq).is_empty();
        }
        for (df, dr) in DIRS {
            let (f, r) = (sq.0 as i32 + df, sq.1 as i32 + dr);
            if self.exists(f, r) && self.grid[f as usize][r as usize] == Cell::Empty {
                return false;
            }
        }
        true
    }

    fn setup_count(&self) -> usize {
        let t = total_shooters(self.size);
        if self.black_to_move { t / 2 } else { t - t / 2 }
    }

    fn in_setup(&self) -> bool {
        self.placed_shooters() < total_shooters(self.size)
    }

    /// Whether `sq` may hold a new setup shooter, given the ones already `chosen`.
    fn setup_ok(&self, sq: Sq, chosen: &[Sq]) -> bool {
        if self.cell(sq) != Cell::Empty {
            return false;
        }
        if self.modern {
            return sq.0 >= 1 && sq.1 >= 1 && sq.0 + 2 <= self.size && sq.1 + 2 <= self.size;
        }
        // Classic: not next to any shooter, on the board or chosen.
        for other in self.all_squares() {
            let near = other != sq && sq.0.abs_diff(other.0) <= 1 && sq.1.abs_diff(other.1) <= 1;
            if near && (self.cell(other) == Cell::Shooter || chosen.contains(&other)) {
                return false;
            }
        }
        true
    }

    fn setups(&self, start: usize, chosen: &mut Vec<Sq>, squares: &[Sq], out: &mut Vec<Vec<Sq>>) {
        if chosen.len() == self.setup_count() {
            let mut sorted = chosen.clone();
            sorted.sort();
            out.push(sorted);
            return;
        }
        for i in start..squares.len() {
            if self.setup_ok(squares[i], chosen) {
                chosen.push(squares[i]);
                self.setups(i + 1, chosen, squares, out);
                chosen.pop();
            }
        }
    }

    /// The shooter sets of the setup turn (without stones).
    pub fn shooter_sets(&self) -> Vec<Vec<Sq>> {
        let mut out = Vec::new();
        self.setups(0, &mut Vec::new(), &self.all_squares(), &mut out);
        out
    }

    /// The number of legal moves, counted without notation strings.
    pub fn count_moves(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        if !self.in_setup() {
            return self.moves().len() as u64;
        }
        let sets = self.shooter_sets();
        if !self.modern {
            return sets.len() as u64;
        }
        let empty = self.all_squares().iter().filter(|&&s| self.cell(s) == Cell::Empty).count();
        let stones = (empty - self.setup_count()) as u64;
        sets.len() as u64 * stones + u64::from(self.swap_available)
    }

    /// Every legal move.
    pub fn moves(&self) -> Vec<RefMove> {
        if self.winner().is_some() {
            return Vec::new();
        }
        if self.in_setup() {
            let mut out = Vec::new();
            if self.swap_available {
                out.push(RefMove::Swap);
            }
            for set in self.shooter_sets() {
                if !self.modern {
                    out.push(RefMove::Setup(set, None));
                    continue;
                }
                for st in self.all_squares() {
                    if self.cell(st) == Cell::Empty && !set.contains(&st) {
                        out.push(RefMove::Setup(set.clone(), Some(st)));
                    }
                }
            }
            return out;
        }
        let shooters: Vec<Sq> = self.all_squares().into_iter().filter(|&s| self.cell(s) == Cell::Shooter).collect();
        let mut out = Vec::new();
        let mut shots_only: Vec<Sq> = Vec::new();
        for &s in &shooters {
            for d in self.destinations(s) {
                if !shots_only.contains(&d) {
                    shots_only.push(d);
                }
            }
        }
        for shot in shots_only {
            out.push(RefMove::Turn(None, shot));
        }
        for &from in &shooters {
            for to in self.destinations(from) {
                let mut moved = self.clone();
                moved.grid[from.0][from.1] = Cell::Empty;
                moved.grid[to.0][to.1] = Cell::Shooter;
                for shot in moved.destinations(to) {
                    out.push(RefMove::Turn(Some((from, to)), shot));
                }
            }
        }
        out
    }

    /// The orthogonally connected stones of `black`'s colour holding `start`.
    fn group_size(&self, start: Sq, black: bool) -> usize {
        let mut seen = vec![start];
        let mut i = 0;
        while i < seen.len() {
            let (f, r) = seen[i];
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nf, nr) = (f as i32 + df, r as i32 + dr);
                if self.exists(nf, nr) {
                    let n = (nf as usize, nr as usize);
                    if self.cell(n) == Cell::Stone(black) && !seen.contains(&n) {
                        seen.push(n);
                    }
                }
            }
            i += 1;
        }
        seen.len()
    }

    fn biggest_group_next_to(&self, sq: Sq, black: bool) -> usize {
        let mut best = 0;
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nf, nr) = (sq.0 as i32 + df, sq.1 as i32 + dr);
            if self.exists(nf, nr) && self.grid[nf as usize][nr as usize] == Cell::Stone(black) {
                best = best.max(self.group_size((nf as usize, nr as usize), black));
            }
        }
        best
    }

    /// Plays a move of [`RefPos::moves`].
    pub fn play(&mut self, mv: &RefMove) {
        let mover_black = self.black_to_move;
        match mv {
            RefMove::Swap => {
                self.swap_available = false;
                return;
            }
            RefMove::Setup(set, stone) => {
                for &s in set {
                    self.grid[s.0][s.1] = Cell::Shooter;
                }
                if let Some(st) = stone {
                    self.grid[st.0][st.1] = Cell::Stone(mover_black);
                }
                self.swap_available = self.modern && mover_black;
                self.black_to_move = !mover_black;
                return;
            }
            RefMove::Turn(shooter_move, shot) => {
                if let Some((from, to)) = shooter_move {
                    self.grid[from.0][from.1] = Cell::Empty;
                    self.grid[to.0][to.1] = Cell::Shooter;
                }
                self.grid[shot.0][shot.1] = Cell::Stone(mover_black);
            }
        }
        // Every immobilized shooter is judged on the same position, then claimed. With
        // claimed-block the new claims block lines, so the shooters left are judged again
        // (all on the same position) until a round claims none.
        loop {
            let mut claims = Vec::new();
            for s in self.all_squares() {
                if self.cell(s) == Cell::Shooter && self.stuck(s) {
                    let black = self.biggest_group_next_to(s, true);
                    let white = self.biggest_group_next_to(s, false);
                    let owner_black = if black > white {
                        true
                    } else if white > black {
                        false
                    } else {
                        !mover_black
                    };
                    claims.push((s, owner_black));
                }
            }
            let again = self.claimed_block && !claims.is_empty();
            for (s, owner) in claims {
                self.grid[s.0][s.1] = Cell::Claimed(owner);
            }
            if !again {
                break;
            }
        }
        self.black_to_move = !mover_black;
    }

    /// The move of [`RefPos::moves`] written `text`, if any.
    pub fn find(&self, text: &str) -> Option<RefMove> {
        self.moves().into_iter().find(|m| m.notation() == text)
    }
}

impl RefPos {
    /// Whether a setup move (given as shooters and stone) is legal, checked square by
    /// square without listing every setup.
    pub fn setup_is_legal(&self, set: &[Sq], stone: Option<Sq>) -> bool {
        if !self.in_setup() || set.len() != self.setup_count() || stone.is_some() != self.modern {
            return false;
        }
        let mut chosen = Vec::new();
        for &s in set {
            if !self.exists(s.0 as i32, s.1 as i32) || chosen.contains(&s) || !self.setup_ok(s, &chosen) {
                return false;
            }
            chosen.push(s);
        }
        stone.is_none_or(|st| {
            self.exists(st.0 as i32, st.1 as i32) && self.cell(st) == Cell::Empty && !set.contains(&st)
        })
    }
}

impl RefPos {
    /// The number of move sequences of exactly `depth` moves (games that end sooner add
    /// nothing), by listing and playing every move.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => self
                .moves()
                .iter()
                .map(|mv| {
                    let mut next = self.clone();
                    next.play(mv);
                    next.perft(depth - 1)
                })
                .sum(),
        }
    }
}
