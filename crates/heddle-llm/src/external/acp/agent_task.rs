//! The task that owns an ACP agent for the life of its conversation. It runs one turn at a
//! time (a `session/prompt` on the conversation's session), forwarding events to the
//! waiting `send`; between turns it keeps answering the agent. A cancelled or abandoned turn
//! sends `session/cancel`, gives the agent [`CANCEL_GRACE`] to wind down, then kills its
//! process group. When the conversation is dropped the agent is killed; if the task itself is
//! dropped (runtime shutdown), the process group guard kills it.

use std::time::Duration;

use heddle_engine::llm::{LlmError, LlmErrorKind, LlmEvent};
use serde_json::{Value as Json, json};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::client_requests;
use super::connection::AcpConnection;
use super::handshake::rpc_error;
use super::session_updates::TurnUpdates;
use super::wire::Incoming;

/// How long a cancelled agent gets to end its turn before its process group is killed.
pub const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// One message for the agent, from `send`.
#[derive(Debug)]
pub(super) struct TurnRequest {
    /// The prompt text sent with `session/prompt`.
    pub text: String,
    /// Cancelled by the caller to stop the turn (`session/cancel` is sent).
    pub cancel: CancellationToken,
    /// Where the turn's events and result go.
    pub replies: mpsc::UnboundedSender<TurnMessage>,
}

/// What a turn sends back.
#[derive(Debug)]
pub(super) enum TurnMessage {
    /// A live event.
    Event(LlmEvent),
    /// The end: the reply text or the error.
    Done(Result<String, LlmError>),
}

/// Runs the agent behind a conversation until the conversation is dropped.
pub(super) async fn run(
    mut connection: AcpConnection,
    session_id: String,
    mut turns: mpsc::UnboundedReceiver<TurnRequest>,
) {
    let label = connection.agent().label();
    loop {
        if let Some(reason) = connection.stopped() {
            // Stopped: every further message gets the reason.
            let error = LlmError::new(
                LlmErrorKind::Fatal,
                format!("{label} is no longer running: {reason}"),
            );
            match turns.recv().await {
                Some(turn) => {
                    let _ = turn.replies.send(TurnMessage::Done(Err(error)));
                    continue;
                }
                None => return,
            }
        }
        tokio::select! {
            turn = turns.recv() => match turn {
                Some(turn) => {
                    let result = run_turn(&mut connection, &session_id, &turn).await;
                    let _ = turn.replies.send(TurnMessage::Done(result));
                }
                None => {
                    connection.stop("the conversation ended").await;
                    return;
                }
            },
            message = connection.next_message() => match message {
                None => {
                    let _ = connection.ended_error("between turns", LlmErrorKind::Transient).await;
                }
                Some(Incoming::Request { id, method, params }) => {
                    client_requests::answer(&connection, &id, &method, &params, false);
                }
                Some(_) => {}
            },
        }
    }
}

/// Sends `turn` as a `session/prompt` and follows it to its end.
async fn run_turn(
    connection: &mut AcpConnection,
    session_id: &str,
    turn: &TurnRequest,
) -> Result<String, LlmError> {
    let label = connection.agent().label();
    let cancelled = || {
        LlmError::new(
            LlmErrorKind::Cancelled,
            format!("cancelled; {label} was stopped"),
        )
    };
    if turn.cancel.is_cancelled() {
        return Err(cancelled());
    }
    let prompt_id = connection.send_request(
        "session/prompt",
        json!({"sessionId": session_id, "prompt": [{"type": "text", "text": turn.text}]}),
    );
    let emit = |event: LlmEvent| {
        let _ = turn.replies.send(TurnMessage::Event(event));
    };
    let mut updates = TurnUpdates::default();
    let mut cancel_deadline: Option<Instant> = None;
    loop {
        let cancelling = cancel_deadline.is_some();
        let grace_over = async {
            match cancel_deadline {
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            message = connection.next_message() => match message {
                None if cancelling => {
                    connection.stop("the turn was cancelled").await;
                    return Err(cancelled());
                }
                None => {
                    return Err(connection.ended_error("mid-turn", LlmErrorKind::Transient).await);
                }
                Some(Incoming::Response { id, result }) if id == prompt_id => {
                    if cancelling {
                        connection.stop("the turn was cancelled").await;
                        return Err(cancelled());
                    }
                    return finish(&label, result.map_err(|e| rpc_error(&label, "session/prompt", &e)), updates.reply);
                }
                Some(Incoming::Notification { method, params }) if method == "session/update" => {
                    if params["sessionId"].as_str().is_none_or(|id| id == session_id) {
                        updates.apply(&params["update"]).into_iter().for_each(emit);
                    }
                }
                Some(Incoming::Request { id, method, params }) => {
                    emit(client_requests::answer(connection, &id, &method, &params, cancelling));
                }
                Some(Incoming::Unparsed(line)) => emit(LlmEvent::Note {
                    kind: "acp.unparsed_output".to_string(),
                    details: json!({"line": line}),
                }),
                Some(_) => {}
            },
            () = turn.cancel.cancelled(), if !cancelling => {
                connection.notify("session/cancel", json!({"sessionId": session_id}));
                cancel_deadline = Some(Instant::now() + CANCEL_GRACE);
            }
            () = turn.replies.closed(), if !cancelling => {
                connection.notify("session/cancel", json!({"sessionId": session_id}));
                cancel_deadline = Some(Instant::now() + CANCEL_GRACE);
            }
            () = grace_over => {
                connection.stop("the turn was cancelled").await;
                return Err(cancelled());
            }
        }
    }
}

/// The turn's result from the `session/prompt` answer: the reply on `end_turn`.
fn finish(label: &str, answer: Result<Json, LlmError>, reply: String) -> Result<String, LlmError> {
    let answer = answer?;
    let reason = answer["stopReason"].as_str().unwrap_or_default();
    match reason {
        "end_turn" => Ok(reply),
        "cancelled" => Err(LlmError::new(
            LlmErrorKind::Cancelled,
            format!("{label} cancelled the turn"),
        )),
        "refusal" => Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!("{label} refused to continue (stop reason `refusal`)"),
        )),
        "max_tokens" | "max_turn_requests" => Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!("{label} stopped before finishing: stop reason `{reason}`"),
        )),
        _ => Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!("{label} ended the turn with an unknown stop reason: {answer}"),
        )),
    }
}
