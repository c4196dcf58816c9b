//! The HTTP server: the page and a small JSON API, on the bounded connections of
//! [`crate::http`] (synchronous, a thread a connection, no async runtime).
//!
//! | request | what it does |
//! |---|---|
//! | `GET /` | the page (HTML, CSS and JavaScript built into the binary) |
//! | `GET /api/config` | the engines a game may use, the pictures of the pieces, the marks of the move list's turns |
//! | `GET /api/games` | the open games, the newest first ([`registry::GameSummary`]) |
//! | `POST /api/position` | `{"position": "..."}`: whether it is a possible position; its board |
//! | `POST /api/games` | a new game ([`NewGame`]); the answer is its [`session::GameView`] |
//! | `GET /api/games/ID` | the game's view |
//! | `GET /api/games/ID/events` | Server-Sent Events: the game's view at every change ([`crate::events`]) |
//! | `GET /api/games/ID/turns/N` | the position after N turns, with its analysis ([`session::TurnView`]) |
//! | `POST /api/games/ID/steps` | `{"picks": [...]}`: the targets of the next click ([`crate::steps`]) |
//! | `POST /api/games/ID/variation` | `{"turn": N, "moves": [...], "picks": [...]}`: a variation's position ([`crate::variation`]) |
//! | `POST /api/games/ID/play` | `{"move": "d4-d7/d4"}`: a person's turn |
//! | `POST /api/games/ID/undo`, `/resign` | take back the person's last turn; resign |
//! | `POST /api/games/ID/close` | close the game: its engines are ended, its match stops |
//! | `POST /api/games/ID/analyse` | `{"engine": 0, "seconds": 5, "turn": N, "moves": [...]}`: analyse a position ([`crate::analysis`]) |
//! | `POST /api/games/ID/analyse/stop` | stop the analysis asked for |
//! | `GET /api/games/ID/record` | the game as a record file |
//!
//! Everything the page sends is checked: a malformed body, an unknown game, an illegal
//! turn or a body over [`MAX_BODY`] bytes is a JSON `{"error": ...}` with a 4xx status and
//! changes nothing. A `POST` must say `Content-Type: application/json` (so that another web
//! site cannot post a plain form to it). On a loopback address every request must name this
//! server in its `Host` header (against DNS rebinding); on any other (`--host 0.0.0.0`, a
//! LAN address) every request must carry the token as `?token=`, and the `Host` header is
//! not checked: the machine's names are not all known to it (aliases, a proxy's name), and a
//! rebound page cannot know the token, which is what keeps other sites out.

use std::sync::{Arc, Mutex, MutexGuard};

use serde::Deserialize;
use serde_json::{Value, json};
use veletas_rules::Position;
use veletas_tools::picture::svg::{self, Layout, SvgOptions};

use crate::analysis;
use crate::events::{self, Streams};
use crate::http::{BodyError, Listener, Request};
use crate::new_game::NewGame;
use crate::registry::{self, Registry};
use crate::series;
use crate::session::{self, Refusal, Settings, SharedGame};

pub use crate::http::MAX_BODY;

pub use crate::registry::MAX_GAMES;

const PAGE_HTML: &str = include_str!("page/index.html");
const PAGE_CSS: &str = include_str!("page/app.css");
const PAGE_JS: &str = include_str!("page/app.js");
const PAGE_EDITOR_JS: &str = include_str!("page/editor.js");
const PAGE_ANALYSIS_BOARD_JS: &str = include_str!("page/analysis_board.js");
const PAGE_MATCH_JS: &str = include_str!("page/match.js");

/// The page with its style and script inlined (one request, nothing else to fetch).
pub fn page() -> String {
    PAGE_HTML
        .replace("/*APP_CSS*/", PAGE_CSS)
        .replace("/*EDITOR_JS*/", PAGE_EDITOR_JS)
        .replace("/*ANALYSIS_BOARD_JS*/", PAGE_ANALYSIS_BOARD_JS)
        .replace("/*MATCH_JS*/", PAGE_MATCH_JS)
        .replace("/*APP_JS*/", PAGE_JS)
}

/// The server's state: the settings, the games.
pub struct App {
    settings: Arc<Settings>,
    games: Arc<Registry>,
    token: Option<String>,
    hosts: Vec<String>,
    page: String,
    streams: Arc<Streams>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An answer: status and JSON (or another content type and text).
struct Answer {
    status: u16,
    content_type: &'static str,
    body: String,
    download: Option<String>,
}

impl Answer {
    fn json(status: u16, value: &Value) -> Answer {
        Answer { status, content_type: "application/json", body: value.to_string(), download: None }
    }

    fn error(status: u16, message: impl Into<String>) -> Answer {
        Answer::json(status, &json!({ "error": message.into() }))
    }

    fn refusal(refusal: Refusal) -> Answer {
        match refusal {
            Refusal::Bad(message) => Answer::error(400, message),
            Refusal::Conflict(message) => Answer::error(409, message),
        }
    }
}

/// What a request is to the live updates ([`App::events`]).
enum Events {
    /// Not a request for them.
    Not,
    /// One refused, with its answer.
    Refused(Answer),
    /// A stream to start, in its place among the open ones.
    Stream(SharedGame, events::Slot),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    #[serde(default)]
    engine: usize,
    /// The seconds per position.
    #[serde(default = "default_review_seconds")]
    seconds: f64,
}

fn default_review_seconds() -> f64 {
    1.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseBody {
    #[serde(default)]
    engine: usize,
    #[serde(default = "default_analysis_seconds")]
    seconds: f64,
    /// The position after this many turns (the current one when not given).
    #[serde(default)]
    turn: Option<usize>,
    /// A variation's turns after that position.
    #[serde(default)]
    moves: Vec<String>,
}

fn default_analysis_seconds() -> f64 {
    5.0
}

/// `POST /api/games/ID/variation`: a variation's position and the targets of its next click.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariationBody {
    /// The game's turns before the variation.
    turn: usize,
    /// The variation's turns.
    #[serde(default)]
    moves: Vec<String>,
    /// The clicks of the turn being entered in it.
    #[serde(default)]
    picks: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepsBody {
    picks: Vec<String>,
}

impl App {
    /// The state of a server answering on `port`, reachable as `hosts` (the names the
    /// `Host` header may give, without the port; any name when empty).
    pub fn new(settings: Settings, token: Option<String>, hosts: Vec<String>, port: u16) -> App {
        let hosts = hosts.into_iter().map(|h| format!("{h}:{port}")).collect();
        let games = Arc::new(Registry::default());
        App { settings: Arc::new(settings), games, token, hosts, page: page(), streams: Arc::default() }
    }

    /// Answers requests from `listener` until it is stopped.
    pub fn serve(self: &Arc<Self>, listener: &Listener) {
        registry::keep_tidy(&self.games);
        let app = Arc::clone(self);
        let handle: Arc<dyn Fn(Request) + Send + Sync> = Arc::new(move |request| app.handle(request));
        listener.serve(&handle);
    }

    /// Closes every game, killing its engines, and waits for the analysis engines to be
    /// ended (each is killed within [`veletas_tools::referee::engine::STOP_POLL`] when it
    /// is waited for; one still being set up answers within the command timeout).
    pub fn close_all(&self) {
        self.streams.stop();
        let games = self.games.close_all();
        let give_up = std::time::Instant::now() + self.settings.command_timeout + std::time::Duration::from_secs(1);
        while games.iter().any(|game| lock(game).analysers > 0) && std::time::Instant::now() < give_up {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// How many streams of live updates are open.
    pub fn open_streams(&self) -> usize {
        self.streams.open()
    }

    fn handle(&self, mut request: Request) {
        let answer = match self.events(&request) {
            Events::Stream(game, slot) => return events::start(request, &game, &self.settings, slot),
            Events::Refused(answer) => answer,
            Events::Not => self.answer(&mut request),
        };
        let mut headers = vec![
            format!("Content-Type: {}; charset=utf-8", answer.content_type),
            "Cache-Control: no-store".to_string(),
            "X-Content-Type-Options: nosniff".to_string(),
            "Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             img-src data:; connect-src 'self'"
                .to_string(),
        ];
        if let Some(name) = answer.download {
            headers.push(format!("Content-Disposition: attachment; filename=\"{name}\""));
        }
        request.respond(answer.status, &headers, answer.body.as_bytes());
    }

    /// Whether `request` is `GET /api/games/ID/events` (a stream of live updates, served on
    /// a thread of its own by [`crate::events`]) that passes the checks of every request.
    fn events(&self, request: &Request) -> Events {
        let url = request.url();
        let path = url.split_once('?').map_or(url, |(path, _)| path);
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let ["api", "games", id, "events"] = parts.as_slice() else { return Events::Not };
        if request.method() != "GET" {
            return Events::Not;
        }
        if let Err(answer) = self.check(request) {
            return Events::Refused(answer);
        }
        let Some(game) = id.parse::<u64>().ok().and_then(|id| self.games.get(id)) else {
            return Events::Refused(Answer::error(404, format!("no game '{}'", veletas_rules::quoted_to(id, 20))));
        };
        match self.streams.slot() {
            Some(slot) => Events::Stream(game, slot),
            None => Events::Refused(Answer::error(
                503,
                format!("{} streams of live updates are open: poll", events::MAX_STREAMS),
            )),
        }
    }

    /// The checks of every request: its `Host` header names this server, and it carries the
    /// token when there is one.
    fn check(&self, request: &Request) -> Result<(), Answer> {
        let host = request.header("Host");
        let known = |h: &str| self.hosts.iter().any(|ok| ok.eq_ignore_ascii_case(h));
        if !self.hosts.is_empty() && !host.is_some_and(known) {
            return Err(Answer::error(403, "unknown Host header"));
        }
        if let Some(token) = &self.token {
            let query = request.url().split_once('?').map_or("", |(_, query)| query);
            let given = query.split('&').find_map(|pair| pair.strip_prefix("token="));
            if given != Some(token.as_str()) {
                return Err(Answer::error(403, "a valid ?token= is required"));
            }
        }
        Ok(())
    }

    fn answer(&self, request: &mut Request) -> Answer {
        if let Err(answer) = self.check(request) {
            return answer;
        }
        let url = request.url().to_string();
        let path = url.split_once('?').map_or(url.as_str(), |(path, _)| path);
        let method = request.method().to_string();
        let body = if method == "POST" {
            let json = request.header("Content-Type").is_some_and(|t| t.starts_with("application/json"));
            if !json {
                return Answer::error(415, "a POST must be application/json");
            }
            match read_body(request) {
                Ok(body) => body,
                Err(answer) => return answer,
            }
        } else {
            String::new()
        };
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method.as_str(), parts.as_slice()) {
            ("GET", [""]) => Answer { status: 200, content_type: "text/html", body: self.page.clone(), download: None },
            ("GET", ["api", "config"]) => {
                let engines: Vec<&str> = self.settings.engines.iter().map(|e| e.name.as_str()).collect();
                Answer::json(
                    200,
                    &json!({ "engines": engines, "pieces": pieces_picture(), "marks": veletas_tools::marks::marks_json() }),
                )
            }
            ("POST", ["api", "position"]) => position_answer(&body),
            ("POST", ["api", "games"]) => self.new_game(&body),
            ("GET", ["api", "games"]) => Answer::json(200, &json!({ "games": self.games.list() })),
            (_, ["api", "games", id, rest @ ..]) => {
                let Some(game) = id.parse::<u64>().ok().and_then(|id| self.games.get(id)) else {
                    return Answer::error(404, format!("no game '{}'", veletas_rules::quoted_to(id, 20)));
                };
                self.game_request(&method, rest, &body, &game)
            }
            (_, ["", ..] | ["api", ..]) if method != "GET" && method != "POST" => {
                Answer::error(405, "method not allowed")
            }
            _ => Answer::error(404, "not found"),
        }
    }

    fn new_game(&self, body: &str) -> Answer {
        let request: NewGame = match serde_json::from_str(body) {
            Ok(request) => request,
            Err(e) => return Answer::error(400, malformed("new game", &e)),
        };
        let opened = match request.games {
            Some(_) => series::start(&self.games, &request, &self.settings),
            None => self.games.open(&request, &self.settings, None),
        };
        let shared = match opened {
            Ok(shared) => shared,
            Err(refusal) => return Answer::refusal(refusal),
        };
        crate::engine_turn::kick(&shared, &self.settings, &self.games);
        let view = lock(&shared).view();
        Answer::json(201, &json!(view))
    }

    fn game_request(&self, method: &str, rest: &[&str], body: &str, game: &SharedGame) -> Answer {
        // The game is looked at: its engines are kept (crate::registry).
        lock(game).seen_at = std::time::Instant::now();
        let answer = match (method, rest) {
            ("GET", []) => return self.view(game),
            ("GET", ["record"]) => {
                let session = lock(game);
                let id = session.view().id;
                return Answer {
                    status: 200,
                    content_type: "text/plain",
                    body: session.record().to_string(),
                    download: Some(format!("veletas-game-{id}.txt")),
                };
            }
            ("GET", ["turns", turn]) => {
                let Ok(turn) = turn.parse::<usize>() else {
                    return Answer::error(400, "a turn is a number");
                };
                return match lock(game).turn_view(turn) {
                    Ok(view) => Answer::json(200, &json!(view)),
                    Err(refusal) => Answer::refusal(refusal),
                };
            }
            ("POST", ["steps"]) => {
                return match serde_json::from_str::<StepsBody>(body) {
                    Ok(StepsBody { picks }) if picks.len() <= 16 => match lock(game).steps(&picks) {
                        Ok(steps) => Answer::json(200, &json!(steps)),
                        Err(refusal) => Answer::refusal(refusal),
                    },
                    Ok(_) => Answer::error(400, "too many picks"),
                    Err(e) => Answer::error(400, malformed("steps request", &e)),
                };
            }
            ("POST", ["variation"]) => {
                return match serde_json::from_str::<VariationBody>(body) {
                    Ok(VariationBody { picks, .. }) if picks.len() > 16 => Answer::error(400, "too many picks"),
                    Ok(VariationBody { turn, moves, picks }) => match lock(game).variation_view(turn, &moves, &picks) {
                        Ok(view) => Answer::json(200, &json!(view)),
                        Err(refusal) => Answer::refusal(refusal),
                    },
                    Err(e) => Answer::error(400, malformed("variation request", &e)),
                };
            }
            ("POST", ["play"]) => match serde_json::from_str::<PlayBody>(body) {
                Ok(PlayBody { mv }) => lock(game).play(&mv, self.settings.margin),
                Err(e) => Err(Refusal::Bad(malformed("turn", &e))),
            },
            ("POST", ["undo"]) => lock(game).undo(),
            ("POST", ["analyse"]) => match serde_json::from_str::<AnalyseBody>(body) {
                Ok(AnalyseBody { engine, seconds, turn, moves }) => {
                    analysis::start(game, &self.settings, engine, seconds, turn, &moves, analysis::Kind::Request)
                }
                Err(e) => Err(Refusal::Bad(malformed("analysis request", &e))),
            },
            ("POST", ["analyse", "stop"]) => {
                analysis::stop(&mut lock(game));
                Ok(())
            }
            ("POST", ["review"]) => match serde_json::from_str::<ReviewBody>(body) {
                Ok(ReviewBody { engine, seconds }) => crate::review::start(game, &self.settings, engine, seconds),
                Err(e) => Err(Refusal::Bad(malformed("review request", &e))),
            },
            ("POST", ["review", "stop"]) => {
                lock(game).stop_review();
                Ok(())
            }
            ("POST", ["resign"]) => lock(game).resign(),
            ("POST", ["close"]) => {
                let mut session = lock(game);
                if let Some((series, _)) = &session.series {
                    lock(series).stop();
                }
                session.close();
                Ok(())
            }
            ("GET" | "POST", _) => return Answer::error(404, "not found"),
            _ => return Answer::error(405, "method not allowed"),
        };
        match answer {
            Ok(()) => {
                self.after_change(game);
                self.view(game)
            }
            Err(refusal) => Answer::refusal(refusal),
        }
    }

    /// Starts the engine's move if it is an engine's turn; appends a finished game to the
    /// record file.
    fn after_change(&self, game: &SharedGame) {
        crate::engine_turn::kick(game, &self.settings, &self.games);
        self.save_finished(game);
    }

    fn view(&self, game: &SharedGame) -> Answer {
        lock(game).check_flag(self.settings.margin);
        self.save_finished(game);
        let view = lock(game).view();
        Answer::json(200, &json!(view))
    }

    fn save_finished(&self, game: &SharedGame) {
        session::save_finished(game, &self.settings);
    }
}

/// A position with every kind of piece (`s`, `b`, `w`, `B`, `W`), drawn as `veletas render`
/// draws it: the page's position editor copies its pieces' pictures.
const PIECES_POSITION: &str = "7/7/5w1/7/7/2b4/s1B1W2 b";

fn pieces_picture() -> String {
    PIECES_POSITION.parse::<Position>().map_or_else(|_| String::new(), |p| svg::render(&p, None, &board_options()))
}

fn board_options() -> SvgOptions {
    SvgOptions { width: 560, coordinates: true, status: false }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    position: String,
}

/// A request body serde could not read, as the answer says it: serde's message quotes the
/// body's values, so it is cut and its control characters escaped as every quoted input.
fn malformed(what: &str, error: &serde_json::Error) -> String {
    format!("malformed {what}: {}", veletas_rules::quoted_to(&error.to_string(), 120))
}

/// `POST /api/position`: whether a position string (as the page's editor composes it) is a
/// possible position, by the rules library: if it is, `"valid": true`, its canonical string
/// and its board; if not, `"valid": false` and why (a judgement asked for, so status 200;
/// only a malformed request is an error).
fn position_answer(body: &str) -> Answer {
    let request: PositionBody = match serde_json::from_str(body) {
        Ok(request) => request,
        Err(e) => return Answer::error(400, malformed("position request", &e)),
    };
    let position: Position = match request.position.trim().parse() {
        Ok(position) => position,
        Err(e) => {
            return Answer::json(200, &json!({ "valid": false, "error": format!("not a possible position: {e}") }));
        }
    };
    let layout = Layout::new(position.variant().size(), true);
    Answer::json(
        200,
        &json!({
            "valid": true,
            "position": position.to_string(),
            "size": position.variant().size(),
            "rules": position.rules().to_string(),
            "to_move": position.side_to_move().to_string(),
            "over": position.winner().is_some(),
            "svg": svg::render(&position, None, &board_options()),
            "layout": [layout.left(), layout.top(), svg::CELL],
        }),
    )
}

/// Reads a request body of at most [`MAX_BODY`] bytes of UTF-8.
fn read_body(request: &mut Request) -> Result<String, Answer> {
    let bytes = match request.read_body(MAX_BODY) {
        Ok(bytes) => bytes,
        Err(BodyError::TooLarge) => return Err(Answer::error(413, format!("the body is over {MAX_BODY} bytes"))),
        Err(BodyError::NoLength) => return Err(Answer::error(411, "a body needs a Content-Length")),
        Err(BodyError::Unreadable(e)) => return Err(Answer::error(400, format!("cannot read the body: {e}"))),
    };
    String::from_utf8(bytes).map_err(|_| Answer::error(400, "the body is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_request_is_answered_with_its_values_cut_and_escaped() {
        // serde names an unknown field in its message: the field is the client's text.
        let hostile = format!("\u{1b}[2J\u{202e}{}", "x".repeat(100_000));
        let mut body = serde_json::Map::new();
        body.insert(hostile, json!(1));
        let answer = position_answer(&Value::Object(body).to_string());
        assert_eq!(answer.status, 400);
        let error: Value = serde_json::from_str(&answer.body).unwrap();
        let error = error["error"].as_str().unwrap();
        assert!(error.starts_with("malformed position request: unknown field `\\u{1b}[2J\\u{202e}xxx"), "{error}");
        assert!(error.ends_with("xxx...") && error.chars().count() < 200, "{error}");
        assert!(!error.contains(['\u{1b}', '\u{202e}']), "{error}");
    }
}
