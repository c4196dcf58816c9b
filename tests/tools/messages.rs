//! Messages say what failed (issue 25, item 13), through the binary.

use std::process::Command;

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

#[test]
fn an_engine_log_that_cannot_be_opened_is_named_as_the_failure() {
    // It said "cannot start engine" and the engine's error, as if the engine were missing.
    let out = Command::new(VELETAS)
        .args(["match", "--engine", "a=veletas --player random", "--engine", "b=veletas --player random"])
        .args(["--games", "2", "--engine-log", "/nonexistent/dir/engines.log"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("cannot open the engine log /nonexistent/dir/engines.log"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
