//! What this test binary's suites share: the program run over pipes, and scratch directories.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The program Cargo built for the tests.
pub const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

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
