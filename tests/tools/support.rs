//! Helpers shared by this test binary's suites.

use std::ffi::OsStr;
use std::path::Path;

/// Runs the program with `args` and waits for it: its exit status, stdout and stderr.
pub fn veletas(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_veletas")).args(args).output().expect("veletas runs")
}

/// Runs the program with `args` in directory `dir` (stdin empty) and waits for it.
pub fn veletas_in(dir: &Path, args: &[impl AsRef<OsStr>]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_veletas"))
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("veletas runs")
}
