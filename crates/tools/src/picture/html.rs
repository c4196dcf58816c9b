//! The one HTML escaper of the pictures, the viewer, the reports and the live page.

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
    fn markup_and_both_quotes_are_escaped_and_nothing_else() {
        assert_eq!(
            html_escape(r#"<a href="x">Tom's & Jerry's</a> été"#),
            "&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt; été"
        );
    }
}
