//! JSON text: the one string escaper the JSON outputs (ratings, bench) and the HTML pages'
//! embedded data (viewer, reports) share.

use std::fmt::Write as _;

/// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
pub fn string(text: &str) -> String {
    escape(text, false)
}

/// `text` as a JSON string literal that is also safe inside an HTML `<script>` element:
/// as [`string`], and `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX`.
pub fn script_string(text: &str) -> String {
    escape(text, true)
}

fn escape(text: &str, script: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if script => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_what_json_and_script_elements_need() {
        assert_eq!(string("a\"b\\c\u{1}\n"), "\"a\\\"b\\\\c\\u0001\\n\"");
        assert_eq!(string("</script>&"), "\"</script>&\"");
        assert_eq!(script_string("</script>&"), "\"\\u003c/script\\u003e\\u0026\"");
        assert_eq!(string("été ♟"), "\"été ♟\"");
    }
}
