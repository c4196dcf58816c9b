//! The time control: `time_settings` and `time_left`, kept for the player.

use crate::player::{GtpClock, TimeLeft, time};
use crate::protocol::engine::Engine;
use crate::protocol::error::CommandError;
use veletas_rules::Color;

impl Engine {
    /// `time_settings MAIN BYO_YOMI STONES`: a new time control (what was learned of the
    /// last one is forgotten).
    pub(crate) fn time_settings(&mut self, main_time: f64, byo_yomi: f64, stones: u32) -> Result<String, CommandError> {
        self.clock = GtpClock { main_time, byo_yomi, byo_yomi_stones: stones, ..GtpClock::default() };
        Ok(String::new())
    }

    /// `time_left COLOR TIME STONES`: a clock as the controller reads it.
    pub(crate) fn time_left(&mut self, color: Color, seconds: f64, stones: u32) -> Result<String, CommandError> {
        time::observe_time_left(&mut self.clock, color, TimeLeft { seconds, stones });
        Ok(String::new())
    }
}
