//! The HTML reports and the live page, through the binary: `veletas ratings --format html`,
//! `--report` and `--live` of `match` and `tournament`. Each page holds every engine and
//! every game; the results panel parses as XML; bad paths give one line, exit 2, and
//! leave nothing (and an old report intact).

use crate::support::veletas;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VELETAS: &str = env!("CARGO_BIN_EXE_veletas");
const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("veletas-reports-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The `<div id="report">...</div>` panel, parsed as XML: its text.
fn panel_text(html: &str) -> String {
    let start = html.find(r#"<div id="report""#).expect("the page has a report panel");
    // The panel ends where the viewer's games (report) or the live page's main part end.
    let end = start + html[start..].find("\n<main>").or_else(|| html[start..].find("</main>")).unwrap();
    let doc = roxmltree::Document::parse(&html[start..end]).expect("the panel is well-formed XML");
    doc.descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect::<Vec<_>>().join(" ")
}

/// The viewer's data: the games' Black and White names.
fn games_in(html: &str) -> Vec<(String, String)> {
    let start = html.find(r#"<script type="application/json" id="veletas-data">"#).unwrap();
    let rest = &html[start..];
    let body = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(body).unwrap();
    let strings = data["strings"].as_array().unwrap();
    let name = |v: &serde_json::Value| strings[v.as_u64().unwrap() as usize].as_str().unwrap().to_string();
    data["games"].as_array().unwrap().iter().map(|g| (name(&g[1]), name(&g[2]))).collect()
}

fn tournament(dir: &Path, extra: &[&str]) -> Output {
    let record = dir.join("t.txt");
    let mut args = vec!["tournament".to_string()];
    for (name, seed) in [("alpha", 1), ("beta", 2), ("gamma", 3)] {
        args.push("--engine".into());
        args.push(format!("{name}={FAKE} --seed {seed}"));
    }
    args.extend(
        ["--games-per-pair", "2", "--size", "7", "--movetime", "1", "-q", "--record", s(&record)].map(String::from),
    );
    args.extend(extra.iter().map(|x| x.to_string()));
    Command::new(VELETAS).args(&args).output().unwrap()
}

#[test]
fn ratings_html_holds_every_engine_and_every_game() {
    let dir = temp_dir("ratings");
    assert!(tournament(&dir, &[]).status.success());
    let page = dir.join("r.html");
    let out = veletas(&["ratings", "--format", "html", s(&dir.join("t.txt")), "-o", s(&page)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "with -o nothing goes to stdout");
    let html = std::fs::read_to_string(&page).unwrap();
    let text = panel_text(&html);
    for name in ["alpha", "beta", "gamma"] {
        assert!(text.contains(name), "{name} in the standings");
    }
    assert!(text.contains("Crosstable") && text.contains("Likelihood of superiority"));
    let games = games_in(&html);
    assert_eq!(games.len(), 6, "every game of the file");
    // The crosstable's cells are the pairs' games: 2 per pair here, both ways.
    assert_eq!(html.matches(r#"class="pair" data-pair-a="#).count(), 6 + 3);
    // Same standings as the JSON output of the same file.
    let json = veletas(&["ratings", "--format", "json", s(&dir.join("t.txt"))]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    for (rank, engine) in json["engines"].as_array().unwrap().iter().enumerate() {
        let row = format!(r#"<tr data-rank="{}"><td class="rank">{}</td><td class="name">"#, rank + 1, rank + 1);
        let at = html.find(&row).expect("a row per engine");
        assert!(html[at..].contains(engine["name"].as_str().unwrap()));
    }
    // To stdout without -o.
    let out = veletas(&["ratings", "--format", "html", s(&dir.join("t.txt"))]);
    assert!(out.status.success() && out.stdout.starts_with(b"<!DOCTYPE html>"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tournament_report_and_live_page_show_the_field_and_its_games() {
    let dir = temp_dir("tournament");
    let (report, live) = (dir.join("report.html"), dir.join("live.html"));
    let out = tournament(&dir, &["--report", s(&report), "--live", s(&live), "-j", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    let text = panel_text(&html);
    for name in ["alpha", "beta", "gamma"] {
        assert!(text.contains(name));
    }
    let mut games = games_in(&html);
    assert_eq!(games.len(), 6);
    games.iter_mut().for_each(|(b, w)| {
        if b > w {
            std::mem::swap(b, w)
        }
    });
    games.sort();
    games.dedup();
    assert_eq!(games.len(), 3, "every pair's games");
    let live = std::fs::read_to_string(&live).unwrap();
    assert!(live.contains("Finished") && live.contains(r#"data-finished="true""#));
    assert!(!live.contains("location.reload"), "the final page stops reloading");
    let text = panel_text(&live);
    assert!(text.contains("alpha") && text.contains("Ratings of 3 engines from 6 games"));
    // No temporary file is left beside the pages.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_report_shows_the_summary_and_the_live_page_the_running_games() {
    let dir = temp_dir("match");
    let (record, report, live) = (dir.join("m.txt"), dir.join("m.html"), dir.join("live.html"));
    let mut child = Command::new(VELETAS)
        // Games of over 2.5 s, so the page (rewritten every 2 s) catches them running.
        .args(["match", "--engine", &format!("one={FAKE} --seed 1 --slow-at 3 --delay 2.5")])
        .args(["--engine", &format!("two={FAKE} --seed 2")])
        .args(["--games", "2", "-j", "2", "--size", "7", "--movetime", "5", "-q", "--record", s(&record)])
        .args(["--report", s(&report), "--live", s(&live)])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first write comes before the first game; a game is in progress soon after.
    let mut seen_running = false;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        if let Ok(page) = std::fs::read_to_string(&live)
            && page.contains(r#"<div class="game""#)
        {
            assert!(page.contains("game 1/2") && page.contains("game 2/2") && page.contains("location.reload"));
            seen_running = true;
            break;
        }
    }
    assert!(child.wait().unwrap().success());
    assert!(seen_running, "the live page showed the game in progress");
    let html = std::fs::read_to_string(&report).unwrap();
    let text = panel_text(&html);
    for want in ["one", "two", "Score of one vs two", "Elo difference", "LOS", "Pairs"] {
        assert!(text.contains(want), "{want} in {text}");
    }
    assert_eq!(games_in(&html).len(), 2);
    assert!(std::fs::read_to_string(&live).unwrap().contains("Finished"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unwritable_pages_are_one_line_errors_before_any_game_and_leave_old_reports_intact() {
    let dir = temp_dir("bad");
    assert!(tournament(&dir, &[]).status.success());
    let record = dir.join("t.txt");
    let missing = dir.join("no-such-dir").join("r.html");
    let cases: Vec<Vec<String>> = vec![
        vec!["ratings".into(), "--format".into(), "html".into(), s(&record).into(), "-o".into(), s(&missing).into()],
        vec!["ratings".into(), "--format".into(), "html".into(), s(&record).into(), "-o".into(), s(&dir).into()],
        vec![
            "match".into(),
            "--engine".into(),
            format!("{FAKE} --seed 1"),
            "--engine".into(),
            format!("{FAKE} --seed 2"),
            "--report".into(),
            s(&missing).into(),
        ],
        vec![
            "tournament".into(),
            "--engine".into(),
            format!("a={FAKE}"),
            "--engine".into(),
            format!("b={FAKE}"),
            "--live".into(),
            s(&dir).into(),
        ],
    ];
    for args in &cases {
        let out = Command::new(VELETAS).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: an output that cannot be written: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: no game was played");
    }
    assert!(!missing.parent().unwrap().exists());
    // A report that cannot be made (a record line that is not a record) leaves the old one.
    let old = dir.join("old.html");
    std::fs::write(&old, "old report").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "this is not a record\n").unwrap();
    let out = veletas(&["ratings", "--format", "html", s(&bad), "-o", s(&old)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "old report");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().starts_with('.')), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
