//! `veletas-fake-engine`: a minimal GTP engine that plays uniformly random legal moves
//! instantly, and misbehaves on request. It exists to test the referee (and to measure
//! the referee's own overhead); it is not the real engine.
//!
//! It speaks enough of the protocol for a referee: `protocol_version`, `name`,
//! `version`, `known_command`, `list_commands`, `quit`, `boardsize`, `clear_board`,
//! `komi`, `set_position`, `play`, `genmove`, `undo`, `time_settings`, `time_left`,
//! `final_score`, `showboard`, and `rules classic|modern` and `option no-corners|claimed-block on|off`
//! (which keep the board size and start a new game). With `--swap` it always swaps when
//! White may (modern rules). Misbehaviours trigger on the N-th `genmove` of every game
//! (counted from the last `boardsize`, `clear_board` or `set_position`):
//!
//! ```text
//! veletas-fake-engine [--seed S] [--name NAME]
//!     [--illegal-at N] [--crash-at N] [--hang-at N] [--slow-at N --delay SECONDS]
//!     [--junk-at N] [--refuse-at N] [--malformed-at N] [--resign-at N] [--wrong-score]
//!     [--swap] [--no-time]
//! ```

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Parser;
use veletas::rules::{Color, Game, Move, Phase, PlayoutPolicy, Position, Rng, RuleSet, Rules, Variant};

/// A random-moving GTP engine that misbehaves on request, for testing referees.
#[derive(Parser, Debug)]
#[command(name = "veletas-fake-engine")]
struct Opts {
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The name reported by `name`.
    #[arg(long, default_value = "fake")]
    name: String,
    /// Answer the N-th genmove of each game with an illegal move.
    #[arg(long, value_name = "N")]
    illegal_at: Option<u32>,
    /// Exit (code 3) without answering the N-th genmove of each game.
    #[arg(long, value_name = "N")]
    crash_at: Option<u32>,
    /// Never answer the N-th genmove of each game.
    #[arg(long, value_name = "N")]
    hang_at: Option<u32>,
    /// Sleep --delay seconds before answering the N-th genmove of each game.
    #[arg(long, value_name = "N")]
    slow_at: Option<u32>,
    /// The delay of --slow-at, seconds.
    #[arg(long, default_value_t = 1.0)]
    delay: f64,
    /// Print junk lines before the reply to the N-th genmove of each game.
    #[arg(long, value_name = "N")]
    junk_at: Option<u32>,
    /// Answer the N-th genmove of each game with `?`.
    #[arg(long, value_name = "N")]
    refuse_at: Option<u32>,
    /// Answer the N-th genmove of each game with something that is not a move.
    #[arg(long, value_name = "N")]
    malformed_at: Option<u32>,
    /// Resign at the N-th genmove of each game.
    #[arg(long, value_name = "N")]
    resign_at: Option<u32>,
    /// Report the wrong winner in final_score.
    #[arg(long)]
    wrong_score: bool,
    /// Always swap when White may (modern rules).
    #[arg(long)]
    swap: bool,
    /// Know no time commands: `time_settings` and `time_left` are unknown commands.
    #[arg(long)]
    no_time: bool,
}

const COMMANDS: [&str; 19] = [
    "boardsize",
    "clear_board",
    "final_score",
    "genmove",
    "known_command",
    "komi",
    "list_commands",
    "name",
    "option",
    "play",
    "protocol_version",
    "quit",
    "rules",
    "set_position",
    "showboard",
    "time_left",
    "time_settings",
    "undo",
    "version",
];

struct Engine {
    opts: Opts,
    game: Game,
    rng: Rng,
    genmoves: u32,
}

type Answer = Result<String, String>;

impl Engine {
    fn reset(&mut self, position: Position) {
        self.game = Game::from_position(position);
        self.genmoves = 0;
    }

    fn color(arg: Option<&str>) -> Result<Color, String> {
        arg.ok_or("syntax error: missing color")?.parse().map_err(|_| "syntax error: bad color".to_string())
    }

    fn handle(&mut self, name: &str, args: &[&str], out: &mut impl Write) -> Answer {
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(self.opts.name.clone()),
            "version" => Ok("0.1".into()),
            "time_settings" | "time_left" if self.opts.no_time => Err("unknown command".into()),
            "known_command" => {
                let command = args.first().copied().unwrap_or("");
                let timed = !(self.opts.no_time && command.starts_with("time_"));
                Ok((COMMANDS.contains(&command) && timed).to_string())
            }
            "list_commands" => Ok(COMMANDS
                .iter()
                .filter(|c| !(self.opts.no_time && c.starts_with("time_")))
                .copied()
                .collect::<Vec<_>>()
                .join("\n")),
            "quit" | "time_settings" | "time_left" | "komi" => Ok(String::new()),
            "boardsize" => {
                let size: u8 = args.first().and_then(|s| s.parse().ok()).ok_or("syntax error")?;
                let variant = Variant::from_size(size).ok_or("unacceptable size")?;
                self.reset(Position::with_rules(variant, self.game.position().rules()));
                Ok(String::new())
            }
            "clear_board" => {
                self.reset(Position::with_rules(self.game.position().variant(), self.game.position().rules()));
                Ok(String::new())
            }
            "rules" => {
                let set: RuleSet = args.first().ok_or("syntax error")?.parse().map_err(|_| "syntax error")?;
                let old = self.game.position().rules();
                let rules = Rules::new(set, old.no_corners, old.claimed_block).map_err(|e| e.to_string())?;
                self.reset(Position::with_rules(self.game.position().variant(), rules));
                Ok(String::new())
            }
            "option" => {
                let rules = self.game.position().rules();
                let rules = match args {
                    ["no-corners", on @ ("on" | "off")] => rules.with_no_corners(*on == "on"),
                    ["claimed-block", on @ ("on" | "off")] => {
                        rules.with_claimed_block(*on == "on").map_err(|e| e.to_string())?
                    }
                    _ => return Err("syntax error".into()),
                };
                self.reset(Position::with_rules(self.game.position().variant(), rules));
                Ok(String::new())
            }
            "set_position" => {
                let position: Position = args.join(" ").parse().map_err(|e| format!("syntax error: {e}"))?;
                self.reset(position);
                Ok(String::new())
            }
            "play" => {
                let color = Engine::color(args.first().copied())?;
                let text = args.get(1).ok_or("syntax error: missing move")?;
                if color != self.game.position().side_to_move() {
                    return Err(format!("illegal move: it is not {color}'s turn"));
                }
                let mv = self.game.position().parse_move(text).map_err(|e| format!("syntax error: {e}"))?;
                self.game.play(mv).map_err(|e| format!("illegal move: {e}"))?;
                Ok(String::new())
            }
            "undo" => self.game.undo().map(|_| String::new()).map_err(|_| "cannot undo".into()),
            "showboard" => Ok(self.game.position().to_string()),
            "final_score" => match self.game.position().winner() {
                Some(winner) => {
                    let winner = if self.opts.wrong_score { !winner } else { winner };
                    Ok(if winner == Color::Black { "B+".into() } else { "W+".into() })
                }
                None => Err("cannot score".into()),
            },
            "genmove" => self.genmove(args, out),
            _ => Err("unknown command".into()),
        }
    }

    fn genmove(&mut self, args: &[&str], out: &mut impl Write) -> Answer {
        let color = Engine::color(args.first().copied())?;
        self.genmoves += 1;
        let n = Some(self.genmoves);
        let o = &self.opts;
        if o.crash_at == n {
            eprintln!("fake engine: crashing on purpose");
            std::process::exit(3);
        }
        if o.hang_at == n {
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
        if o.slow_at == n {
            std::thread::sleep(Duration::from_secs_f64(o.delay.clamp(0.0, 1e6)));
        }
        if o.junk_at == n {
            let _ = writeln!(out, "info thinking very hard\njunk before the reply");
        }
        if o.refuse_at == n {
            return Err("cannot generate a move today".into());
        }
        if o.malformed_at == n {
            return Ok("zz99".into());
        }
        if o.resign_at == n {
            return Ok("resign".into());
        }
        let position = self.game.position();
        if color != position.side_to_move() {
            return Err(format!("illegal move: it is not {color}'s turn"));
        }
        if o.illegal_at == n {
            return Ok(illegal_move(position));
        }
        let mv: Move = if o.swap && position.swap_available() {
            Move::Swap
        } else {
            position.random_move(&mut self.rng, PlayoutPolicy::Uniform).ok_or("game over")?
        };
        self.game.play(mv).map_err(|e| format!("illegal move: {e}"))?;
        Ok(mv.to_string())
    }
}

/// A move in notation that is illegal in `position`: a shot at an occupied square in
/// play, or one shooter too many in setup.
fn illegal_move(position: &Position) -> String {
    match position.phase() {
        Phase::Play => position.shooters().first().map_or("a1".into(), |sq| sq.to_string()),
        _ => {
            let count = usize::from(position.variant().setup_count(position.side_to_move())) + 1;
            ["a1", "a3", "a5", "a7", "c1", "c3"][..count].join(",")
        }
    }
}

/// GTP 2 preprocessing: drop control characters but tab, cut comments, tabs to spaces.
fn clean(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.split('#').next().unwrap_or_default();
    text.chars().filter(|c| !c.is_control() || *c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect()
}

fn main() {
    let opts = Opts::parse();
    eprintln!("fake engine '{}' starting, pid {}", opts.name, std::process::id());
    let rng = Rng::new(opts.seed);
    let mut engine = Engine { opts, game: Game::new(Variant::STANDARD), rng, genmoves: 0 };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = clean(&buf);
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) { Some(words.remove(0)) } else { None };
        let Some((&name, args)) = words.split_first() else { continue };
        let answer = engine.handle(name, args, &mut out);
        let (mark, text) = match &answer {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        let written = writeln!(out, "{mark}{} {text}\n", id.unwrap_or("")).and_then(|()| out.flush());
        if written.is_err() || (name == "quit" && answer.is_ok()) {
            return;
        }
    }
}
