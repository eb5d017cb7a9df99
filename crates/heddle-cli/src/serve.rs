//! `heddle serve`: the UI and API over HTTP for a browser on this machine.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use heddle_api::runs::HeddleHome;
use heddle_api::{LaunchInfo, RunHost, new_token};
use heddle_server::{LAUNCH_PARAM, ServeError, ServerConfig, bind, serve};

/// Options after the environment has been consulted.
#[derive(Debug)]
pub struct ServeOptions {
    /// `--bind` address and `--port` (0: any free port).
    pub addr: SocketAddr,
    /// Folder of workflows to list.
    pub workspace: PathBuf,
    /// The built UI (`ui/dist`) to serve; `None`: the API only.
    pub ui_dir: Option<PathBuf>,
    /// A workflow the page opens first (`--file`).
    pub file: Option<PathBuf>,
    /// Open the launch URL in the default browser.
    pub open: bool,
    /// Heddle's data folder: `$HEDDLE_HOME`, else `~/.heddle`.
    pub home: HeddleHome,
    /// The environment runs' commands get.
    pub vars: Vec<(String, String)>,
}

/// The repository's built UI, for runs from a checkout.
pub fn default_ui_dir(env_ui_dir: Option<PathBuf>) -> Option<PathBuf> {
    env_ui_dir.or_else(|| {
        let in_repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist");
        in_repo.join("index.html").is_file().then_some(in_repo)
    })
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
    if opts.ui_dir.is_none() {
        let _ = writeln!(
            err,
            "warning: no built UI found (build it with `npm --prefix ui run build` or pass --ui-dir); serving the API only"
        );
    }
    if opts.open {
        open_browser(&url, err);
    }
    let config = ServerConfig {
        ui_dir: opts.ui_dir,
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
