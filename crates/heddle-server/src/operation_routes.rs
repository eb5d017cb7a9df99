//! The `/api` routes, expanded from heddle-api's operation table
//! ([`heddle_api::for_each_operation!`]): every request operation as `POST /api/{name}` with
//! its request as the JSON body, and the streams and files at the path the table gives, onto
//! their hand-written handlers (`events`, `file_events`, `run_files`).

use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Json, State};
use axum::routing::{MethodRouter, get, post};
use heddle_api::{ApiError, ErrorCode, RunHost};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::operations::{ApiResponse, blocking, launch_info};
use crate::router::AppState;

/// The route of one operation of the table, added to `$router`.
macro_rules! operation_route {
    ($router:ident blocking [$f:path] $name:ident($req:ty) -> $res:ty) => {
        $router.route(concat!("/", stringify!($name)), operation::<$req, $res>($f))
    };
    ($router:ident pure [$f:path] $name:ident() -> $res:ty) => {
        $router.route(
            concat!("/", stringify!($name)),
            post(|| async { ApiResponse(Ok::<$res, ApiError>($f())) }),
        )
    };
    ($router:ident pure [$f:path] $name:ident($req:ty) -> $res:ty) => {
        $router.route(concat!("/", stringify!($name)), answer::<$req, $res>($f))
    };
    ($router:ident host [$method:ident] $name:ident($req:ty) -> $res:ty) => {
        $router.route(
            concat!("/", stringify!($name)),
            host_op::<$req, $res>(|host, req| host.$method(req)),
        )
    };
    ($router:ident host_async [$method:ident] $name:ident($req:ty) -> $res:ty) => {
        $router.route(
            concat!("/", stringify!($name)),
            post(
                |s: State<AppState>, body: Result<Json<$req>, JsonRejection>| async move {
                    with_body(body, |req| async move { s.host.$method(req).await }).await
                },
            ),
        )
    };
    ($router:ident launch [] $name:ident() -> $res:ty) => {
        $router.route(
            concat!("/", stringify!($name)),
            post(|State(s): State<AppState>| async move { launch_info(&s.launch) }),
        )
    };
    ($router:ident events [$path:literal] $name:ident $($rest:tt)*) => {
        $router.route($path, get(crate::events::$name))
    };
    ($router:ident changes [$path:literal] $name:ident $($rest:tt)*) => {
        $router.route($path, get(crate::events::$name))
    };
    ($router:ident watch [$path:literal] $name:ident $($rest:tt)*) => {
        $router.route($path, get(crate::file_events::$name))
    };
    ($router:ident file [$path:literal] $name:ident $($rest:tt)*) => {
        $router.route($path, get(crate::run_files::$name))
    };
    // Desktop only: closing an SSE stream stops a watch; a browser downloads a file itself.
    ($router:ident unwatch [] $($rest:tt)*) => {
        $router
    };
    ($router:ident download [] $($rest:tt)*) => {
        $router
    };
}

macro_rules! operation_routes {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($($req:ty)?) -> $res:ty: $kind:ident $(($($arg:tt)*))?;
    )*) => {
        /// Every operation's route, relative to `/api`.
        pub fn operation_routes() -> Router<AppState> {
            let router = Router::new();
            $(
                let router = operation_route!(router $kind [$($($arg)*)?] $name($($req)?) -> $res);
            )*
            router
        }
    };
}

heddle_api::for_each_operation!(operation_routes);

/// Adapts one blocking heddle-api operation to `POST` with a JSON body.
fn operation<Req, Res>(op: fn(&Req) -> Result<Res, ApiError>) -> MethodRouter<AppState>
where
    Req: DeserializeOwned + Send + 'static,
    Res: Serialize + Send + 'static,
{
    post(move |body: Result<Json<Req>, JsonRejection>| async move {
        match body {
            Ok(Json(req)) => blocking(move || op(&req)).await,
            Err(rejection) => ApiResponse(Err(invalid(&rejection))),
        }
    })
}

/// Adapts an operation that cannot fail (and does no I/O) to `POST` with a JSON body.
fn answer<Req, Res>(op: fn(&Req) -> Res) -> MethodRouter<AppState>
where
    Req: DeserializeOwned + Send + 'static,
    Res: Serialize + Send + 'static,
{
    post(move |body: Result<Json<Req>, JsonRejection>| async move {
        ApiResponse(match body {
            Ok(Json(req)) => Ok(op(&req)),
            Err(rejection) => Err(invalid(&rejection)),
        })
    })
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
