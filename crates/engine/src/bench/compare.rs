//! `veletas bench --compare OTHER`: this binary and another one run alternately on the same
//! positions, each figure's ratio per round, and the other binary's output read as this
//! version's JSON or an older version's text. The other binary is outside input: its run is
//! bounded in output and time, and the positions file it reads is one nobody else can have
//! placed.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use veletas_rules::{quoted, quoted_to};

use super::{BenchError, BenchJson, BenchSettings, ComparisonJson, child, human, median, read_positions, rounded};

/// A comparison's figure: each binary's runs and the per-round ratios.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The figure's name.
    pub name: String,
    /// This binary's values, one per round.
    pub ours: Vec<f64>,
    /// The other binary's values.
    pub theirs: Vec<f64>,
}

impl Comparison {
    /// Per-round ratios ours / theirs.
    pub fn ratios(&self) -> Vec<f64> {
        self.ours.iter().zip(&self.theirs).filter(|(_, t)| **t > 0.0).map(|(o, t)| o / t).collect()
    }
}

/// Reads the figures of one `bench` run from its output: JSON (this version) or the text
/// of versions before `--json` (`total: N nodes, X nodes/s; P playouts, Y playouts/s` and
/// `search: A iterations/s on 1 thread, B on T (...)`).
pub fn parse_output(text: &str) -> Result<Vec<(String, f64)>, String> {
    let mut figures = Vec::new();
    if text.trim_start().starts_with('{') {
        // Any version's `bench --json` (the layout changed, the members did not).
        let json: BenchJson = serde_json::from_str(text).map_err(|e| format!("bad bench JSON: {e}"))?;
        for f in json.figures.unwrap_or_default() {
            figures.push((f.name.clone(), f.median.ok_or_else(|| format!("no median for '{}'", quoted(&f.name)))?));
        }
    } else {
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("total: ") {
                let numbers: Vec<f64> = rest.split([' ', ',', ';']).filter_map(|w| w.parse().ok()).collect();
                if let [_, nodes_per_s, _, playouts_per_s] = numbers[..] {
                    figures.push(("perft".to_string(), nodes_per_s));
                    figures.push(("playouts cheap".to_string(), playouts_per_s));
                }
            } else if let Some(rest) = line.strip_prefix("search: ") {
                let numbers: Vec<f64> = rest.split([' ', ',', '(']).filter_map(|w| w.parse().ok()).collect();
                if let [one, _, many, threads, ..] = numbers[..] {
                    figures.push(("search 1 thread".to_string(), one));
                    figures.push((format!("search {threads} threads"), many));
                }
            }
        }
    }
    if figures.is_empty() { Err("no figures in the bench output".into()) } else { Ok(figures) }
}

/// The time the other binary's run may take: ten times this binary's longest run so far, and
/// a minute more (both run the same bench on the same positions).
fn time_limit(ours_longest: Duration) -> Duration {
    ours_longest.saturating_mul(10).saturating_add(Duration::from_secs(60))
}

/// The time `bench --help` may take.
const HELP_LIMIT: Duration = Duration::from_secs(30);

/// Runs `binary bench` once with the comparison's settings (within `limit`, if given) and
/// reads its figures and how long it took.
fn run_binary(
    binary: &Path,
    args: &BenchSettings,
    file: &Path,
    seed: u64,
    json: bool,
    limit: Option<Duration>,
) -> Result<(Vec<(String, f64)>, Duration), BenchError> {
    let mut command = Command::new(binary);
    command.arg("--seed").arg(seed.to_string()).arg("bench").arg("--file").arg(file);
    command.args(["--playouts", &args.playouts.to_string()]);
    command.args(["--search-iterations", &args.search_iterations.to_string()]);
    command.args(["--search-threads", &args.search_threads.to_string()]);
    if let Some(eval) = &args.eval_option {
        command.args(["--eval", eval]);
    }
    if json {
        command.args(["--runs", "1", "--warmup", "0", "--json"]);
    }
    let done = child::run(command, limit).map_err(|e| {
        let message = format!("--compare {}: {e}", binary.display());
        // A program that cannot be started at all is a bad `--compare` (as a missing file is).
        if matches!(e, child::ChildError::Start(_)) { BenchError::Input(message) } else { BenchError::Failed(message) }
    })?;
    let shown = binary.display();
    if !done.success {
        let first = done.stderr.lines().next().unwrap_or("").trim();
        return Err(BenchError::Failed(format!("{shown} bench failed: {}", quoted_to(first, MAX_ERROR_QUOTED))));
    }
    let figures = parse_output(&done.stdout).map_err(|e| BenchError::Failed(format!("{shown}: {e}")))?;
    Ok((figures, done.elapsed))
}

/// The most characters of a failing binary's error line shown.
const MAX_ERROR_QUOTED: usize = 200;

/// Whether `binary bench` knows `--json` (versions before it print text only).
fn knows_json(binary: &Path) -> bool {
    let mut command = Command::new(binary);
    command.args(["bench", "--help"]);
    child::run(command, Some(HELP_LIMIT)).is_ok_and(|done| done.stdout.contains("--json"))
}

/// The binary `--compare` names, checked before it is run, so that the message says what
/// is wrong with it: a file in the current directory (a bare name there means that file,
/// not a program on `PATH`), or a program on `PATH` when no such file exists.
fn compared_binary(other: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt as _;
    use veletas_rules::record::{RecordFileError, check_regular_file};
    let shown = other.display();
    let bare = other.components().count() == 1 && !other.to_string_lossy().contains('/');
    match check_regular_file(other) {
        Ok(()) => {
            let mode = std::fs::metadata(other).map_err(|e| format!("--compare {shown}: {e}"))?.permissions().mode();
            if mode & 0o111 == 0 {
                return Err(format!("--compare {shown}: not executable"));
            }
            Ok(if bare { Path::new(".").join(other) } else { other.to_path_buf() })
        }
        Err(RecordFileError::Io(e)) if bare && e.kind() == std::io::ErrorKind::NotFound => Ok(other.to_path_buf()),
        Err(e) => Err(format!("--compare {shown}: {e}")),
    }
}

/// The positions both binaries read, in a file of this process's own in `dir` (created
/// afresh, readable by its owner only: a name taken already, by a file or a link, is passed
/// over, never written through), removed when dropped.
#[derive(Debug)]
struct PositionsFile(PathBuf);

impl PositionsFile {
    fn create(dir: &Path, text: &str) -> io::Result<PositionsFile> {
        use std::os::unix::fs::OpenOptionsExt as _;
        for n in 0..1000 {
            let path = dir.join(format!("veletas-bench-{}-{n}.txt", std::process::id()));
            match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path) {
                Ok(mut handle) => {
                    // Removed again (dropped) if the write fails.
                    let file = PositionsFile(path);
                    handle.write_all(text.as_bytes()).and_then(|()| handle.flush())?;
                    return Ok(file);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display()))),
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("no free name in {}", dir.display())))
    }
}

impl Drop for PositionsFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs this binary and `other` alternately (`runs` rounds after the warm-up, the order
/// swapped every round, this binary first) on the same positions and returns every figure
/// both report. The other binary's run is bounded: at most 1 MiB from each of its stdout and
/// stderr, and ten times this binary's longest run plus a minute.
pub fn compare(args: &BenchSettings, other: &Path, seed: u64) -> Result<Vec<Comparison>, BenchError> {
    let other = &compared_binary(other).map_err(BenchError::Input)?;
    let ours = std::env::current_exe().map_err(|e| BenchError::Failed(format!("this binary: {e}")))?;
    let positions = read_positions(args).map_err(BenchError::Input)?;
    let text: String = positions.iter().map(|p| format!("{} {}\n", p.depth, p.position)).collect();
    let file = PositionsFile::create(&std::env::temp_dir(), &text).map_err(|e| BenchError::Failed(e.to_string()))?;
    let json = [knows_json(&ours), knows_json(other)];
    let binaries = [ours.as_path(), other];
    let mut ours_longest = Duration::ZERO;
    let mut comparisons: Vec<Comparison> = Vec::new();
    for round in 0..args.warmup + args.runs {
        let mut got: [Vec<(String, f64)>; 2] = [Vec::new(), Vec::new()];
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for which in order {
            let limit = (which == 1).then(|| time_limit(ours_longest));
            let (figures, elapsed) = run_binary(binaries[which], args, &file.0, seed, json[which], limit)?;
            if which == 0 {
                ours_longest = ours_longest.max(elapsed);
            }
            got[which] = figures;
        }
        if round < args.warmup {
            continue;
        }
        for (name, value) in &got[0] {
            let Some((_, theirs)) = got[1].iter().find(|(n, _)| n == name) else { continue };
            match comparisons.iter_mut().find(|c| c.name == *name) {
                Some(c) => {
                    c.ours.push(*value);
                    c.theirs.push(*theirs);
                }
                None => comparisons.push(Comparison { name: name.clone(), ours: vec![*value], theirs: vec![*theirs] }),
            }
        }
    }
    Ok(comparisons)
}

/// The comparison as a table (or JSON): each binary's median and the median ratio with its range.
pub fn comparison_text(comparisons: &[Comparison], other: &Path, runs: u32, json: bool) -> String {
    if json {
        let items: Vec<ComparisonJson> = comparisons
            .iter()
            .map(|c| {
                let ratios = c.ratios();
                ComparisonJson {
                    name: c.name.clone(),
                    ours: rounded(median(&c.ours), 1),
                    theirs: rounded(median(&c.theirs), 1),
                    ratio: rounded(median(&ratios), 3),
                    ratios: ratios.iter().map(|r| rounded(*r, 3)).collect(),
                }
            })
            .collect();
        return BenchJson::text(runs, "compare", &items);
    }
    let mut out = format!(
        "this binary vs {} ({runs} alternating rounds): medians, and the median of the per-round ratios [min, max]\n",
        other.display()
    );
    let width = comparisons.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for c in comparisons {
        let ratios = c.ratios();
        let min = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let max = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.push_str(&format!(
            "{:width$}  {:>10} vs {:>10}  ratio {:.2}x [{:.2}, {:.2}]\n",
            c.name,
            human(median(&c.ours)).trim_end(),
            human(median(&c.theirs)).trim_end(),
            median(&ratios),
            min,
            max
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Figure, to_json};
    use super::*;

    #[test]
    fn json_output_is_read_back() {
        let figures = vec![
            Figure { name: "perft".into(), unit: "nodes/s", values: vec![1e9, 2e9, 3e9] },
            Figure { name: "search 2 threads".into(), unit: "iterations/s", values: vec![5.0] },
        ];
        let json = to_json(&figures, 3);
        assert_eq!(parse_output(&json).unwrap(), [("perft".to_string(), 2e9), ("search 2 threads".to_string(), 5.0)]);
    }

    #[test]
    fn the_text_of_older_versions_is_read() {
        let old = "7/7/2s4/7/4s2/1s5/7 b | perft 3: 761855648 nodes, 480000000 nodes/s | 1000 playouts, 200000 playouts/s\n\
                   total: 761855648 nodes, 450000000 nodes/s; 4000 playouts, 210000 playouts/s\n\
                   search: 250000 iterations/s on 1 thread, 470000 on 2 (1.88x), mean over 3 positions\n";
        assert_eq!(
            parse_output(old).unwrap(),
            [
                ("perft".to_string(), 450_000_000.0),
                ("playouts cheap".to_string(), 210_000.0),
                ("search 1 thread".to_string(), 250_000.0),
                ("search 2 threads".to_string(), 470_000.0),
            ]
        );
        assert!(parse_output("nothing here").is_err());
    }

    #[test]
    fn the_positions_file_passes_over_a_planted_link_and_is_removed_when_dropped() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("veletas-bench-positions-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Someone placed a link at the first name this process would take, to a file of theirs.
        let victim = dir.join("victim");
        std::fs::write(&victim, "keep me\n").unwrap();
        let first = dir.join(format!("veletas-bench-{}-0.txt", std::process::id()));
        std::os::unix::fs::symlink(&victim, &first).unwrap();
        let file = PositionsFile::create(&dir, "1 7/7/2s4/7/4s2/1s5/7 b\n").unwrap();
        assert_ne!(file.0, first);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
        assert_eq!(std::fs::read_to_string(&file.0).unwrap(), "1 7/7/2s4/7/4s2/1s5/7 b\n");
        assert_eq!(std::fs::metadata(&file.0).unwrap().permissions().mode() & 0o777, 0o600);
        let path = file.0.clone();
        drop(file);
        assert!(!path.exists() && first.is_symlink() && victim.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_other_binary_gets_ten_times_this_ones_longest_run_and_a_minute() {
        assert_eq!(time_limit(Duration::ZERO), Duration::from_secs(60));
        assert_eq!(time_limit(Duration::from_secs(3)), Duration::from_secs(90));
        assert_eq!(time_limit(Duration::MAX), Duration::MAX);
    }
}
