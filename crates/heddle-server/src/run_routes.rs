//! The run operations as `POST /api/{operation}` routes onto the server's [`RunHost`].

use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Json, State};
use axum::routing::{MethodRouter, post};
use heddle_api::{ApiError, ErrorCode, RunHost};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::operations::{ApiResponse, blocking};
use crate::router::AppState;

/// `POST` onto an async [`RunHost`] method taking the decoded body.
macro_rules! host_async {
    ($method:ident) => {
        post(|s: State<AppState>, body| async move {
            with_body(body, |req| async move { s.host.$method(req).await }).await
        })
    };
}

/// The run routes.
pub fn run_routes() -> Router<AppState> {
    Router::new()
        .route("/start_run", host_async!(start))
        .route("/workflow_trust", host_op(|h, r| h.workflow_trust(r)))
        .route("/resume_run", host_async!(resume))
        .route("/fork_run", host_async!(fork))
        .route("/list_runs", host_async!(list_runs))
        .route("/get_run", host_async!(run))
        .route("/run_timeline", host_async!(timeline))
        .route("/recent_workflows", host_async!(recent_workflows))
        .route("/cancel_run", host_op(|h, r| h.cancel(r)))
        .route("/pending_gates", host_op(|h, r| h.pending_gates(r)))
        .route("/answer_gate", host_op(|h, r| h.answer_gate(r)))
        .route("/run_checkpoints", host_op(|h, r| h.checkpoints(r)))
        .route("/checkpoint_files", host_op(|h, r| h.checkpoint_files(r)))
        .route("/checkpoint_file", host_op(|h, r| h.checkpoint_file(r)))
        .route("/checkpoint_state", host_op(|h, r| h.checkpoint_state(r)))
        .route("/checkpoint_diff", host_op(|h, r| h.diff(r)))
        .route("/rollback_run", host_async!(rollback))
        .route("/run_artifacts", host_op(|h, r| h.artifacts(r)))
        .route("/junit_report", host_op(|h, r| h.junit_report(r)))
        .route("/run_patch", host_op(|h, r| h.run_patch(r)))
        .route("/run_graph", host_op(|h, r| h.run_graph(r)))
}

/// Decodes the body and runs an async operation on it.
async fn with_body<Req, Res, F, Fut>(
    body: Result<Json<Req>, JsonRejection>,
    op: F,
) -> ApiResponse<Res>
where
    F: FnOnce(Req) -> Fut,
    Fut: std::future::Future<Output = Result<Res, ApiError>>,
{
    match body {
        Ok(Json(req)) => ApiResponse(op(req).await),
        Err(rejection) => ApiResponse(Err(invalid(&rejection))),
    }
}

/// A blocking operation of the host, on a decoded body.
fn host_op<Req, Res>(op: fn(&RunHost, &Req) -> Result<Res, ApiError>) -> MethodRouter<AppState>
where
    Req: DeserializeOwned + Send + 'static,
    Res: Serialize + Send + 'static,
{
    post(
        move |State(state): State<AppState>, body: Result<Json<Req>, JsonRejection>| async move {
            match body {
                Ok(Json(req)) => {
                    let host = state.host.clone();
                    blocking(move || op(&host, &req)).await
                }
                Err(rejection) => ApiResponse(Err(invalid(&rejection))),
            }
        },
    )
}

/// The error for a body that does not decode (or is larger than the server accepts).
pub fn invalid(rejection: &JsonRejection) -> ApiError {
    if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(
            ErrorCode::TooLarge,
            format!(
                "the request body is larger than the {} MiB this server accepts (a workflow \
                 may be up to {} MiB)",
                crate::router::MAX_BODY_BYTES / (1024 * 1024),
                heddle_api::MAX_WORKFLOW_BYTES / (1024 * 1024)
            ),
        );
    }
    ApiError::new(
        ErrorCode::InvalidRequest,
        format!(
            "the request body is not valid for this operation: {}",
            rejection.body_text()
        ),
    )
}
