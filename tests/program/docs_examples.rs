//! Every command shown in README.md, protocol.md and docs/*.md (any file there, so new
//! documents are checked as soon as they exist) is run by the tests, and the output a
//! document shows is the program's (issue 28, point 2).
//!
//! A small harness of our own rather than the trycmd crate: the documents' commands are shell
//! command lines (pipes, `printf`, `&&`, redirections, `\` continuations), which trycmd runs
//! without a shell, and the few rules below (about 150 lines) need no dependency.
//!
//! The fenced blocks of a document, in order:
//!
//! * ```` ```console ````: lines starting with `$ ` are commands (a command ending in `\`
//!   continues on the next line), the lines under one are what it prints (stdout and stderr
//!   together), compared line by line: `[..]` in a line stands for any text, a line `...`
//!   for any number of lines (how speed- or randomness-dependent output is shown). A command
//!   must exit with success.
//! * ```` ```sh ```` (or `bash`, `shell`): one script, run with `set -euo pipefail`; it must
//!   exit with success (its output is not shown, so not compared).
//! * any block whose info string has `file=NAME` (```` ```toml file=engines.toml ````): its
//!   text is written to NAME, for the commands after it.
//!
//! Words after the language in the info string: `slow` runs the block only in the `#[ignore]`
//! test (release mode, in CI; a later block that needs its files must be `slow` too), and
//! `not-run` never runs it (commands that build the project, synopses with `...`, long
//! matches that cannot run in CI). Every other command block runs in the default `cargo test`.
//!
//! A command that runs cargo is refused (mark it `not-run`), and one still running after 300 s
//! is stopped and fails. Each document runs in a fresh directory holding copies of the repository's `docs/`,
//! `data/` and `scripts/`, with `veletas` (this build) first on PATH and also at
//! `target/release/veletas`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// What a fenced block is to the tests.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Console,
    Script,
    Other,
}

/// A fenced block: its info string's language and words, its first line's number, its text.
struct Block {
    kind: Kind,
    words: Vec<String>,
    line: usize,
    text: String,
}

impl Block {
    fn has(&self, word: &str) -> bool {
        self.words.iter().any(|w| w == word)
    }

    fn file(&self) -> Option<&str> {
        self.words.iter().find_map(|w| w.strip_prefix("file="))
    }
}

/// The fenced blocks of a markdown text.
fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = markdown.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let mut words = info.split_whitespace().map(str::to_string);
        let kind = match words.next().as_deref() {
            Some("console") => Kind::Console,
            Some("sh" | "bash" | "shell") => Kind::Script,
            _ => Kind::Other,
        };
        let text: Vec<&str> = lines.by_ref().map(|(_, l)| l).take_while(|l| !l.starts_with("```")).collect();
        blocks.push(Block { kind, words: words.collect(), line: n + 1, text: text.join("\n") + "\n" });
    }
    blocks
}

/// The documents: README.md, protocol.md and every markdown file of docs/ (also the
/// documents whose inline commands docs_inline.rs parses).
pub(crate) fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    [Path::new(ROOT).join("README.md"), Path::new(ROOT).join("protocol.md")].into_iter().chain(docs).collect()
}

/// Whether `actual` fits the `expected` line, where `[..]` stands for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() || !actual.ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the `actual` lines fit the `expected` ones, where a line `...` stands for any
/// number of lines.
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((line, rest)) => actual.first().is_some_and(|a| line_matches(line, a)) && lines_match(rest, &actual[1..]),
    }
}

/// A fresh directory for a document's commands.
fn sandbox(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-examples").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    for sub in ["docs", "data", "scripts"] {
        copy_dir(&Path::new(ROOT).join(sub), &dir.join(sub));
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_veletas"), dir.join("target/release/veletas")).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Seconds a command (or an `sh` block) may take before it is stopped and fails: far above
/// what any documented example needs, so that a command that never ends (a server, a command
/// waiting for input) fails the test instead of hanging it.
const TIME_LIMIT: &str = "300";

/// Runs `script` with bash in `dir`, stopped after [`TIME_LIMIT`] (with every process it
/// started: `timeout` signals its whole process group): its exit success and its output,
/// stdout and stderr together.
fn run(dir: &Path, script: &str) -> (bool, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_veletas")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let output = Command::new("timeout")
        .args(["-k", "10", TIME_LIMIT, "bash", "-c"])
        .arg(format!("set -euo pipefail\nexec 2>&1\n{script}"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.code() == Some(124) {
        text.push_str(&format!("(stopped after {TIME_LIMIT} s)\n"));
    }
    (output.status.success(), text)
}

/// The commands of a console block: each with its line offset in the block and the lines
/// it shows.
fn console_commands(text: &str) -> Vec<(usize, String, Vec<&str>)> {
    let mut commands: Vec<(usize, String, Vec<&str>)> = Vec::new();
    let mut continued = false;
    for (n, line) in text.lines().enumerate() {
        if continued {
            let command = &mut commands.last_mut().unwrap().1;
            command.push('\n');
            command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            commands.push((n, command.to_string(), Vec::new()));
            continued = command.ends_with('\\');
        } else if let Some(last) = commands.last_mut() {
            last.2.push(line);
        } else {
            panic!("console block line {}: output before any `$ ` command: {line}", n + 1);
        }
    }
    commands
}

/// Runs a document's blocks (`slow` ones too when `slow`); returns the number of commands
/// run and the failures found.
fn check_document(path: &Path, slow: bool, failures: &mut String) -> usize {
    let name = path.strip_prefix(ROOT).unwrap().to_string_lossy().replace('/', "-");
    let markdown = std::fs::read_to_string(path).unwrap();
    let blocks = blocks(&markdown);
    let dir = sandbox(&format!("{}-{name}", if slow { "slow" } else { "fast" }));
    let mut commands = 0;
    for block in &blocks {
        let place = format!("{}:{}", path.strip_prefix(ROOT).unwrap().display(), block.line);
        if block.has("not-run") || (block.has("slow") && !slow) {
            continue;
        }
        if block.kind != Kind::Other && block.text.contains("cargo ") {
            let _ = writeln!(failures, "{place}: runs cargo, which the tests cannot: mark the block not-run");
            continue;
        }
        if let Some(file) = block.file() {
            std::fs::write(dir.join(file), &block.text).unwrap();
        }
        match block.kind {
            Kind::Other => {}
            Kind::Script => {
                commands += block.text.lines().filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#')).count();
                let (ok, output) = run(&dir, &block.text);
                if !ok {
                    let _ = writeln!(failures, "{place}: the sh block failed:\n{}\n{output}", block.text);
                }
            }
            Kind::Console => {
                for (n, command, expected) in console_commands(&block.text) {
                    commands += 1;
                    let (ok, output) = run(&dir, &command);
                    let actual: Vec<&str> = output.lines().map(str::trim_end).collect();
                    let expected: Vec<&str> = expected.iter().map(|l| l.trim_end()).collect();
                    if !ok || !lines_match(&expected, &actual) {
                        let _ = writeln!(
                            failures,
                            "{}:{}: `{command}` {}; the document shows:\n{}\n--- the program printed:\n{output}",
                            place.rsplit_once(':').unwrap().0,
                            block.line + 1 + n,
                            if ok { "printed something else" } else { "failed" },
                            expected.join("\n"),
                        );
                    }
                }
            }
        }
    }
    commands
}

fn check_all(slow: bool) {
    let mut failures = String::new();
    let mut commands = 0;
    for path in documents() {
        commands += check_document(&path, slow, &mut failures);
    }
    eprintln!("documented commands run: {commands}");
    assert!(failures.is_empty(), "documented examples that do not hold:\n\n{failures}");
}

#[test]
fn the_fast_documented_examples_hold() {
    check_all(false);
}

/// The `slow` blocks too (every block not marked `not-run`), in release mode in CI.
#[test]
#[ignore]
fn every_documented_example_holds() {
    check_all(true);
}

#[test]
fn every_command_block_is_run_or_marked() {
    for path in documents() {
        for block in blocks(&std::fs::read_to_string(&path).unwrap()) {
            let known = ["slow", "not-run"];
            for word in &block.words {
                assert!(
                    known.contains(&word.as_str()) || word.starts_with("file="),
                    "{}:{}: unknown word `{word}` in the info string (known: slow, not-run, file=NAME)",
                    path.display(),
                    block.line
                );
            }
            if block.kind == Kind::Console {
                assert!(
                    !console_commands(&block.text).is_empty(),
                    "{}:{}: a console block without `$ `",
                    path.display(),
                    block.line
                );
            }
        }
    }
}

#[test]
fn elisions_match_what_they_should_and_nothing_else() {
    assert!(line_matches("a [..] c", "a b c"));
    assert!(line_matches("[..]x", "x"));
    assert!(line_matches("1 [..] 2 [..] 3", "1 a 2 b 3"));
    assert!(!line_matches("1 [..] 2 [..] 3", "1 a 3 b 2"));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert!(!line_matches("a b", "a c"));
    assert!(lines_match(&["x", "...", "y"], &["x", "y"]));
    assert!(lines_match(&["x", "...", "y"], &["x", "1", "2", "y"]));
    assert!(!lines_match(&["x", "...", "y"], &["x", "1", "2"]));
    assert!(!lines_match(&["x"], &["x", "extra"]));
    assert!(!lines_match(&["x", "y"], &["x"]));
    let commands = console_commands("$ a \\\n  b\nout 1\nout 2\n$ c\n");
    assert_eq!(commands.len(), 2);
    assert_eq!(
        (commands[0].0, commands[0].1.as_str(), commands[0].2.clone()),
        (0, "a \\\n  b", vec!["out 1", "out 2"])
    );
    assert_eq!((commands[1].0, commands[1].1.as_str(), commands[1].2.len()), (4, "c", 0));
}
