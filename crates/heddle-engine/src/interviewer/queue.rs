//! Channel-backed queue. (stub; being written)

/// A question waiting for an answer.
#[derive(Debug, Clone)]
pub struct PendingQuestion;

/// Questions wait in a queue until answered.
#[derive(Debug, Default, Clone)]
pub struct QueueInterviewer;
