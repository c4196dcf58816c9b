//! Every input file is read bounded (issue 25, item 8): one reader
//! (`veletas_rules::record::read_bounded`) for records, openings, engines files, weights
//! and bench positions, and its streaming twin for the training commands' games, refuse a
//! device (`/dev/zero`), a FIFO (which would block the reader forever) and a file over its
//! limit, in one line, without reading them.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `veletas ARGS` with a hang guard (a FIFO read would never end) and returns its
/// exit code and stderr.
fn run(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_veletas"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} hung (reading a FIFO or a device?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn devices_fifos_and_oversize_files_are_refused_unread_by_every_reader() {
    let dir = scratch!("inputs");
    assert!(Command::new("mkfifo").arg(dir.join("fifo")).status().unwrap().success());
    // 17 MiB, 257 MiB and 16 GiB and a byte, sparse: over the limits without using the disk.
    std::fs::File::create(dir.join("big")).unwrap().set_len(17 << 20).unwrap();
    std::fs::File::create(dir.join("huge")).unwrap().set_len(257 << 20).unwrap();
    std::fs::File::create(dir.join("vast")).unwrap().set_len((16 << 30) + 1).unwrap();
    let engines = ["--engine", "a=/nonexistent/a", "--engine", "b=/nonexistent/b"];
    for (file, needle) in
        [("/dev/zero", "not a regular file (a character device)"), ("fifo", "not a regular file (a FIFO)")]
    {
        let mut cases: Vec<Vec<&str>> = vec![
            vec!["tournament", "--engines", file],
            vec!["bench", "--file", file],
            vec!["--eval", file],
            vec!["--policy", file],
            vec!["train-eval", file],
            vec!["train-policy", file],
            vec!["train-net", file, "-o", "net.txt"],
            vec!["ratings", file],
            vec!["view", file],
            vec!["render", "--record", file],
        ];
        let mut with_openings = vec!["match"];
        with_openings.extend(engines);
        with_openings.extend(["--openings", file]);
        cases.push(with_openings);
        for args in cases {
            let (code, stderr) = run(&args, &dir);
            assert_eq!(code, Some(2), "{args:?}: a bad input exits 2, as a bad option: {stderr}");
            assert!(stderr.contains(needle) && stderr.trim_end().lines().count() == 1, "{args:?}: {stderr}");
        }
    }
    for (args, needle) in [
        (vec!["tournament", "--engines", "big"], "larger than the limit of 16777216 bytes"),
        (vec!["bench", "--file", "big"], "larger than the limit of 16777216 bytes"),
        (vec!["--eval", "big"], "larger than the limit of 16777216 bytes"),
        (vec!["--policy", "big"], "larger than the limit of 16777216 bytes"),
        // The training commands stream their games (memory: one game), so their bound is
        // one of time: 16 GiB.
        (vec!["train-eval", "vast"], "larger than the limit of 17179869184 bytes"),
        (vec!["train-policy", "vast"], "larger than the limit of 17179869184 bytes"),
        (vec!["train-net", "vast", "-o", "net.txt"], "larger than the limit of 17179869184 bytes"),
        (vec!["ratings", "huge"], "larger than the limit of 268435456 bytes"),
    ] {
        let (code, stderr) = run(&args, &dir);
        assert_eq!(code, Some(2), "{args:?}: a bad input exits 2, as a bad option: {stderr}");
        assert!(stderr.contains(needle) && stderr.trim_end().lines().count() == 1, "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
