//! Outside input as an error message quotes it: short, and inert on a terminal or a page.
//!
//! Every message that quotes what a user, a file or an engine gave goes through [`quoted`]
//! (or [`quoted_to`] for a different length): a name of any length, an escape sequence or a
//! bidirectional override in a file must not make a message long, rewrite the terminal or
//! reorder what it shows.

/// The most characters of outside input a message quotes: past it, `...` marks the cut.
pub const MAX_QUOTED: usize = 40;

/// `text` as a message quotes it, cut at [`MAX_QUOTED`] characters (see [`quoted_to`]).
pub fn quoted(text: &str) -> String {
    quoted_to(text, MAX_QUOTED)
}

/// `text` as a message quotes it: each control character (line breaks, tabs, escapes, C1
/// controls) and each bidirectional control (embeddings, overrides, isolates, the marks)
/// written as its escape (`\n`, `\t`, `\r`, `\u{1b}`, `\u{202e}`), and the text cut at `max`
/// characters of its own, the cut marked with `...`.
pub fn quoted_to(text: &str, max: usize) -> String {
    let mut shown = String::with_capacity(text.len().min(max * 4 + 3));
    for (count, c) in text.chars().enumerate() {
        if count == max {
            shown.push_str("...");
            break;
        }
        if c.is_control() || is_bidirectional_control(c) {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Whether `c` changes the direction of the text around it.
pub fn is_bidirectional_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_overrides_are_escaped_and_long_input_cut() {
        assert_eq!(quoted("plain name"), "plain name");
        assert_eq!(quoted("a\nb\tc\r\u{1b}[31m"), "a\\nb\\tc\\r\\u{1b}[31m");
        assert_eq!(quoted("evil\u{202e}txt.exe\u{2066}"), "evil\\u{202e}txt.exe\\u{2066}");
        assert_eq!(quoted("\u{85}\u{7f}"), "\\u{85}\\u{7f}");
        assert_eq!(quoted(&"x".repeat(1 << 20)), format!("{}...", "x".repeat(MAX_QUOTED)));
        assert_eq!(quoted_to("abcdef", 3), "abc...");
        assert_eq!(quoted_to("abc", 3), "abc");
        assert_eq!(quoted("héllo ünïcode"), "héllo ünïcode");
    }
}
