//! Build script of the `veletas` program: `veletas --version` names the commit it was built
//! from when it is built in this repository's git checkout (`0.2.0 (commit 1a2b3c4d5)`: the
//! commit, not the state of the working tree, which a build script cannot follow cheaply),
//! and just the version otherwise (a package from crates.io, an exported tree).

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    output.status.success().then(|| text.trim().to_string())
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Only this repository's own checkout counts, not a repository that happens to hold it.
    let top = git(dir, &["rev-parse", "--show-toplevel"]).map(std::path::PathBuf::from);
    let ours = top.as_deref().and_then(|t| t.canonicalize().ok()) == dir.canonicalize().ok();
    let commit = if ours { git(dir, &["rev-parse", "--short=9", "HEAD"]) } else { None };
    let full = match commit {
        Some(commit) => format!("{version} (commit {commit})"),
        None => version,
    };
    println!("cargo:rustc-env=VELETAS_VERSION={full}");
    if ours {
        // Rebuilt when HEAD moves or its branch gets a new commit.
        for path in ["HEAD", "packed-refs"] {
            // A path that does not exist would rerun this script at every build.
            if let Some(p) = git(dir, &["rev-parse", "--git-path", path]).map(|p| dir.join(p)).filter(|p| p.exists()) {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
        if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]).filter(|b| !b.is_empty())
            && let Some(p) = git(dir, &["rev-parse", "--git-path", &branch]).map(|p| dir.join(p)).filter(|p| p.exists())
        {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
