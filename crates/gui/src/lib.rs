//! `veletas gui`: play Veletas in the browser against protocol engines.
//!
//! A local HTTP server ([`server`]) serves one page (plain HTML, CSS, JavaScript and the
//! SVG board of `veletas render`, all built into the binary) and a small JSON API. The
//! server keeps every game with the rules library ([`session`]) and sends the page the
//! legal targets of each click ([`steps`]): the browser knows no rules. Engines are
//! driven through the protocol with the referee's engine client, exactly as a
//! third-party engine would be, and their command lines come from the command line only,
//! never from the page.
//!
//! docs/gui.md describes it for users.

pub mod analysis;
pub mod analysis_view;
pub mod engine_turn;
pub mod events;
pub mod http;
pub mod new_game;
pub mod registry;
pub mod review;
pub mod review_view;
pub mod series;
pub mod series_view;
pub mod server;
pub mod session;
pub mod steps;
pub mod variation;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use veletas_tools::referee::TimeControl;
use veletas_tools::referee::engine::EngineCommand;
use veletas_tools::referee::tournament::field::{self, EngineOptions};

use crate::server::App;
use crate::session::{EngineSpec, Settings};

/// How `veletas gui` serves (the command line's `GuiSettings` become these).
#[derive(Clone, Debug, PartialEq)]
pub struct GuiSettings {
    /// The engines the page may choose (`[NAME=]CMD ARGS`), after those of
    /// `engines_file`; none in all: this program and its easy players (see [`engine_specs`]).
    pub engines: Vec<String>,
    /// An engines file (`--engines FILE`, as `veletas tournament` reads it).
    pub engines_file: Option<PathBuf>,
    /// The port to listen on (0: a free one).
    pub port: u16,
    /// The address to listen on; any other than loopback needs the token in the URL.
    pub host: String,
    /// Print the URL but open no browser.
    pub no_browser: bool,
    /// Append every finished game to this record file.
    pub record: Option<PathBuf>,
}

/// The engines of `--engines FILE` (the engines file of `veletas tournament`, read by its
/// own parser) then those of `--engine`, or, when there are none, our own engine
/// (`program`) and its built-in easy players: `veletas` (the search, on the time the page
/// gives each move, so that its thinking and win rates show), `greedy` and `random`. An
/// engine without a name is named after its program's file name; the program `veletas` is
/// `program`, this very one, installed or not.
/// The notes are lines for stderr: the file's options the page does not use.
pub fn engine_specs(args: &GuiSettings, program: &std::path::Path) -> Result<(Vec<EngineSpec>, Vec<String>), String> {
    let (mut entries, each) = match &args.engines_file {
        Some(path) => {
            let (entries, each) = field::read_engines_file(path)?;
            if entries.is_empty() {
                return Err(format!("--engines {}: no [[engine]] in it", path.display()));
            }
            (entries, each)
        }
        None => (Vec::new(), EngineOptions::default()),
    };
    entries.extend(args.engines.iter().map(|text| field::entry_from_flag(text)));
    if entries.is_empty() {
        return Ok((default_engines(program), Vec::new()));
    }
    // The time control is the page's: the one given here only lets `resolve` check the file's.
    let defs = field::resolve(&entries, &each, TimeControl::MoveTime(1.0))?;
    let specs = defs
        .into_iter()
        .map(|def| {
            let name = def.name.unwrap_or_else(|| {
                std::path::Path::new(&def.command.program)
                    .file_name()
                    .map_or(def.command.program.clone(), |f| f.to_string_lossy().into_owned())
            });
            let mut command = def.command;
            // `veletas` is this very program, installed or not.
            if command.program == "veletas" {
                command.program = program.display().to_string();
            }
            EngineSpec { name, command }
        })
        .collect();
    let mut notes = Vec::new();
    let unused = |options: &EngineOptions| {
        let set = [
            ("restart", options.restart.is_some()),
            ("movetime", options.movetime.is_some()),
            ("clock", options.clock.is_some()),
            ("byoyomi", options.byoyomi.is_some()),
            ("odds", options.odds.is_some()),
        ];
        set.iter().filter(|(_, on)| *on).map(|(key, _)| *key).collect::<Vec<_>>().join(", ")
    };
    for (which, options) in std::iter::once(("[each]".to_string(), &each)).chain(
        entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone().unwrap_or_else(|| format!("engine {}", i + 1)), &e.options)),
    ) {
        let keys = unused(options);
        if !keys.is_empty() {
            notes.push(format!(
                "veletas gui: --engines: {which}: {keys} not used here (the page sets each side's time, and every \
                 game starts its engines afresh)"
            ));
        }
    }
    Ok((specs, notes))
}

/// Our own engine (`program`) and its built-in easy players.
fn default_engines(program: &std::path::Path) -> Vec<EngineSpec> {
    let ours = |name: &str, args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let command = EngineCommand {
            text: format!("{} {}", program.display(), args.join(" ")),
            program: program.display().to_string(),
            args,
            dir: None,
            init: Vec::new(),
        };
        EngineSpec { name: name.into(), command }
    };
    vec![ours("veletas", &[]), ours("greedy", &["--player", "greedy"]), ours("random", &["--player", "random"])]
}

/// Whether every address `host` names is a loopback address.
fn is_loopback(addresses: &[SocketAddr]) -> bool {
    !addresses.is_empty() && addresses.iter().all(|a| a.ip().is_loopback())
}

/// A random token of 32 hex digits, from the standard library's randomly seeded hasher.
fn random_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut text = String::new();
    for i in 0..2u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(i);
        hasher
            .write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        text.push_str(&format!("{:016x}", hasher.finish()));
    }
    text
}

/// The URL of the page of a server listening on `ip` and `port`, `token` in its query: on
/// every address of the machine (`0.0.0.0`, `::`), which no browser can open, it is the
/// loopback address (the browser on this machine).
fn page_url(ip: IpAddr, port: u16, token: Option<&str>) -> String {
    let host = match ip {
        IpAddr::V4(ip) if ip.is_unspecified() => Ipv4Addr::LOCALHOST.to_string(),
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("[{}]", Ipv6Addr::LOCALHOST),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    format!("http://{host}:{port}/{}", token_query(token))
}

/// `?token=TOKEN`, or nothing without a token.
fn token_query(token: Option<&str>) -> String {
    token.map_or_else(String::new, |token| format!("?token={token}"))
}

/// For a server listening on every address of the machine (`0.0.0.0`, `::`): a line for
/// stderr saying so, and how another machine reaches the page (the printed URL names the
/// loopback address, which is this machine's own).
fn elsewhere_note(ip: IpAddr, port: u16, token: Option<&str>) -> Option<String> {
    ip.is_unspecified().then(|| {
        let listening = SocketAddr::new(ip, port);
        format!(
            "veletas gui: listening on every address of this machine ({listening}); from another machine, \
             open http://HOST:{port}/{} with HOST this machine's name or address",
            token_query(token)
        )
    })
}

/// Opens `url` in the default browser, if there is a display to show it on.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some() {
        "xdg-open"
    } else {
        eprintln!("veletas gui: no display; open {url} in a browser");
        return;
    };
    let started = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        eprintln!("veletas gui: cannot start {program} ({e}); open {url} in a browser");
    }
}

/// Why the GUI does not serve. Each is one line.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// The engines (`--engine`, `--engines FILE`) or the `--host` given do not work: the
    /// command line's fault.
    #[error("{0}")]
    Options(String),
    /// The server cannot listen, or cannot write its address on stdout.
    #[error("{0}")]
    Serve(String),
}

/// A server listening, not yet answering: [`Gui::serve`] answers until the [`Gui::stopper`] is called.
pub struct Gui {
    /// The page's address (with the token when there is one), for a browser on this
    /// machine.
    pub url: String,
    /// When the server listens on every address of the machine (`--host 0.0.0.0` or `::`):
    /// a line for stderr saying how another machine reaches the page.
    pub elsewhere: Option<String>,
    /// Lines for stderr about the engines (options of the engines file the page does not use).
    pub notes: Vec<String>,
    app: Arc<App>,
    listener: http::Listener,
}

impl Gui {
    /// Listens as `args` ask, `program` being our own engine's binary.
    pub fn bind(args: &GuiSettings, program: &std::path::Path) -> Result<Gui, GuiError> {
        let (engines, notes) = engine_specs(args, program).map_err(GuiError::Options)?;
        let host = veletas_rules::quoted(&args.host);
        let addresses: Vec<SocketAddr> = (args.host.as_str(), args.port)
            .to_socket_addrs()
            .map_err(|e| GuiError::Options(format!("--host {host}: {e}")))?
            .collect();
        let address = *addresses.first().ok_or_else(|| GuiError::Options(format!("--host {host}: no address")))?;
        let loopback = is_loopback(&addresses);
        let listener =
            http::Listener::bind(address).map_err(|e| GuiError::Serve(format!("cannot listen on {address}: {e}")))?;
        let port = listener.local_addr().map_or(args.port, |a| a.port());
        let (token, hosts) = if loopback {
            let hosts = ["localhost", "127.0.0.1", "[::1]", args.host.as_str()].map(str::to_string).to_vec();
            (None, hosts)
        } else {
            (Some(random_token()), Vec::new())
        };
        let url = page_url(address.ip(), port, token.as_deref());
        let elsewhere = elsewhere_note(address.ip(), port, token.as_deref());
        let settings =
            Settings { engines, command_timeout: Duration::from_secs(10), margin: 0.5, record: args.record.clone() };
        let app = Arc::new(App::new(settings, token, hosts, port));
        Ok(Gui { url, elsewhere, notes, app, listener })
    }

    /// Answers requests until the [`Gui::stopper`] is called, then closes every game (killing
    /// its engines).
    pub fn serve(&self) {
        self.app.serve(&self.listener);
        self.app.close_all();
    }

    /// A handle that stops [`Gui::serve`] from another thread.
    pub fn stopper(&self) -> impl Fn() + Send + 'static {
        self.listener.stopper()
    }

    /// A handle that tells how many connections are open (a stream of live updates holds one
    /// while it runs), and how many of them are still sending their request's head.
    pub fn connections(&self) -> impl Fn() -> (usize, usize) + Send + 'static {
        self.listener.counter()
    }
}

impl Gui {
    /// Says where the page is: its URL as the first line on stdout, the notes on stderr,
    /// and, unless `no_browser`, the page opened in a browser. (The command line then sets
    /// its Ctrl-C handler to the [`Gui::stopper`] and calls [`Gui::serve`].)
    pub fn announce(&self, no_browser: bool) -> Result<(), GuiError> {
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            writeln!(out, "{}", self.url)
                .and_then(|()| out.flush())
                .map_err(|e| GuiError::Serve(format!("stdout: {e}")))?;
        }
        for note in self.elsewhere.iter().chain(&self.notes) {
            eprintln!("{note}");
        }
        if !no_browser {
            open_browser(&self.url);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_come_from_the_command_line_or_default_to_this_program() {
        let args = GuiSettings {
            engines: vec![],
            engines_file: None,
            port: 0,
            host: "127.0.0.1".into(),
            no_browser: true,
            record: None,
        };
        let specs = engine_specs(&args, std::path::Path::new("/bin/veletas")).unwrap().0;
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["veletas", "greedy", "random"]);
        assert!(specs.iter().all(|s| s.command.program == "/bin/veletas"));
        // Our engine thinks for the time the page gives it, as the dialog shows.
        assert!(specs[0].command.args.is_empty(), "{:?}", specs[0].command.args);
        let args = GuiSettings { engines: vec!["strong=v --seed 1".into(), "./other -x".into()], ..args };
        let specs = engine_specs(&args, std::path::Path::new("/bin/veletas")).unwrap().0;
        assert_eq!((specs[0].name.as_str(), specs[1].name.as_str()), ("strong", "other"));
        assert_eq!(specs[0].command.args, ["--seed", "1"]);
        let ours = GuiSettings { engines: vec!["strong=veletas --playouts 20000".into()], ..args.clone() };
        let specs = engine_specs(&ours, std::path::Path::new("/bin/veletas")).unwrap().0;
        assert_eq!((specs[0].command.program.as_str(), specs[0].command.args.len()), ("/bin/veletas", 2));
        let bad = GuiSettings { engines: vec!["'open".into()], ..args };
        assert!(engine_specs(&bad, std::path::Path::new("/bin/veletas")).is_err());
    }

    #[test]
    fn an_engines_file_gives_names_commands_working_directories_and_init() {
        let dir = std::env::temp_dir().join(format!("veletas-gui-engines-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("strong")).unwrap();
        let file = dir.join("engines.toml");
        std::fs::write(
            &file,
            "[each]\ninit = [\"option a 1\"]\n[[engine]]\nname = \"strong\"\ncommand = \"v --seed 1\"\n\
             dir = \"strong\"\ninit = [\"option b 2\"]\nmovetime = 2\n[[engine]]\ncommand = \"./other -x\"\n",
        )
        .unwrap();
        let args = GuiSettings {
            engines: vec!["third=v --seed 3".into()],
            engines_file: Some(file.clone()),
            port: 0,
            host: "127.0.0.1".into(),
            no_browser: true,
            record: None,
        };
        let (specs, notes) = engine_specs(&args, std::path::Path::new("/bin/veletas")).unwrap();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["strong", "other", "third"]);
        assert_eq!(specs[0].command.args, ["--seed", "1"]);
        assert_eq!(specs[0].command.dir.as_deref(), Some(dir.join("strong").as_path()));
        assert_eq!(specs[0].command.init, ["option a 1", "option b 2"]);
        assert_eq!(specs[1].command.init, ["option a 1"]);
        assert_eq!(specs[2].command.init, ["option a 1"]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("strong: movetime not used here"), "{notes:?}");
        for (text, error) in [
            ("[[engine]]\nname = \"a\"\n", "engine 1: no command"),
            ("[[engine]]\ncommand = \"v\"\nspeed = 3\n", "speed"),
            ("[[engine]]\ncommand = \"v\"\ndir = \"nowhere\"\n", "does not exist"),
            ("[[engine]]\nname = \"a\"\ncommand = \"v\"\n[[engine]]\nname = \"a\"\ncommand = \"w\"\n", "unique"),
            ("[each]\n", "no [[engine]]"),
            ("[[engine]\n", "line 1"),
        ] {
            std::fs::write(&file, text).unwrap();
            let err = engine_specs(&args, std::path::Path::new("/bin/veletas")).unwrap_err();
            assert!(err.contains(error) && !err.contains('\n'), "{text}: {err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_loopback_addresses_go_without_a_token() {
        let local: Vec<SocketAddr> = ("127.0.0.1", 0).to_socket_addrs().unwrap().collect();
        assert!(is_loopback(&local));
        let any: Vec<SocketAddr> = ("0.0.0.0", 0).to_socket_addrs().unwrap().collect();
        assert!(!is_loopback(&any));
        assert_eq!(random_token().len(), 32);
        assert_ne!(random_token(), random_token());
    }

    #[test]
    fn every_address_is_shown_as_loopback_with_a_note_for_other_machines() {
        let any4: IpAddr = "0.0.0.0".parse().unwrap();
        let any6: IpAddr = "::".parse().unwrap();
        assert_eq!(page_url(any4, 8080, Some("abc")), "http://127.0.0.1:8080/?token=abc");
        assert_eq!(page_url(any6, 8080, Some("abc")), "http://[::1]:8080/?token=abc");
        let note = elsewhere_note(any4, 8080, Some("abc")).unwrap();
        assert!(note.contains("(0.0.0.0:8080)") && note.contains("http://HOST:8080/?token=abc"), "{note}");
        let note = elsewhere_note(any6, 8080, Some("abc")).unwrap();
        assert!(note.contains("([::]:8080)") && note.contains("http://HOST:8080/?token=abc"), "{note}");
    }

    #[test]
    fn a_single_address_is_shown_as_it_is() {
        let lan: IpAddr = "192.168.1.5".parse().unwrap();
        let lan6: IpAddr = "fe80::1".parse().unwrap();
        assert_eq!(page_url(lan, 80, Some("abc")), "http://192.168.1.5:80/?token=abc");
        assert_eq!(page_url(lan6, 80, Some("abc")), "http://[fe80::1]:80/?token=abc");
        assert_eq!(page_url(IpAddr::V4(Ipv4Addr::LOCALHOST), 80, None), "http://127.0.0.1:80/");
        assert_eq!(page_url(IpAddr::V6(Ipv6Addr::LOCALHOST), 80, None), "http://[::1]:80/");
        assert_eq!(elsewhere_note(lan, 80, Some("abc")), None);
        assert_eq!(elsewhere_note(IpAddr::V4(Ipv4Addr::LOCALHOST), 80, None), None);
    }
}
