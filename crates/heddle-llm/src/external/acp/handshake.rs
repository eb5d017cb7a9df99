//! Opening an ACP session: `initialize` (protocol version 1, no file system and no terminal
//! offered, so the agent uses its own) and `session/new` in the work dir.

use std::path::Path;

use heddle_engine::llm::{LlmError, LlmErrorKind};
use serde_json::{Value as Json, json};

use super::client_requests;
use super::connection::AcpConnection;
use super::wire::{Incoming, RpcError};

/// The ACP version Heddle speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// ACP's "authentication required" error code.
const AUTH_REQUIRED: i64 = -32000;

/// Initializes the agent and opens a session in `work_dir`; returns the session id.
pub(super) async fn open_session(
    connection: &mut AcpConnection,
    work_dir: &Path,
) -> Result<String, LlmError> {
    let label = connection.agent().label();
    let init = call(
        connection,
        "initialize",
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "clientCapabilities": {
                "fs": {"readTextFile": false, "writeTextFile": false},
                "terminal": false
            },
            "clientInfo": {
                "name": "heddle",
                "title": "Heddle",
                "version": env!("CARGO_PKG_VERSION")
            }
        }),
    )
    .await?;
    match init["protocolVersion"].as_u64() {
        Some(PROTOCOL_VERSION) => {}
        other => {
            let version =
                other.map_or_else(|| init["protocolVersion"].to_string(), |v| v.to_string());
            connection.stop("unsupported protocol version").await;
            return Err(LlmError::new(
                LlmErrorKind::Config,
                format!(
                    "{label} speaks ACP protocol version {version}; Heddle speaks version \
                     {PROTOCOL_VERSION}"
                ),
            ));
        }
    }
    let cwd = std::path::absolute(work_dir).unwrap_or_else(|_| work_dir.to_path_buf());
    let session = call(
        connection,
        "session/new",
        json!({"cwd": cwd.to_string_lossy(), "mcpServers": []}),
    )
    .await?;
    match session["sessionId"].as_str() {
        Some(id) if !id.is_empty() => Ok(id.to_string()),
        _ => {
            connection.stop("no session id").await;
            Err(LlmError::new(
                LlmErrorKind::Fatal,
                format!("{label} answered session/new without a sessionId: {session}"),
            ))
        }
    }
}

/// Sends request `method` and waits for its answer, answering the agent's own requests
/// meanwhile. A failure stops the agent.
async fn call(
    connection: &mut AcpConnection,
    method: &str,
    params: Json,
) -> Result<Json, LlmError> {
    let id = connection.send_request(method, params);
    loop {
        match connection.next_message().await {
            None => {
                return Err(connection
                    .ended_error(&format!("during {method}"), LlmErrorKind::Fatal)
                    .await);
            }
            Some(Incoming::Response {
                id: answered,
                result,
            }) if answered == id => {
                return match result {
                    Ok(value) => Ok(value),
                    Err(error) => {
                        let error = rpc_error(&connection.agent().label(), method, &error);
                        connection.stop(&error.message).await;
                        Err(error)
                    }
                };
            }
            Some(Incoming::Request { id, method, params }) => {
                client_requests::answer(connection, &id, &method, &params, false);
            }
            Some(_) => {}
        }
    }
}

/// The [`LlmError`] for the agent's error answer to `method`: Config when it wants
/// authentication, Fatal otherwise.
pub(super) fn rpc_error(label: &str, method: &str, error: &RpcError) -> LlmError {
    let data = error
        .data
        .as_ref()
        .map(|d| match d {
            Json::String(text) => format!(" ({text})"),
            other => format!(" ({other})"),
        })
        .unwrap_or_default();
    if error.code == AUTH_REQUIRED {
        return LlmError::new(
            LlmErrorKind::Config,
            format!(
                "{label} needs authentication ({method}: {}{data}); sign in with the agent's own \
                 tools or give it its key through the environment",
                error.message
            ),
        );
    }
    LlmError::new(
        LlmErrorKind::Fatal,
        format!(
            "{label} answered {method} with error {}: {}{data}",
            error.code, error.message
        ),
    )
}
