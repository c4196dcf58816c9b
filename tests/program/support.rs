//! Helpers shared by this test binary's suites.

use std::path::PathBuf;

/// A fresh, empty directory for one test: under the system's temporary directory, named
/// after the test's module, this process and `name` (so suites running at once never
/// share one). Called through the `scratch!` macro, which passes the module.
pub fn scratch_dir(module: &str, name: &str) -> PathBuf {
    let module = module.rsplit("::").next().unwrap_or(module).replace('_', "-");
    let dir = std::env::temp_dir().join(format!("veletas-{module}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs the program with `args` and waits for it: its exit status, stdout and stderr.
pub fn veletas(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_veletas")).args(args).output().expect("veletas runs")
}

/// Runs the program with `args`, which it must refuse as a usage error: exit 2, nothing on
/// stdout, and one line of message on stderr (clap's "For more information" hint may
/// follow it). Returns that line.
pub fn refusal(args: &[&str]) -> String {
    let out = veletas(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?} was not refused: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    let lines: Vec<&str> =
        stderr.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("For more information")).collect();
    assert_eq!(lines.len(), 1, "{args:?}: not one line: {stderr}");
    lines[0].to_string()
}
