//! Value parsers shared by several subcommands' options: the board size and the rule set.

use veletas_rules::{RuleSet, Variant};

/// `--size`: 7, 9 or 10.
pub(super) fn parse_size(text: &str) -> Result<u8, String> {
    match text.parse::<u8>() {
        Ok(size) if Variant::from_size(size).is_some() => Ok(size),
        _ => Err("the board size must be 7, 9 or 10".to_string()),
    }
}

/// `--rules`: classic or modern.
pub(super) fn parse_rules(text: &str) -> Result<RuleSet, String> {
    text.parse::<RuleSet>().map_err(|e| e.to_string())
}
