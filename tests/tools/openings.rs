//! Openings files with cutechess's words through the binary: `order=random` (shuffled by the
//! seed, each opening once before any repeats), `start=N` and `plies=N` decide which moves
//! each pair's games start with, and the record shows them.

use std::process::Command;

use veletas_tools::referee::parse_records;

const FAKE: &str = env!("CARGO_BIN_EXE_veletas-fake-engine");

/// Plays 8 games (4 pairs) of two random movers on 7x7 from `book` with the openings words
/// `words`; returns each game's first two moves.
fn openings_played(dir: &std::path::Path, words: &[&str], seed: &str) -> Vec<String> {
    let record = dir.join(format!("games-{}-{seed}.txt", words.join("-")));
    let book = dir.join("book.txt");
    let engines = [format!("'{FAKE}' --seed 1"), format!("'{FAKE}' --seed 2")];
    let mut args = vec!["match", "--engine", &engines[0], "--engine", &engines[1], "--games", "8", "--size", "7"];
    args.extend(["--seed", seed, "--record", record.to_str().expect("UTF-8 path"), "-q", "--openings"]);
    args.push(book.to_str().expect("UTF-8 path"));
    args.extend(words);
    let output = Command::new(env!("CARGO_BIN_EXE_veletas")).args(&args).output().expect("veletas runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let games = parse_records(&std::fs::read_to_string(&record).expect("the record")).expect("records");
    assert_eq!(games.len(), 8);
    games.iter().map(|g| g.moves().iter().take(2).cloned().collect::<Vec<_>>().join(" ")).collect()
}

#[test]
fn openings_words_choose_the_order_the_start_and_the_length_of_each_pairs_opening() {
    let dir = scratch!("words");
    std::fs::write(dir.join("book.txt"), "d4 b2,f6\nc3 e2,f6\ne5 b2,c6\nc5 b2,f6\n").expect("book");
    let pairs = |games: &[String]| -> Vec<String> {
        games
            .chunks(2)
            .map(|pair| {
                assert_eq!(pair[0], pair[1], "both games of a pair start alike");
                pair[0].clone()
            })
            .collect()
    };
    let plain = pairs(&openings_played(&dir, &[], "1"));
    assert_eq!(plain, ["d4 b2,f6", "c3 e2,f6", "e5 b2,c6", "c5 b2,f6"]);
    let started = pairs(&openings_played(&dir, &["start=2"], "1"));
    assert_eq!(started, ["c3 e2,f6", "e5 b2,c6", "c5 b2,f6", "d4 b2,f6"]);
    // Cut to one ply, the second move is the engine's own setup, not the book's.
    let cut = openings_played(&dir, &["plies=1"], "1");
    let firsts: Vec<&str> = cut.iter().step_by(2).map(|g| g.split(' ').next().unwrap_or("")).collect();
    assert_eq!(firsts, ["d4", "c3", "e5", "c5"]);
    let shuffled = pairs(&openings_played(&dir, &["order=random"], "3"));
    let mut sorted = shuffled.clone();
    sorted.sort();
    let mut all = plain.clone();
    all.sort();
    assert_eq!(sorted, all, "every opening once");
    assert_eq!(shuffled, pairs(&openings_played(&dir, &["order=random"], "3")), "the seed decides the order");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_openings_word_is_one_line_and_plays_nothing() {
    let dir = scratch!("bad");
    std::fs::write(dir.join("book.txt"), "d4 b2,f6\n").expect("book");
    let record = dir.join("games.txt");
    let fake = format!("'{FAKE}'");
    let book = dir.join("book.txt");
    let output = Command::new(env!("CARGO_BIN_EXE_veletas"))
        .args(["match", "--engine", &fake, "--engine", &fake, "--size", "7", "--record"])
        .arg(&record)
        .arg("--openings")
        .arg(&book)
        .arg("order=shuffled")
        .output()
        .expect("veletas runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("order=shuffled: expected sequential or random"), "{stderr}");
    assert!(!record.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
