//! The value network through the binary (issue 42): `veletas train-net` writes a network
//! file, the same one for the same command; `--eval FILE` and the protocol's `eval FILE`
//! take it (and report it), the engine plays with it, and a damaged network file is
//! refused in one line, the evaluation in force unchanged.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{self, VELETAS as BIN, engine};

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/random-player-20-games.txt")
}

fn train(out: &Path, extra: &[&str]) -> Output {
    Command::new(BIN)
        .arg("train-net")
        .arg(games())
        .args(["--hidden", "16,4", "--epochs", "2", "--batch", "64", "--holdout", "4", "-o"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// The replies of a 7x7 session of genmoves with `args`, each without its final empty line.
fn protocol(args: &[&str], input: &str) -> Vec<String> {
    let out = support::session(&mut engine(args), input.as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_terminator("\n\n").map(str::to_string).collect()
}

fn genmoves(n: usize) -> String {
    let mut input = String::from("boardsize 7\nclear_board\n");
    for i in 0..n {
        input.push_str(if i % 2 == 0 { "genmove b\n" } else { "genmove w\n" });
    }
    input
}

#[test]
fn train_net_writes_the_same_network_for_the_same_command_and_reports_the_losses() {
    let dir = scratch!("train");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    let first = train(&a, &[]);
    let report = String::from_utf8(first.stdout).unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(report.contains("held-out log-loss") && report.contains("constant  linear  network"), "{report}");
    assert!(report.contains("samples/s"), "{report}");
    assert!(train(&b, &[]).status.success());
    let (text_a, text_b) = (std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap());
    // The first lines differ only by the output's name in the command.
    let body = |t: &str| t.lines().filter(|l| !l.starts_with("# command")).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&text_a), body(&text_b), "the same command trained another network");
    assert!(text_a.contains("\nveletas-net 1\nlayers 665 16 4\nbase "), "{}", &text_a[..400.min(text_a.len())]);
    let other = dir.join("c.txt");
    assert!(train(&other, &["--seed", "2"]).status.success());
    assert_ne!(body(&std::fs::read_to_string(&other).unwrap()), body(&text_a), "the seed changed nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_network_file_is_an_evaluation_at_start_and_by_the_eval_command() {
    let dir = scratch!("load");
    let net = dir.join("net.txt");
    assert!(train(&net, &[]).status.success());
    let path = net.to_str().unwrap();
    let replies = protocol(&["--seed", "1", "--playouts", "200", "--eval", path], &format!("eval\n{}", genmoves(8)));
    assert_eq!(replies[0], format!("= net {path}"));
    assert!(replies[3..].iter().all(|r| r.starts_with("= ") && r.len() > 2), "{replies:?}");
    let by_command = protocol(&["--seed", "1", "--playouts", "200"], &format!("eval {path}\neval\n{}", genmoves(8)));
    assert_eq!(by_command[1], format!("= net {path}"));
    assert_eq!(by_command[2..], replies[1..], "the same network at start and by command plays otherwise");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_default_evaluation_is_the_built_in_network_which_its_file_plays_alike() {
    let dir = scratch!("default");
    let file = dir.join("value-net.txt");
    let builtin = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/data/value-net.txt");
    std::fs::copy(&builtin, &file).unwrap();
    let args = ["--seed", "1", "--playouts", "200"];
    let default = protocol(
        &args,
        &format!(
            "eval
{}",
            genmoves(8)
        ),
    );
    assert_eq!(default[0], "= net");
    let named = protocol(
        &[&args[..], &["--eval", "net"]].concat(),
        &format!(
            "eval
{}",
            genmoves(8)
        ),
    );
    assert_eq!(named, default, "--eval net is not the default");
    let path = file.to_str().unwrap();
    let from_file = protocol(
        &args,
        &format!(
            "eval {path}
eval
{}",
            genmoves(8)
        ),
    );
    assert_eq!(from_file[1], format!("= net {path}"));
    assert_eq!(from_file[2..], default[1..], "the built-in network read from its file plays otherwise");
    let linear = protocol(
        &args,
        &format!(
            "eval learned
{}",
            genmoves(8)
        ),
    );
    assert_ne!(linear[1..], default[1..], "the learned evaluation plays as the network does");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_network_file_is_refused_and_changes_nothing() {
    let dir = scratch!("damaged");
    let net = dir.join("net.txt");
    assert!(train(&net, &[]).status.success());
    let text = std::fs::read_to_string(&net).unwrap();
    let cases = [
        ("truncated.txt", text[..text.len() / 2].to_string(), "has "),
        ("no-base.txt", text.lines().filter(|l| !l.starts_with("base ")).collect::<Vec<_>>().join("\n"), "base model"),
        ("huge.txt", text.replacen("\nb3 ", "\nb3 1e30 ", 1), "a number from"),
        ("twice.txt", format!("{text}b3 0\n"), "given twice"),
        ("layers.txt", text.replacen("layers 665 16 4", "layers 665 16 400", 1), "hidden layers"),
    ];
    let plain = protocol(&["--seed", "1", "--playouts", "200"], &format!("{}eval\n", genmoves(6)));
    for (name, body, why) in cases {
        let bad = dir.join(name);
        std::fs::write(&bad, body).unwrap();
        // At start: one line, a failure.
        let out = support::session(
            &mut engine(&["--seed", "1", "--playouts", "200", "--eval", bad.to_str().unwrap()]),
            b"quit\n",
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!out.status.success() && out.stdout.is_empty(), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(why), "{name}: {stderr}");
        // By command: `?` with the reason, and the play as without it.
        let replies =
            protocol(&["--seed", "1", "--playouts", "200"], &format!("eval {}\n{}eval\n", bad.display(), genmoves(6)));
        assert!(replies[0].starts_with("? cannot load weights: ") && replies[0].contains(why), "{}", replies[0]);
        assert_eq!(replies[1..], plain[..], "{name}: a refused network changed the play");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_net_refuses_bad_settings_and_writes_nothing() {
    let dir = scratch!("settings");
    for (args, why) in [
        (vec!["--hidden", "20,4"], "expected H1,H2"),
        (vec!["--hidden", "16"], "expected H1,H2"),
        (vec!["--lr", "0"], "above 0"),
        (vec!["--epochs", "0"], "--epochs"),
    ] {
        let out = Command::new(BIN)
            .arg("train-net")
            .arg(games())
            .arg("-o")
            .arg(dir.join("never.txt"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!dir.join("never.txt").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tiny_generation_on_7x7_trains_both_networks_and_the_engine_plays_with_them() {
    let dir = scratch!("generation");
    let record = dir.join("sp.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/selfplay-data.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(["-f", "-n", "8", "-p", "60", "-s", "7", "-j", "2", "-o"])
        .arg(&record)
        .env("VELETAS", BIN)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (value, policy) = (dir.join("value.txt"), dir.join("policy.txt"));
    let common = ["--hidden", "16,4", "--epochs", "2", "--holdout", "4", "--random-plies", "2"];
    let out = Command::new(BIN).arg("train-net").arg(&record).args(common).arg("-o").arg(&value).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(BIN)
        .args(["train-net", "--policy"])
        .arg(&record)
        .args(&common[..6])
        .arg("-o")
        .arg(&policy)
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(report.contains("held-out cross-entropy") && report.contains("linear  network"), "{report}");
    let text = std::fs::read_to_string(&policy).unwrap();
    assert!(text.contains("\nveletas-policy-net 1\nlayers 665 16 221\nbase classic stay "), "{}", &text[..300]);
    // Both loaded, a whole game through the protocol; `policy` reports the file.
    let args =
        ["--seed", "2", "--playouts", "150", "--eval", value.to_str().unwrap(), "--policy", policy.to_str().unwrap()];
    let input =
        "boardsize 7\nclear_board\npolicy\n".to_string() + &"genmove b\ngenmove w\n".repeat(40) + "final_score\n";
    let out = support::session(&mut engine(&args), input.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("= {}", policy.display())), "{text}");
    assert!(text.contains("= B+") || text.contains("= W+"), "{text}");
    // A damaged policy network is refused by `policy FILE`, the policy in force kept.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, text_without(&std::fs::read_to_string(&policy).unwrap(), "wo 7 ")).unwrap();
    let replies = protocol(&["--seed", "1", "--playouts", "100"], &format!("policy {}\npolicy\n", bad.display()));
    assert!(replies[0].starts_with("? cannot load weights: ") && replies[0].contains("no 'wo 7'"), "{}", replies[0]);
    assert_eq!(replies[1], "= builtin");
    // The training data must hold first steps.
    let out = Command::new(BIN).args(["train-net", "--policy"]).arg(games()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no first steps"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn text_without(text: &str, line_start: &str) -> String {
    text.lines().filter(|l| !l.starts_with(line_start)).map(|l| format!("{l}\n")).collect()
}
