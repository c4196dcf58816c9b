//! The rule sets: `classic` (the original rulebook) and `modern` (the rules played
//! online: setup stones, the swap, shooters that do not block), and their options:
//! `no-corners` (both rule sets) and `claimed-block` (the modern rules only: the
//! boardspace.net dialect, where claimed shooters block).

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
            .ok_or_else(|| ParseRuleSetError(crate::quoted_to(s, 24)))
    }
}

/// The rules in force: a rule set plus options. Build them from user input with
/// [`Rules::new`], which refuses `claimed-block` with the classic rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// The rule set.
    pub set: RuleSet,
    /// The `no-corners` option: the four corner squares do not exist (nothing moves,
    /// shoots or is placed there; they are walls for immobilization and trapping).
    pub no_corners: bool,
    /// The `claimed-block` option (modern rules only; boardspace.net's dialect): a
    /// claimed shooter blocks moves and shots like a stone, while unclaimed shooters
    /// are still passed over; a shooter is trapped when it has no legal move so.
    pub claimed_block: bool,
}

/// Options that do not go with the rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// `claimed-block` with the classic rules.
    #[error("claimed-block is an option of the modern rules only (in the classic rules every shooter blocks)")]
    ClaimedBlockNeedsModern,
}

impl Rules {
    /// The classic rules without options (the default).
    pub const CLASSIC: Rules = Rules { set: RuleSet::Classic, no_corners: false, claimed_block: false };
    /// The modern rules without options.
    pub const MODERN: Rules = Rules { set: RuleSet::Modern, no_corners: false, claimed_block: false };
    /// The modern rules as boardspace.net plays them: with `claimed-block`.
    pub const BOARDSPACE: Rules = Rules { set: RuleSet::Modern, no_corners: false, claimed_block: true };

    /// The rules of a rule set and options, if they go together.
    pub const fn new(set: RuleSet, no_corners: bool, claimed_block: bool) -> Result<Rules, RulesError> {
        if claimed_block && !matches!(set, RuleSet::Modern) {
            return Err(RulesError::ClaimedBlockNeedsModern);
        }
        Ok(Rules { set, no_corners, claimed_block })
    }

    /// Every valid combination of rule set and options.
    pub const fn all() -> [Rules; 6] {
        [
            Rules::CLASSIC,
            Rules::CLASSIC.with_no_corners(true),
            Rules::MODERN,
            Rules::MODERN.with_no_corners(true),
            Rules::BOARDSPACE,
            Rules::BOARDSPACE.with_no_corners(true),
        ]
    }

    /// Whether the modern rules are played.
    pub const fn is_modern(self) -> bool {
        matches!(self.set, RuleSet::Modern)
    }

    /// The same rules with the `no-corners` option set to `on`.
    pub const fn with_no_corners(self, on: bool) -> Rules {
        Rules { no_corners: on, ..self }
    }

    /// The same rules with the `claimed-block` option set to `on`, if they go together.
    pub const fn with_claimed_block(self, on: bool) -> Result<Rules, RulesError> {
        Rules::new(self.set, self.no_corners, on)
    }

    /// Whether claimed shooters block lines: the `claimed-block` option of the modern
    /// rules (in the classic rules every shooter blocks anyway).
    pub const fn claimed_block(self) -> bool {
        self.claimed_block && matches!(self.set, RuleSet::Modern)
    }

    /// The names of the options that are on, in the order the protocol and the records
    /// write them: `no-corners`, then `claimed-block`.
    pub fn option_names(self) -> impl Iterator<Item = &'static str> {
        [(self.no_corners, "no-corners"), (self.claimed_block(), "claimed-block")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
    }

    /// The rules in words as the protocol's `rules` command reports them: `classic`,
    /// `modern`, `modern, no-corners`, `modern, no-corners, claimed-block`.
    pub fn words(self) -> String {
        self.option_names().fold(self.set.name().to_string(), |words, option| words + ", " + option)
    }

    /// The rules for people, as the pictures and the viewer show them: the same words as
    /// [`Rules::words`] with `rules` after the rule set (`modern rules, no-corners`).
    pub fn label(self) -> String {
        self.option_names().fold(format!("{} rules", self.set.name()), |words, option| words + ", " + option)
    }

    /// Reads the rule set and options as words in any order, each at most once:
    /// `modern claimed-block no-corners` (the record's `Rules` tag).
    pub fn from_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Option<Rules> {
        let (mut set, mut no_corners, mut claimed_block) = (None, false, false);
        for word in words {
            match word {
                "no-corners" if !no_corners => no_corners = true,
                "claimed-block" if !claimed_block => claimed_block = true,
                _ if set.is_none() => set = Some(word.parse::<RuleSet>().ok()?),
                _ => return None,
            }
        }
        Rules::new(set?, no_corners, claimed_block).ok()
    }
}

impl fmt::Display for Rules {
    /// The rule set, then the options: `classic`, `modern no-corners`,
    /// `modern no-corners claimed-block`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.set.name())?;
        self.option_names().try_for_each(|option| write!(f, " {option}"))
    }
}

impl From<RuleSet> for Rules {
    fn from(set: RuleSet) -> Rules {
        Rules { set, no_corners: false, claimed_block: false }
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

    #[test]
    fn claimed_block_goes_with_the_modern_rules_only() {
        assert_eq!(Rules::new(RuleSet::Classic, false, true), Err(RulesError::ClaimedBlockNeedsModern));
        assert_eq!(Rules::CLASSIC.with_claimed_block(true), Err(RulesError::ClaimedBlockNeedsModern));
        assert_eq!(Rules::MODERN.with_claimed_block(true), Ok(Rules::BOARDSPACE));
        let both = Rules::BOARDSPACE.with_no_corners(true);
        assert_eq!(both.to_string(), "modern no-corners claimed-block");
        for rules in Rules::all() {
            assert_eq!(Rules::from_words(rules.to_string().split(' ')), Some(rules), "{rules}");
        }
        assert_eq!(Rules::from_words("claimed-block modern".split(' ')), Some(Rules::BOARDSPACE));
        assert_eq!(Rules::from_words("classic claimed-block".split(' ')), None);
        assert_eq!(Rules::from_words("modern claimed-block claimed-block".split(' ')), None);
        assert_eq!(Rules::from_words("modern modern".split(' ')), None);
        assert_eq!(Rules::from_words("no-corners".split(' ')), None);
    }
}
