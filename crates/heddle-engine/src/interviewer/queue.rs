//! Channel-backed queue: questions wait until something (the GUI, the API) answers them.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, oneshot};

use super::{Answer, InterviewError, Interviewer, Question, resolve_answer};

/// How many new-question notifications a slow subscriber may fall behind.
const NOTIFY_CAPACITY: usize = 64;

/// A question waiting for an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingQuestion {
    /// Order of asking within this queue, from 1.
    pub seq: u64,
    /// What the gate asks, with its choices.
    pub question: Question,
}

/// Questions wait in a queue until answered through [`QueueInterviewer::answer`]. Cheap to
/// clone; clones share the queue.
#[derive(Debug, Clone)]
pub struct QueueInterviewer {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state: Mutex<State>,
    notify: broadcast::Sender<PendingQuestion>,
}

#[derive(Debug, Default)]
struct State {
    next_seq: u64,
    closed: bool,
    /// Oldest first.
    waiting: Vec<Waiting>,
}

#[derive(Debug)]
struct Waiting {
    pending: PendingQuestion,
    reply: oneshot::Sender<Answer>,
}

impl Default for QueueInterviewer {
    fn default() -> Self {
        Self::new()
    }
}

impl QueueInterviewer {
    /// An empty, open queue.
    pub fn new() -> Self {
        let (notify, _) = broadcast::channel(NOTIFY_CAPACITY);
        QueueInterviewer {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                notify,
            }),
        }
    }

    /// The questions waiting for an answer, oldest first.
    pub fn pending(&self) -> Vec<PendingQuestion> {
        self.lock()
            .waiting
            .iter()
            .map(|w| w.pending.clone())
            .collect()
    }

    /// Answers the (oldest) waiting question with id `question_id`. Errs when no such
    /// question waits, or when `answer` matches none of its choices (the question then
    /// keeps waiting).
    pub fn answer(&self, question_id: &str, answer: Answer) -> Result<(), String> {
        let waiting = {
            let mut state = self.lock();
            let position = state
                .waiting
                .iter()
                .position(|w| w.pending.question.id == question_id)
                .ok_or_else(|| format!("no question `{question_id}` is waiting for an answer"))?;
            resolve_answer(&state.waiting[position].pending.question, &answer)?;
            state.waiting.remove(position)
        };
        waiting
            .reply
            .send(answer)
            .map_err(|_| format!("question `{question_id}` is no longer waiting for an answer"))
    }

    /// Notifications of questions asked from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<PendingQuestion> {
        self.inner.notify.subscribe()
    }

    /// Closes the queue: waiting and later questions fail with [`InterviewError::Closed`].
    pub fn close(&self) {
        let waiting = {
            let mut state = self.lock();
            state.closed = true;
            std::mem::take(&mut state.waiting)
        };
        drop(waiting);
    }

    /// Whether [`QueueInterviewer::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner.lock()
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Takes a question off the queue when its `ask` ends unanswered (timeout, cancellation).
struct Unqueue<'a> {
    inner: &'a Inner,
    seq: u64,
}

impl Drop for Unqueue<'_> {
    fn drop(&mut self) {
        self.inner
            .lock()
            .waiting
            .retain(|w| w.pending.seq != self.seq);
    }
}

#[async_trait]
impl Interviewer for QueueInterviewer {
    async fn ask(&self, question: &Question) -> Result<Answer, InterviewError> {
        let (reply, receiver) = oneshot::channel();
        let pending = {
            let mut state = self.lock();
            if state.closed {
                return Err(InterviewError::Closed(
                    "the question queue is closed".into(),
                ));
            }
            state.next_seq += 1;
            let pending = PendingQuestion {
                seq: state.next_seq,
                question: question.clone(),
            };
            state.waiting.push(Waiting {
                pending: pending.clone(),
                reply,
            });
            pending
        };
        let _unqueue = Unqueue {
            inner: &self.inner,
            seq: pending.seq,
        };
        // Nobody listening is fine: `pending()` still lists the question.
        let _ = self.inner.notify.send(pending);
        receiver.await.map_err(|_| {
            InterviewError::Closed("the question queue closed before an answer came".into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interviewer::Choice;

    fn question(id: &str) -> Question {
        Question {
            id: id.into(),
            run_id: "r".into(),
            node_id: "gate".into(),
            text: "Go?".into(),
            choices: vec![Choice {
                key: "Y".into(),
                label: "Yes".into(),
                target: "next".into(),
            }],
            allow_freeform: false,
            freeform_target: None,
            default_choice: None,
            timeout: None,
        }
    }

    #[tokio::test]
    async fn dropped_ask_leaves_the_queue() {
        let queue = QueueInterviewer::new();
        let q = question("q1");
        let ask = queue.ask(&q);
        let outcome = tokio::time::timeout(std::time::Duration::from_millis(10), ask).await;
        assert!(outcome.is_err());
        assert!(queue.pending().is_empty());
        assert!(queue.answer("q1", Answer::Choice("Y".into())).is_err());
    }

    #[tokio::test]
    async fn invalid_answer_keeps_the_question_waiting() {
        let queue = QueueInterviewer::new();
        let asker = queue.clone();
        let task = tokio::spawn(async move { asker.ask(&question("q1")).await });
        while queue.pending().is_empty() {
            tokio::task::yield_now().await;
        }
        let error = queue.answer("q1", Answer::Choice("Z".into()));
        assert!(error.is_err_and(|e| e.contains("unknown choice")));
        assert_eq!(queue.pending().len(), 1);
        assert_eq!(queue.answer("q1", Answer::Choice("yes".into())), Ok(()));
        let answer = task.await.ok();
        assert_eq!(answer, Some(Ok(Answer::Choice("yes".into()))));
    }
}
