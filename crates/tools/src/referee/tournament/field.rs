//! The field: each engine's name, command line and options, from `--engine NAME=CMD`,
//! an engines file (`--engines FILE`, TOML), `--each KEY=VALUE` and
//! `--option NAME:KEY=VALUE`.
//!
//! Engine options: `restart=on|off` (a fresh process for every game), `dir=PATH` (working
//! directory), `init=COMMAND` (a protocol command sent after every start; repeatable),
//! `movetime=S`, `clock=MAIN[+INC]`, `byoyomi=PERIOD/STONES` (the engine's own time
//! control) and `odds=F` (its times multiplied by F). An engine's own options override
//! `--each`, which overrides the tournament's time control.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::referee::clock::{ByoYomiSpec, ClockSpec, TimeControl, parse_seconds};
use crate::referee::engine::EngineCommand;
use crate::referee::words::{is_engine_name, refuse_control, split_engine_name};
use veletas_rules::quoted;

pub use crate::referee::runner::EngineDef;

/// Options of one engine or of every engine (`--each`); unset ones fall through.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineOptions {
    /// A fresh process for every game.
    pub restart: Option<bool>,
    /// The working directory.
    pub dir: Option<PathBuf>,
    /// Protocol commands sent after every start.
    pub init: Vec<String>,
    /// Own time per move.
    pub movetime: Option<f64>,
    /// Own clock.
    pub clock: Option<ClockSpec>,
    /// Own byo-yomi.
    pub byoyomi: Option<ByoYomiSpec>,
    /// Time odds factor.
    pub odds: Option<f64>,
}

impl EngineOptions {
    /// Sets option `key` to `value` (`KEY=VALUE` on the command line).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        refuse_control(value).map_err(|e| format!("{}={e}", quoted(key)))?;
        let shown = quoted(value);
        match key {
            "restart" => {
                self.restart = Some(match value {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => return Err(format!("restart={shown}: use on or off")),
                })
            }
            "dir" => self.dir = Some(PathBuf::from(value)),
            "init" => self.init.push(value.to_string()),
            "movetime" => self.movetime = Some(parse_seconds(value).map_err(|e| format!("movetime={shown}: {e}"))?),
            "clock" | "tc" => self.clock = Some(value.parse().map_err(|e| format!("clock={shown}: {e}"))?),
            "byoyomi" => self.byoyomi = Some(value.parse().map_err(|e| format!("byoyomi={shown}: {e}"))?),
            "odds" => self.odds = Some(crate::referee::parse_odds(value).map_err(|e| format!("odds={shown}: {e}"))?),
            _ => {
                return Err(format!(
                    "unknown engine option '{}' (options: restart, dir, init, movetime, clock, byoyomi, odds)",
                    quoted(key)
                ));
            }
        }
        Ok(())
    }

    /// Parses and sets `KEY=VALUE`.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), String> {
        let (key, value) = pair.split_once('=').ok_or_else(|| format!("'{}' is not KEY=VALUE", quoted(pair)))?;
        self.set(key.trim(), value.trim())
    }

    fn has_time_control(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some() || self.byoyomi.is_some()
    }

    fn time_control(&self) -> Result<TimeControl, String> {
        TimeControl::from_options(self.movetime, self.clock, self.byoyomi).map_err(|e| e.to_string())
    }
}

/// One engine of the field, before start-up.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineEntry {
    /// The name given (`NAME=CMD` or the file's `name`), if any.
    pub name: Option<String>,
    /// The command line as given.
    pub command: String,
    /// Its own options.
    pub options: EngineOptions,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnginesFile {
    #[serde(default)]
    each: Option<FileOptions>,
    /// Each engine: `name` and `command`, the rest read as [`FileOptions`].
    #[serde(default)]
    engine: Vec<toml::Table>,
}

/// An on/off option of the engines file: a boolean, or a word as on the command line
/// (`restart = "on"` as `--each restart=on`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Switch {
    Bool(bool),
    Word(String),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileOptions {
    restart: Option<Switch>,
    dir: Option<String>,
    #[serde(default)]
    init: Vec<String>,
    movetime: Option<f64>,
    clock: Option<String>,
    byoyomi: Option<String>,
    odds: Option<f64>,
}

/// Takes the string `key` out of `table`.
fn take_string(table: &mut toml::Table, key: &str) -> Result<Option<String>, String> {
    match table.remove(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("{key} must be a string, not {}", other.type_str())),
    }
}

impl FileOptions {
    /// The options, with a relative `dir` taken from the engines file's folder.
    fn to_options(&self, base: &Path) -> Result<EngineOptions, String> {
        for text in self.init.iter().chain(&self.dir).chain(&self.clock).chain(&self.byoyomi) {
            refuse_control(text).map_err(|e| e.to_string())?;
        }
        let mut options = EngineOptions { init: self.init.clone(), ..EngineOptions::default() };
        match &self.restart {
            Some(Switch::Bool(on)) => options.restart = Some(*on),
            Some(Switch::Word(word)) => options.set("restart", word)?,
            None => {}
        }
        if let Some(dir) = &self.dir {
            options.dir = Some(base.join(dir));
        }
        if let Some(t) = self.movetime {
            options.set("movetime", &t.to_string())?;
        }
        if let Some(c) = &self.clock {
            options.set("clock", c)?;
        }
        if let Some(b) = &self.byoyomi {
            options.set("byoyomi", b)?;
        }
        if let Some(o) = self.odds {
            options.set("odds", &o.to_string())?;
        }
        Ok(options)
    }
}

/// The engines and `each` options of an engines file (TOML; see docs/tournament.md).
pub fn read_engines_file(path: &Path) -> Result<(Vec<EngineEntry>, EngineOptions), String> {
    let shown = path.display();
    let text = veletas_rules::record::read_bounded(path, veletas_rules::record::MAX_SMALL_FILE_BYTES)
        .map_err(|e| format!("--engines {shown}: {e}"))?;
    parse_engines_file(&text, &shown.to_string(), path.parent().unwrap_or(Path::new(".")))
}

/// The engines and `each` options of an engines file's `text` ([`read_engines_file`]
/// without the reading); `shown` names the file in messages, `base` is the folder that
/// relative `dir`s start from.
pub fn parse_engines_file(text: &str, shown: &str, base: &Path) -> Result<(Vec<EngineEntry>, EngineOptions), String> {
    let file: EnginesFile = toml::from_str(text).map_err(|e| {
        let message = e.message().to_string();
        let line = e.span().map(|span| text[..span.start.min(text.len())].lines().count().max(1));
        match line {
            Some(line) => format!("--engines {shown}: line {line}: {message}"),
            None => format!("--engines {shown}: {message}"),
        }
    })?;
    let each = file.each.unwrap_or_default().to_options(base).map_err(|e| format!("--engines {shown}: [each]: {e}"))?;
    let mut entries = Vec::new();
    for (i, mut table) in file.engine.into_iter().enumerate() {
        let which = |e: String| format!("--engines {shown}: engine {}: {e}", i + 1);
        let name = take_string(&mut table, "name").map_err(which)?;
        let command = take_string(&mut table, "command").map_err(which)?.ok_or_else(|| which("no command".into()))?;
        if let Some(name) = &name
            && !is_engine_name(name)
        {
            return Err(which(format!("name '{}': use letters, digits, '_', '.' and '-'", quoted(name))));
        }
        let options: FileOptions = table.try_into().map_err(|e: toml::de::Error| which(e.message().to_string()))?;
        let options = options.to_options(base).map_err(which)?;
        entries.push(EngineEntry { name, command, options });
    }
    Ok((entries, each))
}

/// An `--engine` value: `NAME=CMD ARGS` or `CMD ARGS`.
pub fn entry_from_flag(text: &str) -> EngineEntry {
    let (name, command) = split_engine_name(text);
    EngineEntry { name: name.map(str::to_string), command: command.to_string(), options: EngineOptions::default() }
}

/// The engines of a match or tournament as the command line gives them, not yet read:
/// `--engine` values, an engines file, `--each` and `--option` (read into typed
/// definitions, [`EngineDef`], when the plan is made).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineFlags {
    flags: Vec<String>,
    file: Option<PathBuf>,
    each: Vec<String>,
    options: Vec<String>,
}

impl EngineFlags {
    /// The engines of `flags` (`[NAME=]CMD ARGS` each) after those of the engines `file`,
    /// with `each` (`KEY=VALUE`, over the file's `[each]`) for every engine and `options`
    /// (`NAME:KEY=VALUE`) for one.
    pub fn new(flags: Vec<String>, file: Option<PathBuf>, each: Vec<String>, options: Vec<String>) -> EngineFlags {
        EngineFlags { flags, file, each, options }
    }

    /// The `--engine` values.
    pub fn flags(&self) -> &[String] {
        &self.flags
    }

    /// The engines file.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The engines before start-up: those of the engines file, then those of `--engine`,
    /// with `--each` and `--option` applied; and the options of every engine.
    pub fn entries(&self) -> Result<(Vec<EngineEntry>, EngineOptions), String> {
        let (mut entries, mut each) = match &self.file {
            Some(path) => read_engines_file(path)?,
            None => (Vec::new(), EngineOptions::default()),
        };
        entries.extend(self.flags.iter().map(|text| entry_from_flag(text)));
        for pair in &self.each {
            each.set_pair(pair).map_err(|e| format!("--each {}: {e}", quoted(pair)))?;
        }
        for option in &self.options {
            apply_option(&mut entries, option)?;
        }
        Ok((entries, each))
    }
}

/// Applies `--option NAME:KEY=VALUE` to the engine named NAME, or `--option N:KEY=VALUE` to
/// the Nth engine (1, 2, ...: the engines file's, then `--engine`'s, in their order), which
/// addresses an engine named by its replies. A number that is one engine's name and
/// another's position is refused as ambiguous.
pub fn apply_option(entries: &mut [EngineEntry], text: &str) -> Result<(), String> {
    let shown = quoted(text);
    let (name, pair) =
        text.split_once(':').ok_or_else(|| format!("--option '{shown}': use NAME:KEY=VALUE or N:KEY=VALUE"))?;
    let named = entries.iter().position(|e| e.name.as_deref() == Some(name));
    let placed = name.parse::<usize>().ok().filter(|n| (1..=entries.len()).contains(n)).map(|n| n - 1);
    let index = match (named, placed) {
        (Some(a), Some(b)) if a != b => {
            return Err(format!(
                "--option '{shown}': '{}' is the name of engine {} and the position of engine {}: rename the one",
                quoted(name),
                a + 1,
                b + 1
            ));
        }
        (Some(at), _) | (None, Some(at)) => at,
        (None, None) => {
            let positions = match entries.len() {
                0 => String::new(),
                1 => " or its position, 1".to_string(),
                n => format!(" or its position, 1 to {n}"),
            };
            return Err(format!(
                "--option '{shown}': no engine is named '{}'; give an engine's name{positions}",
                quoted(name)
            ));
        }
    };
    entries[index].options.set_pair(pair).map_err(|e| format!("--option '{shown}': {e}"))
}

/// The ready engines: each entry's options over `each`, over the tournament's `default`
/// time control. Explicit names must be unique.
pub fn resolve(entries: &[EngineEntry], each: &EngineOptions, default: TimeControl) -> Result<Vec<EngineDef>, String> {
    let mut defs = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(name) = &entry.name
            && entries[..i].iter().any(|e| e.name.as_ref() == Some(name))
        {
            return Err(format!("two engines are named '{}': names must be unique", quoted(name)));
        }
        let which = entry.name.clone().unwrap_or_else(|| format!("'{}'", quoted(&entry.command)));
        let mut command = EngineCommand::parse(&entry.command)
            .map_err(|e| format!("engine {which}: command '{}': {e}", quoted(&entry.command)))?;
        let own = &entry.options;
        command.dir = own.dir.clone().or_else(|| each.dir.clone());
        if let Some(dir) = command.dir.as_ref().filter(|d| !d.is_dir()) {
            return Err(format!("engine {which}: its working directory {} does not exist", dir.display()));
        }
        command.init = each.init.iter().chain(&own.init).cloned().collect();
        let control = if own.has_time_control() {
            own.time_control()
        } else if each.has_time_control() {
            each.time_control()
        } else {
            Ok(default)
        }
        .map_err(|e| format!("engine {which}: {e}"))?;
        let odds = own.odds.or(each.odds).unwrap_or(1.0);
        defs.push(EngineDef {
            name: entry.name.clone(),
            command,
            restart: own.restart.or(each.restart).unwrap_or(false),
            time_control: control.scaled(odds),
        });
    }
    Ok(defs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_options_parse_and_refuse_nonsense() {
        let mut o = EngineOptions::default();
        o.set_pair("restart=on").unwrap();
        o.set_pair("init=player uct").unwrap();
        o.set_pair("init=threads 2").unwrap();
        o.set_pair("movetime=0.5").unwrap();
        o.set_pair("odds=2").unwrap();
        assert_eq!(o.restart, Some(true));
        assert_eq!(o.init, ["player uct", "threads 2"]);
        assert_eq!((o.movetime, o.odds), (Some(0.5), Some(2.0)));
        for bad in ["restart=maybe", "colour=red", "movetime=-1", "odds=0", "clock=x", "nokey"] {
            assert!(EngineOptions::default().set_pair(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn own_options_override_each_which_overrides_the_default() {
        let mut entries = vec![entry_from_flag("a=prog --x"), entry_from_flag("prog2"), entry_from_flag("c=prog3")];
        apply_option(&mut entries, "a:movetime=0.2").unwrap();
        apply_option(&mut entries, "a:init=threads 2").unwrap();
        apply_option(&mut entries, "c:odds=2").unwrap();
        assert!(apply_option(&mut entries, "zz:odds=2").unwrap_err().contains("no engine is named 'zz'"));
        // The engine named by its replies is addressed by its position.
        let mut placed = entries.clone();
        apply_option(&mut placed, "2:movetime=0.3").unwrap();
        assert_eq!(placed[1].options.movetime, Some(0.3));
        let e = apply_option(&mut placed, "4:odds=2").unwrap_err();
        assert!(e.contains("no engine is named '4'; give an engine's name or its position, 1 to 3"), "{e}");
        let mut numbered = vec![entry_from_flag("2=prog"), entry_from_flag("prog2")];
        let e = apply_option(&mut numbered, "2:odds=2").unwrap_err();
        assert!(e.contains("the name of engine 1 and the position of engine 2"), "{e}");
        apply_option(&mut numbered, "1:odds=3").unwrap();
        assert_eq!(numbered[0].options.odds, Some(3.0));
        let mut each = EngineOptions::default();
        each.set_pair("clock=10+0.1").unwrap();
        each.set_pair("init=player uct").unwrap();
        each.set_pair("restart=on").unwrap();
        let defs = resolve(&entries, &each, TimeControl::MoveTime(1.0)).unwrap();
        assert_eq!(defs[0].time_control, TimeControl::MoveTime(0.2));
        assert_eq!(defs[0].command.init, ["player uct", "threads 2"]);
        assert_eq!(defs[0].command.args, ["--x"]);
        assert_eq!(defs[1].time_control, TimeControl::Fischer { main: 10.0, increment: 0.1 });
        assert_eq!(defs[2].time_control, TimeControl::Fischer { main: 20.0, increment: 0.2 });
        assert!(defs.iter().all(|d| d.restart));
        let defs = resolve(&entries, &EngineOptions::default(), TimeControl::MoveTime(1.0)).unwrap();
        assert_eq!(defs[1].time_control, TimeControl::MoveTime(1.0));
        assert!(!defs[1].restart);
    }

    #[test]
    fn duplicate_names_and_bad_commands_are_refused() {
        let entries = vec![entry_from_flag("a=x"), entry_from_flag("a=y")];
        let err = resolve(&entries, &EngineOptions::default(), TimeControl::MoveTime(1.0)).unwrap_err();
        assert!(err.contains("two engines are named 'a'"), "{err}");
        let entries = vec![entry_from_flag("a='unclosed")];
        let err = resolve(&entries, &EngineOptions::default(), TimeControl::MoveTime(1.0)).unwrap_err();
        assert!(err.contains("unterminated"), "{err}");
    }

    #[test]
    fn an_engines_file_is_read_with_its_errors_located() {
        let dir = std::env::temp_dir().join(format!("veletas-field-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engines.toml");
        std::fs::write(
            &path,
            "[each]\nrestart = true\n\n[[engine]]\nname = \"uct\"\ncommand = \"veletas --player uct\"\n\
             init = [\"threads 2\"]\nmovetime = 0.5\ndir = \"sub\"\n\n[[engine]]\ncommand = \"veletas\"\n",
        )
        .unwrap();
        let (entries, each) = read_engines_file(&path).unwrap();
        assert_eq!(each.restart, Some(true));
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name.as_deref(), Some("uct"));
        assert_eq!(entries[0].options.init, ["threads 2"]);
        assert_eq!(entries[0].options.movetime, Some(0.5));
        assert_eq!(entries[0].options.dir, Some(dir.join("sub")));
        assert_eq!(entries[1].name, None);
        for (text, on) in [("\"on\"", true), ("\"off\"", false), ("true", true), ("\"yes\"", true)] {
            std::fs::write(
                &path,
                format!("[each]\nrestart = {text}\n\n[[engine]]\ncommand = \"x\"\nrestart = {text}\n"),
            )
            .unwrap();
            let (entries, each) = read_engines_file(&path).unwrap();
            assert_eq!((each.restart, entries[0].options.restart), (Some(on), Some(on)), "restart = {text}");
        }
        std::fs::write(&path, "[[engine]]\ncommand = \"x\"\nrestart = \"sometimes\"\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().contains("restart=sometimes: use on or off"));
        std::fs::write(&path, "[[engine]]\nname = \"a\"\n\ncommand = \"x\n").unwrap();
        let err = read_engines_file(&path).unwrap_err();
        assert!(err.contains("line 4"), "{err}");
        std::fs::write(&path, "[[engine]]\nname = \"a\"\ncommand = 3\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().contains("command must be a string"));
        std::fs::write(&path, "[[engine]]\nname = \"a\"\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().contains("no command"));
        std::fs::write(&path, "[[engine]]\ncommand = \"x\"\nspeed = 3\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().contains("speed"));
        std::fs::write(&path, "[[engine]]\nname = \"a b\"\ncommand = \"x\"\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().contains("name 'a b'"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
