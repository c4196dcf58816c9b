//! Fits the move policy ([`veletas_engine::search::policy`]) to sample files of
//! `crates/engine/examples/policy_data.rs` and reports how well it predicts the held-out searches
//! (the table of `veletas train-policy`, which reads the same from self-play records).
//!
//! Usage: `cargo run --release -p veletas-engine --example train_policy -- [-o WEIGHTS] [--l2 X] SAMPLES...`
//!
//! Every fifth game (by its number) is held out. Printed per rule family: samples, the
//! held-out cross-entropy (nats per position) of the search's old priors (a tenth for no
//! move, the rest shared equally), of the built-in policy and of the fitted one, and how
//! often each puts the search's most visited first step first (top-1 agreement). With
//! `-o`, the fitted weights are written there (the engine's are
//! `crates/engine/data/policy-weights.txt`).

use veletas_engine::learning::policy_fit::{fit_policy, parse_sample};
use veletas_engine::learning::policy_trainer::held_out_table;
use veletas_engine::search::policy::builtin_policy;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut take = |flag: &str| -> Option<String> {
        let i = args.iter().position(|a| a == flag)?;
        if i + 1 >= args.len() {
            eprintln!("{flag} needs a value");
            std::process::exit(2);
        }
        let value = args.remove(i + 1);
        args.remove(i);
        Some(value)
    };
    let output = take("-o");
    let l2 = take("--l2").map_or(1e-4, |x| x.parse().unwrap_or(1e-4));
    if args.is_empty() {
        eprintln!("usage: train_policy [-o WEIGHTS] [--l2 X] SAMPLES...");
        std::process::exit(2);
    }
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for file in &args {
        let text = match veletas_rules::record::read_bounded(std::path::Path::new(file), 1 << 30) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(1);
            }
        };
        for (n, line) in text.lines().enumerate() {
            match parse_sample(line) {
                Ok(Some(s)) if s.game % 5 == 0 => held.push(s),
                Ok(Some(s)) => train.push(s),
                Ok(None) => {}
                Err(e) => eprintln!("{file}:{}: skipped: {e}", n + 1),
            }
        }
    }
    let start = std::time::Instant::now();
    let fitted = fit_policy(&train, l2, builtin_policy());
    eprintln!("fitted on {} positions in {:.1} s", train.len(), start.elapsed().as_secs_f64());
    print!("{}", held_out_table(&train, &held, &fitted).0);
    if let Some(path) = output {
        let text = format!(
            "# The learned move policy (crates/engine/src/search/policy.rs): FAMILY FEATURE WEIGHT,\n\
             # fitted by crates/engine/examples/train_policy.rs on {} positions (docs/learning.md).\n{}",
            train.len(),
            fitted.to_text()
        );
        // Through a temporary file and a rename: never a half-written weights file.
        let temporary = format!("{path}.tmp{}", std::process::id());
        if let Err(e) = std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, &path)) {
            let _ = std::fs::remove_file(&temporary);
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
