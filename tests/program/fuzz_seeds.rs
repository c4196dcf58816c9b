//! The fuzz targets' seed corpus (crates/CRATE/fuzz/corpus/TARGET/*: each crate fuzzes its
//! own parsers) run on stable (issue 25): each seed, and a bounded number of mutations of it
//! (cuts, byte flips, inserted and repeated pieces; fixed seeds), goes through the same checks
//! as the fuzz target (`veletas_rules::fuzzing`, `veletas_engine::fuzzing`,
//! `veletas_tools::fuzzing`): no panic, round trips, refused protocol commands change nothing.

use std::path::{Path, PathBuf};

use veletas_rules::Rng;

/// Mutations of each seed: enough to reach the parsers' error paths, few enough that the
/// whole suite takes seconds on two cores.
const MUTATIONS: usize = 150;

/// Bytes that matter to the parsers, for inserted pieces.
const PIECES: [&[u8]; 14] =
    [b"/", b",", b"-", b"\n", b" ", b"[", b"]", b"\"", b"{", b"}", b"#", b"99999999999999999999", b"\xff", b"="];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = if bytes.is_empty() { 0 } else { rng.below(bytes.len() as u32 + 1) as usize };
        match rng.below(4) {
            0 => bytes.truncate(at),
            1 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            2 => {
                let piece = PIECES[rng.below(PIECES.len() as u32) as usize];
                bytes.splice(at..at, piece.iter().copied());
            }
            _ => {
                let end = (at + 1 + rng.below(16) as usize).min(bytes.len());
                let copy = bytes[at.min(end)..end].to_vec();
                bytes.splice(at..at, copy);
            }
        }
    }
    bytes
}

/// The crates that have fuzz targets, each in its `fuzz/` folder beside the parsers it fuzzes.
const FUZZED_CRATES: [&str; 3] = ["rules", "engine", "tools"];

/// The `fuzz/` folder of the crate whose fuzz targets include `target`.
fn fuzz_folder(target: &str) -> PathBuf {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    FUZZED_CRATES
        .iter()
        .map(|name| crates.join(name).join("fuzz"))
        .find(|fuzz| fuzz.join("fuzz_targets").join(format!("{target}.rs")).is_file())
        .unwrap_or_else(|| panic!("no crate has the fuzz target {target}"))
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = fuzz_folder(target).join("corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no seeds in {}", dir.display());
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// Runs `check` on every seed of `target` and on its mutations.
fn replay(target: &str, check: impl Fn(&[u8])) {
    let mut rng = Rng::new(25);
    for seed in seeds(target) {
        check(&seed);
        for _ in 0..MUTATIONS {
            check(&mutate(&mut rng, &seed));
        }
    }
}

fn as_text(check: fn(&str)) -> impl Fn(&[u8]) {
    move |bytes| {
        if let Ok(text) = std::str::from_utf8(bytes) {
            check(text);
        }
    }
}

#[test]
fn protocol_session_seeds_and_mutations() {
    replay("protocol_session", veletas_engine::fuzzing::protocol_session);
}

#[test]
fn position_string_seeds_and_mutations() {
    replay("position_string", as_text(veletas_rules::fuzzing::position_string));
}

#[test]
fn record_file_seeds_and_mutations() {
    replay("record_file", as_text(veletas_rules::fuzzing::record_file));
}

#[test]
fn openings_file_seeds_and_mutations() {
    replay("openings_file", as_text(veletas_tools::fuzzing::openings_file));
}

#[test]
fn engines_file_seeds_and_mutations() {
    replay("engines_file", as_text(veletas_tools::fuzzing::engines_file));
}

#[test]
fn every_fuzz_target_has_a_seed_corpus_and_a_body() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut names: Vec<String> = FUZZED_CRATES
        .iter()
        .flat_map(|name| std::fs::read_dir(crates.join(name).join("fuzz/fuzz_targets")).unwrap())
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["engines_file", "openings_file", "position_string", "protocol_session", "record_file"]);
    for name in &names {
        assert!(!seeds(name).is_empty());
    }
}
