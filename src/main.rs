//! The `veletas` program: parses the command line and sets up logging (stderr only);
//! everything else lives in [`veletas::cli`].

use std::process::ExitCode;

use veletas::cli::Cli;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match Cli::try_parse_checked(std::env::args_os()) {
        Ok(cli) => veletas::cli::run(cli),
        Err(e) => e.exit(),
    }
}
