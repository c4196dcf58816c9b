//! How `veletas gui` serves, validated once into [`GuiSettings`] before anything listens:
//! the engines the page may choose as typed [`EngineSpec`]s (an engines file and `--engine`
//! flags read by the tournament's own parser, or this program's engines), the address to
//! listen on resolved, the record file, and whether a browser is opened. The server is
//! built from such settings ([`crate::Gui::bind`]), never from loose options.

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};

use veletas_tools::referee::TimeControl;
use veletas_tools::referee::engine::EngineCommand;
use veletas_tools::referee::field::{self, EngineOptions};

use crate::error::GuiError;
use crate::session::EngineSpec;

/// How `veletas gui` serves, validated: built by [`GuiSettings::new`] (the engines) and the
/// `with_` methods (each of which checks its values), read by [`crate::Gui::bind`].
#[derive(Clone, Debug, PartialEq)]
pub struct GuiSettings {
    engines: Vec<EngineSpec>,
    notes: Vec<String>,
    host: String,
    addresses: Vec<SocketAddr>,
    open_browser: bool,
    record: Option<PathBuf>,
}

impl GuiSettings {
    /// The engines of the engines file `engines_file` (as `veletas tournament --engines`
    /// reads it) then those of `engines` (`[NAME=]CMD ARGS`, as `--engine` takes them); none
    /// in all: `program` (this very program) and its easy players. Served on the loopback
    /// address at a free port, a browser opened, no record file.
    pub fn new(engines: &[String], engines_file: Option<&Path>, program: &Path) -> Result<GuiSettings, GuiError> {
        let (engines, notes) = engine_specs(engines, engines_file, program).map_err(GuiError::Options)?;
        Ok(GuiSettings {
            engines,
            notes,
            host: Ipv4Addr::LOCALHOST.to_string(),
            addresses: vec![SocketAddr::from((Ipv4Addr::LOCALHOST, 0))],
            open_browser: true,
            record: None,
        })
    }

    /// Served on `host` (a name or an address; every address it names must be loopback for
    /// the server to go without a token) at `port` (0: a free one).
    pub fn listening(self, host: &str, port: u16) -> Result<GuiSettings, GuiError> {
        let quoted = veletas_rules::quoted(host);
        let addresses: Vec<SocketAddr> =
            (host, port).to_socket_addrs().map_err(|e| GuiError::Options(format!("--host {quoted}: {e}")))?.collect();
        if addresses.is_empty() {
            return Err(GuiError::Options(format!("--host {quoted}: no address")));
        }
        Ok(GuiSettings { host: host.to_string(), addresses, ..self })
    }

    /// With every finished game appended to `record`.
    pub fn with_record(self, record: Option<PathBuf>) -> GuiSettings {
        GuiSettings { record, ..self }
    }

    /// With the page opened in a browser when `open` (else only its URL printed).
    pub fn with_browser(self, open: bool) -> GuiSettings {
        GuiSettings { open_browser: open, ..self }
    }

    /// The engines the page may choose, by index.
    pub fn engines(&self) -> &[EngineSpec] {
        &self.engines
    }

    /// Lines for stderr about the engines: the engines file's options the page does not use.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The host as given (a name the browser may send in its `Host` header).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The addresses the host names, at least one: the server listens on the first.
    pub fn addresses(&self) -> &[SocketAddr] {
        &self.addresses
    }

    /// Whether every address the host names is a loopback address (no token needed).
    pub fn is_loopback(&self) -> bool {
        self.addresses.iter().all(|a| a.ip().is_loopback())
    }

    /// Whether the page is opened in a browser.
    pub fn open_browser(&self) -> bool {
        self.open_browser
    }

    /// The record file every finished game is appended to.
    pub fn record(&self) -> Option<&Path> {
        self.record.as_deref()
    }
}

/// The engines of `engines_file` (the engines file of `veletas tournament`, read by its own
/// parser) then those of `flags` (`--engine`), or, when there are none, our own engine
/// (`program`) and its built-in easy players: `veletas` (the search, on the time the page
/// gives each move, so that its thinking and win rates show), `greedy` and `random`. An
/// engine without a name is named after its program's file name; the program `veletas` is
/// `program`, this very one, installed or not.
/// The notes are lines for stderr: the file's options the page does not use.
fn engine_specs(
    flags: &[String],
    engines_file: Option<&Path>,
    program: &Path,
) -> Result<(Vec<EngineSpec>, Vec<String>), String> {
    let (mut entries, each) = match engines_file {
        Some(path) => {
            let (entries, each) = field::read_engines_file(path).map_err(|e| e.to_string())?;
            if entries.is_empty() {
                return Err(format!("--engines {}: no [[engine]] in it", path.display()));
            }
            (entries, each)
        }
        None => (Vec::new(), EngineOptions::default()),
    };
    entries.extend(flags.iter().map(|text| field::entry_from_flag(text)));
    if entries.is_empty() {
        return Ok((default_engines(program), Vec::new()));
    }
    // The time control is the page's: the one given here only lets `resolve` check the file's.
    let defs = field::resolve(&entries, &each, TimeControl::MoveTime(1.0)).map_err(|e| e.to_string())?;
    let specs = defs
        .into_iter()
        .map(|def| {
            let name = def.name.unwrap_or_else(|| {
                Path::new(&def.command.program)
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
fn default_engines(program: &Path) -> Vec<EngineSpec> {
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

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "/bin/veletas";

    fn engines(flags: &[&str], file: Option<&Path>) -> Result<GuiSettings, GuiError> {
        let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        GuiSettings::new(&flags, file, Path::new(PROGRAM))
    }

    fn names(settings: &GuiSettings) -> Vec<&str> {
        settings.engines().iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn engines_come_from_the_command_line_or_default_to_this_program() {
        let settings = engines(&[], None).unwrap();
        assert_eq!(names(&settings), ["veletas", "greedy", "random"]);
        assert!(settings.engines().iter().all(|s| s.command.program == PROGRAM));
        // Our engine thinks for the time the page gives it, as the dialog shows.
        assert!(settings.engines()[0].command.args.is_empty(), "{:?}", settings.engines()[0].command.args);
        let settings = engines(&["strong=v --seed 1", "./other -x"], None).unwrap();
        assert_eq!(names(&settings), ["strong", "other"]);
        assert_eq!(settings.engines()[0].command.args, ["--seed", "1"]);
        let ours = engines(&["strong=veletas --playouts 20000"], None).unwrap();
        let command = &ours.engines()[0].command;
        assert_eq!((command.program.as_str(), command.args.len()), (PROGRAM, 2));
        assert!(matches!(engines(&["'open"], None), Err(GuiError::Options(_))));
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
        let settings = engines(&["third=v --seed 3"], Some(&file)).unwrap();
        let specs = settings.engines();
        assert_eq!(names(&settings), ["strong", "other", "third"]);
        assert_eq!(specs[0].command.args, ["--seed", "1"]);
        assert_eq!(specs[0].command.dir.as_deref(), Some(dir.join("strong").as_path()));
        assert_eq!(specs[0].command.init, ["option a 1", "option b 2"]);
        assert_eq!(specs[1].command.init, ["option a 1"]);
        assert_eq!(specs[2].command.init, ["option a 1"]);
        let notes = settings.notes();
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
            let err = engines(&["third=v --seed 3"], Some(&file)).unwrap_err().to_string();
            assert!(err.contains(error) && !err.contains('\n'), "{text}: {err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_host_is_resolved_once_and_only_loopback_goes_without_a_token() {
        let settings = engines(&[], None).unwrap();
        assert!(settings.is_loopback() && settings.open_browser() && settings.record().is_none());
        assert_eq!(settings.addresses(), [SocketAddr::from((Ipv4Addr::LOCALHOST, 0))]);
        let any = settings.clone().listening("0.0.0.0", 8080).unwrap();
        assert!(!any.is_loopback());
        assert_eq!((any.host(), any.addresses()[0].port()), ("0.0.0.0", 8080));
        let local = settings.clone().listening("localhost", 0).unwrap();
        assert!(local.is_loopback(), "{:?}", local.addresses());
        let bad = settings.clone().listening("no such host\u{1b}[31m", 0).unwrap_err().to_string();
        assert!(bad.starts_with("--host ") && !bad.contains('\u{1b}'), "{bad}");
        let kept = settings.with_record(Some(PathBuf::from("games.txt"))).with_browser(false);
        assert_eq!((kept.record(), kept.open_browser()), (Some(Path::new("games.txt")), false));
    }
}
