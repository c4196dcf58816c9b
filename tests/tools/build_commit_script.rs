//! `scripts/build-commit.sh`: its usage line, its checks, its dry run, and that a folder
//! already holding the commit's engine is kept as it is (no build in these tests).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script(args: &[&str]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/build-commit.sh");
    Command::new("bash").arg(path).args(args).output().expect("bash runs")
}

fn head() -> String {
    let out =
        Command::new("git").args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"]).output().expect("git runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A fresh empty folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("veletas-build-commit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn parses_and_prints_its_usage_line() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/build-commit.sh");
    assert!(Command::new("bash").arg("-n").arg(&path).status().expect("bash runs").success());
    let help = script(&["-h"]);
    assert!(help.status.success());
    assert!(text(&help.stderr).starts_with("usage: scripts/build-commit.sh"), "{}", text(&help.stderr));
    assert_eq!(script(&["-Z"]).status.code(), Some(2));
    assert_eq!(script(&["HEAD"]).status.code(), Some(2), "a missing folder is a usage error");
}

#[test]
fn dry_run_names_the_binary_and_creates_nothing() {
    let dir = scratch("dry");
    let out = script(&["-n", "HEAD", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), dir.join("veletas").to_str().unwrap());
    assert!(text(&out.stderr).contains(&head()), "the plan names the full hash: {}", text(&out.stderr));
    assert!(!dir.exists(), "a dry run created {}", dir.display());
}

#[test]
fn an_unknown_commit_fails_with_one_clear_line() {
    let dir = scratch("unknown");
    let out = script(&["-n", "no-such-commit-anywhere", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr).lines().count(), 1, "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no commit 'no-such-commit-anywhere'"));
}

#[test]
fn a_folder_with_the_same_commit_is_kept_and_another_commit_refused() {
    let dir = scratch("kept");
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("veletas");
    std::fs::write(&binary, "#!/bin/sh\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(dir.join("COMMIT"), format!("{}\n", head())).unwrap();
    // Not a dry run: with the same commit recorded, nothing is built.
    let out = script(&["HEAD", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), binary.to_str().unwrap());
    assert!(text(&out.stderr).contains("already"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&binary).unwrap(), "#!/bin/sh\n", "the binary was rebuilt");

    std::fs::write(dir.join("COMMIT"), "0000000000000000000000000000000000000000\n").unwrap();
    let out = script(&["HEAD", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("another build"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&binary).unwrap(), "#!/bin/sh\n", "the binary was overwritten");
    let _ = std::fs::remove_dir_all(&dir);
}
