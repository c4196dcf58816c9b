//! Helpers shared by this test binary's suites.

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
