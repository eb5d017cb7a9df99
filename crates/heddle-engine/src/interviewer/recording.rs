//! Recording wrapper. (stub; being written)

/// One question and its answer.
#[derive(Debug, Clone)]
pub struct Recorded;

/// Records questions and answers.
#[derive(Debug, Default, Clone)]
pub struct RecordingInterviewer;
