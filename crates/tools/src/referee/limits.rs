//! The bounds of what a match or tournament counts (games, games at the same time, time
//! odds) and the parsers of the options that give them, each refusing what is out of bounds
//! in one line.

/// The most games one match or tournament schedules (`--games`, and games per pair times
/// pairs times rounds): every planned game costs the referee a few bytes while it runs, so
/// a bound keeps an absurd count from allocating gigabytes before the first game.
pub const MAX_GAMES: usize = 1_000_000;

/// The most games played at the same time (`-j`).
pub const MAX_CONCURRENCY: usize = 256;

/// A count of games (`--games`, `--games-per-pair`, `--rounds`): a whole number from 0
/// to [`MAX_GAMES`] (what else a count must be, even or positive, its command checks).
pub fn parse_count(text: &str) -> Result<usize, CountError> {
    match text.trim().parse::<u64>() {
        Ok(n) if n <= MAX_GAMES as u64 => Ok(n as usize),
        Ok(_) => Err(CountError::TooMany(text.to_string())),
        Err(_) if text.trim().chars().all(|c| c.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(CountError::TooMany(text.to_string()))
        }
        Err(_) => Err(CountError::NotANumber(text.to_string())),
    }
}

/// Why [`parse_count`] reads no count (the text as given, quoted when shown).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// A whole number above [`MAX_GAMES`].
    #[error("{} is more than {MAX_GAMES} games", veletas_rules::quoted(.0))]
    TooMany(String),
    /// Not a whole number.
    #[error("'{}' is not a whole number", veletas_rules::quoted(.0))]
    NotANumber(String),
}

/// A number of games at the same time (`-j`): from 1 to [`MAX_CONCURRENCY`].
pub fn parse_concurrency(text: &str) -> Result<usize, ConcurrencyError> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_CONCURRENCY as u64).contains(&n) => Ok(n as usize),
        _ => Err(ConcurrencyError(text.to_string())),
    }
}

/// Why [`parse_concurrency`] reads no concurrency: the text as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is not a number of games from 1 to {MAX_CONCURRENCY}", veletas_rules::quoted(.0))]
pub struct ConcurrencyError(String);

/// A time-odds factor (`--time-odds F`, the engine option `odds=F`): from 0.01 to 100.
pub fn parse_odds(text: &str) -> Result<f64, OddsError> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.01..=100.0).contains(&x) => Ok(x),
        _ => Err(OddsError(text.to_string())),
    }
}

/// Why [`parse_odds`] reads no factor: the text as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is not a factor between 0.01 and 100", veletas_rules::quoted(.0))]
pub struct OddsError(String);
