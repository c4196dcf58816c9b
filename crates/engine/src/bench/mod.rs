//! `veletas bench`: speed figures on fixed positions (perft, random playouts with both
//! policies, the search with one and several threads), measured over repeated runs after
//! a warm-up and reported as median and spread, as text or JSON; and `--compare OTHER`,
//! which runs this binary and another one alternately on the same positions and reports
//! each figure's ratio, the honest way to compare builds on a noisy machine.

mod child;
mod compare;

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use crate::search::SearchSettings;
use crate::search::eval::StaticEval;
use veletas_rules::{Phase, PlayoutPolicy, Position, Rng};

pub use compare::{Comparison, compare, comparison_text, parse_output};

/// One figure of `bench --json`, as serde_json writes it (the tests read it back).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FigureJson {
    /// What is measured.
    pub name: String,
    /// Its unit.
    pub unit: String,
    /// The median of the runs, one decimal (`null` if not finite).
    pub median: Option<f64>,
    /// The smallest run.
    pub min: Option<f64>,
    /// The largest run.
    pub max: Option<f64>,
    /// Every run.
    pub values: Vec<Option<f64>>,
}

/// One figure of `bench --compare --json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ComparisonJson {
    /// What is measured.
    pub name: String,
    /// This binary's median.
    pub ours: Option<f64>,
    /// The other binary's median.
    pub theirs: Option<f64>,
    /// The median of the per-round ratios, three decimals.
    pub ratio: Option<f64>,
    /// Every round's ratio.
    pub ratios: Vec<Option<f64>>,
}

/// `bench --json` and `bench --compare --json`: the runs and one list.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BenchJson {
    /// Runs (rounds) measured.
    pub runs: u32,
    /// The figures of `bench --json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<Vec<FigureJson>>,
    /// The figures of `bench --compare --json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<Vec<ComparisonJson>>,
}

impl BenchJson {
    /// The text: one figure a line.
    fn text<T: serde::Serialize>(runs: u32, name: &str, items: &[T]) -> String {
        let items: Vec<String> = items.iter().map(|item| serde_json::to_string(item).unwrap_or_default()).collect();
        format!("{{\"runs\":{runs},\"{name}\":[\n  {}\n]}}\n", items.join(",\n  "))
    }
}

/// `x` rounded to `decimals`, or `None` (`null`) when not finite.
fn rounded(x: f64, decimals: i32) -> Option<f64> {
    let scale = 10f64.powi(decimals);
    x.is_finite().then(|| (x * scale).round() / scale + 0.0)
}

/// The bench positions built into the binary (`crates/engine/data/bench.txt`).
pub const BENCH_POSITIONS: &str = include_str!("../../data/bench.txt");

/// What `veletas bench` measures and how it prints it (the command line's `BenchSettings`
/// become these; the seed is given apart).
#[derive(Debug, Clone)]
pub struct BenchSettings {
    /// A file of `DEPTH POSITION` lines instead of the built-in positions.
    pub file: Option<PathBuf>,
    /// Random playouts per position and policy in each run (0: skip the playouts).
    pub playouts: u32,
    /// Search iterations per position and thread count (0: skip the search).
    pub search_iterations: u64,
    /// Threads of the second search run, for the scaling figure.
    pub search_threads: u32,
    /// Measured runs of every figure (the median is reported).
    pub runs: u32,
    /// Runs before the measured ones, not counted.
    pub warmup: u32,
    /// Print the figures as JSON instead of a table.
    pub json: bool,
    /// Another veletas binary to compare with, run alternately on the same positions.
    pub compare: Option<PathBuf>,
    /// The static evaluation the search rows search with (the engine's default: the
    /// value network).
    pub eval: StaticEval,
    /// The `--eval` text the user gave, passed on to a `--compare` binary (which otherwise
    /// searches with its own default).
    pub eval_option: Option<String>,
}

/// A bench position: the perft depth to time and the position.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchPosition {
    /// Perft depth.
    pub depth: u32,
    /// The position.
    pub position: Position,
}

/// Reads `DEPTH POSITION` lines, skipping empty lines and `#` comments.
pub fn parse_bench(text: &str) -> Result<Vec<BenchPosition>, String> {
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |what: String| format!("bench line {}: {what}", n + 1);
        let (depth, position) = line.split_once(' ').ok_or_else(|| err("expected DEPTH POSITION".into()))?;
        let depth = depth.parse().map_err(|_| err(format!("invalid depth '{depth}'")))?;
        let position = position.parse().map_err(|e| err(format!("{e}")))?;
        positions.push(BenchPosition { depth, position });
    }
    Ok(positions)
}

/// One measured figure: its name, unit, and the value of every run.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// What is measured, e.g. `perft`.
    pub name: String,
    /// The unit of the values, e.g. `nodes/s`.
    pub unit: &'static str,
    /// One value per measured run.
    pub values: Vec<f64>,
}

/// The median of `values` (0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

impl Figure {
    fn new(name: impl Into<String>, unit: &'static str) -> Figure {
        Figure { name: name.into(), unit, values: Vec::new() }
    }

    /// The median of the runs.
    pub fn median(&self) -> f64 {
        median(&self.values)
    }

    /// The smallest and largest run.
    pub fn range(&self) -> (f64, f64) {
        let min = self.values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if self.values.is_empty() { (0.0, 0.0) } else { (min, max) }
    }

    /// The spread: (largest - smallest) / median, in percent.
    pub fn spread_percent(&self) -> f64 {
        let (min, max) = self.range();
        let m = self.median();
        if m > 0.0 { (max - min) / m * 100.0 } else { 0.0 }
    }
}

fn rate(count: u64, seconds: f64) -> f64 {
    if seconds > 0.0 { count as f64 / seconds } else { 0.0 }
}

/// Iterations per second of our engine's search from `position` with `threads` threads,
/// over a fixed budget (wall-clock time, all threads together).
fn search_rate(position: &Position, eval: &StaticEval, threads: usize, iterations: u64, seed: u64) -> f64 {
    let settings = SearchSettings { threads, seed, tree_reuse: false, eval: eval.clone(), ..SearchSettings::default() };
    let mut player = crate::search::Searcher::new(settings);
    let game = veletas_rules::Game::from_position(position.clone());
    let limits = crate::search::Limits { iterations: Some(iterations), ..Default::default() };
    let start = Instant::now();
    let visits = player.choose(&game, &limits).map_or(0, |r| r.visits);
    rate(visits, start.elapsed().as_secs_f64())
}

/// The shortest perft measurement: passes over the positions are repeated until they
/// took this long, so that a file of shallow positions (depth 0 counts one node in a few
/// nanoseconds) gives a rate and not the timer's noise.
const MIN_PERFT_SECONDS: f64 = 0.05;

/// Perft over every position, repeated until [`MIN_PERFT_SECONDS`]: the nodes counted and
/// the seconds they took.
fn perft_pass(positions: &[BenchPosition]) -> (u64, f64) {
    let (mut nodes, mut seconds) = (0u64, 0f64);
    if positions.is_empty() {
        return (0, 0.0);
    }
    while seconds < MIN_PERFT_SECONDS {
        let start = Instant::now();
        for BenchPosition { depth, position } in positions {
            nodes = nodes.saturating_add(position.perft(*depth));
        }
        seconds += start.elapsed().as_secs_f64();
    }
    (nodes, seconds)
}

/// One run of every figure: perft over all positions, playouts of both policies (unless
/// `playouts` is 0), and the search's mean rate over the positions in play (unless
/// `search_iterations` is 0).
fn measure_once(positions: &[BenchPosition], args: &BenchSettings, seed: u64) -> Vec<(String, &'static str, f64)> {
    let mut rng = Rng::new(seed);
    let (nodes, perft_time) = perft_pass(positions);
    let mut playouts = [(0u64, 0f64); 2];
    let mut search = Vec::new();
    for BenchPosition { position, .. } in positions {
        for (slot, policy) in [PlayoutPolicy::Cheap, PlayoutPolicy::Uniform].into_iter().enumerate() {
            let start = Instant::now();
            for _ in 0..args.playouts {
                position.clone().playout(&mut rng, policy);
            }
            playouts[slot].0 += u64::from(args.playouts);
            playouts[slot].1 += start.elapsed().as_secs_f64();
        }
        if args.search_iterations > 0 && position.phase() == Phase::Play {
            let one = search_rate(position, &args.eval, 1, args.search_iterations, seed);
            let many = search_rate(position, &args.eval, args.search_threads as usize, args.search_iterations, seed);
            search.push((one, many));
        }
    }
    let mut figures = vec![("perft".to_string(), "nodes/s", rate(nodes, perft_time))];
    if args.playouts > 0 {
        figures.push(("playouts cheap".to_string(), "playouts/s", rate(playouts[0].0, playouts[0].1)));
        figures.push(("playouts uniform".to_string(), "playouts/s", rate(playouts[1].0, playouts[1].1)));
    }
    if !search.is_empty() {
        let n = search.len() as f64;
        figures.push(("search 1 thread".into(), "iterations/s", search.iter().map(|s| s.0).sum::<f64>() / n));
        figures.push((
            format!("search {} threads", args.search_threads),
            "iterations/s",
            search.iter().map(|s| s.1).sum::<f64>() / n,
        ));
    }
    figures
}

/// Adds one run's values to `figures` (created on the first run).
fn collect(figures: &mut Vec<Figure>, run: Vec<(String, &'static str, f64)>) {
    for (name, unit, value) in run {
        match figures.iter_mut().find(|f| f.name == name) {
            Some(f) => f.values.push(value),
            None => {
                let mut f = Figure::new(name, unit);
                f.values.push(value);
                figures.push(f);
            }
        }
    }
}

/// Runs the bench `args` describe on this binary and returns its figures.
pub fn measure(args: &BenchSettings, seed: u64) -> Result<Vec<Figure>, String> {
    let positions = read_positions(args)?;
    for _ in 0..args.warmup {
        measure_once(&positions, args, seed);
    }
    let mut figures = Vec::new();
    for run in 0..args.runs {
        collect(&mut figures, measure_once(&positions, args, seed.wrapping_add(u64::from(run))));
    }
    Ok(figures)
}

fn read_positions(args: &BenchSettings) -> Result<Vec<BenchPosition>, String> {
    let text = match &args.file {
        Some(path) => veletas_rules::record::read_bounded(path, veletas_rules::record::MAX_SMALL_FILE_BYTES)
            .map_err(|e| format!("--file {}: {e}", path.display()))?,
        None => BENCH_POSITIONS.to_string(),
    };
    let positions = parse_bench(&text)?;
    if positions.is_empty() {
        return Err("the bench file holds no position".into());
    }
    Ok(positions)
}

/// The figures as JSON ([`BenchJson`]): `{"runs": N, "figures": [{"name", "unit", "median", "min", "max", "values"}]}`.
pub fn to_json(figures: &[Figure], runs: u32) -> String {
    let items: Vec<FigureJson> = figures
        .iter()
        .map(|f| {
            let (min, max) = f.range();
            FigureJson {
                name: f.name.clone(),
                unit: f.unit.to_string(),
                median: rounded(f.median(), 1),
                min: rounded(min, 1),
                max: rounded(max, 1),
                values: f.values.iter().map(|v| rounded(*v, 1)).collect(),
            }
        })
        .collect();
    BenchJson::text(runs, "figures", &items)
}

fn human(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2} G", x / 1e9),
        x if x >= 1e6 => format!("{:.2} M", x / 1e6),
        x if x >= 1e3 => format!("{:.1} k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

/// The figures as an aligned table: median, range and spread of each, under a line that
/// names the runs and the evaluation the search rows searched with.
pub fn to_text(figures: &[Figure], runs: u32, warmup: u32, eval: &StaticEval) -> String {
    let mut out = format!(
        "{runs} runs after {warmup} warm-up; search with --eval {eval}; median [min, max] and spread (max-min)/median\n"
    );
    let width = figures.iter().map(|f| f.name.len()).max().unwrap_or(0);
    for f in figures {
        let (min, max) = f.range();
        out.push_str(&format!(
            "{:width$}  {:>10} {} [{}, {}]  {:.1}%\n",
            f.name,
            human(f.median()),
            f.unit,
            human(min).trim_end(),
            human(max).trim_end(),
            f.spread_percent()
        ));
    }
    out
}

/// `veletas bench`: measures (or compares) and prints.
pub fn run(args: &BenchSettings, seed: u64) -> Result<(), BenchError> {
    let text = match &args.compare {
        Some(other) => comparison_text(&compare(args, other, seed)?, other, args.runs, args.json),
        None => {
            let figures = measure(args, seed).map_err(BenchError::Input)?;
            if args.json { to_json(&figures, args.runs) } else { to_text(&figures, args.runs, args.warmup, &args.eval) }
        }
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(BenchError::Output)
}

/// Why `veletas bench` failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Bad input, found before anything is measured: a positions file that cannot be read or
    /// parsed, a `--compare` path that is not a program (one line).
    #[error("{0}")]
    Input(String),
    /// The comparison failed while it ran: the other binary (or this one) could not be run,
    /// failed, printed too much, ran too long or answered with no figures; the positions file
    /// could not be written (one line).
    #[error("{0}")]
    Failed(String),
    /// Writing the figures failed.
    #[error(transparent)]
    Output(#[from] io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_bench_positions_parse() {
        let positions = parse_bench(BENCH_POSITIONS).unwrap();
        assert!(positions.len() >= 3);
        assert!(positions.iter().all(|p| !p.position.is_over()));
    }

    #[test]
    fn bench_errors_name_the_line() {
        assert_eq!(parse_bench("\n2\n"), Err("bench line 2: expected DEPTH POSITION".to_string()));
        assert!(parse_bench("x 7/7/7/7/7/7/7 b").unwrap_err().contains("invalid depth"));
    }

    #[test]
    fn shallow_perft_is_repeated_until_it_can_be_timed() {
        // Depth 0 counts one node per position: one pass is a few nanoseconds, far below
        // the timer's resolution, so the pass repeats (a whole number of times).
        let positions = parse_bench("0 7/7/2s4/7/4s2/1s5/7 b\n0 9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b\n").unwrap();
        let (nodes, seconds) = perft_pass(&positions);
        assert!(seconds >= MIN_PERFT_SECONDS);
        assert!(nodes > 1000 && nodes % 2 == 0, "{nodes} nodes");
        assert_eq!(perft_pass(&[]), (0, 0.0));
    }

    #[test]
    fn medians_and_spreads() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
        let f = Figure { name: "x".into(), unit: "u", values: vec![90.0, 100.0, 110.0] };
        assert_eq!(f.range(), (90.0, 110.0));
        assert!((f.spread_percent() - 20.0).abs() < 1e-9);
    }

    #[test]
    fn a_run_measures_every_figure() {
        let args = BenchSettings {
            file: None,
            playouts: 3,
            search_iterations: 200,
            search_threads: 2,
            runs: 2,
            warmup: 0,
            json: false,
            compare: None,
            eval: StaticEval::Hand,
            eval_option: None,
        };
        let positions: Vec<BenchPosition> = read_positions(&args)
            .unwrap()
            .into_iter()
            .map(|p| BenchPosition { depth: 1, position: p.position })
            .collect();
        let run = measure_once(&positions, &args, 1);
        let names: Vec<&str> = run.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names, ["perft", "playouts cheap", "playouts uniform", "search 1 thread", "search 2 threads"]);
        assert!(run.iter().all(|(_, _, v)| *v > 0.0));
        let mut figures = Vec::new();
        collect(&mut figures, run.clone());
        collect(&mut figures, run);
        assert!(figures.iter().all(|f| f.values.len() == 2));
        let text = to_text(&figures, 2, 0, &args.eval);
        assert!(text.contains("playouts uniform") && text.contains('%'), "{text}");
        assert!(text.lines().next().is_some_and(|l| l.contains("search with --eval hand;")), "{text}");
    }
}
