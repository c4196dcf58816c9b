//! protocol.md cannot drift: its example session must be exactly what the engine answers,
//! and it must document exactly the commands `list_commands` lists.

use veletas::cli::EngineArgs;
use veletas_engine::protocol::{COMMANDS, Engine, run};
use veletas_rules::Variant;

const DOC: &str = include_str!("../../protocol.md");

/// The lines of the first fenced block tagged `gtp-session`.
fn session_lines() -> Vec<&'static str> {
    let mut lines = DOC.lines().skip_while(|l| *l != "```gtp-session").skip(1);
    let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
    assert!(!block.is_empty(), "protocol.md has no ```gtp-session block");
    block
}

#[test]
fn example_session_matches_the_engine() {
    let lines = session_lines();
    let mut input = String::new();
    let mut expected = String::new();
    for line in &lines {
        match line.strip_prefix("> ") {
            Some(command) => {
                input.push_str(command);
                input.push('\n');
            }
            None => {
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    // As `veletas --seed 1`: the default size and player settings.
    let player = EngineArgs::default().player(1).unwrap();
    let mut engine = Engine::new(Variant::STANDARD, Box::new(player));
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, &mut engine).unwrap();
    let output = String::from_utf8(output).unwrap();
    for (n, (got, want)) in output.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "output line {} differs from protocol.md", n + 1);
    }
    assert_eq!(output, expected);
}

#[test]
fn the_session_ends_with_quit_and_uses_every_command() {
    let lines = session_lines();
    let sent: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("> ")).collect();
    assert!(sent.last().is_some_and(|l| l.ends_with("quit")));
    for (name, _, _) in COMMANDS {
        if *name == "version" {
            continue; // its reply changes with every release
        }
        assert!(sent.iter().any(|l| l.split(' ').any(|w| w == *name)), "the example session does not use {name}");
    }
}

/// The command names of the `### `name ...`` headings.
fn documented_commands() -> Vec<String> {
    DOC.lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|rest| rest.split(['`', ' ']).next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_has_a_section_and_every_section_a_command() {
    let documented = documented_commands();
    let listed: Vec<String> = COMMANDS.iter().map(|(name, _, _)| name.to_string()).collect();
    for name in &listed {
        assert!(documented.contains(name), "protocol.md has no section for {name}");
    }
    for name in &documented {
        assert!(listed.contains(name), "protocol.md documents {name}, which list_commands does not list");
    }
    assert_eq!(documented.len(), listed.len(), "a command is documented twice");
}

#[test]
fn sections_give_the_usage_of_each_command() {
    for (name, args, _) in COMMANDS {
        let heading = if args.is_empty() { format!("### `{name}`") } else { format!("### `{name} {args}`") };
        assert!(DOC.lines().any(|l| l == heading), "protocol.md lacks the heading {heading}");
    }
}

#[test]
fn list_commands_replies_the_table() {
    let mut engine = Engine::new(Variant::STANDARD, Box::new(EngineArgs::default().player(1).unwrap()));
    let mut output = Vec::new();
    run(&b"list_commands\n"[..], &mut output, &mut engine).unwrap();
    let names: Vec<&str> = COMMANDS.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(String::from_utf8(output).unwrap(), format!("= {}\n\n", names.join("\n")));
}

#[test]
fn the_genmove_analyze_steps_example_is_what_the_engine_answers() {
    // protocol.md's example: `veletas --seed 1` on 7x7 with `playouts 200` after `play b d4`
    // and `play w c7,e1`, its report line shortened with `...`.
    let mut lines = DOC.lines().skip_while(|l| *l != "> genmove_analyze_steps b");
    assert!(lines.next().is_some(), "protocol.md has no genmove_analyze_steps example");
    let block: Vec<&str> = lines.take_while(|l| *l != "```").collect();
    let player = EngineArgs::default().player(1).unwrap();
    let mut engine = Engine::new(Variant::STANDARD, Box::new(player));
    let input = "boardsize 7\nclear_board\nplayouts 200\nplay b d4\nplay w c7,e1\ngenmove_analyze_steps b\n";
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, &mut engine).unwrap();
    let output = String::from_utf8(output).unwrap();
    let reply: Vec<&str> = output.split("\n\n").nth(5).expect("a reply to genmove_analyze_steps").lines().collect();
    assert_eq!(reply.len(), block.len() - 1, "{output}");
    for (n, (got, want)) in reply.iter().zip(&block).enumerate() {
        match want.strip_suffix(" ...") {
            Some(shortened) => assert!(got.starts_with(shortened), "line {}: {got}\nprotocol.md: {want}", n + 1),
            None => assert_eq!(got, want, "line {} differs from protocol.md", n + 1),
        }
    }
    // The steps' playouts add up to the budget, as the text says.
    let steps = reply.iter().find_map(|l| l.strip_prefix("steps ")).expect("a steps line");
    let total: u64 = steps.split(' ').map(|s| s.rsplit(':').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(total, 200, "{steps}");
}
