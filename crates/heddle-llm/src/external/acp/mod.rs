//! `backend="acp"`: a conversation with an Agent Client Protocol agent (command from
//! `acp.command`) over its stdio. One agent process and one ACP session per conversation,
//! so repair turns and `full`-fidelity threads continue where the last message left off.

mod agent_task;
mod client_requests;
mod connection;
mod handshake;
mod session_updates;
mod wire;

use std::sync::Arc;

use async_trait::async_trait;
use heddle_engine::Usage;
use heddle_engine::llm::{
    LlmConversation, LlmError, LlmErrorKind, LlmEventSink, LlmReply, LlmRequest,
};
use heddle_engine::work_tree::WorkTreeWatch;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::files_touched::FolderWatch;
use super::launch::AgentCommand;
use agent_task::{TurnMessage, TurnRequest};
use connection::AcpConnection;

pub use agent_task::CANCEL_GRACE;
pub use handshake::PROTOCOL_VERSION;

/// The model name of ACP replies.
const MODEL: &str = "acp";

/// A conversation with an ACP agent. The agent runs in a process group of its own, owned by
/// a background task; dropping the conversation kills the group.
#[derive(Debug)]
pub struct AcpConversation {
    label: String,
    /// Its work folder, snapshotted around each turn for the files it touched.
    folder: FolderWatch,
    session_id: String,
    turns: mpsc::UnboundedSender<TurnRequest>,
}

impl AcpConversation {
    /// Starts `request.command` in `request.work_dir` with environment `env`, initializes it
    /// and opens a session. Fails with Config when the node has no command or the command
    /// cannot be started, and with the agent's own error (and stderr) when it fails to start
    /// a session. `work_tree` tells which files each turn touched.
    pub async fn open(
        request: &LlmRequest,
        env: &[(String, String)],
        work_tree: &Arc<dyn WorkTreeWatch>,
    ) -> Result<Self, LlmError> {
        let agent = AgentCommand::from_request(request, "acp.command", env)?;
        let mut connection = AcpConnection::start(&agent)?;
        let session_id = handshake::open_session(&mut connection, &agent.work_dir).await?;
        let (turns, queue) = mpsc::unbounded_channel();
        tokio::spawn(agent_task::run(connection, session_id.clone(), queue));
        Ok(AcpConversation {
            label: agent.label(),
            folder: FolderWatch::new(work_tree.clone(), agent.work_dir.clone()),
            session_id,
            turns,
        })
    }

    /// The ACP session id the agent gave this conversation.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }
}

#[async_trait]
impl LlmConversation for AcpConversation {
    async fn send(
        &mut self,
        message: &str,
        events: &dyn LlmEventSink,
        cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        let before = self.folder.snapshot().await;
        let (replies, mut inbox) = mpsc::unbounded_channel();
        let gone = || {
            LlmError::new(
                LlmErrorKind::Fatal,
                format!("{} is no longer running", self.label),
            )
        };
        self.turns
            .send(TurnRequest {
                text: message.to_string(),
                cancel: cancel.clone(),
                replies,
            })
            .map_err(|_| gone())?;
        let text = loop {
            match inbox.recv().await {
                Some(TurnMessage::Event(event)) => events.emit(event),
                Some(TurnMessage::Done(result)) => break result?,
                None => return Err(gone()),
            }
        };
        Ok(LlmReply {
            text,
            model: MODEL.to_string(),
            usage: Usage::default(),
            cost_usd: None,
            files_touched: self.folder.touched_since(before).await,
            simulated: false,
        })
    }
}
