//! Reading command lines and writing replies, as GTP version 2 frames them.
//!
//! Input is read as bytes, never as UTF-8 text, so no byte sequence is an error. Each
//! line is preprocessed while it is read (GTP 2, section 3.1): control characters other
//! than tab and LF are removed, everything from `#` is cut, tabs become spaces. On top of
//! that, runs of spaces are collapsed to one and leading and trailing spaces dropped (no
//! command gives meaning to repeated spaces). Only the first [`MAX_LINE`] bytes of
//! preprocessed content are kept, so a line of any length costs bounded memory; the
//! rest of a longer line is read and discarded, and the line is marked
//! [`Line::too_long`].

use std::io::{self, BufRead, Write};

/// The most bytes of preprocessed content kept from one line.
pub const MAX_LINE: usize = 4096;

/// One preprocessed input line.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Line {
    /// The content: no control characters, no comment, single spaces between words,
    /// no leading or trailing space. Invalid UTF-8 is replaced by U+FFFD.
    pub text: String,
    /// Whether the content was longer than [`MAX_LINE`] bytes (only a prefix is in `text`).
    pub too_long: bool,
}

impl Line {
    /// Whether the line has no content (GTP ignores such lines).
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && !self.too_long
    }
}

/// The preprocessing state of the line being read.
#[derive(Default)]
struct Preprocessor {
    kept: Vec<u8>,
    in_comment: bool,
    pending_space: bool,
    too_long: bool,
}

impl Preprocessor {
    fn feed(&mut self, bytes: &[u8]) {
        if self.in_comment {
            return;
        }
        for &b in bytes {
            match b {
                b'#' => {
                    self.in_comment = true;
                    return;
                }
                b' ' | b'\t' => self.pending_space = !self.kept.is_empty() || self.too_long,
                0..=31 | 127 => {}
                _ => {
                    if self.pending_space {
                        self.push(b' ');
                        self.pending_space = false;
                    }
                    self.push(b);
                }
            }
        }
    }

    fn push(&mut self, b: u8) {
        if self.kept.len() < MAX_LINE {
            self.kept.push(b);
        } else {
            self.too_long = true;
        }
    }

    fn finish(self) -> Line {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        // A kept prefix may end in a space when the line was cut just after it.
        while text.ends_with(' ') {
            text.pop();
        }
        Line { text, too_long: self.too_long }
    }
}

/// Reads and preprocesses the next line; `None` at end of input. A last line without a
/// final LF is still a line. Lines may come back empty: the caller skips them.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut pre = Preprocessor::default();
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then(|| pre.finish()));
        }
        any = true;
        match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => {
                pre.feed(chunk.get(..end).unwrap_or_default());
                input.consume(end + 1);
                return Ok(Some(pre.finish()));
            }
            None => {
                let n = chunk.len();
                pre.feed(chunk);
                input.consume(n);
            }
        }
    }
}

/// Formats a reply: `=id result` or `?id message`, then the empty line that ends it.
///
/// A space always follows `=`/`?` and the id. Lines of `body` after the first that are
/// empty or blank are dropped, so the reply never contains an empty line; a body that
/// starts with a newline (such as a board diagram) leaves the first line as `= ` alone.
pub fn format_reply(success: bool, id: Option<&str>, body: &str) -> String {
    let mut reply = String::with_capacity(body.len() + 8);
    reply.push(if success { '=' } else { '?' });
    reply.push_str(id.unwrap_or(""));
    reply.push(' ');
    let mut lines = body.split('\n');
    if let Some(first) = lines.next() {
        reply.push_str(first.trim_end());
    }
    for line in lines {
        let line = line.trim_end();
        if !line.is_empty() {
            reply.push('\n');
            reply.push_str(line);
        }
    }
    reply.push_str("\n\n");
    reply
}

/// Writes a formatted reply and flushes, so the controller sees it at once.
pub fn write_reply(output: &mut impl Write, reply: &str) -> io::Result<()> {
    output.write_all(reply.as_bytes())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        let mut reader = input;
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader).unwrap() {
            out.push(line);
        }
        out
    }

    fn texts(input: &[u8]) -> Vec<String> {
        lines(input).into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn preprocessing_follows_gtp() {
        assert_eq!(texts(b"name\r\n"), ["name"]);
        assert_eq!(texts(b"  1\tplay  b\t\te2 # a comment\n"), ["1 play b e2"]);
        assert_eq!(texts(b"na\x00m\x7fe\x01\n"), ["name"]);
        assert_eq!(texts(b"# only a comment\n\n \t \nversion"), ["", "", "", "version"]);
        assert_eq!(texts(b"\xff\xfe x\n"), ["\u{fffd}\u{fffd} x"]);
        assert!(texts(b"").is_empty());
    }

    #[test]
    fn long_lines_are_capped_but_consumed() {
        let mut input = vec![b'a'; 1_000_000];
        input.extend_from_slice(b"\nname\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert!(got[0].too_long);
        assert_eq!(got[0].text.len(), MAX_LINE);
        assert_eq!(got[1], Line { text: "name".into(), too_long: false });
    }

    #[test]
    fn long_blank_or_commented_lines_are_empty() {
        let mut input = b"name".to_vec();
        input.extend(std::iter::repeat_n(b' ', 100_000));
        input.extend_from_slice(b"\n#");
        input.extend(std::iter::repeat_n(b'x', 100_000));
        input.push(b'\n');
        let got = lines(&input);
        assert_eq!(got[0], Line { text: "name".into(), too_long: false });
        assert!(got[1].is_empty());
    }

    #[test]
    fn replies_are_framed() {
        assert_eq!(format_reply(true, Some("5"), ""), "=5 \n\n");
        assert_eq!(format_reply(false, None, "unknown command"), "? unknown command\n\n");
        assert_eq!(format_reply(true, None, "\na\n\n \nb\n"), "= \na\nb\n\n");
    }
}
