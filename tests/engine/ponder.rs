//! Pondering (`--ponder`, `ponder [on|off]`): the engine searches the opponent's turn
//! between commands, stops when input arrives, and the next `genmove` starts from the
//! tree it kept. The sessions here are driven like a referee drives them: a controller
//! reads each reply before it sends the next command, and waits for pondering to finish
//! where the test needs it finished (a playout budget caps it), so that nothing depends
//! on the speed of the machine.

use std::collections::VecDeque;
use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use veletas::cli::EngineArgs;
use veletas_engine::player::{Decision, GtpClock, Player, SearchPlayer, Setting, SettingError, SolveError};
use veletas_engine::protocol::{Engine, run};
use veletas_engine::search::{self, Algorithm, Limits, SearchResult, SearchSettings, Solution};
use veletas_rules::{Game, Phase, Variant};

/// What the engine's player did, seen from the test.
#[derive(Default)]
struct Log {
    /// Ponders started.
    started: AtomicU64,
    /// Ponders finished.
    finished: AtomicU64,
    /// Playouts of all ponders.
    playouts: AtomicU64,
    /// Per `genmove` (in play), the playouts its search inherited.
    inherited: Mutex<Vec<u64>>,
}

/// The engine's search player, reporting to a [`Log`].
struct Recorder {
    inner: SearchPlayer,
    log: Arc<Log>,
}

impl Player for Recorder {
    fn describe(&self) -> String {
        self.inner.describe()
    }
    fn kind(&self) -> Algorithm {
        self.inner.kind()
    }
    fn decide(&mut self, game: &Game, clock: &GtpClock) -> Decision {
        let decision = self.inner.decide(game, clock);
        if game.position().phase() == Phase::Play {
            self.log.inherited.lock().unwrap().push(self.inner.last_inherited());
        }
        decision
    }
    fn new_game(&mut self) {
        self.inner.new_game();
    }
    fn configure(&mut self, setting: Setting) -> Result<(), SettingError> {
        self.inner.configure(setting)
    }
    fn memory_mb(&self) -> Option<u64> {
        self.inner.memory_mb()
    }
    fn solve(&mut self, game: &Game, time: Duration) -> Result<Solution, SolveError> {
        self.inner.solve(game, time)
    }
    fn ponder(&mut self, game: &Game, stop: &Arc<AtomicBool>) -> u64 {
        self.log.started.fetch_add(1, Ordering::SeqCst);
        let playouts = self.inner.ponder(game, stop);
        self.log.playouts.fetch_add(playouts, Ordering::SeqCst);
        self.log.finished.fetch_add(1, Ordering::SeqCst);
        playouts
    }
    fn analyze(
        &mut self,
        game: &Game,
        interval: Duration,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchResult),
    ) {
        self.inner.analyze(game, interval, stop, report);
    }
}

/// The engine's output, shared with the controller.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Output {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
    fn replies(&self) -> Vec<String> {
        self.text().split_terminator("\n\n").map(str::to_string).collect()
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The engine's input: each line comes from `next`, which sees the output so far (every
/// reply to the commands before it is complete then: the engine replies before it reads
/// on); `None` ends the input for good.
struct Controller<F> {
    pending: VecDeque<u8>,
    ended: bool,
    next: F,
    output: Output,
}

impl<F: FnMut(&str) -> Option<String>> Read for Controller<F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() && !self.ended {
            match (self.next)(&self.output.text()) {
                Some(line) => self.pending.extend(line.bytes().chain(std::iter::once(b'\n'))),
                None => self.ended = true,
            }
        }
        let n = buf.len().min(self.pending.len());
        for (slot, byte) in buf.iter_mut().zip(self.pending.drain(..n)) {
            *slot = byte;
        }
        Ok(n)
    }
}

/// Waits until `done` holds (a generous deadline only turns a hang into a failure).
fn wait_for(what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(20), "still waiting for {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn recorder(seed: u64) -> (Recorder, Arc<Log>) {
    recorder_with(seed, EngineArgs::default())
}

/// [`recorder`] of the player `args` make.
fn recorder_with(seed: u64, args: EngineArgs) -> (Recorder, Arc<Log>) {
    let log = Arc::new(Log::default());
    let inner = args.player(seed).unwrap();
    (Recorder { inner, log: Arc::clone(&log) }, log)
}

/// Runs a session of `engine` whose input `next` produces; returns the output.
fn session(engine: &mut Engine, next: impl FnMut(&str) -> Option<String> + Send) -> Output {
    let output = Output::default();
    let controller = Controller { pending: VecDeque::new(), ended: false, next, output: output.clone() };
    run(BufReader::new(controller), output.clone(), engine).unwrap();
    output
}

/// The move of the last reply, which must be a success.
fn last_move(output: &str) -> String {
    let reply = output.trim_end_matches('\n').rsplit("\n\n").next().unwrap();
    reply.strip_prefix("= ").unwrap_or_else(|| panic!("a failed genmove: {reply:?}")).to_string()
}

/// A 7x7 game of the engine (Black, 2000 playouts a move, `ponder on` or `off`) against
/// a search of 2000 playouts (White), for up to `turns` turns of the engine in play. When
/// the engine ponders after its move, the controller waits until the pondering is over
/// (2000 playouts, the budget) before it sends White's move. Returns the log and the
/// replies.
fn game_against_a_searcher(ponder: bool, turns: usize) -> (Arc<Log>, Vec<String>) {
    // The cutoff this game was calibrated with (the default is 6 since): how much of the
    // next search pondering leaves depends on the game, not on the cutoff.
    let (player, log) =
        recorder_with(11, EngineArgs { search: vec![search::SearchParam::Cutoff(4)], ..EngineArgs::default() });
    let mut engine = Engine::new(Variant::from_size(7).unwrap(), Box::new(player));
    let mut script: VecDeque<String> =
        ["boardsize 7", "playouts 2000", if ponder { "ponder on" } else { "ponder off" }].map(String::from).into();
    let mut game = Game::new(Variant::from_size(7).unwrap());
    let mut opponent = search::Searcher::new(SearchSettings { seed: 9, cutoff: 4, ..SearchSettings::default() });
    let budget = Limits { iterations: Some(2000), ..Limits::default() };
    let (mut asked, mut played, mut ponders) = (false, 0, 0);
    let watch = Arc::clone(&log);
    let output = session(&mut engine, move |out| {
        if let Some(line) = script.pop_front() {
            return Some(line);
        }
        if asked {
            asked = false;
            let mv = game.position().parse_move(&last_move(out)).unwrap();
            game.play(mv).unwrap();
            if game.position().phase() == Phase::Play && !game.position().is_over() {
                played += 1;
                if ponder {
                    ponders += 1;
                    wait_for("the ponder to finish", || watch.finished.load(Ordering::SeqCst) == ponders);
                }
            }
            if game.position().is_over() || played >= turns {
                return None;
            }
            let reply = opponent.choose(&game, &budget).unwrap().best;
            game.play(reply).unwrap();
            return Some(format!("play w {reply}"));
        }
        if game.position().is_over() {
            return None;
        }
        asked = true;
        Some("genmove b".to_string())
    });
    (log, output.replies())
}

#[test]
fn pondering_keeps_the_opponents_subtree_for_the_next_search() {
    let (on, on_replies) = game_against_a_searcher(true, 8);
    let (off, off_replies) = game_against_a_searcher(false, 8);
    for reply in on_replies.iter().chain(&off_replies) {
        assert!(reply.starts_with('='), "{reply:?}");
    }
    // Off: the player was never asked to ponder.
    assert_eq!(off.started.load(Ordering::SeqCst), 0);
    // On: after each of its turns in play, 2000 playouts (the budget) or fewer when the
    // position was proven.
    let ponders = on.finished.load(Ordering::SeqCst);
    assert!(ponders >= 3, "{ponders} ponders");
    assert_eq!(on.started.load(Ordering::SeqCst), ponders);
    let playouts = on.playouts.load(Ordering::SeqCst);
    assert!(playouts > 0 && playouts <= 2000 * ponders, "{playouts} playouts in {ponders} ponders");
    // Every search but the first starts with playouts kept from the opponent's turn:
    // more than the engine's own search of the opponent's replies leaves without it.
    let (on, off) = (on.inherited.lock().unwrap().clone(), off.inherited.lock().unwrap().clone());
    assert!(on.len() >= 3 && off.len() >= 3, "{on:?} {off:?}");
    assert!(on.iter().skip(1).filter(|&&n| n > 0).count() >= 2, "inherited with pondering: {on:?}");
    let mean = |v: &[u64]| v.iter().skip(1).sum::<u64>() as f64 / (v.len() - 1) as f64;
    assert!(mean(&on) > 2.0 * mean(&off), "inherited with pondering {on:?}, without {off:?}");
}

#[test]
fn pondering_stops_when_a_command_arrives_and_the_reply_is_right() {
    // No playout budget: the engine ponders until input arrives.
    let (player, log) = recorder(5);
    let mut engine = Engine::new(Variant::from_size(7).unwrap(), Box::new(player));
    engine.set_ponder(true);
    let watch = Arc::clone(&log);
    let mut script: VecDeque<&str> =
        ["boardsize 7", "movetime 0.05", "play b d4", "play w c7,e1", "genmove b", "WAIT", "7 position", "WAIT"].into();
    let expected = Arc::new(Mutex::new(String::new()));
    let want = Arc::clone(&expected);
    let output = session(&mut engine, move |out| {
        let line = script.pop_front()?;
        if line != "WAIT" {
            return Some(line.to_string());
        }
        // The engine is pondering (its genmove, or `position`, answered): the next input
        // (a command, or the end of input) stops it.
        wait_for("a ponder to start", || watch.started.load(Ordering::SeqCst) > watch.finished.load(Ordering::SeqCst));
        let mut position = want.lock().unwrap();
        if position.is_empty() {
            let mut game = Game::new(Variant::from_size(7).unwrap());
            for mv in ["d4".to_string(), "c7,e1".to_string(), last_move(out)] {
                game.play(game.position().parse_move(&mv).unwrap()).unwrap();
            }
            *position = game.position().to_string();
        }
        script.pop_front().map(String::from)
    });
    let replies = output.replies();
    assert_eq!(replies.len(), 6, "{replies:?}");
    assert!(replies[..5].iter().all(|r| r.starts_with('=')), "{replies:?}");
    // The position after the engine's move, answered while it was pondering.
    assert_eq!(replies[5], format!("=7 {}", expected.lock().unwrap()));
    assert!(replies[5].ends_with(" w"), "{replies:?}");
    // Two ponders (after the genmove, after `position`), each stopped by the next input
    // (`position`, then the end of input); the session ended normally.
    assert_eq!(log.started.load(Ordering::SeqCst), 2);
    assert_eq!(log.finished.load(Ordering::SeqCst), 2);
    assert!(log.playouts.load(Ordering::SeqCst) > 0);
}

fn replies(engine: &mut Engine, input: &str) -> Vec<String> {
    let mut output = Vec::new();
    run(input.as_bytes(), &mut output, engine).unwrap();
    String::from_utf8(output).unwrap().split_terminator("\n\n").map(str::to_string).collect()
}

#[test]
fn ponder_reports_and_rejects_bad_arguments_without_change() {
    let (player, log) = recorder(1);
    let mut engine = Engine::new(Variant::from_size(7).unwrap(), Box::new(player));
    assert!(!engine.ponder_enabled());
    assert_eq!(
        replies(
            &mut engine,
            "ponder\nponder yes\nponder ON\nponder on off\n3 ponder\nponder on\nponder maybe\nponder\n\
             known_command ponder\n"
        ),
        [
            "= off",
            "? syntax error: unexpected 'yes'; usage: ponder [on|off]",
            "? syntax error: unexpected 'ON'; usage: ponder [on|off]",
            "? syntax error: unexpected 'off'; usage: ponder [on|off]",
            "=3 off",
            "= ",
            "? syntax error: unexpected 'maybe'; usage: ponder [on|off]",
            "= on",
            "= true",
        ]
    );
    assert!(engine.ponder_enabled());
    assert_eq!(replies(&mut engine, "ponder off\nponder\n"), ["= ", "= off"]);
    // No genmove in these sessions: nothing to ponder for.
    assert_eq!(log.started.load(Ordering::SeqCst), 0);
}

#[test]
fn the_engine_ponders_only_on_the_opponents_turn_in_play() {
    let (player, log) = recorder(3);
    let mut engine = Engine::new(Variant::from_size(7).unwrap(), Box::new(player));
    // Off: a whole game of genmoves, no pondering.
    let game: String = "boardsize 7\nplayouts 50\n".to_string() + &"genmove b\ngenmove w\n".repeat(30);
    let off = replies(&mut engine, &game);
    assert!(off.iter().all(|r| r.starts_with('=') || r == "? illegal move: the game is over"), "{off:?}");
    assert_eq!(log.started.load(Ordering::SeqCst), 0);
    assert!(!engine.should_ponder());
    // On, with both colours played by genmove, as in self-play analysis: after each
    // genmove the side to move is the colour not moved last, so it ponders only while
    // the game is in play, never during the setup turns nor once it is over.
    engine.set_ponder(true);
    let on = replies(&mut engine, &game);
    // Replies: boardsize, playouts, the two setup turns, then the turns in play.
    let in_play = on.iter().filter(|r| r.starts_with("= ") && r.len() > 2).count() as u64 - 2;
    let started = log.started.load(Ordering::SeqCst);
    assert!(in_play > 2, "{on:?}");
    // After White's setup turn (Black's turn in play follows) and after every turn in
    // play but the last, which ended the game.
    assert_eq!(started, in_play, "{on:?}");
    assert_eq!(log.finished.load(Ordering::SeqCst), started);
    assert!(engine.game().position().is_over());
    assert!(!engine.should_ponder());
    // A new game forgets which colour the engine plays.
    replies(&mut engine, "clear_board\nplay b d4\nplay w c7,e1\n");
    assert!(!engine.should_ponder());
}

#[test]
fn with_ponder_off_fixed_playout_moves_are_those_of_the_search_alone() {
    let input = "boardsize 9\nplayouts 200\nponder off\n".to_string() + &"genmove b\ngenmove w\n".repeat(6);
    let (player, _) = recorder(21);
    let mut engine = Engine::new(Variant::from_size(9).unwrap(), Box::new(player));
    let moves: Vec<String> = replies(&mut engine, &input).into_iter().skip(3).collect();
    let mut direct = EngineArgs::default().player(21).unwrap().with(Setting::Playouts(Some(200))).unwrap();
    let mut game = Game::new(Variant::from_size(9).unwrap());
    for reply in moves.into_iter().take_while(|r| r.starts_with("= ")) {
        let Decision::Play(mv) = direct.decide(&game, &GtpClock::default()) else { panic!("resigned") };
        assert_eq!(reply, format!("= {mv}"));
        game.play(mv).unwrap();
    }
}

#[test]
fn pondering_without_a_budget_stops_before_the_tree_is_too_full_to_keep() {
    // 16 MiB: the trees get 8 MiB; pondering stops at 40% of it, so the tree stays
    // reusable (under half) and the next search starts with all of it.
    let mut game = Game::new(Variant::STANDARD);
    for mv in ["c3,f6,h8", "a1,c9,h2,j10", "h8-h5/h4"] {
        game.play(game.position().parse_move(mv).unwrap()).unwrap();
    }
    let mut player = search::Searcher::new(SearchSettings { seed: 4, memory_mb: 16, ..SearchSettings::default() });
    let stop = Arc::new(AtomicBool::new(false));
    let playouts = player.ponder(&game, &Limits { stop: Some(Arc::clone(&stop)), ..Limits::default() });
    assert!(playouts > 1000, "{playouts}");
    let result = player.choose(&game, &Limits { iterations: Some(16), ..Limits::default() }).unwrap();
    let limit = (16 - search::PROGRAM_MEMORY_MB) << 20;
    assert!(result.memory_used * 100 <= limit * (search::PONDER_FILL_PERCENT + 2), "{} bytes", result.memory_used);
    assert!(result.memory_used * 100 >= limit * (search::PONDER_FILL_PERCENT - 5), "{} bytes", result.memory_used);
    assert!(result.inherited >= playouts, "{} inherited after {playouts}", result.inherited);
    // A raised stop ends pondering within a few playouts; players without trees do nothing.
    stop.store(true, Ordering::SeqCst);
    assert!(player.ponder(&game, &Limits { stop: Some(stop), ..Limits::default() }) <= 16);
    let mut greedy = search::Searcher::new(SearchSettings { player: Algorithm::Greedy, ..SearchSettings::default() });
    assert_eq!(greedy.ponder(&game, &Limits::default()), 0);
    // A setup turn has no tree to keep.
    assert_eq!(player.ponder(&Game::new(Variant::STANDARD), &Limits::default()), 0);
}

#[test]
fn a_match_with_a_pondering_engine_plays_its_games_to_the_end() {
    use veletas::cli::MatchArgs;
    use veletas_tools::referee::{Termination, run_match};
    let veletas = env!("CARGO_BIN_EXE_veletas");
    let (one, two) =
        (format!("'{veletas}' --seed 1 --playouts 300 --ponder"), format!("'{veletas}' --seed 2 --playouts 300"));
    let args = MatchArgs::parse_from([
        "--engine",
        &one,
        "--engine",
        &two,
        "--games",
        "2",
        "--size",
        "7",
        "--movetime",
        "60",
        "--seed",
        "3",
        "--quiet",
    ])
    .unwrap();
    let summary = run_match(&args.plan().unwrap()).unwrap();
    assert_eq!(summary.games, 2);
    assert_eq!(summary.terminations, vec![(Termination::Normal, 2)]);
    assert_eq!(summary.disagreements, 0);
}
