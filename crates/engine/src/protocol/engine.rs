//! The engine's state and what each command does to it.
//!
//! Every command either succeeds, with a result text, or fails with a message and leaves
//! the state exactly as it was: handlers check everything before they change anything.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use log::debug;

use crate::player::{Decision, GtpClock, Player, Setting, TimeLeft, time};
use crate::protocol::board::diagram;
use crate::protocol::command::{COMMANDS, Command, shorten};
use crate::search::eval::{LoadWeightsError, StaticEval, load_weights};
use crate::search::policy::{PolicyWeights, load_policy};
use crate::search::{Algorithm, SearchResult, Solution};
use veletas_rules::{Color, Game, IllegalMove, Move, Phase, Position, Rules, Variant};

/// What a successful command asks of the loop besides replying.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Reply, then end the session.
    Quit,
}

/// The engine: the game in progress, the time control and the player choosing moves.
pub struct Engine {
    game: Game,
    clock: GtpClock,
    komi: f64,
    player: Box<dyn Player>,
    /// Search on the opponent's turn while idle (`ponder`, `--ponder`).
    ponder: bool,
    /// The colour of the engine's last `genmove` in this game: the other one is the
    /// opponent, on whose turn it ponders.
    own: Option<Color>,
}

/// The result of a command: the reply text and what to do next, or an error message.
pub type Outcome = Result<(String, Flow), String>;

impl Engine {
    /// An engine at the empty board of `variant` (classic rules), with `player`
    /// choosing its moves.
    pub fn new(variant: Variant, player: Box<dyn Player>) -> Engine {
        Engine::from_position(Position::new(variant), player)
    }

    /// An engine whose first game starts at `position` (its variant and rules stay in
    /// force for `clear_board` and `boardsize`), with `player` choosing its moves.
    pub fn from_position(position: Position, player: Box<dyn Player>) -> Engine {
        Engine {
            game: Game::from_position(position),
            clock: GtpClock::default(),
            komi: 0.0,
            player,
            ponder: false,
            own: None,
        }
    }

    /// Turns pondering on or off (as the `ponder` command does; off by default).
    pub fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
    }

    /// Whether pondering is on.
    pub fn ponder_enabled(&self) -> bool {
        self.ponder
    }

    /// Whether the engine should ponder while it waits for the next command: pondering
    /// is on, the game is in play (past the setup turns) and not over, and the side to move
    /// is the opponent, that is not the colour of the engine's last `genmove` in this game.
    pub fn should_ponder(&self) -> bool {
        let pos = self.position();
        self.ponder
            && !pos.is_over()
            && pos.phase() == Phase::Play
            && self.own.is_some_and(|own| own != pos.side_to_move())
    }

    /// Lets the player search the opponent's turn until `stop` is raised (see
    /// [`Player::ponder`]), when [`Engine::should_ponder`]; returns the playouts run.
    pub fn ponder(&mut self, stop: &Arc<AtomicBool>) -> u64 {
        if self.should_ponder() { self.player.ponder(&self.game, stop) } else { 0 }
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The time control and clocks as last announced.
    pub fn clock(&self) -> &GtpClock {
        &self.clock
    }

    /// The komi last announced (ignored by the rules).
    pub fn komi(&self) -> f64 {
        self.komi
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// Starts a new game on the empty board of the variant in force under `rules`.
    fn start_new_game(&mut self, rules: Rules) {
        self.new_game(Game::from_position(Position::with_rules(self.position().variant(), rules)));
    }

    fn new_game(&mut self, game: Game) {
        self.game = game;
        self.own = None;
        self.player.new_game();
    }

    /// Executes `command`.
    pub fn execute(&mut self, command: Command) -> Outcome {
        let text = match command {
            Command::ProtocolVersion => "2".to_string(),
            Command::Name => "veletas".to_string(),
            Command::Version => env!("CARGO_PKG_VERSION").to_string(),
            Command::KnownCommand(name) => crate::protocol::command::is_known(&name).to_string(),
            Command::ListCommands => COMMANDS.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join("\n"),
            Command::Quit => return Ok((String::new(), Flow::Quit)),
            Command::BoardSize(size) => {
                let variant = u8::try_from(size).ok().and_then(Variant::from_size).ok_or("unacceptable size")?;
                self.new_game(Game::from_position(Position::with_rules(variant, self.position().rules())));
                String::new()
            }
            Command::ClearBoard => {
                self.start_new_game(self.position().rules());
                String::new()
            }
            Command::Komi(komi) => {
                self.komi = komi;
                String::new()
            }
            Command::Play(color, text) => {
                let mv = self.checked_move(color, &text)?;
                self.game.play(mv).map_err(|e| illegal(&mv.to_string(), &e))?;
                String::new()
            }
            Command::Genmove(color) => self.play_generated(color)?.0,
            Command::GenmoveAnalyze(color) => {
                // The search's final view (as `analyze` reports it), then `play MOVE`.
                let (text, result) = self.play_generated(color)?;
                match result {
                    Some(result) => format!("\n{}\nplay {text}", crate::protocol::info::info_line(&result)),
                    None => format!("\nplay {text}"),
                }
            }
            Command::GenmoveAnalyzeSteps(color) => {
                // As `genmove_analyze`, with the root's first steps before `play MOVE`.
                let (text, result) = self.play_generated(color)?;
                match result {
                    Some(result) => format!(
                        "\n{}\n{}\nplay {text}",
                        crate::protocol::info::info_line(&result),
                        crate::protocol::info::steps_line(&result)
                    ),
                    None => format!("\nsteps\nplay {text}"),
                }
            }
            Command::RegGenmove(color) => match self.generate(color)?.0 {
                Decision::Play(mv) => mv.to_string(),
                Decision::Resign => "resign".to_string(),
            },
            Command::Undo => {
                self.game.undo().map_err(|_| "cannot undo")?;
                String::new()
            }
            Command::Showboard => diagram(self.position()),
            Command::TimeSettings { main_time, byo_yomi, stones } => {
                self.clock = GtpClock { main_time, byo_yomi, byo_yomi_stones: stones, ..GtpClock::default() };
                String::new()
            }
            Command::TimeLeft { color, seconds, stones } => {
                time::observe_time_left(&mut self.clock, color, TimeLeft { seconds, stones });
                String::new()
            }
            Command::FinalScore => match self.position().winner() {
                Some(Color::Black) => "B+".to_string(),
                Some(Color::White) => "W+".to_string(),
                None => return Err("cannot score: the game is not over".to_string()),
            },
            Command::LegalMoves => {
                let count = self.position().count_legal_moves();
                if count > MAX_LISTED_MOVES {
                    return Err(format!("cannot list: {count} legal moves, more than {MAX_LISTED_MOVES}"));
                }
                self.position().legal_moves().iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
            }
            Command::IsLegal(color, text) => {
                let mv = self.parse_move(&text)?;
                (color == self.position().side_to_move() && self.position().is_legal(mv)).to_string()
            }
            Command::SetPosition(text) => {
                let position: Position =
                    text.parse().map_err(|e| format!("invalid position: {e}: '{}'", shorten(&text)))?;
                self.new_game(Game::from_position(position));
                String::new()
            }
            Command::Position => self.position().to_string(),
            Command::LoadGame { path, turns, game } => {
                let loaded = load_game(&path, turns, game)?;
                let side = loaded.position().side_to_move();
                self.new_game(loaded);
                side.to_string()
            }
            Command::Perft(depth, threads) => self.position().perft_threads(depth, threads as usize).to_string(),
            Command::Rules(None) => {
                format!("{}; rules {}", self.position().variant(), self.position().rules().words())
            }
            Command::Rules(Some(set)) => {
                let rules = self.position().rules();
                let rules = Rules::new(set, rules.no_corners, rules.claimed_block)
                    .map_err(|e| format!("cannot set the rules: {e}; turn it off first (option claimed-block off)"))?;
                self.start_new_game(rules);
                String::new()
            }
            Command::Option(name, value) => self.option(&name, value.as_deref())?,
            Command::Player(None) => self.player.kind().to_string(),
            Command::Player(Some(name)) => {
                let kind = name.parse::<Algorithm>().map_err(|e| format!("syntax error: {e}"))?;
                self.player.configure(Setting::Kind(kind))?;
                String::new()
            }
            Command::MoveTime(seconds) => {
                let time = Duration::try_from_secs_f64(seconds).map_err(|e| format!("syntax error: {e}"))?;
                self.player.configure(Setting::MoveTime(time))?;
                String::new()
            }
            Command::Playouts(n) => {
                self.player.configure(Setting::Playouts(Some(n)))?;
                String::new()
            }
            Command::Threads(n) => {
                self.player.configure(Setting::Threads(n as usize))?;
                String::new()
            }
            Command::Solve(seconds) => {
                if self.position().is_over() {
                    return Err("cannot solve: the game is over".to_string());
                }
                let time = Duration::try_from_secs_f64(seconds).map_err(|e| format!("syntax error: {e}"))?;
                match self.player.solve(&self.game, time)? {
                    Solution::Win(turn, _) => format!("win {turn}"),
                    Solution::Loss(_) => "loss".to_string(),
                    Solution::Unknown => "unknown".to_string(),
                }
            }
            Command::Memory(None) => match self.player.memory_mb() {
                Some(mb) => mb.to_string(),
                None => return Err(format!("cannot report: the {} player has no memory limit", self.player.kind())),
            },
            Command::Memory(Some(mb)) => {
                self.player.configure(Setting::Memory(mb)).map_err(|e| format!("syntax error: {e}"))?;
                String::new()
            }
            Command::ResignThreshold(threshold) => {
                self.player.configure(Setting::Resign(threshold))?;
                String::new()
            }
            Command::Ponder(None) => (if self.ponder { "on" } else { "off" }).to_string(),
            Command::Ponder(Some(on)) => {
                self.ponder = on;
                String::new()
            }
            Command::Eval(None) => match self.player.evaluation() {
                Some(eval) => eval.to_string(),
                None => return Err(format!("cannot report: the {} player has no evaluation", self.player.kind())),
            },
            Command::Eval(Some(word)) => {
                let eval = match word.parse::<StaticEval>() {
                    Ok(eval) => eval,
                    Err(_) => load_weights(std::path::Path::new(&word)).map_err(|e| {
                        let reason = match e {
                            LoadWeightsError::Read(e) => e.to_string(),
                            LoadWeightsError::Parse(e) => e,
                            LoadWeightsError::Net(e) => e.to_string(),
                        };
                        format!("cannot load weights: {}: {reason}", shorten(&word))
                    })?,
                };
                self.player.configure(Setting::Eval(eval))?;
                String::new()
            }
            Command::Policy(None) => match self.player.policy() {
                Some(policy) => policy.to_string(),
                None => return Err(format!("cannot report: the {} player has no move policy", self.player.kind())),
            },
            Command::Policy(Some(word)) => {
                let policy = if word == "builtin" {
                    PolicyWeights::builtin()
                } else {
                    load_policy(std::path::Path::new(&word)).map_err(|e| {
                        let reason = match e {
                            LoadWeightsError::Read(e) => e.to_string(),
                            LoadWeightsError::Parse(e) => e,
                            LoadWeightsError::Net(e) => e.to_string(),
                        };
                        format!("cannot load weights: {}: {reason}", shorten(&word))
                    })?
                };
                self.player.configure(Setting::Policy(policy))?;
                String::new()
            }
            // The session loop streams analyses itself (see `protocol::run`).
            Command::Analyze(_) => return Err("cannot analyze outside a session".to_string()),
        };
        Ok((text, Flow::Continue))
    }

    /// `option NAME [VALUE]`: reports an option of the rules, or sets it (a new game).
    fn option(&mut self, name: &str, value: Option<&str>) -> Result<String, String> {
        let rules = self.position().rules();
        let on = match name {
            "no-corners" => rules.no_corners,
            "claimed-block" => rules.claimed_block(),
            _ => return Err(format!("syntax error: unknown option '{}' (no-corners, claimed-block)", shorten(name))),
        };
        let want = match value {
            None => return Ok((if on { "on" } else { "off" }).to_string()),
            Some(word @ ("on" | "off")) => word == "on",
            Some(other) => return Err(format!("syntax error: expected on or off, not '{}'", shorten(other))),
        };
        let rules = if name == "no-corners" {
            rules.with_no_corners(want)
        } else {
            rules
                .with_claimed_block(want)
                .map_err(|e| format!("cannot set claimed-block: {e}; set rules modern first"))?
        };
        self.start_new_game(rules);
        Ok(String::new())
    }

    /// Whether an analysis can start: the game must go on.
    pub fn can_analyze(&self) -> Result<(), String> {
        if self.position().is_over() { Err("cannot analyze: the game is over".to_string()) } else { Ok(()) }
    }

    /// Lets the player analyse the current position until `stop` is raised (see
    /// [`Player::analyze`]); the caller checked [`Engine::can_analyze`].
    pub fn analyze(&mut self, interval: Duration, stop: &Arc<AtomicBool>, report: &mut dyn FnMut(&SearchResult)) {
        if self.can_analyze().is_ok() {
            self.player.analyze(&self.game, interval, stop, report);
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        self.position().parse_move(text).map_err(|e| format!("syntax error: {e}"))
    }

    /// Reads `text` as a move of `color` and checks it is that side's legal move.
    fn checked_move(&self, color: Color, text: &str) -> Result<Move, String> {
        let mv = self.parse_move(text)?;
        let shown = mv.to_string();
        self.check_turn(color).map_err(|reason| format!("illegal move: {shown}: {reason}"))?;
        self.position().check_move(mv).map_err(|e| illegal(&shown, &e))?;
        Ok(mv)
    }

    /// Checks that the game goes on and that `color` is to move.
    fn check_turn(&self, color: Color) -> Result<(), String> {
        if self.position().is_over() {
            return Err(IllegalMove::GameOver.to_string());
        }
        let side = self.position().side_to_move();
        if color != side {
            return Err(format!("it is {side}'s turn"));
        }
        Ok(())
    }

    /// `genmove`: asks the player for a move of `color` and plays it; the move's text (or
    /// `resign`) and the search's final view, if the player searched.
    fn play_generated(&mut self, color: Color) -> Result<(String, Option<SearchResult>), String> {
        let start = Instant::now();
        let (decision, result) = self.generate(color)?;
        let text = match decision {
            Decision::Play(mv) => {
                self.game.play(mv).map_err(|e| illegal(&mv.to_string(), &e))?;
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
    fn generate(&mut self, color: Color) -> Result<(Decision, Option<SearchResult>), String> {
        self.check_turn(color).map_err(|reason| format!("illegal move: {reason}"))?;
        let (decision, result) = self.player.decide_analyzed(&self.game, &self.clock);
        match decision {
            Decision::Play(mv) => {
                debug!("{}: {color} plays {mv}", self.player.describe());
                // A player must only return legal moves; never trust it blindly.
                self.position().check_move(mv).map_err(|e| illegal(&mv.to_string(), &e))?;
            }
            Decision::Resign => debug!("{}: {color} resigns", self.player.describe()),
        }
        Ok((decision, result))
    }
}

/// The most moves `legal_moves` lists (the classic setups, 720,731 at most, fit; modern
/// 10x10 setups, millions, do not).
pub const MAX_LISTED_MOVES: u64 = 1_000_000;

fn illegal(shown: &str, reason: &IllegalMove) -> String {
    format!("illegal move: {shown}: {reason}")
}

/// The game `game` (from 1, default 1) of the record file at `path`, replayed up to
/// `turns` turns (all of them by default).
fn load_game(path: &str, turns: Option<u64>, game: Option<u64>) -> Result<Game, String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot load: {}: {e}", shorten(path));
    let text = veletas_rules::record::read_record_file(std::path::Path::new(path)).map_err(|e| fail(&e))?;
    let records = veletas_rules::record::parse_records(&text).map_err(|e| fail(&e))?;
    let index = game.unwrap_or(1);
    let record = usize::try_from(index)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| records.get(i))
        .ok_or_else(|| fail(&format!("there is no game {index} (the file holds {})", records.len())))?;
    let turns = turns.map(|t| usize::try_from(t).unwrap_or(usize::MAX));
    let loaded = record.replay(turns).map_err(|e| fail(&e))?;
    // The replay decides a result: what the record claims against its moves is warned
    // about on stderr (the reply stays the protocol's).
    if let Ok(check) = record.check_result()
        && let Some(warning) = check.warning
    {
        log::warn!("loadgame {}: {}: {warning}", shorten(path), record.describe(usize::try_from(index).unwrap_or(0)));
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::RandomPlayer;

    fn engine() -> Engine {
        Engine::new(Variant::from_size(7).unwrap(), Box::new(RandomPlayer::new(1)))
    }

    #[test]
    fn play_checks_side_and_legality() {
        let mut e = engine();
        assert_eq!(
            e.execute(Command::Play(Color::White, "d4".into())),
            Err("illegal move: d4: it is black's turn".into())
        );
        assert_eq!(e.execute(Command::Play(Color::Black, "D4".into())), Ok((String::new(), Flow::Continue)));
        assert_eq!(
            e.execute(Command::Play(Color::White, "d5,a1".into())),
            Err("illegal move: a1,d5: shooters on d4 and d5 would be adjacent".into())
        );
    }

    #[test]
    fn boardsize_rejects_other_sizes() {
        let mut e = engine();
        assert_eq!(e.execute(Command::BoardSize(8)), Err("unacceptable size".into()));
        assert_eq!(e.execute(Command::BoardSize(u32::MAX)), Err("unacceptable size".into()));
        assert_eq!(e.game().position().variant().size(), 7);
    }

    #[test]
    fn the_increment_is_learned_from_the_time_left_after_our_move() {
        let mut e = engine();
        e.execute(Command::TimeSettings { main_time: 2.0, byo_yomi: 0.0, stones: 0 }).unwrap();
        e.execute(Command::TimeLeft { color: Color::Black, seconds: 2.0, stones: 0 }).unwrap();
        e.execute(Command::Genmove(Color::Black)).unwrap();
        let ours = e.clock().charged[Color::Black.index()].expect("our account of the clock after the move");
        assert!(ours <= 2.0);
        // The controller adds a 0.25 s increment to what we spent (the exact value is ours).
        e.execute(Command::TimeLeft { color: Color::Black, seconds: ours + 0.25, stones: 0 }).unwrap();
        assert!((e.clock().increment - 0.25).abs() < 1e-9, "{}", e.clock().increment);
        // A new time control forgets it.
        e.execute(Command::TimeSettings { main_time: 2.0, byo_yomi: 0.0, stones: 0 }).unwrap();
        assert_eq!(e.clock().increment, 0.0);
    }
}
