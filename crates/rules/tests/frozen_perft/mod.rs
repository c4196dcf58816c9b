//! The frozen perft data files (`tests/data/perft.txt`, `tests/data/modern_perft.txt`):
//! `position ; depth ; count [; slow]` per line, with `#` comment lines and blank lines.

/// One line of a data file.
pub struct Entry {
    /// The position string.
    pub position: String,
    /// The perft depth.
    pub depth: u32,
    /// The frozen count.
    pub count: u64,
    /// Checked only by the `--ignored` runs.
    pub slow: bool,
}

/// The entries of a data file's text; a malformed line fails the test that reads it.
pub fn parse(text: &str) -> Vec<Entry> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let slow = match fields.get(3) {
                None => false,
                Some(&"slow") => true,
                Some(other) => panic!("unknown flag {other:?} in {line:?}"),
            };
            assert!((3..=4).contains(&fields.len()), "expected 3 or 4 fields in {line:?}");
            Entry {
                position: fields[0].to_string(),
                depth: fields[1].parse().unwrap_or_else(|e| panic!("depth in {line:?}: {e}")),
                count: fields[2].parse().unwrap_or_else(|e| panic!("count in {line:?}: {e}")),
                slow,
            }
        })
        .collect()
}
