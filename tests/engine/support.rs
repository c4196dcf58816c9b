//! What this test binary's suites share: the program run over pipes, and scratch directories.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The program Cargo built for the tests.
pub const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

/// A fresh, empty directory for one test: under the system's temporary directory, named after
/// the test's module, this process and `name` (so suites running at once never share one).
/// Called through the `scratch!` macro, which passes the module.
pub fn scratch_dir(module: &str, name: &str) -> PathBuf {
    let module = module.rsplit("::").next().unwrap_or(module).replace('_', "-");
    let dir = std::env::temp_dir().join(format!("veletas-{module}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The program with `args`, its three streams piped (add `.env(...)` and the like before
/// [`session`]).
pub fn engine(args: &[&str]) -> Command {
    let mut command = Command::new(VELETAS);
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// Starts `command`, writes `input` to its stdin, closes it and waits: exit status, stdout and
/// stderr. A closed pipe is no failure here: an engine that refuses its options ends before it
/// reads.
pub fn session(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command.spawn().expect("the program starts");
    let _ = child.stdin.take().expect("stdin is piped").write_all(input);
    child.wait_with_output().expect("the program ends")
}
