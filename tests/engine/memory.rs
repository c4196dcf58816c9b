//! The search's memory limit (`--memory MB`, the protocol's `memory`): one limit for the
//! whole search whatever the thread count. The heavy test runs the engine binary through a
//! long search and reads its peak resident size from /proc (Linux; release mode in CI).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use veletas_engine::search::{SearchSettings, mcts::NODE_BYTES};

#[test]
fn all_threads_share_one_tree_under_one_limit() {
    for memory_mb in [16, 64, 256, 4096] {
        for threads in [1, 2, 3, 64] {
            let settings = SearchSettings { memory_mb, threads, ..Default::default() };
            let bytes = settings.max_nodes() * NODE_BYTES;
            // The tree gets the limit less the program's 8 MiB, and nearly all of it.
            let trees = (memory_mb - 8) << 20;
            assert!(bytes as u64 <= trees.max((4096 * NODE_BYTES) as u64), "{memory_mb} MB, {threads}");
            if memory_mb >= 64 {
                assert!(bytes as u64 * 100 >= trees * 99, "{memory_mb} MB, {threads} threads: {bytes}");
            }
        }
    }
}

/// The peak resident size of process `pid` in KiB (VmHWM).
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("a VmHWM line");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a number of kB")
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "a long search (seconds in release mode); run with --ignored"]
fn resident_size_stays_under_the_limit_in_a_long_search() {
    for threads in [1, 2, 4] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_veletas"))
            .args(["--memory", "64", "--seed", "1", "--threads", &threads.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let mut input = child.stdin.take().expect("stdin");
        let mut output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut ask = |command: &str| -> String {
            writeln!(input, "{command}").expect("the engine reads");
            let mut reply = String::new();
            loop {
                let mut line = String::new();
                assert!(output.read_line(&mut line).expect("the engine answers") > 0, "the engine quit");
                if line == "\n" {
                    return reply;
                }
                reply.push_str(&line);
            }
        };
        ask("play b c3,f6,h8");
        ask("play w a1,c9,h2,j10");
        // Far more playouts than 64 MiB of nodes hold: the trees fill up and stop growing.
        ask("playouts 2000000");
        let reply = ask("genmove b");
        assert!(reply.starts_with("= "), "{reply}");
        let peak = peak_rss_kib(child.id());
        ask("quit");
        let _ = child.wait();
        assert!(peak < 64 * 1024, "{threads} threads: peak resident size {peak} KiB over 64 MiB");
        // The trees did grow to most of their share (the test is not vacuous).
        assert!(peak > 40 * 1024, "{threads} threads: peak resident size only {peak} KiB");
    }
}
