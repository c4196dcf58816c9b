//! The field of a match or tournament: the engines (command, restart policy, time
//! control), their names, the openings and the settings every game shares; how an engine of
//! the field is made, checked (`--check`) and started once before the first game.

use std::path::PathBuf;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crate::referee::engine::{EngineClient, EngineCommand};
use crate::referee::error::RefereeError;
use crate::referee::field::EngineDef;
use crate::referee::openings::OpeningBook;
use crate::referee::plan::CommonPlan;
use crate::referee::traffic::{LogBudget, ProtocolLog, Traffic};

/// The engines and everything every game shares.
pub(crate) struct Field {
    /// The engines, in field order (a match's engine 1 first).
    pub defs: Vec<EngineDef>,
    /// Their names, for screen and records alike (set by [`Field::probe`] or the caller).
    pub names: Vec<String>,
    /// The engines' stderr log.
    pub log: Option<PathBuf>,
    /// The openings.
    pub book: OpeningBook,
    /// Seconds a move may exceed the clock.
    pub margin: f64,
    /// The deadline of commands other than `genmove`.
    pub command_timeout: Duration,
    /// Whether to record the first steps' playouts of engines that report them.
    pub record_steps: bool,
    /// The protocol log (`--log-protocol`).
    protocol: Option<Arc<ProtocolLog>>,
    /// What each engine may still write to the logs in this run.
    budgets: Vec<Arc<LogBudget>>,
}

impl Field {
    /// The field of `defs` with the shared settings of `common` (the protocol log opened);
    /// names are set later.
    pub fn new(
        defs: Vec<EngineDef>,
        book: OpeningBook,
        log: Option<PathBuf>,
        common: &CommonPlan,
    ) -> Result<Field, RefereeError> {
        let protocol = match common.log_protocol() {
            Some(path) => Some(
                ProtocolLog::open(path)
                    .map_err(|e| RefereeError::Output(format!("--log-protocol {}: {e}", path.display())))?,
            ),
            None => None,
        };
        let budgets = defs.iter().map(|_| LogBudget::new(protocol.clone())).collect();
        Ok(Field {
            budgets,
            defs,
            names: Vec::new(),
            log,
            book,
            margin: common.margin(),
            command_timeout: common.command_timeout(),
            record_steps: common.record_steps(),
            protocol,
        })
    }

    /// A new engine of the field, not started: engine `index`, called `name` in the logs.
    pub(super) fn engine(&self, index: usize, name: &str) -> EngineClient {
        let def = &self.defs[index];
        let traffic = Traffic::new(name, self.protocol.clone()).with_budget(Arc::clone(&self.budgets[index]));
        EngineClient::new(def.command.clone(), self.log.clone()).with_traffic(traffic)
    }

    /// Runs the required checks of `veletas check` on every engine (`--check`); the
    /// first engine that fails one is refused, with the check and its reason.
    pub fn check(&self) -> Result<(), RefereeError> {
        let settings = crate::check::CheckSettings::for_games(
            self.book.variant,
            self.book.rules.set,
            self.command_timeout,
            self.margin,
        );
        for def in &self.defs {
            crate::check::required_checks(&def.command, &settings).map_err(|detail| RefereeError::Refused {
                command: shown_command(def),
                detail: format!("--check: {detail}"),
            })?;
        }
        Ok(())
    }

    /// Before the first game: with `check` the required checks ([`Field::check`]), then
    /// every engine started once ([`Field::probe`]).
    pub fn start(&mut self, check: bool) -> Result<Vec<EngineClient>, RefereeError> {
        if check {
            self.check()?;
        }
        self.probe()
    }

    /// Starts every engine once (in parallel): each must answer `protocol_version` and
    /// `name` ([`EngineClient::greet`]), or none plays. Names the field from the names
    /// given and the replies ([`super::names::distinct_names`]) and returns
    /// the engines still running, for the first worker.
    pub fn probe(&mut self) -> Result<Vec<EngineClient>, RefereeError> {
        let timeout = self.command_timeout;
        let probed: Vec<Result<(String, EngineClient), RefereeError>> = thread::scope(|scope| {
            let handles: Vec<_> = self
                .defs
                .iter()
                .enumerate()
                .map(|(index, def)| {
                    let engine = self.engine(index, def.name.as_deref().unwrap_or(&def.command.text));
                    scope.spawn(move || {
                        let mut engine = engine;
                        let named = match engine.ensure_running() {
                            Err(e) => Err(RefereeError::Engine { command: shown_command(def), detail: e.to_string() }),
                            Ok(_) => engine.greet(timeout).map(|identity| identity.full_name()).map_err(|detail| {
                                RefereeError::Refused {
                                    command: shown_command(def),
                                    detail: format!("at start-up, {detail}"),
                                }
                            }),
                        };
                        match named {
                            Ok(name) => Ok((name, engine)),
                            Err(e) => {
                                engine.quit(Duration::from_millis(500));
                                Err(e)
                            }
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| Err(RefereeError::Failed("the start-up of an engine failed".into())))
                })
                .collect()
        });
        let mut raw = Vec::new();
        let mut engines = Vec::new();
        let mut failure = None;
        for (def, result) in self.defs.iter().zip(probed) {
            match result {
                Ok((replied, engine)) => {
                    raw.push(def.name.clone().unwrap_or(replied));
                    engines.push(engine);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        if let Some(e) = failure {
            engines.iter_mut().for_each(|engine| engine.quit(Duration::from_millis(500)));
            return Err(e);
        }
        self.name(&raw);
        Ok(engines)
    }

    /// Names the field from `raw` names (the names given, else replies or recorded
    /// names): engines with the same name are told apart by their command lines.
    pub fn name(&mut self, raw: &[String]) {
        let fixed: Vec<bool> = self.defs.iter().map(|d| d.name.is_some()).collect();
        let commands: Vec<&EngineCommand> = self.defs.iter().map(|d| &d.command).collect();
        self.names = super::names::distinct_names(raw, &fixed, &commands);
    }

    /// Names the field from the names a record gives (already carrying their command
    /// lines; the names given still kept, equal ones numbered).
    pub fn name_as_recorded(&mut self, recorded: &[String]) {
        let fixed: Vec<bool> = self.defs.iter().map(|d| d.name.is_some()).collect();
        self.names = super::names::unique_names(recorded, &fixed);
    }
}

/// The files a run creates before its engines start (the record file, the engine log, the
/// protocol log), to remove again when an engine is refused before the first game: a
/// refused run leaves no empty record or log behind (the error carries the engine's last
/// stderr lines).
pub(crate) struct NewFiles {
    paths: Vec<PathBuf>,
}

impl NewFiles {
    /// Those of `paths` that do not exist yet.
    pub fn before<'p>(paths: impl IntoIterator<Item = Option<&'p std::path::Path>>) -> NewFiles {
        let paths = paths.into_iter().flatten().filter(|p| std::fs::symlink_metadata(p).is_err());
        NewFiles { paths: paths.map(std::path::Path::to_path_buf).collect() }
    }

    /// Removes those that exist now, the run refused (after the record file's lock is let
    /// go: a referee that waited for it opens the path anew, see `record_file`). A record
    /// that holds anything (another referee wrote to it meanwhile) is kept.
    pub fn remove(&self, record: Option<&std::path::Path>) {
        for path in &self.paths {
            let empty = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0);
            if Some(path.as_path()) != record || empty {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// How an engine is shown in an error: `NAME=CMD` when named, else its command line.
fn shown_command(def: &EngineDef) -> String {
    match &def.name {
        Some(name) => format!("{name}={}", def.command.text),
        None => def.command.text.clone(),
    }
}
