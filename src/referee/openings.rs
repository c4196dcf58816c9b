//! Openings: where each pair of games starts.
//!
//! By default every pair gets random legal setups for both sides (Black's shooter
//! placement, then White's) drawn from the match seed and the pair number, so the same
//! seed always gives the same openings. An openings file has one opening per line
//! (blank lines and `#` comments are skipped): either moves from the empty board
//! (`c3,f6,h8 a1,c9,h2,j10`), or a position string optionally followed by moves played
//! from it (`7/7/7/3s3/7/7/7 w b2,f6`). Openings are used in file order and
//! cycled; each is played twice, with colours swapped.

use std::path::Path;

use crate::rules::{Game, Move, Position, Rng, Variant};

/// An opening: a start position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position, when it is not the empty board (sent with `set_position`).
    pub start: Option<Position>,
    /// Moves played from the start (sent with `play`).
    pub moves: Vec<Move>,
    /// The variant.
    pub variant: Variant,
}

/// Mixes a seed and a counter into a well-spread 64-bit value (splitmix64).
pub fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Opening {
    /// Random legal setups of both sides for pair `pair` of a match seeded with `seed`.
    pub fn random(variant: Variant, seed: u64, pair: u64) -> Opening {
        let mut rng = Rng::new(mix(seed, pair));
        let mut position = Position::new(variant);
        let mut moves = Vec::with_capacity(2);
        while let Some(mv) = position.random_setup(&mut rng) {
            if position.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        Opening { start: None, moves, variant }
    }

    /// Reads one line of an openings file; `size` is the `--size` to check against.
    pub fn parse(line: &str, size: Option<u8>) -> Result<Opening, String> {
        let mut words = line.split_whitespace().peekable();
        let start: Option<Position> = match words.peek() {
            Some(first) if first.contains('/') => {
                let board = words.next().unwrap_or_default();
                let side = words.next().ok_or("a position string needs the side to move")?;
                Some(format!("{board} {side}").parse().map_err(|e| format!("bad position: {e}"))?)
            }
            _ => None,
        };
        let variant = match (&start, size) {
            (Some(p), Some(size)) if p.variant().size() != size => {
                return Err(format!("a {0}x{0} position in a match on {size}x{size}", p.variant().size()));
            }
            (Some(p), _) => p.variant(),
            (None, size) => {
                let size = size.unwrap_or(10);
                Variant::from_size(size).ok_or(format!("no variant is played on {size}x{size}"))?
            }
        };
        let mut game = Game::from_position(start.clone().unwrap_or_else(|| Position::new(variant)));
        let mut moves = Vec::new();
        for word in words {
            let mv = game.position().parse_move(word).map_err(|e| e.to_string())?;
            game.play(mv).map_err(|e| format!("illegal move {word}: {e}"))?;
            moves.push(mv);
        }
        if game.position().is_over() {
            return Err("the game is already over".into());
        }
        let start = start.filter(|p| *p != Position::new(variant));
        Ok(Opening { start, moves, variant })
    }

    /// The game after the opening.
    pub fn game(&self) -> Game {
        let mut game = Game::from_position(self.start.clone().unwrap_or_else(|| Position::new(self.variant)));
        for &mv in &self.moves {
            // Openings are checked when made; a failure here cannot happen.
            let _ = game.play(mv);
        }
        game
    }
}

impl std::fmt::Display for Opening {
    /// The line form: the position string (if any), then the moves, space-separated.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        if let Some(start) = &self.start {
            write!(f, "{start}")?;
            first = false;
        }
        for mv in &self.moves {
            if !first {
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
            first = false;
        }
        Ok(())
    }
}

/// Reads an openings file (see the module documentation). All openings must be of one
/// variant; `size` (the `--size` option) must match it when given. Without it, the
/// size is that of the first position string in the file, or 10.
pub fn read_openings(path: &Path, size: Option<u8>) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or_default().trim()))
        .filter(|(_, line)| !line.is_empty())
        .collect();
    // Without --size, the first position string sets the size of move-list lines too.
    let first_position = lines.iter().find_map(|(_, l)| l.split_whitespace().next().filter(|w| w.contains('/')));
    let size = size.or_else(|| first_position.and_then(|p| u8::try_from(p.split('/').count()).ok()));
    let mut openings: Vec<Opening> = Vec::new();
    for (number, line) in lines {
        let size = size.or(openings.first().map(|o| o.variant.size()));
        let opening = Opening::parse(line, size).map_err(|e| format!("{}:{number}: {e}", path.display()))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_both_setups_and_reproducible() {
        let v = Variant::STANDARD;
        let a = Opening::random(v, 7, 3);
        assert_eq!(a.moves.len(), 2);
        assert_eq!(a, Opening::random(v, 7, 3));
        assert_ne!(a, Opening::random(v, 7, 4));
        assert_eq!(Opening::parse(&a.to_string(), Some(10)), Ok(a));
    }

    #[test]
    fn lines_are_moves_or_positions_with_moves() {
        let o = Opening::parse("d4 b2,f6", None);
        assert!(o.is_err(), "d4 is no 10x10 setup of three shooters");
        let o = Opening::parse("d4 b2,f6 d4-d6/d5", Some(7)).unwrap();
        assert_eq!((o.start.is_none(), o.moves.len()), (true, 3));
        let p = Opening::parse("7/7/7/3s3/7/7/7 w b2,f6", None).unwrap();
        assert_eq!(p.variant.size(), 7);
        assert_eq!(p.to_string(), "7/7/7/3s3/7/7/7 w b2,f6");
        assert!(Opening::parse("7/7/7/3s3/7/7/7 w", Some(9)).is_err());
        assert_eq!(Opening::parse("7/7/7/7/7/7/7 b", None).unwrap().start, None);
    }
}
