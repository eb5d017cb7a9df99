//! `heddle serve`: the UI and API over HTTP for a browser on this machine.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use heddle_api::runs::HeddleHome;
use heddle_api::{LaunchInfo, RunHost, new_token};
use heddle_server::{
    BUILD_THE_UI, INDEX, LAUNCH_PARAM, ServeError, ServerConfig, UiSource, bind, serve,
};

use crate::embedded_ui;

/// Options after the environment has been consulted.
#[derive(Debug)]
pub struct ServeOptions {
    /// `--bind` address and `--port` (0: any free port).
    pub addr: SocketAddr,
    /// Folder of workflows to list.
    pub workspace: PathBuf,
    /// Where the UI's files come from: compiled in, or a folder (`--ui-dir`).
    pub ui: UiSource,
    /// A workflow the page opens first (`--file`).
    pub file: Option<PathBuf>,
    /// Open the launch URL in the default browser.
    pub open: bool,
    /// Heddle's data folder: `$HEDDLE_HOME`, else `~/.heddle`.
    pub home: HeddleHome,
    /// The environment runs' commands get.
    pub vars: Vec<(String, String)>,
}

/// The UI to serve: the folder `--ui-dir` names, else `$HEDDLE_UI_DIR`'s (both for UI
/// development), else the one compiled into the binary. A folder without `index.html` is
/// an error, not a silent fallback.
pub fn choose_ui(flag: Option<PathBuf>, env: Option<PathBuf>) -> Result<UiSource, String> {
    let given = flag.map(|dir| (dir, "--ui-dir")).or_else(|| {
        env.filter(|d| !d.as_os_str().is_empty())
            .map(|dir| (dir, "HEDDLE_UI_DIR"))
    });
    match given {
        Some((dir, _)) if dir.join(INDEX).is_file() => Ok(UiSource::Folder(dir)),
        Some((dir, from)) => Err(format!(
            "{from} {}: no {INDEX} there; give the folder `npm --prefix ui run build` writes \
             (ui/dist)",
            dir.display()
        )),
        None => Ok(embedded_ui::source()),
    }
}

/// Binds, prints the launch URL (the first line of stdout, which scripts wait for) and the
/// access token for scripts (the second), and serves. The URL carries a one-time launch
/// token, never the access token: the browser that opens it first gets the token as a
/// cookie, and the link is spent.
pub async fn run(
    opts: ServeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), ServeError> {
    let remote = !opts.addr.ip().is_loopback();
    let listener = bind(opts.addr, true).await?;
    let local = listener.local_addr().map_err(ServeError::Io)?;
    let entropy = heddle_engine::OsEntropy::new();
    let token = new_token(&entropy);
    let launch = new_token(&entropy);
    let url = format!("http://{local}/?{LAUNCH_PARAM}={launch}");
    let _ = writeln!(out, "Heddle is serving {url}");
    let _ = writeln!(
        out,
        "The link works once. Scripts send the header `Authorization: Bearer {token}`"
    );
    let _ = out.flush();
    if remote {
        let _ = writeln!(
            err,
            "warning: listening on {local}, which other machines can reach. Anyone who can connect \
             and has the token (or the unused link) can run commands on this machine as you, \
             through the workflows they start, and read and write your files; the connection is \
             plain HTTP, so anyone on the network path can read the token"
        );
    }
    if matches!(opts.ui, UiSource::NotBuilt) {
        let _ = writeln!(
            err,
            "warning: this heddle was built without its UI; serving the API and a page that says \
             how to get the UI: {BUILD_THE_UI}"
        );
    }
    if opts.open {
        open_browser(&url, err);
    }
    let config = ServerConfig {
        ui: opts.ui,
        launch: LaunchInfo {
            initial_file: opts.file.map(|f| absolute(&f).display().to_string()),
            workspace_dir: Some(absolute(&opts.workspace).display().to_string()),
        },
        allow_any_host: remote,
        token,
        launch_token: Some(launch),
        port: local.port(),
        watches: heddle_api::WorkflowWatches::default(),
        host: RunHost::open(opts.home, opts.vars)
            .await
            .map_err(|e| ServeError::Setup(e.to_string()))?,
    };
    serve(listener, config).await
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn open_browser(url: &str, err: &mut dyn Write) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        let _ = writeln!(
            err,
            "warning: could not open a browser ({opener}: {e}); open {url} yourself"
        );
    }
}
