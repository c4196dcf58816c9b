//! Openings: where each pair of games starts.
//!
//! By default every pair gets random legal setups for both sides (Black's shooter
//! placement, then White's) drawn from the match seed and the pair number, so the same
//! seed always gives the same openings. An openings file has one opening per line
//! (blank lines and `#` comments are skipped): either moves from the empty board
//! (`c3,f6,h8 a1,c9,h2,j10`), or a position string optionally followed by moves played
//! from it (`7/7/7/3s3/7/7/7 w b2,f6`). Openings are used in file order and
//! cycled; each is played twice, with colours swapped.
//!
//! Every opening is played under the match's rules (`--rules`, `--no-corners`), and a
//! position string in a file must carry the same rules. Under the modern rules a random
//! opening is Black's random setup (shooters and stone) only: White's setup turn, where
//! it may swap, is left to the engines; an openings file cannot hold the swap either. With
//! `--random-setup` each pair starts instead from the random-setup position: every
//! shooter on a random square off the edge, no stones, Black to move.
//!
//! After the file name, cutechess's words choose how the file is used ([`OpeningsSpec`]):
//! `order=random` plays the openings in an order shuffled by the seed (still each one once
//! before any repeats), `start=N` begins at the Nth (from 1), `plies=N` cuts every opening
//! to its first N moves. Opening `n` stays a pure function of `n`, so shards and resumed
//! runs agree.

use std::path::Path;

use veletas_rules::{Game, Move, Phase, Position, Rng, Rules, Variant};

/// An opening: a start position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position, when it is not the empty board (sent with `set_position`).
    pub start: Option<Position>,
    /// Moves played from the start (sent with `play`).
    pub moves: Vec<Move>,
    /// The variant.
    pub variant: Variant,
    /// The rules.
    pub rules: Rules,
}

/// Where the openings of a match or tournament come from: a file (used in order and
/// cycled), random setups, or random-setup positions, all under one variant and rules.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningBook {
    /// The variant every opening is played on.
    pub variant: Variant,
    /// The rules every opening is played under.
    pub rules: Rules,
    list: Option<Vec<Opening>>,
    random_setup: bool,
    seed: u64,
    /// The order the file's openings are played in: indices into `list`.
    order: Vec<usize>,
    spec: OpeningsSpec,
}

/// The order of an openings file's openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The file's order.
    #[default]
    Sequential,
    /// An order shuffled by the seed.
    Random,
}

/// How an openings file is used: `FILE [order=sequential|random] [start=N] [plies=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsSpec {
    /// The file.
    pub file: std::path::PathBuf,
    /// The order of its openings.
    pub order: Order,
    /// The opening played first, from 1.
    pub start: usize,
    /// At most this many moves of each opening, if given.
    pub plies: Option<usize>,
}

impl Default for OpeningsSpec {
    /// No file yet, in the file's order from its first opening, whole.
    fn default() -> OpeningsSpec {
        OpeningsSpec { file: std::path::PathBuf::new(), order: Order::Sequential, start: 1, plies: None }
    }
}

impl OpeningsSpec {
    /// Reads the words of `--openings`: the file, then each of `order=`, `start=` and
    /// `plies=` at most once, in any order.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<OpeningsSpec, SpecError> {
        let (file, options) = words.split_first().ok_or(SpecError::NoFile)?;
        let file = file.as_ref();
        let file = file.strip_prefix("file=").unwrap_or(file);
        let mut spec = OpeningsSpec { file: file.into(), ..OpeningsSpec::default() };
        let mut seen = Vec::new();
        for word in options {
            let word = word.as_ref();
            let (key, value) =
                word.split_once('=').ok_or_else(|| SpecError::NotAnOption(veletas_rules::quoted(word).to_string()))?;
            if seen.contains(&key) {
                return Err(SpecError::Twice(key.to_string()));
            }
            let number = |what: &'static str, least: usize| match value.parse::<usize>() {
                Ok(n) if n >= least && n <= 1_000_000_000 => Ok(n),
                _ => Err(SpecError::Number { what, value: veletas_rules::quoted(value).to_string(), least }),
            };
            match key {
                "order" => {
                    spec.order = match value {
                        "sequential" => Order::Sequential,
                        "random" => Order::Random,
                        _ => return Err(SpecError::Order(veletas_rules::quoted(value).to_string())),
                    }
                }
                "start" => spec.start = number("start", 1)?,
                "plies" => spec.plies = Some(number("plies", 0)?),
                _ => return Err(SpecError::Unknown(key.to_string())),
            }
            seen.push(key);
        }
        Ok(spec)
    }

    /// The words that differ from the defaults, for fingerprints (empty by default, so
    /// that runs recorded before these options resume unchanged).
    fn describe(&self) -> String {
        let mut words = String::new();
        if self.order == Order::Random {
            words.push_str(";order=random");
        }
        if self.start != 1 {
            words.push_str(&format!(";start={}", self.start));
        }
        if let Some(plies) = self.plies {
            words.push_str(&format!(";plies={plies}"));
        }
        words
    }
}

/// Why [`OpeningsSpec::parse`] refused `--openings`' words (words from the user come
/// quoted and cut short).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No word at all.
    #[error("--openings needs a file")]
    NoFile,
    /// A word after the file that is no `KEY=VALUE`.
    #[error("--openings: '{0}' after the file: expected order=sequential|random, start=N or plies=N")]
    NotAnOption(String),
    /// A key given twice.
    #[error("--openings: {0}= given twice")]
    Twice(String),
    /// `start=` or `plies=` out of range.
    #[error("--openings: {what}={value}: expected a whole number from {least} to 1000000000")]
    Number {
        /// The key.
        what: &'static str,
        /// The value given.
        value: String,
        /// The least value allowed.
        least: usize,
    },
    /// `order=` neither `sequential` nor `random`.
    #[error("--openings: order={0}: expected sequential or random")]
    Order(String),
    /// A key that is none of `order`, `start` and `plies`.
    #[error("--openings: unknown option {0}= (order, start or plies)")]
    Unknown(String),
}

/// Why [`Opening::parse_with_rules`] refused a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The position string does not parse.
    #[error("bad position: {0}")]
    Position(String),
    /// The position string is of other rules than the match's.
    #[error("a position of the {found} rules in a match of the {wanted} rules")]
    Rules {
        /// The position's rules.
        found: Rules,
        /// The match's.
        wanted: Rules,
    },
    /// The position is of another board size than `--size`.
    #[error("a {found}x{found} position in a match on {size}x{size}")]
    Size {
        /// The position's size.
        found: u8,
        /// `--size`.
        size: u8,
    },
    /// No variant is played on the board size.
    #[error("no variant is played on {0}x{0}")]
    NoVariant(u8),
    /// A word that is no move.
    #[error("{0}")]
    Move(String),
    /// The swap, which the engines decide.
    #[error("an opening cannot hold the swap: the engines decide it")]
    Swap,
    /// A move that cannot be played.
    #[error("illegal move {word}: {detail}")]
    Illegal {
        /// The move, quoted.
        word: String,
        /// Why.
        detail: String,
    },
    /// The opening ends the game.
    #[error("the game is already over")]
    Over,
}

/// Why [`read_openings`] or [`parse_openings`] has no openings (each message begins with
/// the file, and its line when one is at fault).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsFileError {
    /// The file cannot be read.
    #[error("{file}: {detail}")]
    Unreadable {
        /// The file.
        file: String,
        /// The reader's error.
        detail: String,
    },
    /// The `size N` line is not one.
    #[error("{origin}:{line}: {detail}")]
    SizeLine {
        /// The file.
        origin: String,
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        detail: SizeLineError,
    },
    /// The `size N` line disagrees with `--size`.
    #[error(
        "{origin}: a book of {declared}x{declared} openings (its 'size {declared}' line) in a match on \
         {size}x{size}: give --size {declared} or a book of {size}x{size} openings"
    )]
    BookSize {
        /// The file.
        origin: String,
        /// The size its line declares.
        declared: u8,
        /// `--size`.
        size: u8,
    },
    /// A `size N` line after the first line.
    #[error("{origin}:{line}: a 'size N' line comes once, before the openings")]
    SizeAgain {
        /// The file.
        origin: String,
        /// The line's number.
        line: usize,
    },
    /// A line that is no opening.
    #[error("{origin}:{line}: {source}")]
    Opening {
        /// The file.
        origin: String,
        /// The line's number.
        line: usize,
        /// Why.
        source: OpeningError,
    },
    /// No opening in the file.
    #[error("{origin}: no openings")]
    Empty {
        /// The file.
        origin: String,
    },
}

/// Why an openings file's `size N` line is not one (the value quoted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeLineError {
    /// N is no board size.
    #[error("'size {0}': the board is 7, 9 or 10")]
    Board(String),
    /// The line is not `size N`.
    #[error("'{0}' is not 'size N'")]
    NotSize(String),
}

/// Why [`OpeningBook::new`] has no book.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// `--openings`' words are wrong: a usage error.
    #[error(transparent)]
    Options(#[from] SpecError),
    /// `--size` is no board size: a usage error.
    #[error("--size {0}: the board is 7, 9 or 10")]
    Size(u8),
    /// The openings file cannot be read, or holds something else than openings of the match.
    #[error(transparent)]
    File(#[from] OpeningsFileError),
}

impl OpeningBook {
    /// The openings file the book was read from, if any.
    pub fn file(&self) -> Option<&std::path::Path> {
        self.list.is_some().then_some(self.spec.file.as_path())
    }

    /// The book of `openings` (`FILE [order=...] [start=N] [plies=N]`, as `--openings` gives
    /// them: the file's size must agree with `size`), or, when `openings` is empty, random
    /// openings of `size` (10 by default) under `rules` from `seed`, whole random setups
    /// when `random_setup`.
    pub fn new(
        openings: &[String],
        size: Option<u8>,
        rules: Rules,
        random_setup: bool,
        seed: u64,
    ) -> Result<OpeningBook, OpeningsError> {
        let spec = match openings.is_empty() {
            true => None,
            false => Some(OpeningsSpec::parse(openings)?),
        };
        let list = match &spec {
            Some(spec) => Some(read_openings(&spec.file, size, rules)?),
            None => None,
        };
        let variant = match (&list, size) {
            // parse_openings refuses a file without openings.
            (Some(list), _) => list.first().map_or(Variant::STANDARD, |o| o.variant),
            (None, size) => {
                let size = size.unwrap_or(10);
                Variant::from_size(size).ok_or(OpeningsError::Size(size))?
            }
        };
        let spec = spec.unwrap_or_default();
        let mut order: Vec<usize> = (0..list.as_ref().map_or(0, Vec::len)).collect();
        if spec.order == Order::Random {
            // Fisher-Yates from the seed: the same order in every shard and every resumed run.
            let mut rng = Rng::new(mix(seed, u64::MAX));
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below_u64(i as u64 + 1) as usize);
            }
        }
        Ok(OpeningBook { variant, rules, list, random_setup, seed, order, spec })
    }

    /// The opening of encounter `n` (two games, colours swapped, share one).
    pub fn opening(&self, n: u64) -> Opening {
        match &self.list {
            Some(list) if !list.is_empty() => {
                let len = list.len() as u64;
                let at = (n % len + (self.spec.start.max(1) as u64 - 1) % len) % len;
                let mut opening = list[self.order[at as usize]].clone();
                if let Some(plies) = self.spec.plies {
                    opening.moves.truncate(plies);
                }
                opening
            }
            _ if self.random_setup => Opening::random_start(self.variant, self.rules, self.seed, n),
            _ => Opening::random_with_rules(self.variant, self.rules, self.seed, n),
        }
    }

    /// A short description for fingerprints and reports: the file's openings, or the
    /// kind of random opening and the seed.
    pub fn describe(&self) -> String {
        match &self.list {
            Some(list) => {
                let all: Vec<String> = list.iter().map(Opening::to_string).collect();
                format!("file:{}{}", all.join(";"), self.spec.describe())
            }
            None if self.random_setup => format!("random-setup seed {}", self.seed),
            None => format!("random seed {}", self.seed),
        }
    }
}

/// Mixes a seed and a counter into a well-spread 64-bit value (splitmix64).
pub fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Opening {
    /// Random legal setups of both sides for pair `pair` of a match seeded with `seed`
    /// (classic rules).
    pub fn random(variant: Variant, seed: u64, pair: u64) -> Opening {
        Opening::random_with_rules(variant, Rules::CLASSIC, seed, pair)
    }

    /// A random opening under `rules` for pair `pair` of a match seeded with `seed`:
    /// random setups of both sides (classic), or Black's random setup only (modern: the
    /// swap decision stays with White's engine).
    pub fn random_with_rules(variant: Variant, rules: Rules, seed: u64, pair: u64) -> Opening {
        let mut rng = Rng::new(mix(seed, pair));
        let mut position = Position::with_rules(variant, rules);
        let mut moves = Vec::with_capacity(2);
        let setups = if rules.is_modern() { 1 } else { 2 };
        while position.phase() != Phase::Play && moves.len() < setups {
            let Some(mv) = position.random_setup(&mut rng) else { break };
            if mv == Move::Swap {
                continue;
            }
            if position.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        Opening { start: None, moves, variant, rules }
    }

    /// The random-setup start of pair `pair` of a match seeded with `seed`: every shooter
    /// on a random square off the edge, no stones, Black to move.
    pub fn random_start(variant: Variant, rules: Rules, seed: u64, pair: u64) -> Opening {
        let mut rng = Rng::new(mix(seed, pair));
        Opening { start: Some(Position::random_start(variant, rules, &mut rng)), moves: Vec::new(), variant, rules }
    }

    /// Reads one line of an openings file (classic rules); `size` is the `--size` to
    /// check against.
    pub fn parse(line: &str, size: Option<u8>) -> Result<Opening, OpeningError> {
        Opening::parse_with_rules(line, size, Rules::CLASSIC)
    }

    /// Reads one line of an openings file for a match under `rules`; `size` is the
    /// `--size` to check against. A position string's rules words must give `rules`.
    pub fn parse_with_rules(line: &str, size: Option<u8>, rules: Rules) -> Result<Opening, OpeningError> {
        let mut words = line.split_whitespace().peekable();
        let start: Option<Position> = match words.peek() {
            Some(first) if is_position_word(first) => {
                let board = words.next().unwrap_or_default();
                // Without a side, the parser says what is missing (or wrong in the ranks).
                let mut text = board.to_string();
                if let Some(side) = words.next() {
                    text.push(' ');
                    text.push_str(side);
                }
                while let Some(word) = words.next_if(|w| {
                    matches!(*w, "classic" | "modern" | "no-corners" | "claimed-block" | "swap" | "noswap")
                }) {
                    text.push(' ');
                    text.push_str(word);
                }
                let position: Position = text.parse().map_err(|e| OpeningError::Position(format!("{e}")))?;
                if position.rules() != rules {
                    return Err(OpeningError::Rules { found: position.rules(), wanted: rules });
                }
                Some(position)
            }
            _ => None,
        };
        let variant = match (&start, size) {
            (Some(p), Some(size)) if p.variant().size() != size => {
                return Err(OpeningError::Size { found: p.variant().size(), size });
            }
            (Some(p), _) => p.variant(),
            (None, size) => {
                let size = size.unwrap_or(10);
                Variant::from_size(size).ok_or(OpeningError::NoVariant(size))?
            }
        };
        let mut game = Game::from_position(start.clone().unwrap_or_else(|| Position::with_rules(variant, rules)));
        let mut moves = Vec::new();
        for word in words {
            let mv = game.position().parse_move(word).map_err(|e| OpeningError::Move(e.to_string()))?;
            if mv == Move::Swap {
                return Err(OpeningError::Swap);
            }
            game.play(mv).map_err(|e| OpeningError::Illegal {
                word: veletas_rules::quoted(word).to_string(),
                detail: e.to_string(),
            })?;
            moves.push(mv);
        }
        if game.position().is_over() {
            return Err(OpeningError::Over);
        }
        let start = start.filter(|p| *p != Position::with_rules(variant, rules));
        Ok(Opening { start, moves, variant, rules })
    }

    /// The position the opening starts from.
    pub fn start_position(&self) -> Position {
        self.start.clone().unwrap_or_else(|| Position::with_rules(self.variant, self.rules))
    }

    /// The game after the opening.
    pub fn game(&self) -> Game {
        let mut game = Game::from_position(self.start_position());
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

/// Whether a word is the ranks of a position string (at least 7 ranks, so at least six
/// `/`), not a move (a modern setup such as `c3,e5/d4` has one `/`, a play turn one).
fn is_position_word(word: &str) -> bool {
    word.matches('/').count() >= 2
}

/// Reads an openings file (see the module documentation) for a match under `rules`.
/// All openings must be of one variant; `size` (the `--size` option) must match it when
/// given. Without it, the size is that of the first position string in the file, or 10.
pub fn read_openings(path: &Path, size: Option<u8>, rules: Rules) -> Result<Vec<Opening>, OpeningsFileError> {
    let text = veletas_rules::record::read_record_file(path)
        .map_err(|e| OpeningsFileError::Unreadable { file: path.display().to_string(), detail: e.to_string() })?;
    parse_openings(&text, &path.display().to_string(), size, rules)
}

/// The board size of an openings file's `size N` line.
fn declared_size(line: &str) -> Result<u8, SizeLineError> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["size", n] => match n.parse::<u8>() {
            Ok(n) if Variant::from_size(n).is_some() => Ok(n),
            _ => Err(SizeLineError::Board(veletas_rules::quoted(n).to_string())),
        },
        _ => Err(SizeLineError::NotSize(veletas_rules::quoted(line).to_string())),
    }
}

/// The openings of an openings file's `text` ([`read_openings`] without the reading);
/// `origin` names the file in messages.
pub fn parse_openings(
    text: &str,
    origin: &str,
    size: Option<u8>,
    rules: Rules,
) -> Result<Vec<Opening>, OpeningsFileError> {
    let origin_ = || origin.to_string();
    let mut lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or_default().trim()))
        .filter(|(_, line)| !line.is_empty())
        .collect();
    // A `size N` line before the openings (as `veletas book` writes) gives the board size.
    let declared = match lines.first() {
        Some((number, line)) if line.split_whitespace().next() == Some("size") => {
            let declared = declared_size(line).map_err(|detail| OpeningsFileError::SizeLine {
                origin: origin_(),
                line: *number,
                detail,
            })?;
            if let Some(size) = size.filter(|&s| s != declared) {
                return Err(OpeningsFileError::BookSize { origin: origin_(), declared, size });
            }
            lines.remove(0);
            Some(declared)
        }
        _ => None,
    };
    if let Some((number, _)) = lines.iter().find(|(_, l)| l.split_whitespace().next() == Some("size")) {
        return Err(OpeningsFileError::SizeAgain { origin: origin_(), line: *number });
    }
    let size = size.or(declared);
    // Without --size, the first position string sets the size of move-list lines too.
    let first_position = lines.iter().find_map(|(_, l)| l.split_whitespace().next().filter(|w| is_position_word(w)));
    let size = size.or_else(|| first_position.and_then(|p| u8::try_from(p.split('/').count()).ok()));
    let mut openings: Vec<Opening> = Vec::new();
    for (number, line) in lines {
        let size = size.or(openings.first().map(|o| o.variant.size()));
        let opening = Opening::parse_with_rules(line, size, rules).map_err(|source| OpeningsFileError::Opening {
            origin: origin_(),
            line: number,
            source,
        })?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningsFileError::Empty { origin: origin_() });
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
        // A malformed position string gets the parser's specific reason.
        let err = Opening::parse("7/7/7/7/7/7/7", None).unwrap_err().to_string();
        assert_eq!(err, "bad position: the side to move ('b' or 'w') is missing after the ranks");
        let err = Opening::parse("7/7/7/7/7/7/x6 b d4", None).unwrap_err().to_string();
        assert_eq!(err, "bad position: unexpected 'x' in rank 1");
    }

    #[test]
    fn a_size_line_gives_the_board_and_refuses_another_size() {
        let book = "# veletas book\nsize 7\ng7 a6,d2  # Black 60%\n";
        let read = parse_openings(book, "b.txt", None, Rules::CLASSIC).unwrap();
        assert_eq!((read.len(), read[0].variant.size()), (1, 7), "7x7 moves read on 7x7 without --size");
        assert_eq!(parse_openings(book, "b.txt", Some(7), Rules::CLASSIC), Ok(read));
        let e = parse_openings(book, "b.txt", Some(10), Rules::CLASSIC).unwrap_err().to_string();
        assert_eq!(
            e,
            "b.txt: a book of 7x7 openings (its 'size 7' line) in a match on 10x10: give --size 7 or a book of \
             10x10 openings"
        );
        for (bad, error) in [
            ("size 8\ng7 a6,d2\n", "b.txt:1: 'size 8': the board is 7, 9 or 10"),
            ("size\ng7 a6,d2\n", "b.txt:1: 'size' is not 'size N'"),
            ("size 7 9\ng7 a6,d2\n", "b.txt:1: 'size 7 9' is not 'size N'"),
            ("g7 a6,d2\nsize 7\n", "b.txt:2: a 'size N' line comes once, before the openings"),
            ("size 7\nsize 7\ng7 a6,d2\n", "b.txt:2: a 'size N' line comes once, before the openings"),
        ] {
            assert_eq!(parse_openings(bad, "b.txt", None, Rules::CLASSIC).unwrap_err().to_string(), error, "{bad}");
        }
    }

    #[test]
    fn modern_openings_place_stones_and_check_the_rules() {
        let modern = Rules::MODERN;
        let a = Opening::random_with_rules(Variant::STANDARD, modern, 7, 3);
        assert_eq!(a.moves.len(), 1);
        assert!(a.moves.iter().all(|mv| matches!(mv, Move::SetupWithStone { .. })));
        assert_eq!(a.game().position().phase(), Phase::WhiteSetup);
        assert!(a.game().position().swap_available());
        assert_eq!(Opening::parse_with_rules(&a.to_string(), Some(10), modern), Ok(a.clone()));
        assert!(Opening::parse(&a.to_string(), Some(10)).is_err(), "modern setups are no classic opening");
        let p = Opening::parse_with_rules("7/7/7/3s3/7/7/b6 w modern noswap e3,c5/g7", None, modern).unwrap();
        assert_eq!(p.to_string(), "7/7/7/3s3/7/7/b6 w modern noswap c5,e3/g7");
        assert!(Opening::parse_with_rules("7/7/7/3s3/7/7/b6 w modern swap", None, Rules::CLASSIC).is_err());
        assert!(Opening::parse_with_rules("d4/a1 swap", Some(7), modern).is_err());
        let r = Opening::random_start(Variant::STANDARD, modern.with_no_corners(true), 1, 0);
        assert_eq!(r.game().position().phase(), Phase::Play);
        assert_eq!(Opening::parse_with_rules(&r.to_string(), None, modern.with_no_corners(true)), Ok(r.clone()));
        assert_ne!(r, Opening::random_start(Variant::STANDARD, modern.with_no_corners(true), 1, 1));
    }

    fn book(lines: &str, words: &[&str], seed: u64) -> Result<OpeningBook, OpeningsError> {
        // A directory of each call's own: tests run at once, and one must not read another's file half written.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("veletas-openings-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("book.txt");
        std::fs::write(&file, lines).unwrap();
        let openings: Vec<String> =
            std::iter::once(file.display().to_string()).chain(words.iter().map(|w| w.to_string())).collect();
        OpeningBook::new(&openings, Some(7), Rules::CLASSIC, false, seed)
    }

    const SEVEN: &str = "d4 b2,f6\nc3 e2,f6\ne5 b2,c6\nc5 b2,f6\ne3 b2,f6\n";

    #[test]
    fn openings_options_start_cut_and_shuffle_the_file_reproducibly() {
        let first = |b: &OpeningBook, n: u64| b.opening(n).moves[0].to_string();
        let plain = book(SEVEN, &[], 1).unwrap();
        assert_eq!((0..6).map(|n| first(&plain, n)).collect::<Vec<_>>(), ["d4", "c3", "e5", "c5", "e3", "d4"]);
        let started = book(SEVEN, &["start=3"], 1).unwrap();
        assert_eq!((0..6).map(|n| first(&started, n)).collect::<Vec<_>>(), ["e5", "c5", "e3", "d4", "c3", "e5"]);
        let cut = book(SEVEN, &["plies=1"], 1).unwrap();
        assert!((0..5).all(|n| cut.opening(n).moves.len() == 1));
        assert_eq!(book(SEVEN, &["plies=0"], 1).unwrap().opening(0).moves, []);
        let shuffled = book(SEVEN, &["order=random"], 7).unwrap();
        let order: Vec<String> = (0..5).map(|n| first(&shuffled, n)).collect();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, ["c3", "c5", "d4", "e3", "e5"], "each opening once before any repeats");
        assert_eq!(first(&shuffled, 5), order[0], "then the same order again");
        let again = book(SEVEN, &["order=random"], 7).unwrap();
        assert_eq!((0..5).map(|n| first(&again, n)).collect::<Vec<_>>(), order, "the seed decides the order");
        assert!((1..20).any(|seed| {
            let other = book(SEVEN, &["order=random"], seed).unwrap();
            (0..5).map(|n| first(&other, n)).collect::<Vec<_>>() != order
        }));
        // The fingerprint names the options, and only when they differ from the defaults.
        assert!(!plain.describe().contains("order="));
        assert!(shuffled.describe().ends_with(";order=random"));
        assert!(
            book(SEVEN, &["order=random", "start=2", "plies=1"], 7)
                .unwrap()
                .describe()
                .ends_with(";order=random;start=2;plies=1")
        );
    }

    #[test]
    fn bad_openings_options_are_one_line_errors() {
        for (words, error) in [
            (&["order=shuffled"][..], "order=shuffled: expected sequential or random"),
            (&["start=0"], "start=0: expected a whole number from 1"),
            (&["plies=-1"], "plies=-1: expected a whole number from 0"),
            (&["depth=3"], "unknown option depth="),
            (&["random"], "'random' after the file"),
            (&["start=2", "start=3"], "start= given twice"),
            (&["order=\u{1b}[2J\u{202e}x"], "order=\\u{1b}[2J\\u{202e}x: expected"),
        ] {
            let e = book(SEVEN, words, 1).unwrap_err().to_string();
            assert!(e.contains(error) && !e.contains('\n'), "{words:?}: {e}");
        }
        let long = format!("start={}", "9".repeat(100_000));
        let e = book(SEVEN, &[long.as_str()], 1).unwrap_err().to_string();
        assert!(e.contains("start=9999") && e.contains("...: expected") && e.len() < 200, "{e}");
    }
}
