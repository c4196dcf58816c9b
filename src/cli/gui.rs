//! `veletas gui`: its options, validated once into [`GuiSettings`], and the server run.

use std::path::PathBuf;

use clap::Args;
use veletas_gui::{Gui, GuiError, GuiSettings};

use super::error::{Classified, CommandError, classified, failed};

/// Options of `veletas gui`.
#[derive(Args, Clone, Debug, PartialEq)]
#[command(after_help = "Examples:\n  veletas gui\n  veletas gui --engine strong='veletas --playouts 20000' \
--engine random='veletas --player random'\n  veletas gui --engines engines.toml\n  veletas gui --no-browser --port 8080 --record my-games.txt")]
pub struct GuiArgs {
    /// An engine the page may choose for either colour (repeatable), `NAME=CMD ARGS` or
    /// `CMD ARGS`, run without a shell. Default: this program as the engine (thinking for
    /// the time the page gives each move), and its easy players greedy and random.
    #[arg(long = "engine", value_name = "[NAME=]CMD ARGS")]
    pub engines: Vec<String>,
    /// An engines file (TOML), as `veletas tournament --engines` reads it: `[[engine]]`
    /// tables with name, command, dir and init, and an optional `[each]` table. Its engines
    /// come before those of --engine.
    #[arg(long = "engines", value_name = "FILE")]
    pub engines_file: Option<PathBuf>,
    /// The port to listen on (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on. Any other than loopback needs the token printed in the
    /// URL, so that nobody else on the network can use the server. On every address
    /// (0.0.0.0 or ::) the URL names loopback, and stderr says how another machine opens it.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Print the URL but open no browser.
    #[arg(long)]
    pub no_browser: bool,
    /// Append every finished game to this record file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

impl GuiArgs {
    /// The options validated once into the server's settings, `program` (this very program)
    /// being the default engine and the program `veletas` names.
    fn settings(self, program: &std::path::Path) -> Result<GuiSettings, GuiError> {
        let GuiArgs { engines, engines_file, port, host, no_browser, record } = self;
        Ok(GuiSettings::new(&engines, engines_file.as_deref(), program)?
            .listening(&host, port)?
            .with_record(record)
            .with_browser(!no_browser))
    }
}

/// Runs `veletas gui`, offering this very program as the default engine.
pub(super) fn gui(args: GuiArgs) -> Result<(), CommandError> {
    let program = std::env::current_exe().map_err(|e| failed("gui")(format!("cannot find this program: {e}")))?;
    let settings = args.settings(&program).map_err(classified("gui"))?;
    let gui = Gui::bind(&settings).map_err(classified("gui"))?;
    // Ctrl-C (and SIGTERM) end the serving; the games are closed and their engines ended.
    if let Err(e) = ctrlc::set_handler(gui.stopper()) {
        log::warn!("cannot catch Ctrl-C: {e}");
    }
    gui.announce().map_err(classified("gui"))?;
    gui.serve();
    Ok(())
}

impl Classified for GuiError {
    fn is_usage(&self) -> bool {
        matches!(self, GuiError::Options(_))
    }
}
