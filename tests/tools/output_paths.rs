//! Output paths through the `veletas` binary: an output is written, never replaced (a
//! link keeps pointing at its target, a FIFO stays a FIFO), and never one of the inputs
//! (refused in one line, the input left as it was). See docs/reliability.md.

use std::fs;
use std::os::unix::fs::FileTypeExt as _;
use std::path::Path;
use std::process::{Command, Output};

use crate::support::veletas_in;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");
const POSITION: &str = "7/7/2s4/7/4s2/1s5/7 b";

/// Plays a match of `games` games into `record` in `dir`, with `extra` options.
fn small_match(dir: &Path, games: &str, record: &str, extra: &[&str]) -> Output {
    let one = format!("'{FAKE}' --seed 1");
    let two = format!("'{FAKE}' --seed 2");
    let mut args = vec!["match", "--engine", &one, "--engine", &two, "--games", games, "--size", "7", "-q"];
    args.extend_from_slice(&["--movetime", "0.5", "--record", record]);
    args.extend_from_slice(extra);
    veletas_in(dir, &args)
}

/// Asserts a refusal: a non-zero exit and one line on stderr containing `what`.
fn assert_refused(output: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "accepted: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(what), "{stderr}");
}

#[test]
fn render_onto_a_symlink_writes_its_target_and_keeps_the_link() {
    let dir = scratch!("link");
    fs::write(dir.join("real.svg"), "old").unwrap();
    std::os::unix::fs::symlink("real.svg", dir.join("link.svg")).unwrap();
    let output = veletas_in(&dir, &["render", POSITION, "-o", "link.svg"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(fs::symlink_metadata(dir.join("link.svg")).unwrap().file_type().is_symlink());
    assert!(fs::read_to_string(dir.join("real.svg")).unwrap().starts_with("<svg"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn render_into_a_fifo_writes_through_it_and_leaves_a_fifo() {
    let dir = scratch!("fifo");
    let fifo = dir.join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let output = veletas_in(&dir, &["render", POSITION, "-o", "pipe"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // Checked before joining the reader: a FIFO replaced by a file would leave it waiting.
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(reader.join().unwrap().starts_with("<svg"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn render_to_dev_stdout_prints_the_picture() {
    let output = veletas_in(&std::env::temp_dir(), &["render", POSITION, "-o", "/dev/stdout"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("<svg"));
}

#[test]
fn a_match_refuses_pages_and_logs_that_are_its_record() {
    let dir = scratch!("match");
    let first = small_match(&dir, "2", "g.txt", &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let before = fs::read(dir.join("g.txt")).unwrap();
    std::os::unix::fs::symlink("g.txt", dir.join("alias.txt")).unwrap();
    for (option, path) in [("--report", "g.txt"), ("--live", "./g.txt"), ("--engine-log", "alias.txt")] {
        let output = small_match(&dir, "4", "g.txt", &[option, path]);
        assert_refused(&output, &format!("{option} {path} is the same file as --record g.txt"));
        assert_eq!(fs::read(dir.join("g.txt")).unwrap(), before, "{option}");
    }
    // Not yet existing, the record and a page are still one name.
    let output = small_match(&dir, "2", "new.txt", &["--report", "./new.txt"]);
    assert_refused(&output, "is the same file as --record new.txt");
    assert!(!dir.join("new.txt").exists());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn view_render_and_ratings_refuse_to_write_over_their_input() {
    let dir = scratch!("readers");
    let first = small_match(&dir, "2", "g.txt", &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let before = fs::read(dir.join("g.txt")).unwrap();
    std::os::unix::fs::symlink("g.txt", dir.join("alias.txt")).unwrap();
    let runs: [&[&str]; 4] = [
        &["view", "g.txt", "-o", "g.txt"],
        &["view", "g.txt", "-o", "alias.txt"],
        &["render", "--record", "g.txt", "-o", "./g.txt"],
        &["ratings", "g.txt", "--format", "html", "-o", "alias.txt"],
    ];
    for args in runs {
        assert_refused(&veletas_in(&dir, args), "is the same file as");
        assert_eq!(fs::read(dir.join("g.txt")).unwrap(), before, "{args:?}");
    }
    let output = veletas_in(&dir, &["ratings", "g.txt", "-o", "g.txt"]);
    assert_refused(&output, "-o g.txt is the same file as g.txt");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn every_output_writer_under_a_file_size_limit_fails_in_one_line_and_leaves_no_temporary_file() {
    let dir = scratch!("xfsz");
    assert!(small_match(&dir, "2", "g.txt", &[]).status.success());
    let veletas = env!("CARGO_BIN_EXE_veletas");
    let engine = format!("{veletas} --seed 1 --playouts 20");
    let book = ["book", "--engine", &engine, "--size", "7", "--candidates", "60", "--band", "0-100", "-o", "out"];
    let cases: [&[&str]; 4] = [
        &["render", POSITION, "-o", "out"],
        &["view", "g.txt", "-o", "out"],
        &["ratings", "g.txt", "--format", "html", "-o", "out"],
        &book,
    ];
    for args in cases {
        // A limit of one block (512 bytes or 1 KiB): every one of these outputs is larger.
        let words: Vec<String> = args.iter().map(|a| format!("'{}'", a.replace('\'', "'\\''"))).collect();
        let script = format!("ulimit -f 1; exec '{veletas}' {}", words.join(" "));
        let output = Command::new("sh").current_dir(&dir).args(["-c", &script]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        // It exits with a status of its own (a signal gives none), the failure the last line.
        assert!(output.status.code().is_some_and(|code| code != 0), "{}: {:?} {stderr}", args[0], output.status);
        let last = stderr.trim_end().lines().last().unwrap_or_default();
        assert!(last.contains("out: cannot write: File too large"), "{}: {stderr}", args[0]);
        let left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains("out"))
            .collect();
        assert!(left.is_empty(), "{}: {left:?} left", args[0]);
    }
    let _ = fs::remove_dir_all(&dir);
}
