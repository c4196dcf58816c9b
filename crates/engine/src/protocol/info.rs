//! The search's view as one `info` line, in the manner of Leela Zero's `lz-analyze`: what
//! `analyze` streams (the `analysis` module) and `genmove_analyze` writes before its move
//! (the `engine` module); and the `steps` line of `genmove_analyze_steps`, the playouts of
//! each first step at the root.

use crate::search::SearchResult;
use veletas_rules::Move;
use veletas_rules::record::step_word;

/// The `steps` line: `steps`, then `STEP:PLAYOUTS` for every first step of the root that
/// received playouts (`FROM-TO` for a shooter's move, `-` for none), most visited first (just `steps` for a move chosen without search).
/// One entry per legal first step at most: 246 on 10x10 (no move, and 7 shooters with at
/// most 35 squares each).
pub fn steps_line(result: &SearchResult) -> String {
    let mut line = String::from("steps");
    for &(step, visits) in &result.first_steps {
        line.push_str(&format!(" {}:{visits}", step_word(step)));
    }
    line
}

/// One report: an `info` entry per candidate, all on one line, the move the engine
/// would play first (`order 0`), then the others by visits. Win rates are for the side
/// to move, in hundredths of a percent (0 to 10000), as `lz-analyze` gives them. The
/// first entry also carries the search's memory in use and its limit, in MiB.
pub fn info_line(result: &SearchResult) -> String {
    let mut entries: Vec<(Move, u64, f64, &[Move])> = Vec::with_capacity(result.candidates.len() + 1);
    match result.candidates.iter().find(|c| c.mv == result.best) {
        Some(c) => entries.push((c.mv, c.visits, c.win_rate, &c.pv)),
        None => entries.push((result.best, 0, result.win_rate, &result.pv)),
    }
    for c in result.candidates.iter().filter(|c| c.mv != result.best) {
        entries.push((c.mv, c.visits, c.win_rate, &c.pv));
    }
    let mut line = String::new();
    for (order, (mv, visits, win_rate, pv)) in entries.into_iter().enumerate() {
        if order > 0 {
            line.push(' ');
        }
        let win_rate = (win_rate.clamp(0.0, 1.0) * 10_000.0).round() as u32;
        line.push_str(&format!("info move {mv} visits {visits} winrate {win_rate} order {order}"));
        if order == 0 && result.memory_limit > 0 {
            // The whole search's memory, in MiB, on the first entry only (as KataGo adds
            // keys before `pv`).
            let mib = |bytes: u64| bytes.div_ceil(1 << 20);
            line.push_str(&format!(" memory {} memory_limit {}", mib(result.memory_used), mib(result.memory_limit)));
        }
        line.push_str(" pv");
        let pv: &[Move] = if pv.is_empty() { std::slice::from_ref(&mv) } else { pv };
        for m in pv {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}
