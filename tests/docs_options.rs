//! The documents' lists of options cannot drift from the command line (issue 28, point 9:
//! tournament.md's "everything match has" omitted `--claimed-block`).

use clap::CommandFactory;
use veletas::cli::Cli;

const TOURNAMENT_MD: &str = include_str!("../docs/tournament.md");

/// The long options of subcommand `name`.
fn options_of(name: &str) -> Vec<String> {
    let command = Cli::command();
    let sub = command.find_subcommand(name).unwrap();
    sub.get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")).collect()
}

#[test]
fn tournament_md_lists_every_option_it_shares_with_match() {
    let start = TOURNAMENT_MD.find("Everything `veletas match` has").expect("the paragraph is gone");
    let paragraph = &TOURNAMENT_MD[start..start + TOURNAMENT_MD[start..].find("\n\n").unwrap()];
    let tournament = options_of("tournament");
    // --engine has its own section; --games, --time-odds, --sprt are match's alone or renamed.
    for option in options_of("match") {
        if ["--engine", "--games", "--time-odds", "--sprt", "--event"].contains(&option.as_str()) {
            continue;
        }
        assert!(tournament.contains(&option), "tournament has no {option}");
        assert!(paragraph.contains(&format!("`{option}`")), "tournament.md's list lacks {option}");
    }
}
