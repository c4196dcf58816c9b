//! The `veletas` program: parses the command line and sets up logging (stderr only);
//! everything else lives in [`veletas::cli`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    veletas::cli::run(veletas::cli::Cli::parse())
}
