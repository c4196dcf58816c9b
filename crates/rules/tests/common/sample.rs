//! How much of the long cross-checks (the `#[ignore]`d reference suites) a run does.
//!
//! A developer's `cargo test --release -- --ignored` does all of it. scripts/test.sh, which
//! CI runs, sets `VELETAS_CROSSCHECK=sample` and a seed in `VELETAS_CROSSCHECK_SEED` (the day
//! of the year unless given): each suite then does a quarter of its games, other games each
//! day, and a quarter of its frozen perft entries, another quarter each day, so four days
//! cover every entry. The seed is printed, so a failure is reproduced by setting it again;
//! `VELETAS_CROSSCHECK=full bash scripts/test.sh` runs everything.

/// The share of a suite that a run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// One part in `parts` is run (1: everything).
    parts: u64,
    /// Which part, and the offset of the random games' seeds.
    seed: u64,
}

/// The parts a sampled run is cut into.
const SAMPLE_PARTS: u64 = 4;

impl Sample {
    /// The sample the environment asks for (everything when it asks for none); panics on a
    /// value it does not know, so a typo does not pass for a full run.
    pub fn from_env() -> Sample {
        let sample = match std::env::var("VELETAS_CROSSCHECK").as_deref() {
            Err(_) | Ok("full") | Ok("") => Sample { parts: 1, seed: 0 },
            Ok("sample") => {
                let seed = match std::env::var("VELETAS_CROSSCHECK_SEED") {
                    Ok(text) => text.trim().parse().unwrap_or_else(|e| panic!("VELETAS_CROSSCHECK_SEED '{text}': {e}")),
                    Err(_) => 0,
                };
                Sample { parts: SAMPLE_PARTS, seed }
            }
            Ok(other) => panic!("VELETAS_CROSSCHECK is 'full' or 'sample', not '{other}'"),
        };
        eprintln!("cross-check: {sample}");
        sample
    }

    /// Whether this run does everything.
    pub fn is_full(&self) -> bool {
        self.parts == 1
    }

    /// How many of `games` this run plays (at least one).
    pub fn games(&self, games: usize) -> usize {
        games.div_ceil(self.parts as usize).max(1)
    }

    /// The seed of a suite whose full run uses `seed`: the same in a full run, another one
    /// for each sample seed (so a sampled run plays other games than yesterday's).
    pub fn seed(&self, seed: u64) -> u64 {
        if self.is_full() { seed } else { seed.wrapping_add(self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) }
    }

    /// Whether the entry at `index` of a list is in this run's part.
    pub fn keeps(&self, index: usize) -> bool {
        (index as u64).wrapping_add(self.seed).is_multiple_of(self.parts)
    }
}

impl std::fmt::Display for Sample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_full() {
            write!(f, "everything (VELETAS_CROSSCHECK=full)")
        } else {
            write!(f, "one part in {} (VELETAS_CROSSCHECK=sample VELETAS_CROSSCHECK_SEED={})", self.parts, self.seed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_keeps_one_entry_in_four_and_four_seeds_cover_every_entry() {
        let mut covered = [0; 10];
        for seed in 0..4 {
            let sample = Sample { parts: 4, seed };
            let kept: Vec<usize> = (0..10).filter(|&i| sample.keeps(i)).collect();
            assert!((2..=3).contains(&kept.len()), "{kept:?}");
            for i in kept {
                covered[i] += 1;
            }
        }
        assert_eq!(covered, [1; 10]);
        let full = Sample { parts: 1, seed: 0 };
        assert!((0..10).all(|i| full.keeps(i)));
        assert_eq!((full.games(3000), full.seed(7)), (3000, 7));
        assert_eq!(Sample { parts: 4, seed: 1 }.games(3000), 750);
        assert_ne!(Sample { parts: 4, seed: 1 }.seed(7), Sample { parts: 4, seed: 2 }.seed(7));
    }
}
