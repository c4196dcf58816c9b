//! Hostile record files against `view` and `ratings` through the binary: a tag or a line
//! far past its bound is cut or refused in one line naming the file and the line, and the
//! readers' memory is bounded by the games they keep, not by the bytes they read (the
//! peak resident size as the kernel reports it to `wait4`). See docs/reliability.md.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// Runs the program in `dir` (through `veletas-fake-engine --peak-of`, a small process,
/// so that the peak is the program's own, not this test process's): its exit code, its
/// stderr and its peak resident size in KiB.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, i64) {
    let output = Command::new(FAKE)
        .current_dir(dir)
        .arg("--peak-of")
        .arg(VELETAS)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let (err, last) = stderr.trim_end().rsplit_once('\n').unwrap_or(("", stderr.trim_end()));
    let mut words = last.strip_prefix("peak-of ").expect("the peak line").split(' ');
    let code: i32 = words.next().unwrap().parse().unwrap();
    let peak: i64 = words.next().unwrap().parse().unwrap();
    let err = if err.is_empty() { String::new() } else { format!("{err}\n") };
    ((code >= 0).then_some(code), err, peak)
}

/// A two-game match record in `dir/g.txt`, returned as text.
fn match_record(dir: &Path) -> String {
    let one = format!("a='{FAKE}' --seed 1");
    let two = format!("b='{FAKE}' --seed 2");
    let args = ["match", "--engine", &one, "--engine", &two, "--games", "2", "--size", "7", "-q", "--record", "g.txt"];
    let (code, err, _) = run(dir, &args);
    assert_eq!(code, Some(0), "{err}");
    fs::read_to_string(dir.join("g.txt")).unwrap()
}

#[test]
fn huge_tags_are_cut_with_a_warning_and_memory_stays_bounded_however_many_files() {
    let dir = scratch!("hostile-tags");
    let record = match_record(&dir);
    let event = record.lines().find(|l| l.starts_with("[Event ")).unwrap().to_string();
    // 48 MiB of event name in each of three files: 144 MiB read in all.
    let huge = format!("[Event \"{}\"]", "x".repeat(48 << 20));
    let hostile = record.replacen(&event, &huge, 1);
    for name in ["h1.txt", "h2.txt", "h3.txt"] {
        fs::write(dir.join(name), &hostile).unwrap();
    }
    for args in [
        vec!["view", "h1.txt", "h2.txt", "h3.txt", "-o", "h.html"],
        vec!["ratings", "h1.txt", "h2.txt", "h3.txt", "--mix"],
        vec!["ratings", "h1.txt", "h2.txt", "h3.txt", "--mix", "--format", "html", "-o", "r.html"],
    ] {
        let (code, err, peak_kb) = run(&dir, &args);
        assert_eq!(code, Some(0), "{args:?}: {err:.300}");
        // One warning a file, naming the file and the line.
        for name in ["h1.txt", "h2.txt", "h3.txt"] {
            let line = format!("warning: {name}:1: the Event tag is longer than 4096 bytes: cut");
            assert!(err.lines().any(|l| l == line), "{args:?}: {err:.600}");
        }
        assert!(err.len() < 2000, "{args:?}: {err:.300}");
        // Memory bounded by the games kept (it was about six times the input: 1.23 GB for
        // one 200 MiB tag).
        assert!(peak_kb < 48 * 1024, "{args:?}: peak {peak_kb} KiB");
    }
    let page = fs::read_to_string(dir.join("h.html")).unwrap();
    assert!(page.len() < 1 << 20, "the page holds the tag cut: {} bytes", page.len());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_line_past_the_bound_that_is_no_tag_is_refused_naming_the_file_and_line() {
    let dir = scratch!("hostile-line");
    let record = match_record(&dir);
    let junk = format!("{record}1. {}\n", "a ".repeat(100_000));
    fs::write(dir.join("j.txt"), junk).unwrap();
    let line = record.lines().count() + 1;
    for args in [vec!["view", "j.txt", "-o", "j.html"], vec!["ratings", "j.txt"]] {
        let (code, err, _) = run(&dir, &args);
        assert!(code.is_some_and(|c| c != 0), "{args:?}: {err:.300}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err:.300}");
        assert!(err.contains("j.txt") && err.contains(&format!("{line}")), "{args:?}: {err}");
        assert!(err.contains("longer than 65536 bytes"), "{args:?}: {err}");
    }
    assert!(!dir.join("j.html").exists());
    let _ = fs::remove_dir_all(&dir);
}
