//! A game's record: the game so far as the record format writes it, with each turn's time
//! and the win rate of the engine that played it.

use veletas_rules::record::{Annotation, BestLine, Evaluation, GameRecord, TimeControls, WinRate, tag};
use veletas_rules::{Color, Position, Rules};
use veletas_tools::referee::game::Termination;

use super::GameSession;

impl GameSession {
    /// The game as a record (result `*` while it goes on).
    pub fn record(&self) -> GameRecord {
        let mut record = GameRecord::default();
        let position = self.game.start();
        record.set_tag(tag::EVENT, if self.series.is_some() { "veletas gui match" } else { "veletas gui" });
        record.set_tag(tag::DATE, self.started.clone());
        if let Some((_, number)) = &self.series {
            record.set_tag(tag::ROUND, number.to_string());
        }
        // After White's swap the players have exchanged colours: the tags name them as
        // they played after it, so the result is theirs (as `veletas match` writes them).
        record.set_player(Color::Black, self.names[self.seat(Color::Black)].clone());
        record.set_player(Color::White, self.names[self.seat(Color::White)].clone());
        record.set_tag(tag::SIZE, position.variant().size().to_string());
        if position.rules() != Rules::CLASSIC {
            record.set_tag(tag::RULES, position.rules().to_string());
        }
        if *position != Position::with_rules(position.variant(), position.rules()) {
            record.set_tag(tag::START, position.to_string());
        }
        if self.swapped {
            let setup = &self.names[self.seat(Color::White)];
            record.set_tag(tag::SWAP, format!("white swapped: {setup} made Black's setup and then played White"));
        }
        // By colour, as the Black and White tags name the players after a swap.
        let [black, white] = Color::ALL.map(|c| self.control(c));
        let controls = if black == white { TimeControls::Same(black) } else { TimeControls::PerColor { black, white } };
        record.set_time_controls(&controls);
        record.set_result(self.winner());
        if let Some((_, termination, reason)) = &self.outcome {
            record.set_termination(*termination);
            if !reason.is_empty() {
                record.set_tag(tag::REASON, reason.clone());
            }
        } else if self.winner().is_some() {
            record.set_termination(Termination::Normal);
        }
        record.set_moves_of(&self.game);
        for (turn, note) in self.notes.iter().enumerate() {
            let mut annotation = note.time.map(Annotation::of_time).unwrap_or_default();
            let (evaluation, best_line) = match note.evaluation {
                Some(evaluation) => (Some(evaluation), Some(note.best_line.clone())),
                None => note.engine.as_deref().and_then(|e| self.evaluation_of(turn, e)).unzip(),
            };
            (annotation.evaluation, annotation.best_line) = (evaluation, best_line.flatten());
            annotation.first_steps = note.first_steps.clone();
            record.set_annotation(turn, annotation);
        }
        record
    }

    /// The win rate and visits of the best candidate of `engine`'s latest analysis of the
    /// position before turn `turn` (its thinking during the turn, or an analysis asked of
    /// it), and its line: the turn's own estimate by the engine that played it. None when the
    /// candidate has no visits (a turn chosen without search has no win rate, as the
    /// referee records it).
    fn evaluation_of(&self, turn: usize, engine: &str) -> Option<(Evaluation, Option<BestLine>)> {
        let analysis = self.analyses.get(&turn).filter(|a| a.view.engine == engine)?;
        let best = analysis.view.candidates.first().filter(|c| c.visits > 0)?;
        let winrate = WinRate::from_hundredths((best.winrate * 10_000.0).round().clamp(0.0, 10_000.0) as u16)?;
        Some((Evaluation { winrate, visits: best.visits }, BestLine::lenient(&best.pv)))
    }

    /// The finished game's record, once: `None` while it goes on or once taken.
    pub fn take_finished_record(&mut self) -> Option<GameRecord> {
        if self.recorded || !self.is_over() {
            return None;
        }
        self.recorded = true;
        Some(self.record())
    }
}
