//! Splitting an engine command line into a program and its arguments, shell-style but
//! without a shell: no variables, globs, pipes or redirections are interpreted.
//!
//! The words are those POSIX `sh` splits, by the `shlex` crate (tested against bash, dash,
//! zsh and Python's shlex): words are separated by unquoted blanks (space, tab, newline);
//! `'...'` keeps everything literally; `"..."` keeps everything except that `\"`, `\\`,
//! `\$` and `` \` `` lose their backslash; outside quotes a backslash makes the next
//! character literal; a `#` that starts a word starts a comment to the end of the line.
//! `'a b' c\ d "e\"f"` gives the three words `a b`, `c d` and `e"f`.

/// A command line that cannot be split.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A quote without its closing partner, or a backslash as the very last character.
    #[error("an unterminated quote or a backslash at the end")]
    Unbalanced,
    /// Nothing but blanks (and comments).
    #[error("the command is empty")]
    Empty,
    /// A word holds a control character (quoted, or escaped with a backslash): no program
    /// or argument has one.
    #[error("a control character ({0}) in a word")]
    Control(String),
}

/// Splits `line` into words (see the module documentation). An empty line is an error, and
/// so is a word with a control character in it (blanks between words are no part of one).
pub fn split_command(line: &str) -> Result<Vec<String>, SplitError> {
    match shlex::split(line) {
        None => Err(SplitError::Unbalanced),
        Some(words) if words.is_empty() => Err(SplitError::Empty),
        Some(words) => match words.iter().flat_map(|w| w.chars()).find(|c| c.is_control()) {
            Some(c) => Err(SplitError::Control(c.escape_default().to_string())),
            None => Ok(words),
        },
    }
}

/// An error when `value` holds a control character: a protocol command (an `init`) or an
/// option with one would reach the engine as two lines, or as bytes no terminal should see.
pub fn refuse_control(value: &str) -> Result<(), ControlError> {
    match value.chars().find(|c| c.is_control()) {
        Some(control) => Err(ControlError { value: value.to_string(), control }),
        None => Ok(()),
    }
}

/// A value with a control character in it ([`refuse_control`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{}': a control character ({}) in it", veletas_rules::quoted(.value), .control.escape_default())]
pub struct ControlError {
    /// The value as given.
    value: String,
    /// Its first control character.
    control: char,
}

/// Whether `name` can name an engine: letters, digits, `_`, `.` and `-`, at least one.
pub fn is_engine_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Splits an `--engine` value into its optional name and the command line: `NAME=CMD ARGS`
/// names the engine when `NAME` (letters, digits, `_`, `.`, `-`) is directly followed by
/// `=` at the very start; otherwise the whole text is the command line.
/// `strong=veletas --seed 1` gives `(Some("strong"), "veletas --seed 1")`;
/// `veletas --seed=1` gives `(None, "veletas --seed=1")`.
pub fn split_engine_name(text: &str) -> (Option<&str>, &str) {
    match text.split_once('=') {
        Some((name, command)) if is_engine_name(name) => (Some(name), command),
        _ => (None, text),
    }
}

/// Quotes `word` for a POSIX shell (and for [`split_command`]): unchanged when it holds
/// only characters no shell treats specially, else in single quotes (a `'` as `'\''`).
pub fn quote(word: &str) -> String {
    let plain =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | ',' | ':' | '=' | '+' | '@' | '%');
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_words_split_back_into_themselves() {
        assert_eq!(quote("--games"), "--games");
        assert_eq!(quote("a=veletas --seed 1"), "'a=veletas --seed 1'");
        assert_eq!(quote(""), "''");
        for word in ["it's", "a b", "$HOME", "x\\y", "\"\"", "*", "'"] {
            assert_eq!(split_command(&quote(word)).unwrap(), [word], "{word}");
        }
        // A word with a control character quotes, but is no word of an engine command.
        assert_eq!(quote("tab\there"), "'tab\there'");
        assert_eq!(split_command(&quote("tab\there")), Err(SplitError::Control("\\t".into())));
    }

    #[test]
    fn control_characters_in_a_word_are_refused_and_blanks_between_words_are_not() {
        assert_eq!(split_command("a\tb\nc").unwrap(), ["a", "b", "c"]);
        assert_eq!(split_command("a 'b\nc'"), Err(SplitError::Control("\\n".into())));
        assert_eq!(split_command("a \"b\u{1b}[31m\""), Err(SplitError::Control("\\u{1b}".into())));
        assert!(refuse_control("option a 1").is_ok());
        let err = refuse_control("player uct\nquit").unwrap_err();
        assert_eq!(err.to_string(), "'player uct\\nquit': a control character (\\n) in it");
    }

    #[test]
    fn a_leading_name_and_equals_sign_name_the_engine() {
        assert_eq!(split_engine_name("strong=veletas --seed 1"), (Some("strong"), "veletas --seed 1"));
        assert_eq!(split_engine_name("v0.1-old_2=./v --x"), (Some("v0.1-old_2"), "./v --x"));
        assert_eq!(split_engine_name("veletas --seed=1"), (None, "veletas --seed=1"));
        assert_eq!(split_engine_name("./bin/a=b"), (None, "./bin/a=b"));
        assert_eq!(split_engine_name("=veletas"), (None, "=veletas"));
        assert_eq!(split_engine_name("'a b'=c"), (None, "'a b'=c"));
        assert_eq!(split_engine_name(" x=y"), (None, " x=y"));
    }

    fn split(line: &str) -> Vec<String> {
        split_command(line).unwrap()
    }

    #[test]
    fn blanks_separate_words() {
        assert_eq!(split("  veletas   --size 7\t-v "), ["veletas", "--size", "7", "-v"]);
    }

    #[test]
    fn quotes_and_backslashes_group_words() {
        assert_eq!(split(r#"'a b' c\ d "e\"f" ''"#), ["a b", "c d", "e\"f", ""]);
        assert_eq!(split(r#"x"y z"'w'"#), ["xy zw"]);
        assert_eq!(split(r#""a\nb" '\'"#), ["a\\nb", "\\"]);
        assert_eq!(split("$HOME *"), ["$HOME", "*"]);
    }

    #[test]
    fn bad_lines_are_errors() {
        assert_eq!(split_command("'open"), Err(SplitError::Unbalanced));
        assert_eq!(split_command("\"open"), Err(SplitError::Unbalanced));
        assert_eq!(split_command("\"a\\"), Err(SplitError::Unbalanced));
        assert_eq!(split_command("end\\"), Err(SplitError::Unbalanced));
        assert_eq!(split_command("   "), Err(SplitError::Empty));
        assert_eq!(split_command(" # only a comment"), Err(SplitError::Empty));
    }

    #[test]
    fn words_are_those_of_posix_sh() {
        // Where the hand-written splitter differed from sh: a word-initial `#` starts a
        // comment, a carriage return is no blank, a backslash-newline joins lines.
        assert_eq!(split("engine --x 1 # a note"), ["engine", "--x", "1"]);
        assert_eq!(split("engine a#b"), ["engine", "a#b"]);
        assert_eq!(split_command("a\rb"), Err(SplitError::Control("\\r".into())));
        assert_eq!(split("a\\\nb"), ["ab"]);
    }
}
