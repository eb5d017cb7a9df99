//! The routes: operations under `/api`, run events as SSE, the UI everywhere else; every
//! request checked for a loopback Host (unless bound elsewhere on purpose) and the token.

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::{Router, middleware};
use heddle_api::{LaunchInfo, MAX_WORKFLOW_BYTES, RunHost, WorkflowWatches};

use crate::auth::{Access, require_token};
use crate::host_check::require_loopback_host;
use crate::operation_routes::operation_routes;
use crate::request_trace::request_trace;
use crate::response_headers::protective_headers;
use crate::run_files::shared_run_file;
use crate::ui_files::{UiSource, serve_ui};

/// What the server serves.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where the UI's files come from.
    pub ui: UiSource,
    /// What the UI should open first.
    pub launch: LaunchInfo,
    /// Accept any `Host` header (only with an explicit `--bind` to a non-loopback address).
    pub allow_any_host: bool,
    /// The access token every request must carry (random, from the caller).
    pub token: String,
    /// The one-time token of the launch URL (`?launch=`), exchanged once for the token's
    /// cookie (random, from the caller); `None`: only the token opens the server.
    pub launch_token: Option<String>,
    /// The port the server listens on, which names the token's cookie.
    pub port: u16,
    /// The workflow watches it may run (`WorkflowWatches::default()`: at most 32 at once).
    pub watches: WorkflowWatches,
    /// Executes runs in this process; through it, the [`heddle_api::RunLibrary`] reads.
    pub host: RunHost,
}

/// The largest request body: a workflow of the largest size Heddle opens
/// (`MAX_WORKFLOW_BYTES`) sent as a JSON string, where a quote or a line break takes two
/// bytes, and room for the rest of the request.
pub const MAX_BODY_BYTES: usize = 2 * MAX_WORKFLOW_BYTES as usize + 1024 * 1024;

/// The state every handler sees.
#[derive(Debug, Clone)]
pub struct AppState {
    /// What the page opens first (`launch_info`): a workflow file, the workspace folder.
    pub launch: Arc<LaunchInfo>,
    /// Executes runs in this process; through it, the [`heddle_api::RunLibrary`] reads.
    pub host: RunHost,
    /// The access token (shared links of a run's files derive their key from it).
    pub token: Arc<String>,
    /// The workflow watches running, up to their limit.
    pub watches: WorkflowWatches,
}

/// Builds the application router.
pub fn router(config: ServerConfig) -> Router {
    let token = Arc::new(config.token);
    let state = AppState {
        launch: Arc::new(config.launch.clone()),
        host: config.host.clone(),
        token: token.clone(),
        watches: config.watches,
    };
    let access = Arc::new(Access::new(token, config.port, config.launch_token));
    let shared = Router::new()
        .route("/{key}/{run}/{area}/{*path}", get(shared_run_file))
        .with_state(state.clone());
    let api = operation_routes()
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state);
    let ui = Router::new()
        .fallback(serve_ui)
        .with_state(Arc::new(config.ui));
    let app = Router::new()
        .nest("/api", api)
        .nest("/shared", shared)
        .fallback_service(ui);
    let app = app.layer(middleware::from_fn_with_state(access, require_token));
    let app = if config.allow_any_host {
        app
    } else {
        // A foreign Host is refused before anything else looks at the request.
        app.layer(middleware::from_fn(require_loopback_host))
    };
    // Outermost: every answer, refusals included, carries the protective headers and is
    // traced.
    app.layer(middleware::from_fn(protective_headers))
        .layer(request_trace())
}
