//! Why `veletas gui` does not serve: the one error its settings and its server give.

/// Why the GUI does not serve. Each is one line.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// The engines (`--engine`, `--engines FILE`) or the `--host` given do not work: the
    /// command line's fault.
    #[error("{0}")]
    Options(String),
    /// The server cannot listen, or cannot write its address on stdout.
    #[error("{0}")]
    Serve(String),
}
