//! Moves the player chooses: `genmove` (and `reg_genmove`, which does not play it), with
//! the search's final view (`genmove_analyze`, `genmove_analyze_steps`), and `solve`.

use std::time::{Duration, Instant};

use log::debug;

use crate::player::{Decision, time};
use crate::protocol::engine::Engine;
use crate::protocol::error::CommandError;
use crate::protocol::info::{info_line, steps_line};
use crate::search::{SearchResult, Solution};
use veletas_rules::Color;

impl Engine {
    /// `genmove COLOR`: the player's move, played, or `resign`.
    pub(crate) fn genmove(&mut self, color: Color) -> Result<String, CommandError> {
        Ok(self.play_generated(color)?.0)
    }

    /// `genmove_analyze COLOR`: as `genmove`, after the search's final view (as `analyze`
    /// reports it): `play MOVE`.
    pub(crate) fn genmove_analyze(&mut self, color: Color) -> Result<String, CommandError> {
        let (text, result) = self.play_generated(color)?;
        Ok(match result {
            Some(result) => format!("\n{}\nplay {text}", info_line(&result)),
            None => format!("\nplay {text}"),
        })
    }

    /// `genmove_analyze_steps COLOR`: as `genmove_analyze`, with the root's first steps
    /// before `play MOVE`.
    pub(crate) fn genmove_analyze_steps(&mut self, color: Color) -> Result<String, CommandError> {
        let (text, result) = self.play_generated(color)?;
        Ok(match result {
            Some(result) => format!("\n{}\n{}\nplay {text}", info_line(&result), steps_line(&result)),
            None => format!("\nsteps\nplay {text}"),
        })
    }

    /// `reg_genmove COLOR`: the player's move, not played, or `resign`.
    pub(crate) fn reg_genmove(&mut self, color: Color) -> Result<String, CommandError> {
        Ok(match self.generate(color)?.0 {
            Decision::Play(mv) => mv.to_string(),
            Decision::Resign => "resign".to_string(),
        })
    }

    /// `solve SECONDS`: the player's attempt to prove the game's outcome.
    pub(crate) fn solve(&mut self, seconds: f64) -> Result<String, CommandError> {
        if self.position().is_over() {
            return Err(CommandError::SolveOver);
        }
        let time = Duration::try_from_secs_f64(seconds).map_err(CommandError::Duration)?;
        Ok(match self.player.solve(&self.game, time).map_err(CommandError::Solve)? {
            Solution::Win(turn, _) => format!("win {turn}"),
            Solution::Loss(_) => "loss".to_string(),
            Solution::Unknown => "unknown".to_string(),
        })
    }

    /// Asks the player for a move of `color` and plays it; the move's text (or `resign`)
    /// and the search's final view, if the player searched.
    fn play_generated(&mut self, color: Color) -> Result<(String, Option<SearchResult>), CommandError> {
        let start = Instant::now();
        let (decision, result) = self.generate(color)?;
        let text = match decision {
            Decision::Play(mv) => {
                self.play_checked(mv)?;
                self.own = Some(color);
                mv.to_string()
            }
            Decision::Resign => "resign".to_string(),
        };
        // Keep our own account of the clock; the next `time_left` replaces it.
        time::charge(&mut self.clock, color, start.elapsed().as_secs_f64());
        Ok((text, result))
    }

    /// Asks the player for a move of `color`, which must be the side to move (with the
    /// search's final view, if it searched).
    fn generate(&mut self, color: Color) -> Result<(Decision, Option<SearchResult>), CommandError> {
        self.check_turn(color).map_err(CommandError::GenerateOutOfTurn)?;
        let (decision, result) = self.player.decide_analyzed(&self.game, &self.clock);
        match decision {
            Decision::Play(mv) => {
                debug!("{}: {color} plays {mv}", self.player.describe());
                // A player must only return legal moves; never trust it blindly.
                self.position()
                    .check_move(mv)
                    .map_err(|reason| CommandError::Illegal { shown: mv.to_string(), reason })?;
            }
            Decision::Resign => debug!("{}: {color} resigns", self.player.describe()),
        }
        Ok((decision, result))
    }
}
