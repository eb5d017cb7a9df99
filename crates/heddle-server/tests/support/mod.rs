//! What the HTTP door's tests share: a server configuration over a data dir of its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

pub mod live;

use heddle_api::LaunchInfo;
use heddle_server::ServerConfig;

/// The token every test request carries.
pub const TOKEN: &str = "test-token";

/// The one-time launch token.
pub const LAUNCH: &str = "launch-once";

/// The port the configuration names (its cookie is `heddle_token_7878`).
pub const PORT: u16 = 7878;

/// A configuration serving no UI, over a fresh data dir (kept for the process's life; these
/// tests start no run).
pub async fn config() -> ServerConfig {
    let home = tempfile::tempdir().unwrap().keep();
    ServerConfig {
        ui: heddle_server::UiSource::NotBuilt,
        launch: LaunchInfo::default(),
        allow_any_host: false,
        token: TOKEN.to_string(),
        launch_token: Some(LAUNCH.to_string()),
        port: PORT,
        watches: heddle_api::WorkflowWatches::default(),
        host: heddle_api::RunHost::open(heddle_api::runs::HeddleHome::at(home), Vec::new())
            .await
            .unwrap(),
    }
}
