//! Scratch directories for the test binaries that run the program (tests/engine, tests/program,
//! tests/tools include this file): `scratch!("name")` gives a fresh, empty directory for one
//! test of the calling suite.

use std::path::PathBuf;

/// `scratch!("name")`: a fresh, empty directory for one test of the calling suite
/// ([`scratch_dir`]).
macro_rules! scratch {
    ($name:expr) => {
        $crate::scratch::scratch_dir(module_path!(), $name)
    };
}

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
