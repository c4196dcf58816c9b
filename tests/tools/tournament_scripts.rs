//! The recipes that spread a tournament over machines (`scripts/tournament-*`): GNU
//! parallel is run for real (heavy suite; scripts/test.sh installs it), the Slurm array
//! script and the Kubernetes manifest are checked and dry-run with their schedulers'
//! environment variables set (cluster.rs runs the Slurm script for real and checks the
//! manifest against the Job schema and the Dockerfile).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

pub(crate) fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts")
}

fn field() -> Vec<String> {
    let mut args = Vec::new();
    for (name, seed) in [("a", 1), ("b", 2), ("c", 3), ("d", 4)] {
        args.push("--engine".to_string());
        args.push(format!("{name}='{FAKE}' --seed {seed}"));
    }
    args.extend(["--size", "7", "--games-per-pair", "2", "--seed", "5", "--each", "restart=on"].map(String::from));
    args
}

pub(crate) fn text(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What `veletas tournament FIELD --shard K/N --dry-run` lists.
fn dry_run(shard: &str) -> String {
    text(&Command::new(VELETAS).arg("tournament").args(field()).args(["--shard", shard, "--dry-run"]).output().unwrap())
}

#[test]
fn the_scripts_parse_and_print_their_usage() {
    for name in ["tournament-parallel.sh", "tournament-slurm.sbatch", "slurm-local.sh"] {
        let path = scripts().join(name);
        assert!(Command::new("bash").arg("-n").arg(&path).status().unwrap().success(), "{name}");
        let help = Command::new("bash").arg(&path).arg("-h").output().unwrap();
        let usage = String::from_utf8_lossy(&help.stderr);
        assert!(help.status.success() && usage.starts_with("usage: "), "{name}: {usage}");
        let none = Command::new("bash").arg(&path).output().unwrap();
        assert_eq!(none.status.code(), Some(2), "{name} without arguments");
    }
    let bad = Command::new("bash").arg(scripts().join("tournament-parallel.sh")).arg("-Z").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_slurm_array_script_plays_the_shard_of_its_task() {
    let dir = scratch!("slurm");
    for (task, min, shard) in [("2", "1", "2/3"), ("0", "0", "1/3")] {
        let out = Command::new("bash")
            .arg(scripts().join("tournament-slurm.sbatch"))
            .args(field())
            .arg("--dry-run")
            .env("VELETAS", VELETAS)
            .env("RESULTS", &dir)
            .env("SLURM_ARRAY_TASK_ID", task)
            .env("SLURM_ARRAY_TASK_MIN", min)
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .output()
            .unwrap();
        assert_eq!(text(&out), dry_run(shard), "task {task}");
    }
    let outside = Command::new("bash")
        .arg(scripts().join("tournament-slurm.sbatch"))
        .args(field())
        .env("VELETAS", VELETAS)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!outside.status.success());
    assert!(String::from_utf8_lossy(&outside.stderr).contains("sbatch --array"));
}

/// scripts/tournament-k8s.yaml as JSON (parsed by PyYAML, which scripts/test.sh installs).
pub(crate) fn kubernetes_manifest() -> serde_json::Value {
    let json = Command::new("python3")
        .args(["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))"])
        .arg(scripts().join("tournament-k8s.yaml"))
        .output()
        .expect("python3 runs");
    serde_json::from_str(&text(&json)).unwrap()
}

#[test]
fn the_kubernetes_manifest_is_an_indexed_job_whose_pods_play_their_shards() {
    let job = kubernetes_manifest();
    assert_eq!(job["kind"], "Job");
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let completions = spec["completions"].as_u64().unwrap();
    assert_eq!(spec["parallelism"].as_u64(), Some(completions));
    let container = &spec["template"]["spec"]["containers"][0];
    let command: Vec<String> =
        container["command"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    let args: Vec<String> =
        container["args"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert_eq!(command, ["veletas", "tournament"]);
    let shard = args.iter().position(|a| a == "--shard").map(|i| args[i + 1].clone()).unwrap();
    assert_eq!(shard, format!("auto/{completions}"));
    // The pod of index 1 plays shard 2: its command line, run here with --dry-run.
    let args: Vec<String> = args.iter().map(|a| a.replace("veletas ", &format!("{VELETAS} "))).collect();
    let out = Command::new(VELETAS)
        .arg("tournament")
        .args(&args)
        .arg("--dry-run")
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    let listed = text(&out);
    assert!(listed.contains(&format!("(shard 2/{completions})")), "{listed}");
    let expected = Command::new(VELETAS)
        .arg("tournament")
        .args(args.iter().map(|a| if *a == shard { format!("2/{completions}") } else { a.clone() }))
        .arg("--dry-run")
        .output()
        .unwrap();
    assert_eq!(listed, text(&expected));
}

/// Moves and results of each game, by game number.
pub(crate) fn games(files: &[PathBuf]) -> Vec<(usize, String, String, Vec<String>, String)> {
    let mut all = Vec::new();
    for file in files {
        for g in veletas_tools::referee::parse_records(&std::fs::read_to_string(file).unwrap()).unwrap() {
            let tag = |t: &str| g.tag(t).unwrap_or_default().to_string();
            all.push((
                tag("Game").parse().unwrap(),
                tag("Black"),
                tag("White"),
                g.moves().iter().map(ToString::to_string).collect(),
                veletas_rules::record::result_token(g.result).to_string(),
            ));
        }
    }
    all.sort();
    all
}

#[test]
#[ignore = "needs GNU parallel (scripts/test.sh installs it); run with --ignored"]
fn gnu_parallel_shards_play_the_same_games_and_standings_as_the_whole() {
    let dir = scratch!("parallel");
    let whole = dir.join("whole.txt");
    let out = Command::new(VELETAS)
        .arg("tournament")
        .args(field())
        .args(["--quiet", "--record"])
        .arg(&whole)
        .output()
        .unwrap();
    text(&out);
    let shards = dir.join("shards");
    let out = Command::new("bash")
        .arg(scripts().join("tournament-parallel.sh"))
        .args(["-n", "3", "-j", "3", "-d"])
        .arg(&shards)
        .args(field())
        .env("VELETAS", VELETAS)
        .output()
        .unwrap();
    let standings = text(&out);
    let files: Vec<PathBuf> = (1..=3).map(|k| shards.join(format!("shard-{k}.txt"))).collect();
    assert_eq!(games(std::slice::from_ref(&whole)), games(&files));
    let ratings = text(&Command::new(VELETAS).arg("ratings").arg(&whole).output().unwrap());
    assert_eq!(standings, ratings);
}
