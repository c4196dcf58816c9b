//! The one HTML escaper of the pictures, the viewer, the reports and the live page, and
//! the one function that makes serde_json's text safe inside a `<script>` element.

use std::fmt::Write as _;

/// `value` as JSON (serde_json's compact text) that is also safe inside an HTML
/// `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX` (JSON
/// syntax outside strings holds none of them, so only string contents change, and
/// their meaning does not), so no string can close the element or open a comment.
pub fn script_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, PageDataError> {
    let text = serde_json::to_string(value).map_err(PageDataError)?;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// Why [`script_json`] could not write a value: `page data: ...`.
#[derive(Debug, thiserror::Error)]
#[error("page data: {0}")]
pub struct PageDataError(#[source] serde_json::Error);

/// `text` escaped for HTML text and for attribute values in double or single quotes.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_script_element_and_reads_back() {
        let text = "a\"b\\</script><!-- & \u{2028}\n";
        let json = script_json(&[text]).unwrap();
        assert_eq!(json, r#"["a\"b\\\u003c/script\u003e\u003c!-- \u0026 \u2028\n"]"#);
        assert_eq!(serde_json::from_str::<Vec<String>>(&json).unwrap(), [text]);
    }

    #[test]
    fn markup_and_both_quotes_are_escaped_and_nothing_else() {
        assert_eq!(
            html_escape(r#"<a href="x">Tom's & Jerry's</a> été"#),
            "&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt; été"
        );
    }
}
