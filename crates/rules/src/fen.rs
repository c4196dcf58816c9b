//! The position string: ranks from the top separated by `/`, then the side to move,
//! then optional words for the rules.
//!
//! `s` is an unclaimed shooter, `b`/`w` a black/white stone, `B`/`W` a shooter claimed
//! by Black/White, a number a run of empty squares. Example, the 7x7 start: `7/7/7/7/7/7/7 b`.
//!
//! After the side to move, in any order, each at most once: `classic` or `modern` (the
//! rule set; classic when absent), `no-corners` (the option; the corners are then
//! written as empty squares and must be empty), `claimed-block` (the option of the
//! modern rules only), and, only in White's setup turn of the modern rules, `swap` or
//! `noswap` (whether White may still swap; `swap` when absent). Output: the side to
//! move, then `modern` (never `classic`), then `swap` or `noswap` in White's modern
//! setup turn, then `no-corners`, then `claimed-block`; a classic string without
//! options is exactly the board and the side to move, as before the rule sets.
//! Examples: `7/7/7/7/7/7/7 b modern`, `7/7/2s4/7/4b2/7/7 w modern noswap no-corners`,
//! `7/7/7/7/7/7/7 b modern claimed-block`.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::{Phase, Piece, Position};
use crate::ruleset::{RuleSet, Rules, RulesError};
use crate::square::Square;
use crate::variant::Variant;

/// The words that may follow the side to move, for messages.
const WORDS: &str = "classic or modern, no-corners, claimed-block, swap or noswap";

/// At most 16 characters of a word of the input, for messages ([`crate::quoted_to`]).
fn quoted(word: &str) -> String {
    crate::quoted::quoted_to(word, 16)
}

/// Why a string is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// An empty string (or only spaces).
    #[error("the position string is empty: expected ranks separated by '/', a space, then the side to move")]
    Empty,
    /// Ranks without the side to move.
    #[error("the side to move ('b' or 'w') is missing after the ranks")]
    MissingSide,
    /// A word after the side to move that is no rule set or option.
    #[error("unknown word '{0}' after the side to move: expected {WORDS}")]
    UnknownWord(String),
    /// A word after the side to move given twice, or two that exclude each other
    /// (`classic modern`, `swap noswap`): the first and the second.
    #[error("'{0}' and '{1}' after the side to move: each of {WORDS} at most once")]
    RepeatedWord(String, String),
    /// A number of ranks that is no variant's size.
    #[error("{0} rank{s}: the board must be 7x7, 9x9 or 10x10", s = if *.0 == 1 { "" } else { "s" })]
    Size(usize),
    /// A rank whose squares do not add up to the board size.
    #[error(
        "rank {rank} has {}, expected {size}",
        if found > size { format!("more than {size} squares") } else { format!("{found} squares") }
    )]
    RankLength {
        /// The rank, from 1.
        rank: usize,
        /// The squares it describes (saturated: a digit run of any length counts, and
        /// is reported as "more than" the size rather than as its saturated value).
        found: usize,
        /// The board size.
        size: usize,
    },
    /// A character that is no piece and no digit, or a run of zero.
    #[error("unexpected '{0}' in rank {1}")]
    Character(char, usize),
    /// A side to move other than `b` or `w`.
    #[error("the side to move must be 'b' or 'w', not '{0}'")]
    Side(String),
    /// A number of shooters no phase has.
    #[error("{found} shooters on the board: expected 0, {black} or {all}")]
    ShooterCount {
        /// Shooters found, claimed or not.
        found: u32,
        /// Black's setup count.
        black: u8,
        /// All shooters.
        all: u8,
    },
    /// Stones or claims before setup is over.
    #[error("stones or claims on the board during setup")]
    StonesDuringSetup,
    /// Setup shooters next to each other.
    #[error("shooters on {0} and {1} are adjacent during setup")]
    AdjacentShooters(Square, Square),
    /// The side to move does not match the setup phase.
    #[error("it is {0}'s setup turn")]
    SetupSide(Color),
    /// An unclaimed shooter without an empty neighbour.
    #[error("the unclaimed shooter on {0} is immobilized")]
    Immobilized(Square),
    /// Both players hold a majority.
    #[error("both players hold a majority of the shooters")]
    BothWin,
    /// A piece on a corner square with the `no-corners` option.
    #[error("{0} is a corner, which does not exist with no-corners")]
    Corner(Square),
    /// A modern setup shooter on the edge of the board.
    #[error("the shooter on {0} stands on the edge during a modern setup")]
    EdgeShooter(Square),
    /// Stones during a modern setup other than Black's one setup stone before White's turn.
    #[error("during a modern setup, only Black's one stone may be on the board before White's turn")]
    SetupStones,
    /// Options that do not go with the rule set (`claimed-block` without `modern`).
    #[error("{0}")]
    Rules(#[from] RulesError),
    /// `swap` or `noswap` outside White's setup turn of the modern rules.
    #[error("swap/noswap is only meaningful in White's setup turn of the modern rules")]
    SwapWord,
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let mut parts = s.split_whitespace();
        let board = parts.next().ok_or(ParsePositionError::Empty)?;
        let side = parts.next();
        let ranks: Vec<&str> = board.split('/').collect();
        let size = ranks.len();
        let variant = u8::try_from(size).ok().and_then(Variant::from_size).ok_or(ParsePositionError::Size(size))?;
        let mut stones = [Bitboard::EMPTY; 2];
        let mut claimed = [Bitboard::EMPTY; 2];
        let mut shooters = Bitboard::EMPTY;
        for (i, text) in ranks.iter().enumerate() {
            let rank = size - 1 - i;
            let mut file = 0usize;
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut run = d as usize;
                    while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                        run = run.saturating_mul(10).saturating_add(next as usize);
                        chars.next();
                    }
                    if run == 0 || d == 0 {
                        return Err(ParsePositionError::Character('0', rank + 1));
                    }
                    file = file.saturating_add(run);
                    continue;
                }
                let target = match c {
                    's' => &mut shooters,
                    'b' => &mut stones[0],
                    'w' => &mut stones[1],
                    'B' => &mut claimed[0],
                    'W' => &mut claimed[1],
                    other => return Err(ParsePositionError::Character(other, rank + 1)),
                };
                if let Some(sq) = (file < size).then(|| Square::new(file as u8, rank as u8)).flatten() {
                    *target |= sq.bitboard();
                }
                // Saturating like the digit runs: a run of usize::MAX squares then a piece
                // overflowed here (a panic with overflow checks; without them, a count
                // wrapped to 0 that a following '7' could bring back to a valid rank).
                file = file.saturating_add(1);
            }
            if file != size {
                return Err(ParsePositionError::RankLength { rank: rank + 1, found: file, size });
            }
        }
        let side = match side.ok_or(ParsePositionError::MissingSide)? {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(ParsePositionError::Side(quoted(other))),
        };
        let (mut set, mut no_corners, mut claimed_block, mut swap) = (None::<&str>, None, None, None);
        for word in parts {
            let slot = match word {
                "classic" | "modern" => &mut set,
                "no-corners" => &mut no_corners,
                "claimed-block" => &mut claimed_block,
                "swap" | "noswap" => &mut swap,
                _ => return Err(ParsePositionError::UnknownWord(quoted(word))),
            };
            if let Some(first) = slot {
                return Err(ParsePositionError::RepeatedWord(first.to_string(), word.to_string()));
            }
            *slot = Some(word);
        }
        let no_corners = no_corners.is_some();
        let swap = swap.map(|w| w == "swap");
        let set = if set == Some("modern") { RuleSet::Modern } else { RuleSet::Classic };
        let rules = Rules::new(set, no_corners, claimed_block.is_some())?;
        if no_corners {
            let pieces = stones[0] | stones[1] | claimed[0] | claimed[1] | shooters;
            if let Some(sq) = (pieces & variant.corners()).first() {
                return Err(ParsePositionError::Corner(sq));
            }
        }
        let white_modern_setup = rules.is_modern()
            && side == Color::White
            && (shooters | claimed[0] | claimed[1]).count() == u32::from(variant.setup_count(Color::Black));
        if swap.is_some() && !white_modern_setup {
            return Err(ParsePositionError::SwapWord);
        }
        let swap_available = white_modern_setup && swap.unwrap_or(true);
        let position = Position::from_parts(variant, rules, swap_available, stones, shooters, claimed, side);
        validate(&position)?;
        Ok(position)
    }
}

fn validate(position: &Position) -> Result<(), ParsePositionError> {
    let variant = position.variant();
    let claims = position.claimed(Color::Black) | position.claimed(Color::White);
    let stones = position.stones(Color::Black) | position.stones(Color::White);
    let found = (position.shooters() | claims).count();
    let black = variant.setup_count(Color::Black);
    if found == u32::from(variant.shooters()) {
        for sq in position.shooters() {
            if position.is_immobilized(sq) {
                return Err(ParsePositionError::Immobilized(sq));
            }
        }
        let need = u32::from(variant.claims_to_win());
        if position.claims(Color::Black) >= need && position.claims(Color::White) >= need {
            return Err(ParsePositionError::BothWin);
        }
        return Ok(());
    }
    if found != 0 && found != u32::from(black) {
        return Err(ParsePositionError::ShooterCount { found, black, all: variant.shooters() });
    }
    if position.rules().is_modern() {
        return validate_modern_setup(position, found);
    }
    if !(stones | claims).is_empty() {
        return Err(ParsePositionError::StonesDuringSetup);
    }
    for sq in position.shooters() {
        if let Some(other) = (position.shooters() & sq.bitboard().neighbours()).first() {
            let (a, b) = Square::in_notation_order(other, sq);
            return Err(ParsePositionError::AdjacentShooters(a, b));
        }
    }
    let expected = if found == 0 { Color::Black } else { Color::White };
    if position.side_to_move() != expected {
        return Err(ParsePositionError::SetupSide(expected));
    }
    Ok(())
}

/// The checks of a modern setup position (`found` shooters placed, 0 or Black's count).
fn validate_modern_setup(position: &Position, found: u32) -> Result<(), ParsePositionError> {
    if !(position.claimed(Color::Black) | position.claimed(Color::White)).is_empty() {
        return Err(ParsePositionError::StonesDuringSetup);
    }
    let black_stones = if found == 0 { 0 } else { 1 };
    if position.stones(Color::Black).count() != black_stones || !position.stones(Color::White).is_empty() {
        return Err(ParsePositionError::SetupStones);
    }
    if let Some(sq) = (position.shooters() & !position.variant().interior()).first() {
        return Err(ParsePositionError::EdgeShooter(sq));
    }
    let expected = if found == 0 { Color::Black } else { Color::White };
    if position.side_to_move() != expected {
        return Err(ParsePositionError::SetupSide(expected));
    }
    Ok(())
}

impl fmt::Display for Position {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.variant().size();
        for rank in (0..size).rev() {
            let mut run = 0;
            for file in 0..size {
                let piece = Square::new(file, rank).and_then(|sq| self.piece_at(sq));
                let Some(piece) = piece else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                f.write_str(match piece {
                    Piece::Shooter => "s",
                    Piece::Stone(Color::Black) => "b",
                    Piece::Stone(Color::White) => "w",
                    Piece::Claimed(Color::Black) => "B",
                    Piece::Claimed(Color::White) => "W",
                })?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side_to_move().letter())?;
        if self.rules().is_modern() {
            f.write_str(" modern")?;
            if self.phase() == Phase::WhiteSetup {
                f.write_str(if self.swap_available() { " swap" } else { " noswap" })?;
            }
        }
        if self.rules().no_corners {
            f.write_str(" no-corners")?;
        }
        if self.rules().claimed_block() {
            f.write_str(" claimed-block")?;
        }
        Ok(())
    }
}
