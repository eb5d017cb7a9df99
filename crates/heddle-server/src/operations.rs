//! `POST /api/{operation}` handlers: decode the request, run the heddle-api operation off
//! the async threads, encode the result or the `ApiError` with a status code.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use heddle_api::{ApiError, ErrorCode, LaunchInfo};
use serde::Serialize;

/// An operation's outcome as an HTTP response.
pub struct ApiResponse<T>(pub Result<T, ApiError>);

impl<T: Serialize> IntoResponse for ApiResponse<T> {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(value) => Json(value).into_response(),
            Err(err) => (status_for(err.code), Json(err)).into_response(),
        }
    }
}

fn status_for(code: ErrorCode) -> StatusCode {
    StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// Runs a blocking operation on tokio's blocking pool (heddle-api's [`heddle_api::blocking`]).
pub async fn blocking<T, F>(op: F) -> ApiResponse<T>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
{
    ApiResponse(heddle_api::blocking(op).await)
}

/// The launch info the server was started with.
pub fn launch_info(info: &LaunchInfo) -> ApiResponse<LaunchInfo> {
    ApiResponse(Ok(info.clone()))
}
