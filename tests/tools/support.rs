//! Helpers shared by this test binary's suites.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

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

/// Runs the program with `args` in directory `dir` (stdin empty) and waits for it.
pub fn veletas_in(dir: &Path, args: &[impl AsRef<OsStr>]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_veletas"))
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("veletas runs")
}
