//! What an analysis shows ([`AnalysisView`]: an engine's candidate turns with their visits,
//! win rates and principal variations) and keeps with the game's turns ([`TurnAnalysis`]),
//! apart from the runs that write them ([`crate::analysis`]), so that the game session
//! holds the views without depending on the runs; [`recorded`] turns a loaded record's
//! win rates into such views.

use serde::Serialize;
use veletas_rules::{Color, Game};

/// One candidate turn of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportedCandidate {
    /// The turn, in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The playouts through it.
    pub visits: u64,
    /// The chance that the side to move wins after it, from 0 to 1.
    pub winrate: f64,
    /// The principal variation, starting with the turn.
    pub pv: Vec<String>,
}

/// The latest view of the analysis of one position.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AnalysisView {
    /// The engine analysing.
    pub engine: String,
    /// The number of turns of the game analysed (its position).
    pub turn: usize,
    /// Whether the engine is still analysing.
    pub running: bool,
    /// The candidates, best first.
    pub candidates: Vec<ReportedCandidate>,
    /// Why the analysis failed or stopped early, if it did.
    pub error: Option<String>,
    /// Whether this is the engine's thinking during its own turn (else asked for).
    pub thinking: bool,
}

/// The latest analysis of one position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    /// The side to move in the position.
    pub to_move: Color,
    /// The analysis.
    pub view: AnalysisView,
    /// The run that wrote it: its kind and number (only that run updates it).
    pub(crate) run: (Kind, u64),
}

impl TurnAnalysis {
    /// The analysis a record's annotation of a turn stands for: `engine`, the player of the
    /// turn, gave its move `mv` the win rate and visits of `evaluation`, and `best_line` from
    /// there if the record has one (its first turn is then the candidate).
    pub fn recorded(
        to_move: Color,
        engine: String,
        turn: usize,
        mv: String,
        evaluation: veletas_rules::record::Evaluation,
        best_line: Option<&veletas_rules::record::BestLine>,
    ) -> TurnAnalysis {
        // A reviewed record's line starts with the turn its engine found best, not the one played.
        let pv = match best_line {
            Some(line) => line.turns().to_vec(),
            None => vec![mv],
        };
        let candidate = ReportedCandidate {
            mv: pv[0].clone(),
            visits: evaluation.visits,
            winrate: evaluation.winrate.probability(),
            pv,
        };
        let view = AnalysisView { engine, turn, candidates: vec![candidate], ..Default::default() };
        // Run 0 of no kind: every analysis started is numbered from 1, and replaces it.
        TurnAnalysis { to_move, view, run: (Kind::Request, 0) }
    }

    /// The analysis a review found of the position before turn `turn`, `to_move` to move
    /// there: its one candidate the turn `engine` chose, with its best line; `None` where the
    /// engine reported no search.
    pub fn reviewed(
        to_move: Color,
        engine: String,
        turn: usize,
        found: &veletas_tools::review::PositionReview,
    ) -> Option<TurnAnalysis> {
        let evaluation = found.evaluation?;
        let line = found.best_line.as_ref();
        let first = line.map(|l| l.turns()[0].clone()).unwrap_or_default();
        Some(TurnAnalysis::recorded(to_move, engine, turn, first, evaluation, line))
    }

    /// Black's chance of winning by the best candidate, if there is one and it was searched
    /// (a candidate of 0 visits, a turn chosen without search, values nothing).
    pub fn black_winrate(&self) -> Option<f64> {
        let best = self.view.candidates.first().filter(|c| c.visits > 0)?.winrate;
        Some(if self.to_move == Color::Black { best } else { 1.0 - best })
    }
}

/// Which position an analysis is of: the one after the game's first `turn` turns, followed
/// by the turns of a variation `line` (none: the game's own position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct At {
    /// The turns of the game before the position (or before the variation).
    pub turn: usize,
    /// The variation's turns, in notation.
    pub line: Vec<String>,
}

/// Which analysis of a game: the engine's thinking during its turn, or one asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The engine to move's thinking, shown during its turn.
    Thinking,
    /// An analysis asked for by the page.
    Request,
}

impl Kind {
    pub(crate) fn index(self) -> usize {
        match self {
            Kind::Thinking => 0,
            Kind::Request => 1,
        }
    }
}

/// The analyses a loaded record's win rates stand for: for each turn with one, the position
/// before it analysed by the player of the turn, its one candidate the turn played.
pub fn recorded(
    game: &Game,
    record: &veletas_rules::record::GameRecord,
) -> std::collections::BTreeMap<usize, TurnAnalysis> {
    let mut analyses = std::collections::BTreeMap::new();
    let mut replay = Game::from_position(game.start().clone());
    for (turn, mv) in game.moves().enumerate() {
        let to_move = replay.position().side_to_move();
        let annotation = record.annotation(turn);
        if let Some(evaluation) = annotation.evaluation {
            // A reviewed record's figures are its reviewing engine's.
            let engine = record
                .tag(veletas_rules::record::tag::ANALYSIS_ENGINE)
                .or(record.player(to_move))
                .unwrap_or("?")
                .to_string();
            let line = annotation.best_line.as_ref();
            analyses.insert(turn, TurnAnalysis::recorded(to_move, engine, turn, mv.to_string(), evaluation, line));
        }
        let _ = replay.play(mv);
    }
    analyses
}
