//! The dry-run backend. (stub; being written)

use async_trait::async_trait;

use super::{LlmBackend, LlmConversation, LlmError, LlmErrorKind, LlmRequest};

/// Replies without calling any model; every reply says so.
#[derive(Debug, Default, Clone, Copy)]
pub struct SimulatedBackend;

#[async_trait]
impl LlmBackend for SimulatedBackend {
    fn simulated(&self) -> bool {
        true
    }

    async fn open(&self, request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError> {
        let _ = request;
        Err(LlmError::new(LlmErrorKind::Config, "not yet"))
    }
}
