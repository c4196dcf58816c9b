//! What the session keeps of a whole-game review (its view for the page, the run that writes
//! it, the handle that ends its engine), below both the session and the review's run
//! (review.rs), as analysis_view.rs is for the analysis.

use serde::Serialize;

/// What the page is shown of the game's review.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReviewView {
    /// The reviewing engine, as the page names it.
    pub engine: String,
    /// The positions analysed so far.
    pub done: usize,
    /// The positions to analyse: one before each turn the game had when the review started.
    pub total: usize,
    /// Whether it still runs.
    pub running: bool,
    /// Why it ended early, if it did (stopped, or the engine failed).
    pub error: Option<String>,
}

/// A review of the game and the run that writes it (only that run updates it).
#[derive(Clone, Debug, Default)]
pub(crate) struct ReviewState {
    pub(crate) view: ReviewView,
    pub(crate) run: u64,
    /// Ends the review's engine process (Stop, turns taken back, the game closed).
    pub(crate) killer: Option<veletas_tools::referee::engine::Killer>,
}

impl ReviewState {
    /// Stops the review if it runs, ending its engine at once; says whether it ran.
    pub(crate) fn stop(&mut self) -> bool {
        if !self.view.running {
            return false;
        }
        self.run += 1;
        self.view.running = false;
        self.view.error = Some("stopped".into());
        if let Some(killer) = self.killer.take() {
            killer.kill();
        }
        true
    }
}
