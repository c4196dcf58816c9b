//! The player's weights: the static evaluation (`eval`) and the move policy (`policy`),
//! built in or read from a file.

use std::path::Path;

use crate::player::Setting;
use crate::protocol::engine::Engine;
use crate::protocol::error::CommandError;
use crate::search::eval::{StaticEval, load_weights};
use crate::search::policy::{PolicyWeights, load_policy};

impl Engine {
    /// `eval [hand|learned|net|FILE]`: reports or sets the static evaluation.
    pub(crate) fn eval(&mut self, word: Option<String>) -> Result<String, CommandError> {
        let Some(word) = word else {
            return self
                .player
                .evaluation()
                .map(|eval| eval.to_string())
                .ok_or(CommandError::NoEvaluation(self.player.kind()));
        };
        let eval = match word.parse::<StaticEval>() {
            Ok(eval) => eval,
            Err(_) => match load_weights(Path::new(&word)) {
                Ok(eval) => eval,
                Err(reason) => return Err(CommandError::Weights { word, reason }),
            },
        };
        self.configure(Setting::Eval(eval))
    }

    /// `policy [builtin|FILE]`: reports or sets the move policy.
    pub(crate) fn policy(&mut self, word: Option<String>) -> Result<String, CommandError> {
        let Some(word) = word else {
            return self
                .player
                .policy()
                .map(|policy| policy.to_string())
                .ok_or(CommandError::NoPolicy(self.player.kind()));
        };
        let policy = if word == "builtin" {
            PolicyWeights::builtin()
        } else {
            match load_policy(Path::new(&word)) {
                Ok(policy) => policy,
                Err(reason) => return Err(CommandError::Weights { word, reason }),
            }
        };
        self.configure(Setting::Policy(policy))
    }
}
