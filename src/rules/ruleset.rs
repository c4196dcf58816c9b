//! The rule sets: `classic` (the original rulebook) and `modern` (the rules played
//! online: setup stones, the swap, shooters that do not block), and their options.

use std::fmt;
use std::str::FromStr;

/// Which rules are played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RuleSet {
    /// The original rulebook: shooters block, immobilized means no empty neighbour.
    #[default]
    Classic,
    /// The online rules: setup places a stone too, White may swap, shooters (claimed or
    /// not) are passed over, and a shooter is trapped when it has no legal move.
    Modern,
}

impl RuleSet {
    /// Both rule sets, classic first.
    pub const ALL: [RuleSet; 2] = [RuleSet::Classic, RuleSet::Modern];

    /// The lowercase name: `classic` or `modern`.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Classic => "classic",
            RuleSet::Modern => "modern",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names no rule set or option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules '{0}': expected classic or modern")]
pub struct ParseRuleSetError(pub String);

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    /// `classic` or `modern`, case-insensitive.
    fn from_str(s: &str) -> Result<RuleSet, ParseRuleSetError> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseRuleSetError(s.chars().take(24).collect()))
    }
}

/// The rules in force: a rule set plus options.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// The rule set.
    pub set: RuleSet,
    /// The `no-corners` option: the four corner squares do not exist (nothing moves,
    /// shoots or is placed there; they are walls for immobilization and trapping).
    pub no_corners: bool,
}

impl Rules {
    /// The classic rules without options (the default).
    pub const CLASSIC: Rules = Rules { set: RuleSet::Classic, no_corners: false };
    /// The modern rules without options.
    pub const MODERN: Rules = Rules { set: RuleSet::Modern, no_corners: false };

    /// Every combination of rule set and options.
    pub const fn all() -> [Rules; 4] {
        [Rules::CLASSIC, Rules::CLASSIC.with_no_corners(true), Rules::MODERN, Rules::MODERN.with_no_corners(true)]
    }

    /// Whether the modern rules are played.
    pub const fn is_modern(self) -> bool {
        matches!(self.set, RuleSet::Modern)
    }

    /// The same rules with the `no-corners` option set to `on`.
    pub const fn with_no_corners(self, on: bool) -> Rules {
        Rules { set: self.set, no_corners: on }
    }
}

impl fmt::Display for Rules {
    /// The rule set, then the options: `classic`, `modern no-corners`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.set.name())?;
        if self.no_corners {
            f.write_str(" no-corners")?;
        }
        Ok(())
    }
}

impl From<RuleSet> for Rules {
    fn from(set: RuleSet) -> Rules {
        Rules { set, no_corners: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_set_names_round_trip() {
        for set in RuleSet::ALL {
            assert_eq!(set.name().parse::<RuleSet>(), Ok(set));
        }
        assert_eq!("MODERN".parse::<RuleSet>(), Ok(RuleSet::Modern));
        assert!("chess".parse::<RuleSet>().is_err());
        assert_eq!(Rules::MODERN.with_no_corners(true).to_string(), "modern no-corners");
        assert_eq!(Rules::default(), Rules::CLASSIC);
    }
}
