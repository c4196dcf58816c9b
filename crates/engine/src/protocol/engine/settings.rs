//! The player's settings: which player, its thinking time or playouts, threads, memory,
//! resign threshold, and pondering.

use std::time::Duration;

use crate::player::Setting;
use crate::protocol::engine::Engine;
use crate::protocol::error::CommandError;
use crate::search::Algorithm;

impl Engine {
    /// `player [NAME]`: reports or sets the player.
    pub(crate) fn player(&mut self, name: Option<String>) -> Result<String, CommandError> {
        let Some(name) = name else {
            return Ok(self.player.kind().to_string());
        };
        let kind = name.parse::<Algorithm>().map_err(CommandError::UnknownPlayer)?;
        self.configure(Setting::Kind(kind))
    }

    /// `movetime SECONDS`: the thinking time per move when no clock is set.
    pub(crate) fn movetime(&mut self, seconds: f64) -> Result<String, CommandError> {
        let time = Duration::try_from_secs_f64(seconds).map_err(CommandError::Duration)?;
        self.configure(Setting::MoveTime(time))
    }

    /// `playouts N`: a fixed number of playouts per move (0: off).
    pub(crate) fn playouts(&mut self, n: u64) -> Result<String, CommandError> {
        self.configure(Setting::Playouts(Some(n)))
    }

    /// `threads N`: the search's threads.
    pub(crate) fn threads(&mut self, n: u32) -> Result<String, CommandError> {
        self.configure(Setting::Threads(n as usize))
    }

    /// `memory [MB]`: reports or sets the search's memory.
    pub(crate) fn memory(&mut self, mb: Option<u64>) -> Result<String, CommandError> {
        let Some(mb) = mb else {
            return self
                .player
                .memory_mb()
                .map(|mb| mb.to_string())
                .ok_or(CommandError::NoMemoryLimit(self.player.kind()));
        };
        self.player.configure(Setting::Memory(mb)).map_err(CommandError::Memory)?;
        Ok(String::new())
    }

    /// `resign_threshold THRESHOLD`: resigns after turns below this win rate.
    pub(crate) fn resign_threshold(&mut self, threshold: f64) -> Result<String, CommandError> {
        self.configure(Setting::Resign(threshold))
    }

    /// `ponder [on|off]`: reports or sets pondering.
    pub(crate) fn ponder_command(&mut self, on: Option<bool>) -> Result<String, CommandError> {
        match on {
            None => Ok((if self.ponder { "on" } else { "off" }).to_string()),
            Some(on) => {
                self.ponder = on;
                Ok(String::new())
            }
        }
    }

    /// Hands `setting` to the player, which may refuse it.
    pub(super) fn configure(&mut self, setting: Setting) -> Result<String, CommandError> {
        self.player.configure(setting).map_err(CommandError::Setting)?;
        Ok(String::new())
    }
}
