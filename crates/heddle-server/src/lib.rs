//! heddle-server owns the HTTP door onto heddle-api, with routes generated from heddle-api's
//! operation table: each request/answer operation as `POST /api/{name}` with a JSON body,
//! streams as Server-Sent Events (`GET /api/events`, resumable with `Last-Event-ID`;
//! `/api/run_changes`, `/api/watch_workflow`), a run's files at `GET /api/runs/{run}/...`
//! with range requests, and the built UI (compiled into the binary, or a `ui/dist` folder)
//! as static files, so the same UI that runs in the desktop window also runs in a plain
//! browser. It binds to loopback, rejects requests whose `Host` is not a loopback name
//! (DNS-rebinding protection), and requires its random access token on every request (a
//! shared link of one run's files carries a key derived from it instead).

mod auth;
mod events;
mod file_events;
mod host_check;
mod operation_routes;
mod operations;
mod request_trace;
mod response_headers;
mod router;
mod run_files;
mod shared_files;
mod ui_files;

pub use auth::{LAUNCH_PARAM, token_cookie};
pub use response_headers::FRAME_POLICY;
pub use router::{AppState, MAX_BODY_BYTES, ServerConfig, router};
pub use shared_files::{run_files_key, shared_link};
pub use ui_files::{
    BUILD_THE_UI, EmbeddedLookup, IMMUTABLE, INDEX, REVALIDATE, UiFile, UiSource, cache_control,
    content_type,
};

use std::net::SocketAddr;

/// Serves until the process stops. `on_ready` receives the URL once the socket is bound.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: ServerConfig,
) -> Result<(), ServeError> {
    let app = router(config);
    // TCP_NODELAY: event streams send many small frames, and without it each one after the
    // first waits for the browser's delayed ACK (about 40 ms on Linux).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app).await.map_err(ServeError::Io)
}

/// Binds `addr`, refusing anything but a loopback address unless `allow_remote` is set.
pub async fn bind(
    addr: SocketAddr,
    allow_remote: bool,
) -> Result<tokio::net::TcpListener, ServeError> {
    if !addr.ip().is_loopback() && !allow_remote {
        return Err(ServeError::NotLoopback(addr));
    }
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind { addr, source })
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Binding the address failed (port in use, permission…).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address and port asked for.
        addr: SocketAddr,
        /// The OS error (address in use, permission denied, ...).
        source: std::io::Error,
    },
    /// A non-loopback address was given without the explicit opt-in.
    #[error(
        "{0} is not a loopback address; Heddle only listens on 127.0.0.1 or ::1 unless told otherwise with --bind"
    )]
    NotLoopback(SocketAddr),
    /// Something the server needs could not be set up (the run index…).
    #[error("{0}")]
    Setup(String),
    /// The server failed while running.
    #[error("server stopped: {0}")]
    Io(std::io::Error),
}
