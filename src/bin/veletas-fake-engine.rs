//! `veletas-fake-engine`: a minimal GTP engine that plays uniformly random legal moves
//! instantly, and misbehaves on request. It exists to test the referee (and to measure
//! the referee's own overhead); it is not the real engine.
//!
//! It speaks the required commands of protocol.md (`protocol_version`, `name`,
//! `version`, `known_command`, `list_commands`, `quit`, `boardsize`, `clear_board`,
//! `komi`, `play`, `genmove`, `reg_genmove`, `undo`, `showboard`, `time_settings`,
//! `time_left`, `final_score`), so that `veletas check` passes it, and `set_position`,
//! `rules classic|modern` and `option no-corners|claimed-block on|off` (which keep the
//! board size and start a new game). With `--swap` it always swaps when White may (modern
//! rules). Misbehaviours on `genmove` trigger on the N-th `genmove` of every game
//! (counted from the last `boardsize`, `clear_board` or `set_position`; a `genmove` for
//! the wrong side or after the end is refused and not counted); the others break the
//! protocol at once:
//!
//! ```text
//! veletas-fake-engine [--seed S] [--name NAME]
//!     [--illegal-at N] [--crash-at N] [--hang-at N] [--slow-at N --delay SECONDS]
//!     [--junk-at N] [--refuse-at N] [--malformed-at N] [--resign-at N] [--wrong-score]
//!     [--score-text TEXT]
//!     [--swap] [--refuse COMMAND]... [--lack COMMAND]... [--lax] [--no-ids] [--no-space] [--no-blank] [--linger]
//!     [--bad-size-resets] [--reg-genmove-plays]
//!     [--flood-after N] [--huge-reply-at N] [--deaf-at N] [--name-repeat K]
//!     [--child] [--pid-file PATH] [--no-time] [--trickle-at N] [--garbage-at N] [--analyze [--winrate WORD]]
//!     [--stderr-flood] [--setsid-child] [--forge-record PATH] [--own-clock]
//! veletas-fake-engine --peak-of CMD ARGS...
//! ```
//!
//! The hostile modes (for the referee's bounds and deadlines, docs/reliability.md):
//! `--flood-after N` answers the N-th genmove, then writes endless lines without reading
//! again; `--huge-reply-at N` answers it with a reply of 200 lines of 1 MiB; `--deaf-at N`
//! answers it, shrinks its stdin pipe to one page, writes empty successful replies to the
//! next 5,000 commands in advance and never reads again; `--name-repeat K` repeats the
//! name K times in one line; `--child` starts a child process (a copy of itself that
//! sleeps) that lives as long as it can, like an engine behind a wrapper script;
//! `--setsid-child` starts one in a session of its own (`setsid`), out of the engine's
//! process group; `--forge-record PATH` appends a forged game and a junk line to PATH (the
//! record, when it can reach it) at the first genmove of each game;
//! `--pid-file PATH` appends the pid of the engine (and of its child) to PATH;
//! `--trickle-at N` answers the N-th genmove one byte every 10 ms, never ending the line
//! (a slow-loris reply that is never complete and never too long); `--garbage-at N`
//! answers it with invalid UTF-8, a NUL, terminal escapes (a title, a colour) and a
//! carriage return; `--stderr-flood` writes endless 1,000-byte lines to stderr while it
//! plays, and a line for each command before it answers (so it blocks when its stderr is
//! not read).
//!
//! The modes of engines written elsewhere: `--lack COMMAND` does not have COMMAND (it is
//! unknown, unlisted and `known_command` says `false`); `--lax` accepts `known_command`
//! without a name (`false`) and `time_settings` and `time_left` with words that are no
//! numbers (ignoring them).
//!
//! `--own-clock` keeps the clock its `time_settings` gave it (main time plus one byo-yomi
//! period) and refuses a `time_left` with more time than that (`? not my clock`): a
//! referee that sends it the other engine's bigger clock (after a modern swap) is caught.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Parser;
use veletas_rules::{Color, Game, Move, Phase, PlayoutPolicy, Position, Rng, RuleSet, Rules, Variant};

/// A random-moving GTP engine that misbehaves on request, for testing referees.
#[derive(Parser, Debug)]
#[command(name = "veletas-fake-engine")]
struct Opts {
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The name reported by `name` (`\t`, `\a`, `\e` in it: a tab, a bell, an escape).
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
    /// Answer final_score with TEXT (`\n` in it starts a new line; `\t`, `\a`, `\e` as in
    /// `--name`), whoever won.
    #[arg(long, value_name = "TEXT")]
    score_text: Option<String>,
    /// Always swap when White may (modern rules).
    #[arg(long)]
    swap: bool,
    /// Answer COMMAND with `? refused` (repeatable), e.g. `name` or `protocol_version`.
    #[arg(long, value_name = "COMMAND")]
    refuse: Vec<String>,
    /// Lack COMMAND (repeatable): unknown, not listed, `known_command` says `false`.
    #[arg(long, value_name = "COMMAND")]
    lack: Vec<String>,
    /// Accept `known_command` without a name and clock commands with bad numbers.
    #[arg(long)]
    lax: bool,
    /// Never echo a command's id in the reply.
    #[arg(long)]
    no_ids: bool,
    /// Write an empty result as `=id` without the space after it.
    #[arg(long)]
    no_space: bool,
    /// End no reply with the empty line.
    #[arg(long)]
    no_blank: bool,
    /// Answer `quit` but go on running.
    #[arg(long)]
    linger: bool,
    /// Play the move `reg_genmove` answers, as `genmove` does (it must not).
    #[arg(long)]
    reg_genmove_plays: bool,
    /// Start a new game on `boardsize` with an unacceptable size before refusing it (the
    /// state changes after an error).
    #[arg(long)]
    bad_size_resets: bool,
    /// After answering the N-th genmove of a game, flood stdout and never read again.
    #[arg(long, value_name = "N")]
    flood_after: Option<u32>,
    /// Answer the N-th genmove of each game with 200 lines of 1 MiB.
    #[arg(long, value_name = "N")]
    huge_reply_at: Option<u32>,
    /// After answering the N-th genmove, answer 5,000 commands in advance and stop reading.
    #[arg(long, value_name = "N")]
    deaf_at: Option<u32>,
    /// Repeat the name this many times in the `name` reply.
    #[arg(long, value_name = "K", default_value_t = 1)]
    name_repeat: usize,
    /// Start a sleeping child process that outlives this one unless killed with it.
    #[arg(long)]
    child: bool,
    /// Start a sleeping child process in a session of its own (`setsid`): out of the
    /// engine's process group, so killing the group does not end it.
    #[arg(long)]
    setsid_child: bool,
    /// Append a forged game and a junk line to PATH (a record, say) at the first genmove
    /// of each game.
    #[arg(long, value_name = "PATH")]
    forge_record: Option<std::path::PathBuf>,
    /// Sleep forever (what the child started by --child does).
    #[arg(long, hide = true)]
    sleep_forever: bool,
    /// Append this process's pid (and its child's) to PATH, one a line.
    #[arg(long, value_name = "PATH")]
    pid_file: Option<std::path::PathBuf>,
    /// Know no time commands: `time_settings` and `time_left` are unknown commands.
    #[arg(long)]
    no_time: bool,
    /// Answer the N-th genmove of each game one byte every 10 ms, never ending the line.
    #[arg(long, value_name = "N")]
    trickle_at: Option<u32>,
    /// Answer the N-th genmove of each game with bytes that are no text: invalid UTF-8, a
    /// NUL, terminal escapes and a carriage return.
    #[arg(long, value_name = "N")]
    garbage_at: Option<u32>,
    /// List and answer `genmove_analyze` (a `genmove` that reports 10 visits and a 50% win
    /// rate for its move), misbehaving on it as on `genmove`.
    #[arg(long)]
    analyze: bool,
    /// The win-rate word `--analyze` reports (`5000` by default; `nan` for a broken engine).
    #[arg(long, value_name = "WORD", default_value = "5000")]
    winrate: String,
    /// Write endless 1,000-byte lines to stderr from a thread of its own, while playing as
    /// usual (and writing a line to stderr for each command before answering it).
    #[arg(long)]
    stderr_flood: bool,
    /// Refuse `time_left` with more seconds than `time_settings` gave (main time plus one
    /// byo-yomi period): a clock that is not its own.
    #[arg(long)]
    own_clock: bool,
}

/// What to do after the reply just written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    Continue,
    Flood,
    Deaf,
    /// The reply is [`huge_reply`], not the usual one.
    Huge,
    /// The reply is [`GARBAGE`], not the usual one.
    Garbage,
}

/// What `--forge-record` appends: a complete game won by "forger", then a line that is
/// no record.
const FORGED: &str = "[Event \"forged\"]\n[Round \"1\"]\n[Black \"forger\"]\n[White \"victim\"]\n[Size \"7\"]\n\n1. d4 B+\n\nthis line is no record\n";

/// The reply of `--garbage-at`, after `=ID `.
const GARBAGE: &[u8] = b"c3\xff\xfe\x00\x1b]0;pwned\x07\x1b[31mred\r\n\n";

const COMMANDS: [&str; 20] = [
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
    "reg_genmove",
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
    after: After,
    /// The most seconds its own clock can show (`time_settings` main plus byo-yomi).
    clock_limit: Option<f64>,
}

type Answer = Result<String, String>;

impl Engine {
    fn reset(&mut self, position: Position) {
        self.game = Game::from_position(position);
        self.genmoves = 0;
    }

    fn lacks(&self, command: &str) -> bool {
        self.opts.lack.iter().any(|l| l == command)
    }

    fn color(arg: Option<&str>) -> Result<Color, String> {
        arg.ok_or("syntax error: missing color")?.parse().map_err(|_| "syntax error: bad color".to_string())
    }

    fn handle(&mut self, name: &str, args: &[&str], out: &mut impl Write) -> Answer {
        if self.opts.stderr_flood {
            // Written by the thread that answers: it blocks when no one reads its stderr.
            eprintln!("fake engine: {name}");
        }
        if self.opts.refuse.iter().any(|r| r == name) {
            return Err("refused".into());
        }
        if self.lacks(name) {
            return Err("unknown command".into());
        }
        if self.opts.lax && matches!((name, args.len()), ("known_command", 0) | ("time_settings", 3) | ("time_left", 3))
        {
            let numbers = args.iter().skip(usize::from(name == "time_left")).all(|a| a.parse::<f64>().is_ok());
            if name == "known_command" {
                return Ok("false".into());
            }
            if !numbers && !self.opts.no_time {
                return Ok(String::new());
            }
        }
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(unescape(&self.opts.name).repeat(self.opts.name_repeat.clamp(1, 1 << 24))),
            "version" => Ok("0.1".into()),
            "time_settings" | "time_left" if self.opts.no_time => Err("unknown command".into()),
            "known_command" => match args {
                [command] => {
                    let timed = !(self.opts.no_time && command.starts_with("time_"));
                    let analyze = self.opts.analyze && *command == "genmove_analyze";
                    Ok(((COMMANDS.contains(command) || analyze) && timed && !self.lacks(command)).to_string())
                }
                _ => Err("syntax error: usage: known_command NAME".into()),
            },
            "list_commands" => Ok(COMMANDS
                .iter()
                .filter(|c| !(self.lacks(c) || self.opts.no_time && c.starts_with("time_")))
                .copied()
                .chain(self.opts.analyze.then_some("genmove_analyze"))
                .collect::<Vec<_>>()
                .join("\n")),
            "quit" => Ok(String::new()),
            "komi" => match args {
                [komi] if komi.parse::<f64>().is_ok_and(f64::is_finite) => Ok(String::new()),
                _ => Err("syntax error: usage: komi KOMI".into()),
            },
            "time_settings" => match args {
                [main, byoyomi, stones] if seconds(main) && seconds(byoyomi) && stones.parse::<u32>().is_ok() => {
                    let number = |text: &str| text.parse::<f64>().unwrap_or(0.0);
                    self.clock_limit = Some(number(main) + number(byoyomi));
                    Ok(String::new())
                }
                _ => Err("syntax error: usage: time_settings MAIN BYO_YOMI STONES".into()),
            },
            "time_left" => match args {
                [color, time, stones]
                    if color.parse::<Color>().is_ok() && seconds(time) && stones.parse::<u32>().is_ok() =>
                {
                    let left = time.parse::<f64>().unwrap_or(0.0);
                    match self.clock_limit {
                        Some(limit) if self.opts.own_clock && left > limit + 1e-6 => {
                            Err(format!("not my clock: {time} s left, my time_settings give at most {limit} s"))
                        }
                        _ => Ok(String::new()),
                    }
                }
                _ => Err("syntax error: usage: time_left COLOR TIME STONES".into()),
            },
            "boardsize" => {
                let size: u8 = args.first().and_then(|s| s.parse().ok()).ok_or("syntax error")?;
                if Variant::from_size(size).is_none() && self.opts.bad_size_resets {
                    self.reset(Position::with_rules(self.game.position().variant(), self.game.position().rules()));
                }
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
                Some(_) if self.opts.score_text.is_some() => {
                    Ok(unescape(self.opts.score_text.as_deref().unwrap_or_default()))
                }
                Some(winner) => {
                    let winner = if self.opts.wrong_score { !winner } else { winner };
                    Ok(if winner == Color::Black { "B+".into() } else { "W+".into() })
                }
                None => Err("cannot score".into()),
            },
            "genmove" => self.genmove(args, out),
            "genmove_analyze" if self.opts.analyze => self.genmove(args, out).map(|mv| match mv.as_str() {
                "" | "resign" => format!("play {mv}"),
                mv => format!("info move {mv} visits 10 winrate {} order 0 pv {mv}\nplay {mv}", self.opts.winrate),
            }),
            "reg_genmove" => {
                let color = Engine::color(args.first().copied())?;
                if color != self.game.position().side_to_move() {
                    return Err(format!("illegal move: it is not {color}'s turn"));
                }
                let mv = self.game.position().random_move(&mut self.rng, PlayoutPolicy::Uniform);
                let mv = mv.ok_or("illegal move: the game is over")?;
                if self.opts.reg_genmove_plays {
                    self.game.play(mv).map_err(|e| format!("illegal move: {e}"))?;
                }
                Ok(mv.to_string())
            }
            _ => Err("unknown command".into()),
        }
    }

    fn genmove(&mut self, args: &[&str], out: &mut impl Write) -> Answer {
        let color = Engine::color(args.first().copied())?;
        // A genmove refused by the rules (the wrong side, the game over) does not count.
        if color != self.game.position().side_to_move() {
            return Err(format!("illegal move: it is not {color}'s turn"));
        }
        if self.game.position().winner().is_some() {
            return Err("illegal move: the game is over".into());
        }
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
        if o.trickle_at == n {
            trickle(out);
        }
        if o.flood_after == n {
            self.after = After::Flood;
        }
        if o.deaf_at == n {
            self.after = After::Deaf;
        }
        if o.huge_reply_at == n {
            self.after = After::Huge;
            return Ok(String::new());
        }
        if o.garbage_at == n {
            self.after = After::Garbage;
            return Ok(String::new());
        }
        if let (Some(path), Some(1)) = (&o.forge_record, n) {
            let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
            let _ = file.and_then(|mut f| f.write_all(FORGED.as_bytes()));
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

/// Whether `text` is a number of seconds the protocol accepts: finite and not negative.
fn seconds(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(|t| t.is_finite() && t >= 0.0)
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

/// Appends `pid` to the --pid-file, if any, in one write: the engines of a match start
/// together and note their pids in the same file, and `writeln!` on a file writes the
/// digits and the newline apart, so two engines' lines could interleave into one
/// (`12341235` then two newlines), which the tests read as a single pid.
fn note_pid(path: Option<&std::path::Path>, pid: u32) {
    if let Some(path) = path {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
        let _ = file.and_then(|mut f| f.write_all(format!("{pid}\n").as_bytes()));
    }
}

/// Answers command `id` with 200 lines of 1 MiB, written a line at a time.
fn huge_reply(out: &mut impl Write, id: &str) -> io::Result<()> {
    let line = vec![b'x'; (1 << 20) - 1];
    writeln!(out, "={id} huge")?;
    for _ in 0..200 {
        out.write_all(&line)?;
        out.write_all(b"\n")?;
    }
    out.write_all(b"\n")?;
    out.flush()
}

/// Writes lines to `out` until it fails (the reader is gone or the process is killed).
/// Writes the start of a reply, then one byte every 10 ms, forever (until the pipe closes).
fn trickle(out: &mut impl Write) -> ! {
    let mut byte: &[u8] = b"=";
    while out.write_all(byte).and_then(|()| out.flush()).is_ok() {
        std::thread::sleep(Duration::from_millis(10));
        byte = b"x";
    }
    std::process::exit(0)
}

fn flood(out: &mut impl Write) -> ! {
    let line = format!("{}\n", "flood ".repeat(170));
    while out.write_all(line.as_bytes()).is_ok() {}
    std::process::exit(0)
}

/// Answers the commands numbered from `next_id` in advance, then sleeps without reading.
fn go_deaf(out: &mut impl Write, next_id: u64) -> ! {
    // One page of pipe: the referee's writes fill it after a few hundred bytes.
    // SAFETY: fcntl(2) on our own stdin.
    unsafe {
        libc::fcntl(0, libc::F_SETPIPE_SZ, 4096);
    }
    for id in next_id..next_id + 5000 {
        if writeln!(out, "={id}\n").is_err() {
            break;
        }
    }
    let _ = out.flush();
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// `text` with `\n`, `\t`, `\a` and `\e` made the control characters they name (an engine
/// command line holds none itself).
fn unescape(text: &str) -> String {
    text.replace("\\n", "\n").replace("\\t", "\t").replace("\\a", "\u{7}").replace("\\e", "\u{1b}")
}

/// `veletas-fake-engine --peak-of CMD ARGS...`: runs CMD (stdin, stdout and stderr
/// inherited), then prints its exit code and its peak resident size in KiB as `wait4`
/// reports it, on one line of stderr: `peak-of CODE KIB`. From a small process that has
/// just started, so that the figure is the command's own, not a big test process's (a
/// child's peak counts the memory of the process it was started from).
fn peak_of(command: &[String]) -> ! {
    let Some((program, args)) = command.split_first() else { std::process::exit(2) };
    let Ok(child) = std::process::Command::new(program).args(args).spawn() else { std::process::exit(2) };
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage filled in by wait4(2) for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4(2) on our own child, with valid pointers.
    if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
        std::process::exit(2);
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    eprintln!("peak-of {code} {}", usage.ru_maxrss);
    std::process::exit(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "--peak-of") {
        peak_of(&args[2..]);
    }
    let opts = Opts::parse();
    if opts.sleep_forever {
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
    eprintln!("fake engine '{}' starting, pid {}", opts.name, std::process::id());
    note_pid(opts.pid_file.as_deref(), std::process::id());
    for own_session in [false, true] {
        if !(if own_session { opts.setsid_child } else { opts.child }) {
            continue;
        }
        let Ok(me) = std::env::current_exe() else { continue };
        let mut command = std::process::Command::new(me);
        command.arg("--sleep-forever").stdin(std::process::Stdio::null()).stderr(std::process::Stdio::null());
        if own_session {
            use std::os::unix::process::CommandExt as _;
            // SAFETY: setsid(2) is async-signal-safe, as a pre_exec closure requires.
            unsafe {
                command.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
        }
        // Not waited for: it lives on until someone kills it.
        if let Ok(child) = command.spawn() {
            note_pid(opts.pid_file.as_deref(), child.id());
            std::mem::forget(child);
        }
    }
    if opts.stderr_flood {
        std::thread::spawn(|| {
            let line = format!("{}\n", "e".repeat(999));
            // Locked a line at a time, so that the answering thread's lines get in too.
            while io::stderr().write_all(line.as_bytes()).is_ok() {}
        });
    }
    let rng = Rng::new(opts.seed);
    let mut engine = Engine {
        opts,
        game: Game::new(Variant::STANDARD),
        rng,
        genmoves: 0,
        after: After::Continue,
        clock_limit: None,
    };
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
        let shown_id = if engine.opts.no_ids { "" } else { id.unwrap_or("") };
        let space = if engine.opts.no_space && text.is_empty() { "" } else { " " };
        let end = if engine.opts.no_blank { "" } else { "\n" };
        let written = if engine.after == After::Huge {
            engine.after = After::Continue;
            huge_reply(&mut out, shown_id)
        } else if engine.after == After::Garbage {
            engine.after = After::Continue;
            write!(out, "={shown_id} ").and_then(|()| out.write_all(GARBAGE)).and_then(|()| out.flush())
        } else {
            writeln!(out, "{mark}{shown_id}{space}{text}{end}").and_then(|()| out.flush())
        };
        if written.is_err() || (name == "quit" && answer.is_ok() && !engine.opts.linger) {
            return;
        }
        match engine.after {
            After::Continue | After::Huge | After::Garbage => {}
            After::Flood => flood(&mut out),
            After::Deaf => {
                let next = id.and_then(|id| id.parse::<u64>().ok()).map_or(1, |id| id + 1);
                go_deaf(&mut out, next)
            }
        }
    }
}
