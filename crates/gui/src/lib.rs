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
mod error;
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
pub mod settings;
pub mod steps;
pub mod variation;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use crate::server::App;
use crate::session::Settings;

pub use crate::error::GuiError;
pub use crate::settings::GuiSettings;

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
    open_browser: bool,
    app: Arc<App>,
    listener: http::Listener,
}

impl Gui {
    /// Listens as `settings` ask (on the first address their host names).
    pub fn bind(settings: &GuiSettings) -> Result<Gui, GuiError> {
        let address = settings.addresses()[0];
        let listener =
            http::Listener::bind(address).map_err(|e| GuiError::Serve(format!("cannot listen on {address}: {e}")))?;
        let port = listener.local_addr().map_or(address.port(), |a| a.port());
        let (token, hosts) = if settings.is_loopback() {
            let hosts = ["localhost", "127.0.0.1", "[::1]", settings.host()].map(str::to_string).to_vec();
            (None, hosts)
        } else {
            (Some(random_token()), Vec::new())
        };
        let url = page_url(address.ip(), port, token.as_deref());
        let elsewhere = elsewhere_note(address.ip(), port, token.as_deref());
        let session = Settings {
            engines: settings.engines().to_vec(),
            command_timeout: Duration::from_secs(10),
            margin: 0.5,
            record: settings.record().map(std::path::Path::to_path_buf),
        };
        let app = Arc::new(App::new(session, token, hosts, port));
        let notes = settings.notes().to_vec();
        Ok(Gui { url, elsewhere, notes, open_browser: settings.open_browser(), app, listener })
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
    /// and, when the settings ask for it, the page opened in a browser. (The command line then sets
    /// its Ctrl-C handler to the [`Gui::stopper`] and calls [`Gui::serve`].)
    pub fn announce(&self) -> Result<(), GuiError> {
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
        if self.open_browser {
            open_browser(&self.url);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random() {
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
