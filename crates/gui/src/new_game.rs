//! What the page asks for when it starts a game ([`NewGame`]), with each side's time
//! control ([`SideTime`]): the request as it comes, checked when the game is opened
//! ([`crate::session::GameSession::new`]).

use serde::Deserialize;

/// What the page asks for when it starts a game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Board size: 7, 9 or 10.
    pub size: u8,
    /// `classic` or `modern`.
    pub rules: String,
    /// Who plays Black: `null` for a person, else the index of an engine.
    pub black: Option<usize>,
    /// Who plays White, the same way.
    pub white: Option<usize>,
    /// Seconds per move for the engines (1 when not given).
    #[serde(default)]
    pub movetime: Option<f64>,
    /// Black's own time control, instead of `movetime`, `clock` and `byoyomi`.
    #[serde(default)]
    pub black_time: Option<SideTime>,
    /// White's own time control, the same way.
    #[serde(default)]
    pub white_time: Option<SideTime>,
    /// Whether an engine's thinking is shown during its turns (by an analysis process of
    /// the same engine beside it, where the engine has `analyze`); default on.
    #[serde(default)]
    pub thinking: Option<bool>,
    /// Where to start instead of the empty board: a position string, or a game record
    /// (its first game) to continue after `turn` turns (default: at its end). The size
    /// and rules then come from it.
    #[serde(default)]
    pub start: Option<String>,
    /// The turns of the record in `start` to replay (all when not given).
    #[serde(default)]
    pub turn: Option<usize>,
    /// A clock for each side instead of a time per move: `MAIN+INC` or `MAIN` seconds.
    #[serde(default)]
    pub clock: Option<String>,
    /// Canadian byo-yomi after the clock's main time: `PERIOD/STONES`.
    #[serde(default)]
    pub byoyomi: Option<String>,
    /// A match of this many games between the two engines of `black` and `white`, colours
    /// exchanged every game ([`crate::series`]).
    #[serde(default)]
    pub games: Option<u32>,
}

impl NewGame {
    /// Black's and White's time requests: each side's own, else the shared one.
    pub fn side_times(&self) -> [SideTime; 2] {
        let shared = SideTime { movetime: self.movetime, clock: self.clock.clone(), byoyomi: self.byoyomi.clone() };
        [self.black_time.clone().unwrap_or_else(|| shared.clone()), self.white_time.clone().unwrap_or(shared)]
    }
}

/// One side's time control in a new game request: seconds per move, or a clock (with
/// byo-yomi).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideTime {
    /// Seconds per move (1 when nothing is given).
    #[serde(default)]
    pub movetime: Option<f64>,
    /// A clock: `MAIN+INC` or `MAIN` seconds.
    #[serde(default)]
    pub clock: Option<String>,
    /// Canadian byo-yomi after the clock's main time: `PERIOD/STONES`.
    #[serde(default)]
    pub byoyomi: Option<String>,
}
