//! `veletas generate`: the shell completions and the man page, made from the command line's
//! own definition (clap_complete and clap_mangen read the same [`super::Cli`] command that
//! parses the arguments, handed to [`write()`]), so they cannot drift from the program.

use std::io::{self, Write};

use clap::ValueEnum;
use clap_complete::Shell;

/// What `veletas generate` writes on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generated {
    /// The man page (roff), every subcommand in one page: `man -l` shows it.
    Man,
    /// Completions for bash.
    Bash,
    /// Completions for zsh.
    Zsh,
    /// Completions for fish.
    Fish,
    /// Completions for elvish.
    Elvish,
    /// Completions for PowerShell.
    Powershell,
}

/// Writes `what` for the program `command` (the whole command line, `Cli::command()`) to
/// `out`. The text is made in memory first, so a closed pipe is an error to report, never a
/// panic halfway through.
pub fn write(what: Generated, mut command: clap::Command, out: &mut impl Write) -> io::Result<()> {
    let mut text = Vec::new();
    let shell = match what {
        Generated::Man => {
            man_page(&command, &mut text)?;
            return out.write_all(&text).and_then(|()| out.flush());
        }
        Generated::Bash => Shell::Bash,
        Generated::Zsh => Shell::Zsh,
        Generated::Fish => Shell::Fish,
        Generated::Elvish => Shell::Elvish,
        Generated::Powershell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut command, "veletas", &mut text);
    out.write_all(&text).and_then(|()| out.flush())
}

/// The man page: the program's sections, then one section per subcommand (its synopsis,
/// description, options and examples), as `git help` pages do for a command's parts.
fn man_page(command: &clap::Command, out: &mut Vec<u8>) -> io::Result<()> {
    let page = clap_mangen::Man::new(command.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    page.render_options_section(out)?;
    page.render_subcommands_section(out)?;
    page.render_extra_section(out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("veletas {}", sub.get_name());
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        let sub = sub.clone().display_name(name.clone()).bin_name(name);
        let part = clap_mangen::Man::new(sub.clone());
        let mut text = Vec::new();
        part.render_synopsis_section(&mut text)?;
        part.render_description_section(&mut text)?;
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            part.render_options_section(&mut text)?;
        }
        part.render_extra_section(&mut text)?;
        // The subcommand's own sections become subsections of its section.
        out.extend_from_slice(String::from_utf8_lossy(&text).replace(".SH ", ".SS ").as_bytes());
    }
    page.render_version_section(out)?;
    page.render_authors_section(out)
}
