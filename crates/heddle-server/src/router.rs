//! The routes: operations under `/api`, the UI everywhere else.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Json, State};
use axum::routing::{MethodRouter, post};
use axum::{Router, middleware};
use heddle_api::{ApiError, ErrorCode, LaunchInfo};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tower_http::services::{ServeDir, ServeFile};

use crate::host_check::require_loopback_host;
use crate::operations::{ApiResponse, blocking, launch_info};

/// What the server serves.
#[derive(Debug, Clone, Default)]
pub struct ServerConfig {
    /// The built UI (`ui/dist`); `None` serves the API only.
    pub ui_dir: Option<PathBuf>,
    /// What the UI should open first.
    pub launch: LaunchInfo,
    /// Accept any `Host` header (only with an explicit `--bind` to a non-loopback address).
    pub allow_any_host: bool,
}

type Shared = Arc<LaunchInfo>;

/// Builds the application router.
pub fn router(config: ServerConfig) -> Router {
    let api = Router::new()
        .route(
            "/launch_info",
            post(|State(s): State<Shared>| async move { launch_info(&s) }),
        )
        .route("/open_workflow", operation(heddle_api::open_workflow))
        .route("/check_workflow", operation(heddle_api::check_workflow))
        .route("/list_workflows", operation(heddle_api::list_workflows))
        .with_state(Arc::new(config.launch.clone()));
    let mut app = Router::new().nest("/api", api);
    if let Some(dir) = config.ui_dir {
        let index = dir.join("index.html");
        app = app.fallback_service(ServeDir::new(dir).fallback(ServeFile::new(index)));
    }
    if config.allow_any_host {
        app
    } else {
        app.layer(middleware::from_fn(require_loopback_host))
    }
}

/// Adapts one blocking heddle-api operation to `POST` with a JSON body.
fn operation<Req, Res>(op: fn(&Req) -> Result<Res, ApiError>) -> MethodRouter<Shared>
where
    Req: DeserializeOwned + Send + 'static,
    Res: Serialize + Send + 'static,
{
    post(move |body: Result<Json<Req>, JsonRejection>| async move {
        match body {
            Ok(Json(req)) => blocking(move || op(&req)).await,
            Err(rejection) => ApiResponse(Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "the request body is not valid for this operation: {}",
                    rejection.body_text()
                ),
            ))),
        }
    })
}
