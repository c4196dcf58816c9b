//! What the GUI's API tests share: a server on a free loopback port (or the host asked
//! for), run on a thread of its own and stopped when the test lets go of it.

use std::path::Path;
use std::thread;

use veletas_gui::{Gui, GuiSettings};

/// A server that runs until dropped.
pub struct Running {
    /// `HOST:PORT`, for the sockets and the `Host` header.
    pub address: String,
    stop: Box<dyn Fn()>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        (self.stop)();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The settings of a server on `host` with `engines` (no engines file, no browser).
pub fn settings(host: &str, engines: &[&str], record: Option<&Path>) -> GuiSettings {
    GuiSettings {
        engines: engines.iter().map(|e| e.to_string()).collect(),
        engines_file: None,
        port: 0,
        host: host.into(),
        no_browser: true,
        record: record.map(Path::to_path_buf),
    }
}

/// A server as `args` ask, and the URL it prints.
pub fn start_with(args: &GuiSettings) -> (Running, String) {
    let gui = Gui::bind(args, Path::new("/nonexistent/veletas")).expect("the server listens");
    let url = gui.url.clone();
    let address = url.trim_start_matches("http://").split('/').next().unwrap_or_default().to_string();
    let stop = Box::new(gui.stopper());
    let thread = thread::spawn(move || gui.serve());
    (Running { address, stop, thread: Some(thread) }, url)
}

/// A scripted engine, `NAME=sh -c '...'` as `--engine` takes it: it reads each command as
/// `ID COMMAND REST` and answers with an empty success, except for the commands `arms` handle:
/// shell `case` arms over `$cmd`, each ending in `;;` (`$id` is the command's id).
pub fn scripted(name: &str, arms: &str) -> String {
    format!(r#"{name}=sh -c 'while read id cmd rest; do case "$cmd" in {arms} *) printf "=%s\n\n" "$id";; esac; done'"#)
}
