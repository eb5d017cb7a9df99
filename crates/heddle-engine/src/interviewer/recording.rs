//! Recording wrapper: remembers every question and what came back (tests, replays, audits).

use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use super::{Answer, InterviewError, Interviewer, Question};

/// One question and its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// The question asked.
    pub question: Question,
    /// What the wrapped interviewer returned.
    pub answer: Result<Answer, InterviewError>,
}

/// Wraps an interviewer and records every question with its result, in the order the
/// results came. An `ask` abandoned before it returns (a timeout, a cancellation) is not
/// recorded. Clones share the record.
#[derive(Debug, Default, Clone)]
pub struct RecordingInterviewer<I> {
    inner: I,
    records: Arc<Mutex<Vec<Recorded>>>,
}

impl<I> RecordingInterviewer<I> {
    /// Records what `inner` answers.
    pub fn new(inner: I) -> Self {
        RecordingInterviewer {
            inner,
            records: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Everything recorded so far, in order.
    pub fn records(&self) -> Vec<Recorded> {
        self.records
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The wrapped interviewer.
    pub fn inner(&self) -> &I {
        &self.inner
    }
}

#[async_trait]
impl<I: Interviewer> Interviewer for RecordingInterviewer<I> {
    async fn ask(&self, question: &Question) -> Result<Answer, InterviewError> {
        let answer = self.inner.ask(question).await;
        self.records
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Recorded {
                question: question.clone(),
                answer: answer.clone(),
            });
        answer
    }
}
