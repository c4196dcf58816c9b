//! The documents' lists of options cannot drift from the command line (issue 28, point 9:
//! tournament.md's "everything match has" omitted `--claimed-block`).

use clap::CommandFactory;
use veletas::cli::Cli;

const TOURNAMENT_MD: &str = include_str!("../../docs/tournament.md");

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
    // --engine has its own section; --games and --time-odds are match's alone or renamed.
    for option in options_of("match") {
        if ["--engine", "--games", "--time-odds", "--event"].contains(&option.as_str()) {
            continue;
        }
        assert!(tournament.contains(&option), "tournament has no {option}");
        assert!(paragraph.contains(&format!("`{option}`")), "tournament.md's list lacks {option}");
    }
}

const ENGINE_MD: &str = include_str!("../../docs/engine.md");

/// The default column of docs/engine.md's row for `name`.
fn documented_default(name: &str) -> String {
    let row = ENGINE_MD
        .lines()
        .find(|l| l.starts_with(&format!("| `{name}` |")))
        .unwrap_or_else(|| panic!("docs/engine.md has no row for {name}"));
    row.split('|').nth(2).unwrap().trim().to_string()
}

#[test]
fn engine_md_gives_the_search_defaults_in_force() {
    let s = veletas_engine::search::SearchSettings::default();
    for (name, value) in [
        (
            "exploration",
            format!(
                "{:?} ({:?} with a value network)",
                veletas_engine::search::EXPLORATION,
                veletas_engine::search::NET_EXPLORATION
            ),
        ),
        ("cutoff", s.cutoff.to_string()),
        (
            "prior-temperature",
            format!(
                "{:?} ({:?} with a value network)",
                veletas_engine::search::PRIOR_TEMPERATURE,
                veletas_engine::search::NET_PRIOR_TEMPERATURE
            ),
        ),
        ("expand-visits", s.expand_visits.to_string()),
        ("shot-expand-visits", s.shot_expand_visits.to_string()),
        ("fpu", s.unvisited_value.to_string()),
        ("stay-prior", s.stay_prior.to_string()),
    ] {
        assert_eq!(documented_default(name), value, "docs/engine.md's default of {name}");
    }
    let e = veletas::cli::EngineArgs::default();
    assert_eq!(documented_default("--movetime SECONDS"), e.movetime.to_string());
    assert_eq!(documented_default("--threads N"), e.threads.to_string());
    assert_eq!(documented_default("--memory MB"), e.memory.to_string());
}

#[test]
fn engine_md_has_a_row_for_every_option_of_the_engine() {
    for arg in Cli::command().get_arguments() {
        let long = format!("`--{}", arg.get_long().unwrap());
        let row = ["size", "rules", "no-corners", "claimed-block"].iter().any(|o| long == format!("`--{o}"));
        assert!(row || ENGINE_MD.contains(&long), "docs/engine.md does not give {long}`");
    }
}
