//! The text files of the learned linear models: the evaluation's weights
//! (`eval-weights.txt`, [`super::eval_model::EvalModel`]) and the move policy's
//! (`policy-weights.txt`, [`super::policy::PolicyModel`]). One weight a line:
//! `FAMILY NAME WEIGHT` for one rule family's (`classic` or `modern`) or, where the model
//! allows it, `NAME WEIGHT` for both; `#` starts a comment, blank lines are skipped, and
//! every feature of both families is given exactly once. Both models read their files
//! here, so they refuse the same mistakes in the same words.

/// The rule families in the order of the models' weight rows.
pub const FAMILY_NAMES: [&str; 2] = ["classic", "modern"];

/// The longest piece of a file's word a message repeats.
const SHOWN_CHARS: usize = 40;

/// What one model's file holds and what its messages call it.
pub(crate) struct LinearFormat<'a> {
    /// The file's name in messages: `weights`, `policy weights`.
    pub what: &'static str,
    /// The model's name in messages: `evaluation`, `move policy`.
    pub model: &'static str,
    /// The features' names, in the order of the weights.
    pub names: &'a [&'a str],
    /// Whether `NAME WEIGHT` lines (one weight for both families) are allowed.
    pub shared_lines: bool,
    /// The largest magnitude a weight may have, if bounded.
    pub bound: Option<f64>,
}

/// A word of the file as a message repeats it: cut to [`SHOWN_CHARS`] characters.
fn shown(word: &str) -> String {
    word.chars().take(SHOWN_CHARS).collect()
}

/// Reads a model's weights file in `format`: one row of `N` weights per rule family.
pub(crate) fn read_linear<const N: usize>(text: &str, format: &LinearFormat) -> Result<[[f64; N]; 2], String> {
    debug_assert_eq!(format.names.len(), N);
    let mut weights = [[f64::NAN; N]; 2];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |what: String| format!("{} line {}: {what}", format.what, n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let (families, name, value) = match words[..] {
            [name, value] if format.shared_lines => (&[0, 1][..], name, value),
            [family, name, value] => match FAMILY_NAMES.iter().position(|f| *f == family) {
                Some(0) => (&[0][..], name, value),
                Some(_) => (&[1][..], name, value),
                None => return Err(err(format!("unknown rule family '{}': use classic or modern", shown(family)))),
            },
            _ if format.shared_lines => return Err(err("expected NAME WEIGHT or FAMILY NAME WEIGHT".into())),
            _ => return Err(err("expected FAMILY NAME WEIGHT".into())),
        };
        let index = format.names.iter().position(|x| *x == name).ok_or_else(|| {
            err(format!(
                "unknown feature '{}': not one of the {N} features of this build's {}",
                shown(name),
                format.model
            ))
        })?;
        let in_bound = |w: &f64| format.bound.is_none_or(|bound| w.abs() <= bound);
        let weight = value.parse::<f64>().ok().filter(|w| w.is_finite() && in_bound(w)).ok_or_else(|| {
            err(match format.bound {
                Some(bound) => format!("bad weight '{}' (a number from -{bound} to {bound})", shown(value)),
                None => format!("bad weight '{}'", shown(value)),
            })
        })?;
        for &family in families {
            if !weights[family][index].is_nan() {
                return Err(err(format!("'{name}' given twice for the {} rules", FAMILY_NAMES[family])));
            }
            weights[family][index] = weight;
        }
    }
    let each =
        if format.shared_lines { "once for both rule families or once for each" } else { "once for each rule family" };
    for (family, family_name) in FAMILY_NAMES.iter().enumerate() {
        if let Some(missing) = weights[family].iter().position(|w| w.is_nan()) {
            return Err(format!(
                "{}: no {family_name} weight for '{}' (this build's {} has {N} features, each given {each})",
                format.what, format.names[missing], format.model
            ));
        }
    }
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 2] = ["a", "b"];

    fn format(shared_lines: bool) -> LinearFormat<'static> {
        LinearFormat { what: "test weights", model: "test model", names: &NAMES, shared_lines, bound: Some(10.0) }
    }

    #[test]
    fn shared_and_family_lines_fill_both_rows() {
        let text = "# comment\na 1.5\n\nclassic b -2 # trailing\nmodern b 3\n";
        assert_eq!(read_linear::<2>(text, &format(true)), Ok([[1.5, -2.0], [1.5, 3.0]]));
    }

    #[test]
    fn each_mistake_is_refused_with_its_line_and_the_word_cut_short() {
        let long = "x".repeat(100);
        let cases = [
            ("a 1\n", false, "test weights line 1: expected FAMILY NAME WEIGHT"),
            ("a 1 2 3\n", true, "test weights line 1: expected NAME WEIGHT or FAMILY NAME WEIGHT"),
            ("odd a 1\n", true, "test weights line 1: unknown rule family 'odd': use classic or modern"),
            (
                &format!("a 1\n{long} 2\n"),
                true,
                &format!("test weights line 2: unknown feature '{}': not one of the 2 features", &long[..SHOWN_CHARS]),
            ),
            ("a one\n", true, "test weights line 1: bad weight 'one' (a number from -10 to 10)"),
            ("a 11\n", true, "bad weight '11'"),
            ("a inf\n", true, "bad weight 'inf'"),
            ("a 1\nclassic a 2\n", true, "test weights line 2: 'a' given twice for the classic rules"),
            (
                "a 1\nclassic b 2\n",
                true,
                "test weights: no modern weight for 'b' (this build's test model has 2 features, each given once for \
                 both rule families or once for each)",
            ),
            ("classic a 1\nclassic b 2\n", false, "no modern weight for 'a'"),
        ];
        for (text, shared, expected) in cases {
            let error = read_linear::<2>(text, &format(shared)).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn an_unbounded_format_takes_any_finite_weight() {
        let format = LinearFormat { bound: None, ..format(true) };
        assert_eq!(read_linear::<2>("a 1e6\nb -1e6\n", &format), Ok([[1e6, -1e6], [1e6, -1e6]]));
        assert_eq!(read_linear::<2>("a nan\nb 0\n", &format), Err("test weights line 1: bad weight 'nan'".into()));
    }
}
