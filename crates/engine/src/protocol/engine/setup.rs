//! The game's set-up: its variant (`boardsize`), a new game (`clear_board`), the komi,
//! the rules and their options, and a position set up (`set_position`) or loaded from a
//! record file (`loadgame`).

use crate::protocol::engine::Engine;
use crate::protocol::error::{CommandError, LoadGameError};
use veletas_rules::{Game, Position, RuleSet, Rules, Variant};

impl Engine {
    /// `boardsize SIZE`: a new game of the variant of that size, under the rules in force.
    pub(crate) fn boardsize(&mut self, size: u32) -> Result<String, CommandError> {
        let variant = u8::try_from(size).ok().and_then(Variant::from_size).ok_or(CommandError::UnacceptableSize)?;
        self.new_game(Game::from_position(Position::with_rules(variant, self.position().rules())));
        Ok(String::new())
    }

    /// `clear_board`: a new game of the variant and rules in force.
    pub(crate) fn clear_board(&mut self) -> Result<String, CommandError> {
        self.start_new_game(self.position().rules());
        Ok(String::new())
    }

    /// `komi KOMI`: kept and ignored.
    pub(crate) fn set_komi(&mut self, komi: f64) -> Result<String, CommandError> {
        self.komi = komi;
        Ok(String::new())
    }

    /// `rules [SET]`: reports the variant and rules, or sets the rule set (a new game).
    pub(crate) fn rules(&mut self, set: Option<RuleSet>) -> Result<String, CommandError> {
        let rules = self.position().rules();
        let Some(set) = set else {
            return Ok(format!("{}; rules {}", self.position().variant(), rules.words()));
        };
        let rules = Rules::new(set, rules.no_corners, rules.claimed_block).map_err(CommandError::RuleSet)?;
        self.start_new_game(rules);
        Ok(String::new())
    }

    /// `option NAME [VALUE]`: reports an option of the rules, or sets it (a new game).
    pub(crate) fn option(&mut self, name: String, value: Option<String>) -> Result<String, CommandError> {
        let rules = self.position().rules();
        let on = match name.as_str() {
            "no-corners" => rules.no_corners,
            "claimed-block" => rules.claimed_block(),
            _ => return Err(CommandError::UnknownOption(name)),
        };
        let want = match value.as_deref() {
            None => return Ok((if on { "on" } else { "off" }).to_string()),
            Some(word @ ("on" | "off")) => word == "on",
            Some(_) => return Err(CommandError::NotOnOrOff(value.unwrap_or_default())),
        };
        let rules = if name == "no-corners" {
            rules.with_no_corners(want)
        } else {
            rules.with_claimed_block(want).map_err(CommandError::ClaimedBlock)?
        };
        self.start_new_game(rules);
        Ok(String::new())
    }

    /// `set_position POSITION`: a new game from that position.
    pub(crate) fn set_position(&mut self, text: String) -> Result<String, CommandError> {
        let position: Position = match text.parse() {
            Ok(position) => position,
            Err(error) => return Err(CommandError::InvalidPosition { error, text }),
        };
        self.new_game(Game::from_position(position));
        Ok(String::new())
    }

    /// `loadgame FILE [TURNS [GAME]]`: a new game from a game of a record file; replies
    /// the side to move.
    pub(crate) fn loadgame(
        &mut self,
        path: String,
        turns: Option<u64>,
        game: Option<u64>,
    ) -> Result<String, CommandError> {
        let loaded = match load_game(&path, turns, game) {
            Ok(loaded) => loaded,
            Err(reason) => return Err(CommandError::LoadGame { path, reason }),
        };
        let side = loaded.position().side_to_move();
        self.new_game(loaded);
        Ok(side.to_string())
    }
}

/// The game `game` (from 1, default 1) of the record file at `path`, replayed up to
/// `turns` turns (all of them by default).
fn load_game(path: &str, turns: Option<u64>, game: Option<u64>) -> Result<Game, LoadGameError> {
    let text = veletas_rules::record::read_record_file(std::path::Path::new(path))?;
    let records = veletas_rules::record::parse_records(&text)?;
    let index = game.unwrap_or(1);
    let record = usize::try_from(index)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| records.get(i))
        .ok_or(LoadGameError::NoSuchGame { index, count: records.len() })?;
    let turns = turns.map(|t| usize::try_from(t).unwrap_or(usize::MAX));
    let loaded = record.replay(turns)?;
    // The replay decides a result: what the record claims against its moves is warned
    // about on stderr (the reply stays the protocol's).
    if let Ok(check) = record.check_result()
        && let Some(warning) = check.warning
    {
        log::warn!(
            "loadgame {}: {}: {warning}",
            veletas_rules::quoted(path),
            record.describe(usize::try_from(index).unwrap_or(0))
        );
    }
    Ok(loaded)
}
