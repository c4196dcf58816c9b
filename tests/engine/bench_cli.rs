//! `veletas bench` through the binary: repeated runs as JSON, the comparison with another
//! binary, and its errors.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use veletas_engine::bench::BenchJson;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

/// A positions file of its own for each call: the tests run at once, and one writing the file
/// while another's bench reads it gave that bench an empty file ("holds no position").
fn positions() -> std::path::PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("veletas-bench-cli-{}-{call}.txt", std::process::id()));
    std::fs::write(&path, "2 7/7/2s4/7/4s2/1s5/7 b\n1 9s/2s7/7s2/10/5s4/10/10/2s7/7s2/s9 b\n").unwrap();
    path
}

fn bench(args: &[&str]) -> std::process::Output {
    let file = positions();
    let out = Command::new(VELETAS)
        .args(["bench", "--file"])
        .arg(&file)
        .args(["--playouts", "20", "--search-iterations", "300"])
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    out
}

#[test]
fn json_output_has_every_figure_with_its_runs() {
    let out = bench(&["--runs", "3", "--warmup", "0", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: BenchJson = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json.runs, json.compare), (3, None));
    let figures = json.figures.unwrap();
    let names: Vec<&str> = figures.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["perft", "playouts cheap", "playouts uniform", "search 1 thread", "search 2 threads"]);
    for f in figures {
        let values: Vec<f64> = f.values.iter().map(|v| v.unwrap()).collect();
        assert_eq!(values.len(), 3);
        let (min, max, median) = (f.min.unwrap(), f.max.unwrap(), f.median.unwrap());
        assert!(values.iter().all(|v| *v > 0.0 && *v >= min && *v <= max));
        assert!(min <= median && median <= max);
    }
}

#[test]
fn zero_playouts_or_iterations_skip_those_figures_alike() {
    let names = |playouts: &str, iterations: &str| -> Vec<String> {
        let file = positions();
        let out = Command::new(VELETAS)
            .args(["bench", "--file"])
            .arg(&file)
            .args(["--playouts", playouts, "--search-iterations", iterations, "--runs", "1", "--warmup", "0", "--json"])
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(out.status.success(), "{playouts} {iterations}: {}", String::from_utf8_lossy(&out.stderr));
        let json: BenchJson = serde_json::from_slice(&out.stdout).unwrap();
        json.figures.unwrap().into_iter().map(|f| f.name).collect()
    };
    assert_eq!(names("0", "300"), ["perft", "search 1 thread", "search 2 threads"]);
    assert_eq!(names("20", "0"), ["perft", "playouts cheap", "playouts uniform"]);
    assert_eq!(names("0", "0"), ["perft"]);
}

#[test]
fn a_binary_compared_with_itself_reports_every_figure_and_ratio() {
    let out = bench(&["--runs", "2", "--warmup", "0", "--json", "--compare", VELETAS]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: BenchJson = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json.runs, json.figures), (2, None));
    let figures = json.compare.unwrap();
    assert_eq!(figures.len(), 5);
    for f in figures {
        assert_eq!(f.ratios.len(), 2);
        assert!(f.ratio.unwrap() > 0.0 && f.ours.unwrap() > 0.0 && f.theirs.unwrap() > 0.0);
    }
    let text = bench(&["--runs", "1", "--warmup", "0", "--compare", VELETAS]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("ratio"));
}

#[test]
fn a_missing_binary_or_file_is_one_line_and_an_error() {
    let out = bench(&["--runs", "1", "--compare", "/nonexistent/veletas"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("/nonexistent/veletas"), "{err}");
    let out = Command::new(VELETAS).args(["bench", "--file", "/nonexistent/positions"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/positions"));
}

#[test]
fn compare_says_what_is_wrong_with_the_other_binary() {
    let dir = std::env::temp_dir().join(format!("veletas-bench-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(Command::new("mkfifo").arg(dir.join("fifo")).status().unwrap().success());
    std::fs::write(dir.join("text"), "not a program\n").unwrap();
    // It said "No such file or directory" for a FIFO in the current directory (a bare name
    // was looked up on PATH).
    for (other, needle) in [
        ("fifo", "--compare fifo: not a regular file (a FIFO)"),
        ("text", "--compare text: not executable"),
        ("./missing", "--compare ./missing: No such file"),
        ("no-such-program-on-path", "--compare no-such-program-on-path: cannot run it"),
    ] {
        let out = Command::new(VELETAS)
            .current_dir(&dir)
            .args(["bench", "--runs", "1", "--warmup", "0", "--search-iterations", "0", "--compare", other])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(needle) && err.trim_end().lines().count() == 1, "{other}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A compared binary that starts but then fails, prints without end or gives no figures is a
/// failure of the run (exit 1, one line), not of the command line (exit 2).
#[test]
fn a_compared_binary_that_misbehaves_while_it_runs_is_a_run_time_failure() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = std::env::temp_dir().join(format!("veletas-bench-misbehaves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, script, needle) in [
        ("fails", "printf 'broken \\033[31mred\\n' >&2; exit 3", "fails bench failed: broken \\u{1b}[31mred"),
        ("floods", "exec yes", "floods: it printed more than 1048576 bytes on stdout; killed"),
        ("mute", "exit 0", "mute: no figures in the bench output"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = bench(&["--runs", "1", "--warmup", "0", "--compare", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(needle) && err.trim_end().lines().count() == 1, "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_search_rows_name_their_evaluation_and_pass_a_given_one_to_the_compared_binary() {
    let first_line = |out: &std::process::Output| {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string()
    };
    let default = bench(&["--runs", "1", "--warmup", "0"]);
    assert!(first_line(&default).contains("search with --eval net;"), "{}", first_line(&default));
    let hand = bench(&["--runs", "1", "--warmup", "0", "--eval", "hand"]);
    assert!(first_line(&hand).contains("search with --eval hand;"), "{}", first_line(&hand));

    // A compared binary that logs its arguments, then runs this one.
    use std::os::unix::fs::PermissionsExt as _;
    let dir = std::env::temp_dir().join(format!("veletas-bench-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (script, log) = (dir.join("other"), dir.join("args.log"));
    std::fs::write(&script, format!("#!/bin/sh\necho \"$@\" >> '{}'\nexec '{VELETAS}' \"$@\"\n", log.display()))
        .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let compared = |extra: &[&str]| {
        let _ = std::fs::remove_file(&log);
        let mut args = vec!["--runs", "1", "--warmup", "0", "--json", "--compare", script.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = bench(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let runs: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(str::to_string).collect();
        runs.into_iter().filter(|l| l.contains("--search-iterations")).collect::<Vec<_>>()
    };
    let given = compared(&["--eval", "hand"]);
    assert!(
        !given.is_empty() && given.iter().all(|l| l.ends_with("--eval hand --runs 1 --warmup 0 --json")),
        "{given:?}"
    );
    let not_given = compared(&[]);
    assert!(!not_given.is_empty() && not_given.iter().all(|l| !l.contains("--eval")), "{not_given:?}");
    std::fs::remove_dir_all(&dir).ok();
}
