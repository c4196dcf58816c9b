//! The text files of the learned linear models: the evaluation's weights
//! (`eval-weights.txt`, [`super::eval_model::EvalModel`]) and the move policy's
//! (`policy-weights.txt`, [`super::policy::PolicyModel`]). One weight a line:
//! `FAMILY NAME WEIGHT` for one rule family's (`classic` or `modern`) or, where the model
//! allows it, `NAME WEIGHT` for both; `#` starts a comment, blank lines are skipped, and
//! every feature of both families is given exactly once. Both models read their files
//! here, so they refuse the same mistakes in the same words.

use veletas_rules::quoted;

/// The rule families in the order of the models' weight rows.
pub const FAMILY_NAMES: [&str; 2] = ["classic", "modern"];

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

/// Reads a model's weights file in `format`: one row of `N` weights per rule family.
pub(crate) fn read_linear<const N: usize>(text: &str, format: &LinearFormat) -> Result<[[f64; N]; 2], LinearFileError> {
    debug_assert_eq!(format.names.len(), N);
    let mut weights = [[f64::NAN; N]; 2];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |why: LineError| LinearFileError::Line { what: format.what, line: n + 1, why };
        let words: Vec<&str> = line.split_whitespace().collect();
        let (families, name, value) = match words[..] {
            [name, value] if format.shared_lines => (&[0, 1][..], name, value),
            [family, name, value] => match FAMILY_NAMES.iter().position(|f| *f == family) {
                Some(0) => (&[0][..], name, value),
                Some(_) => (&[1][..], name, value),
                None => return Err(err(LineError::Family(quoted(family)))),
            },
            _ if format.shared_lines => return Err(err(LineError::SharedShape)),
            _ => return Err(err(LineError::Shape)),
        };
        let index = format
            .names
            .iter()
            .position(|x| *x == name)
            .ok_or_else(|| err(LineError::Feature { name: quoted(name), count: N, model: format.model }))?;
        let in_bound = |w: &f64| format.bound.is_none_or(|bound| w.abs() <= bound);
        let weight = value
            .parse::<f64>()
            .ok()
            .filter(|w| w.is_finite() && in_bound(w))
            .ok_or_else(|| err(LineError::Weight { value: quoted(value), bound: format.bound }))?;
        for &family in families {
            if !weights[family][index].is_nan() {
                return Err(err(LineError::Twice { name: name.to_string(), family: FAMILY_NAMES[family] }));
            }
            weights[family][index] = weight;
        }
    }
    for (family, family_name) in FAMILY_NAMES.iter().enumerate() {
        if let Some(missing) = weights[family].iter().position(|w| w.is_nan()) {
            return Err(LinearFileError::Missing {
                what: format.what,
                family: family_name,
                name: format.names[missing].to_string(),
                model: format.model,
                count: N,
                shared_lines: format.shared_lines,
            });
        }
    }
    Ok(weights)
}

/// Why a linear model's weights file is refused ([`super::policy::PolicyModel::parse`],
/// [`super::eval_model::EvalModel::parse`]); `what` names the file (`weights`, `policy
/// weights`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinearFileError {
    /// A line that is not a weight of the model.
    #[error("{what} line {line}: {why}")]
    Line {
        /// The file's name in messages.
        what: &'static str,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        #[source]
        why: LineError,
    },
    /// A feature without its weight for a rule family.
    #[error(
        "{what}: no {family} weight for '{name}' (this build's {model} has {count} features, each given {})",
        if *.shared_lines { "once for both rule families or once for each" } else { "once for each rule family" }
    )]
    Missing {
        /// The file's name in messages.
        what: &'static str,
        /// The rule family.
        family: &'static str,
        /// The feature.
        name: String,
        /// The model's name in messages.
        model: &'static str,
        /// The model's features.
        count: usize,
        /// Whether one line may give both families' weight.
        shared_lines: bool,
    },
}

/// What is wrong with a line of a weights file ([`LinearFileError::Line`]); the file's
/// words are quoted ([`quoted`]: cut at 40 characters, controls escaped).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    /// A rule family other than classic or modern.
    #[error("unknown rule family '{0}': use classic or modern")]
    Family(String),
    /// Neither `NAME WEIGHT` nor `FAMILY NAME WEIGHT`.
    #[error("expected NAME WEIGHT or FAMILY NAME WEIGHT")]
    SharedShape,
    /// Not `FAMILY NAME WEIGHT`.
    #[error("expected FAMILY NAME WEIGHT")]
    Shape,
    /// A feature the model does not have.
    #[error("unknown feature '{name}': not one of the {count} features of this build's {model}")]
    Feature {
        /// The name given.
        name: String,
        /// The model's features.
        count: usize,
        /// The model's name in messages.
        model: &'static str,
    },
    /// A weight that is no finite number (within the bound, if the model has one).
    #[error(
        "bad weight '{value}'{}",
        .bound.map_or(String::new(), |bound| format!(" (a number from -{bound} to {bound})"))
    )]
    Weight {
        /// The word given.
        value: String,
        /// The model's bound.
        bound: Option<f64>,
    },
    /// A feature given twice for a rule family.
    #[error("'{name}' given twice for the {family} rules")]
    Twice {
        /// The feature.
        name: String,
        /// The rule family.
        family: &'static str,
    },
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
                &format!(
                    "test weights line 2: unknown feature '{}...': not one of the 2 features",
                    &long[..veletas_rules::MAX_QUOTED]
                ),
            ),
            // A control character in the file is escaped, not written into the message.
            ("a\u{1b}[2J 1\n", true, "unknown feature 'a\\u{1b}[2J'"),
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
            let error = read_linear::<2>(text, &format(shared)).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn an_unbounded_format_takes_any_finite_weight() {
        let format = LinearFormat { bound: None, ..format(true) };
        assert_eq!(read_linear::<2>("a 1e6\nb -1e6\n", &format), Ok([[1e6, -1e6], [1e6, -1e6]]));
        let error = read_linear::<2>("a nan\nb 0\n", &format).unwrap_err();
        assert_eq!(error.to_string(), "test weights line 1: bad weight 'nan'");
    }
}
