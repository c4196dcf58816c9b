//! The field: each engine's name, command line and options, from `--engine NAME=CMD`,
//! an engines file (`--engines FILE`, TOML), `--each KEY=VALUE` and
//! `--option NAME:KEY=VALUE`.
//!
//! Engine options: `restart=on|off` (a fresh process for every game), `dir=PATH` (working
//! directory), `init=COMMAND` (a protocol command sent after every start; repeatable),
//! `movetime=S`, `clock=MAIN[+INC]`, `byoyomi=PERIOD/STONES` (the engine's own time
//! control) and `odds=F` (its times multiplied by F). An engine's own options override
//! `--each`, which overrides the tournament's time control.
//!
//! What comes out is one [`EngineDef`] per engine, ready to play; the match's and the
//! tournament's plans hold them.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::referee::clock::{ByoYomiSpec, ClockSpec, TimeControl, parse_seconds};
use crate::referee::engine::EngineCommand;
use crate::referee::limits::{OddsError, parse_odds};
use crate::referee::words::{ControlError, SplitError, is_engine_name, refuse_control, split_engine_name};
use veletas_rules::quoted;

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
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        refuse_control(value).map_err(|source| OptionError::Control { key: key.to_string(), source })?;
        // The time parsers' reasons are the rules crate's text.
        let bad = |option: &'static str, detail: &dyn std::fmt::Display| OptionError::Value {
            option,
            value: value.to_string(),
            detail: detail.to_string(),
        };
        match key {
            "restart" => {
                self.restart = Some(match value {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    _ => return Err(OptionError::Restart(value.to_string())),
                })
            }
            "dir" => self.dir = Some(PathBuf::from(value)),
            "init" => self.init.push(value.to_string()),
            "movetime" => self.movetime = Some(parse_seconds(value).map_err(|e| bad("movetime", &e))?),
            "clock" | "tc" => self.clock = Some(value.parse().map_err(|e| bad("clock", &e))?),
            "byoyomi" => self.byoyomi = Some(value.parse().map_err(|e| bad("byoyomi", &e))?),
            "odds" => {
                let odds =
                    parse_odds(value).map_err(|source| OptionError::Odds { value: value.to_string(), source })?;
                self.odds = Some(odds);
            }
            _ => return Err(OptionError::Unknown(key.to_string())),
        }
        Ok(())
    }

    /// Parses and sets `KEY=VALUE`.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), OptionError> {
        let (key, value) = pair.split_once('=').ok_or_else(|| OptionError::NotPair(pair.to_string()))?;
        self.set(key.trim(), value.trim())
    }

    fn has_time_control(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some() || self.byoyomi.is_some()
    }
}

/// Why an engine option (`KEY=VALUE`) is refused ([`EngineOptions::set`],
/// [`EngineOptions::set_pair`]); the user's words are quoted when shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// The value holds a control character.
    #[error("{}={source}", quoted(.key))]
    Control {
        /// The option.
        key: String,
        /// The value and its control character.
        source: ControlError,
    },
    /// `restart=` is neither on nor off.
    #[error("restart={}: use on or off", quoted(.0))]
    Restart(String),
    /// A time (`movetime`, `clock`, `byoyomi`) that does not read.
    #[error("{option}={}: {detail}", quoted(.value))]
    Value {
        /// The option.
        option: &'static str,
        /// The value as given.
        value: String,
        /// Why it does not read (the time parser's words).
        detail: String,
    },
    /// `odds=` is no factor.
    #[error("odds={}: {source}", quoted(.value))]
    Odds {
        /// The value as given.
        value: String,
        /// Why.
        source: OddsError,
    },
    /// No such option.
    #[error("unknown engine option '{}' (options: restart, dir, init, movetime, clock, byoyomi, odds)", quoted(.0))]
    Unknown(String),
    /// No `=` in it.
    #[error("'{}' is not KEY=VALUE", quoted(.0))]
    NotPair(String),
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
fn take_string(table: &mut toml::Table, key: &'static str) -> Result<Option<String>, NotAString> {
    match table.remove(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(NotAString { key, found: other.type_str() }),
    }
}

/// A key of the engines file that must be a string and is not (`take_string`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key} must be a string, not {found}")]
pub struct NotAString {
    /// The key.
    key: &'static str,
    /// The TOML type it has.
    found: &'static str,
}

/// Why an engines file's options (an engine's, or `[each]`) are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileOptionError {
    /// A value holds a control character.
    #[error(transparent)]
    Control(#[from] ControlError),
    /// An option is refused as on the command line.
    #[error(transparent)]
    Option(#[from] OptionError),
}

impl FileOptions {
    /// The options, with a relative `dir` taken from the engines file's folder.
    fn to_options(&self, base: &Path) -> Result<EngineOptions, FileOptionError> {
        for text in self.init.iter().chain(&self.dir).chain(&self.clock).chain(&self.byoyomi) {
            refuse_control(text)?;
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
pub fn read_engines_file(path: &Path) -> Result<(Vec<EngineEntry>, EngineOptions), EnginesFileError> {
    let shown = path.display().to_string();
    let text = veletas_rules::record::read_bounded(path, veletas_rules::record::MAX_SMALL_FILE_BYTES)
        .map_err(|source| EnginesFileError::Read { shown: shown.clone(), source })?;
    parse_engines_file(&text, &shown, path.parent().unwrap_or(Path::new(".")))
}

/// The engines and `each` options of an engines file's `text` ([`read_engines_file`]
/// without the reading); `shown` names the file in messages, `base` is the folder that
/// relative `dir`s start from.
pub fn parse_engines_file(
    text: &str,
    shown: &str,
    base: &Path,
) -> Result<(Vec<EngineEntry>, EngineOptions), EnginesFileError> {
    let file: EnginesFile = toml::from_str(text).map_err(|source: toml::de::Error| {
        let line = source.span().map(|span| text[..span.start.min(text.len())].lines().count().max(1));
        EnginesFileError::Toml { shown: shown.to_string(), line, source: Box::new(source) }
    })?;
    let each = file
        .each
        .unwrap_or_default()
        .to_options(base)
        .map_err(|source| EnginesFileError::Each { shown: shown.to_string(), source })?;
    let mut entries = Vec::new();
    for (i, mut table) in file.engine.into_iter().enumerate() {
        let which =
            |source: EngineTableError| EnginesFileError::Engine { shown: shown.to_string(), number: i + 1, source };
        let name = take_string(&mut table, "name").map_err(|e| which(e.into()))?;
        let command = take_string(&mut table, "command")
            .map_err(|e| which(e.into()))?
            .ok_or_else(|| which(EngineTableError::NoCommand))?;
        if let Some(name) = &name
            && !is_engine_name(name)
        {
            return Err(which(EngineTableError::BadName(name.clone())));
        }
        let options: FileOptions =
            table.try_into().map_err(|e: toml::de::Error| which(EngineTableError::Toml(Box::new(e))))?;
        let options = options.to_options(base).map_err(|e| which(e.into()))?;
        entries.push(EngineEntry { name, command, options });
    }
    Ok((entries, each))
}

/// Why an engines file gives no engines ([`read_engines_file`], [`parse_engines_file`]);
/// `shown` names the file.
#[derive(Debug, thiserror::Error)]
pub enum EnginesFileError {
    /// The file cannot be read (or is too big).
    #[error("--engines {shown}: {source}")]
    Read {
        /// The file.
        shown: String,
        /// Why.
        source: veletas_rules::record::RecordFileError,
    },
    /// The file is no TOML of the expected tables, at `line` when TOML says where.
    #[error("--engines {shown}: {}{}", .line.map_or(String::new(), |line| format!("line {line}: ")), .source.message())]
    Toml {
        /// The file.
        shown: String,
        /// The line of the error.
        line: Option<usize>,
        /// TOML's error.
        source: Box<toml::de::Error>,
    },
    /// The `[each]` table's options are refused.
    #[error("--engines {shown}: [each]: {source}")]
    Each {
        /// The file.
        shown: String,
        /// Why.
        source: FileOptionError,
    },
    /// An `[[engine]]` table is refused.
    #[error("--engines {shown}: engine {number}: {source}")]
    Engine {
        /// The file.
        shown: String,
        /// The engine's number in the file, from 1.
        number: usize,
        /// Why.
        source: EngineTableError,
    },
}

/// Why an `[[engine]]` table of an engines file is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineTableError {
    /// `name` or `command` is no string.
    #[error(transparent)]
    NotAString(#[from] NotAString),
    /// No `command`.
    #[error("no command")]
    NoCommand,
    /// A name with other characters than an engine name's.
    #[error("name '{}': use letters, digits, '_', '.' and '-'", quoted(.0))]
    BadName(String),
    /// Unknown keys, or values of the wrong type.
    #[error("{}", .0.message())]
    Toml(#[source] Box<toml::de::Error>),
    /// An option is refused.
    #[error(transparent)]
    Options(#[from] FileOptionError),
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
    pub fn entries(&self) -> Result<(Vec<EngineEntry>, EngineOptions), EntriesError> {
        let (mut entries, mut each) = match &self.file {
            Some(path) => read_engines_file(path)?,
            None => (Vec::new(), EngineOptions::default()),
        };
        entries.extend(self.flags.iter().map(|text| entry_from_flag(text)));
        for pair in &self.each {
            each.set_pair(pair).map_err(|source| EntriesError::Each { pair: pair.clone(), source })?;
        }
        for option in &self.options {
            apply_option(&mut entries, option)?;
        }
        Ok((entries, each))
    }
}

/// Why the command line's engines give no entries ([`EngineFlags::entries`]).
#[derive(Debug, thiserror::Error)]
pub enum EntriesError {
    /// The engines file is refused.
    #[error(transparent)]
    File(#[from] EnginesFileError),
    /// An `--each` option is refused.
    #[error("--each {}: {source}", quoted(.pair))]
    Each {
        /// The option as given.
        pair: String,
        /// Why.
        source: OptionError,
    },
    /// An `--option` is refused.
    #[error(transparent)]
    Option(#[from] ApplyError),
}

/// Applies `--option NAME:KEY=VALUE` to the engine named NAME, or `--option N:KEY=VALUE` to
/// the Nth engine (1, 2, ...: the engines file's, then `--engine`'s, in their order), which
/// addresses an engine named by its replies. A number that is one engine's name and
/// another's position is refused as ambiguous.
pub fn apply_option(entries: &mut [EngineEntry], text: &str) -> Result<(), ApplyError> {
    let refused = |why: ApplyWhy| ApplyError { text: text.to_string(), why };
    let (name, pair) = text.split_once(':').ok_or_else(|| refused(ApplyWhy::NoColon))?;
    let named = entries.iter().position(|e| e.name.as_deref() == Some(name));
    let placed = name.parse::<usize>().ok().filter(|n| (1..=entries.len()).contains(n)).map(|n| n - 1);
    let index = match (named, placed) {
        (Some(a), Some(b)) if a != b => {
            return Err(refused(ApplyWhy::Ambiguous { name: name.to_string(), named: a + 1, placed: b + 1 }));
        }
        (Some(at), _) | (None, Some(at)) => at,
        (None, None) => return Err(refused(ApplyWhy::NoEngine { name: name.to_string(), engines: entries.len() })),
    };
    entries[index].options.set_pair(pair).map_err(|e| refused(ApplyWhy::Option(e)))
}

/// Why an `--option NAME:KEY=VALUE` is refused ([`apply_option`]): the option as given
/// (quoted when shown) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--option '{}': {why}", quoted(.text))]
pub struct ApplyError {
    /// The option as given.
    text: String,
    /// Why.
    #[source]
    why: ApplyWhy,
}

/// What is wrong with an `--option` ([`ApplyError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyWhy {
    /// No `:` in it.
    #[error("use NAME:KEY=VALUE or N:KEY=VALUE")]
    NoColon,
    /// NAME names one engine and is the position of another.
    #[error(
        "'{}' is the name of engine {named} and the position of engine {placed}: rename the one",
        quoted(.name)
    )]
    Ambiguous {
        /// The name.
        name: String,
        /// The engine it names, from 1.
        named: usize,
        /// The engine at that position.
        placed: usize,
    },
    /// NAME is no engine's name or position.
    #[error("no engine is named '{}'; give an engine's name{}", quoted(.name), positions(*.engines))]
    NoEngine {
        /// The name.
        name: String,
        /// The number of engines.
        engines: usize,
    },
    /// The option itself is refused.
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// The positions an `--option` may give among `engines` engines, as [`ApplyWhy::NoEngine`] says them.
fn positions(engines: usize) -> String {
    match engines {
        0 => String::new(),
        1 => " or its position, 1".to_string(),
        n => format!(" or its position, 1 to {n}"),
    }
}

/// The ready engines: each entry's options over `each`, over the tournament's `default`
/// time control. Explicit names must be unique.
pub fn resolve(
    entries: &[EngineEntry],
    each: &EngineOptions,
    default: TimeControl,
) -> Result<Vec<EngineDef>, ResolveError> {
    let mut defs = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if let Some(name) = &entry.name
            && entries[..i].iter().any(|e| e.name.as_ref() == Some(name))
        {
            return Err(ResolveError::SameName(name.clone()));
        }
        let which = entry.name.clone().unwrap_or_else(|| format!("'{}'", quoted(&entry.command)));
        let mut command = EngineCommand::parse(&entry.command).map_err(|source| ResolveError::Command {
            which: which.clone(),
            command: entry.command.clone(),
            source,
        })?;
        let own = &entry.options;
        command.dir = own.dir.clone().or_else(|| each.dir.clone());
        if let Some(dir) = command.dir.as_ref().filter(|d| !d.is_dir()) {
            return Err(ResolveError::NoDir { which, dir: dir.clone() });
        }
        command.init = each.init.iter().chain(&own.init).cloned().collect();
        let time_control = |o: &EngineOptions| TimeControl::from_options(o.movetime, o.clock, o.byoyomi);
        let control = if own.has_time_control() {
            time_control(own)
        } else if each.has_time_control() {
            time_control(each)
        } else {
            Ok(default)
        }
        // The rules crate's reason, as text.
        .map_err(|e| ResolveError::TimeControl { which, detail: e.to_string() })?;
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

/// Why the engines' entries make no field ([`resolve`]); `which` names the engine (its
/// name, or its command line quoted).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Two engines have one name.
    #[error("two engines are named '{}': names must be unique", quoted(.0))]
    SameName(String),
    /// A command line that does not split into words.
    #[error("engine {which}: command '{}': {source}", quoted(.command))]
    Command {
        /// The engine.
        which: String,
        /// Its command line.
        command: String,
        /// Why.
        source: SplitError,
    },
    /// A working directory that is not one.
    #[error("engine {which}: its working directory {} does not exist", .dir.display())]
    NoDir {
        /// The engine.
        which: String,
        /// The directory.
        dir: PathBuf,
    },
    /// Time options that make no time control.
    #[error("engine {which}: {detail}")]
    TimeControl {
        /// The engine.
        which: String,
        /// Why (the rules crate's words).
        detail: String,
    },
}

/// An engine ready to play: command, restart policy and time control.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineDef {
    /// The name given, if any (else the engine's `name` reply is used).
    pub name: Option<String>,
    /// The command line, working directory and start-up commands.
    pub command: EngineCommand,
    /// A fresh process for every game.
    pub restart: bool,
    /// Its clock's time control (odds applied).
    pub time_control: TimeControl,
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
        assert!(apply_option(&mut entries, "zz:odds=2").unwrap_err().to_string().contains("no engine is named 'zz'"));
        // The engine named by its replies is addressed by its position.
        let mut placed = entries.clone();
        apply_option(&mut placed, "2:movetime=0.3").unwrap();
        assert_eq!(placed[1].options.movetime, Some(0.3));
        let e = apply_option(&mut placed, "4:odds=2").unwrap_err().to_string();
        assert!(e.contains("no engine is named '4'; give an engine's name or its position, 1 to 3"), "{e}");
        let mut numbered = vec![entry_from_flag("2=prog"), entry_from_flag("prog2")];
        let e = apply_option(&mut numbered, "2:odds=2").unwrap_err().to_string();
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
        let err = resolve(&entries, &EngineOptions::default(), TimeControl::MoveTime(1.0)).unwrap_err().to_string();
        assert!(err.contains("two engines are named 'a'"), "{err}");
        let entries = vec![entry_from_flag("a='unclosed")];
        let err = resolve(&entries, &EngineOptions::default(), TimeControl::MoveTime(1.0)).unwrap_err().to_string();
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
        assert!(read_engines_file(&path).unwrap_err().to_string().contains("restart=sometimes: use on or off"));
        std::fs::write(&path, "[[engine]]\nname = \"a\"\n\ncommand = \"x\n").unwrap();
        let err = read_engines_file(&path).unwrap_err().to_string();
        assert!(err.contains("line 4"), "{err}");
        std::fs::write(&path, "[[engine]]\nname = \"a\"\ncommand = 3\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().to_string().contains("command must be a string"));
        std::fs::write(&path, "[[engine]]\nname = \"a\"\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().to_string().contains("no command"));
        std::fs::write(&path, "[[engine]]\ncommand = \"x\"\nspeed = 3\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().to_string().contains("speed"));
        std::fs::write(&path, "[[engine]]\nname = \"a b\"\ncommand = \"x\"\n").unwrap();
        assert!(read_engines_file(&path).unwrap_err().to_string().contains("name 'a b'"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
