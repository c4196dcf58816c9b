//! `--shard K/N`: which games of the schedule this process plays.

use std::fmt;
use std::str::FromStr;

/// A shard as given: `K/N`, or `auto/N` with K from the scheduler's environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardSpec {
    index: Option<usize>,
    count: usize,
}

impl FromStr for ShardSpec {
    type Err = ShardSpecError;

    fn from_str(text: &str) -> Result<ShardSpec, ShardSpecError> {
        let bad = || ShardSpecError(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(bad());
        }
        let index = match k.trim() {
            "auto" => None,
            k => match k.parse::<usize>() {
                Ok(k) if (1..=count).contains(&k) => Some(k),
                _ => return Err(bad()),
            },
        };
        Ok(ShardSpec { index, count })
    }
}

/// A text that is no `--shard` ([`ShardSpec`]'s parser): the text as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is not a shard: use K/N with 1 <= K <= N, or auto/N", veletas_rules::quoted(.0))]
pub struct ShardSpecError(String);

/// Why `auto` gives no shard ([`ShardSpec::resolve`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// A variable that is not a number.
    #[error("${name}='{}' is not a number", veletas_rules::quoted(.value))]
    NotANumber {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// Neither scheduler's variable is set.
    #[error("--shard auto/N: neither $SLURM_ARRAY_TASK_ID nor $JOB_COMPLETION_INDEX is set; give K/N")]
    Unset,
    /// The environment gives a shard outside 1..N.
    #[error("--shard auto/{count}: the environment gives shard {shard}, outside 1..{count}")]
    Outside {
        /// The shard it gives.
        shard: i64,
        /// N.
        count: usize,
    },
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(k) => write!(f, "{k}/{}", self.count),
            None => write!(f, "auto/{}", self.count),
        }
    }
}

impl ShardSpec {
    /// The number of shards.
    pub fn count(&self) -> usize {
        self.count
    }

    /// K (from 1), looking `auto` up with `env` (a variable's value by name).
    pub fn resolve(&self, env: impl Fn(&str) -> Option<String>) -> Result<usize, ShardError> {
        if let Some(k) = self.index {
            return Ok(k);
        }
        let number = |name: &'static str| -> Result<Option<i64>, ShardError> {
            match env(name) {
                None => Ok(None),
                Some(value) => {
                    value.trim().parse::<i64>().map(Some).map_err(|_| ShardError::NotANumber { name, value })
                }
            }
        };
        let k = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            id - number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0) + 1
        } else if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            index + 1
        } else {
            return Err(ShardError::Unset);
        };
        match usize::try_from(k) {
            Ok(k) if (1..=self.count).contains(&k) => Ok(k),
            _ => Err(ShardError::Outside { shard: k, count: self.count }),
        }
    }

    /// How many of the games `0..games` belong to shard `k` (from 1) of `count`.
    pub fn size(k: usize, count: usize, games: usize) -> usize {
        games / count + usize::from(games % count > k - 1)
    }

    /// Whether game `index` belongs to shard `k` (from 1).
    pub fn contains(k: usize, count: usize, index: usize) -> bool {
        index % count == k - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn shards_parse_and_refuse_what_is_out_of_range() {
        assert_eq!("2/3".parse::<ShardSpec>().unwrap().resolve(env(&[])), Ok(2));
        for bad in ["0/3", "4/3", "1/0", "x/2", "3", "-1/2", "1/-2"] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
        assert_eq!("auto/4".parse::<ShardSpec>().unwrap().to_string(), "auto/4");
    }

    #[test]
    fn auto_shards_come_from_slurm_or_kubernetes() {
        let auto: ShardSpec = "auto/3".parse().unwrap();
        assert_eq!(auto.resolve(env(&[("SLURM_ARRAY_TASK_ID", "2")])), Ok(3));
        assert_eq!(auto.resolve(env(&[("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1")])), Ok(2));
        assert_eq!(auto.resolve(env(&[("JOB_COMPLETION_INDEX", "0")])), Ok(1));
        assert!(auto.resolve(env(&[("JOB_COMPLETION_INDEX", "3")])).unwrap_err().to_string().contains("outside"));
        assert!(auto.resolve(env(&[("JOB_COMPLETION_INDEX", "x")])).unwrap_err().to_string().contains("not a number"));
        assert!(auto.resolve(env(&[])).unwrap_err().to_string().contains("neither"));
    }

    #[test]
    fn shards_split_the_indices_without_overlap() {
        let all: Vec<usize> = (1..=3).flat_map(|k| (0..20).filter(move |&i| ShardSpec::contains(k, 3, i))).collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn a_shard_size_counts_its_indices() {
        for (games, count) in [(0, 3), (1, 3), (20, 3), (21, 3), (7, 1), (5, 8)] {
            for k in 1..=count {
                let expected = (0..games).filter(|&i| ShardSpec::contains(k, count, i)).count();
                assert_eq!(ShardSpec::size(k, count, games), expected, "{k}/{count} of {games}");
            }
        }
    }
}
