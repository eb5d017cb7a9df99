//! [`GateBoard`]: the human gates of one run waiting for an answer, answerable from this
//! process (the API's doors) or from another through the control channel.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;
use tokio::sync::oneshot;

use crate::interviewer::{Answer, InterviewError, Interviewer, Question, resolve_answer};
use crate::rundir::{RunDir, write_json};

/// The waiting gates of one run. Cheap to clone; clones share the board.
#[derive(Debug, Clone)]
pub struct GateBoard {
    gates_dir: PathBuf,
    waiting: Arc<Mutex<HashMap<String, Waiting>>>,
}

#[derive(Debug)]
struct Waiting {
    question: Question,
    reply: oneshot::Sender<Answer>,
}

impl GateBoard {
    /// The board of the run in `run`.
    pub(crate) fn new(run: &RunDir) -> Self {
        GateBoard {
            gates_dir: super::gates_dir(run),
            waiting: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Waiting>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks `question` through `local` (a terminal, auto-approve, or nobody) and takes
    /// whichever answer comes first: `local`'s, or one given through [`GateBoard::answer`]
    /// (this process's API, or a request file from another process). While it waits, the
    /// question is in the run folder for other processes to read.
    pub(crate) async fn ask(
        &self,
        local: &dyn Interviewer,
        question: &Question,
    ) -> Result<Answer, InterviewError> {
        let (reply, answered) = oneshot::channel();
        self.lock().insert(
            question.id.clone(),
            Waiting {
                question: question.clone(),
                reply,
            },
        );
        let file = self.gates_dir.join(format!("{}.json", question.id));
        // Without the file only other processes lose sight of the gate; the run goes on.
        let _ = std::fs::create_dir_all(&self.gates_dir)
            .map_err(|e| e.to_string())
            .and_then(|()| write_json(&file, question, false).map_err(|e| e.to_string()));
        let result = tokio::select! {
            answer = local.ask(question) => answer,
            Ok(answer) = answered => Ok(answer),
        };
        self.lock().remove(&question.id);
        let _ = std::fs::remove_file(&file);
        result
    }

    /// The questions waiting now, oldest first.
    pub fn waiting(&self) -> Vec<Question> {
        let mut questions: Vec<Question> =
            self.lock().values().map(|w| w.question.clone()).collect();
        questions.sort_by(|a, b| a.id.cmp(&b.id));
        questions
    }

    /// Answers the waiting gate `question_id`. Errs, and the gate keeps waiting, when no such
    /// gate waits or `answer` is none of its choices.
    pub fn answer(&self, question_id: &str, answer: Answer) -> Result<(), String> {
        let gate = {
            let mut waiting = self.lock();
            let Entry::Occupied(gate) = waiting.entry(question_id.to_string()) else {
                return Err(format!(
                    "no gate with question `{question_id}` is waiting for an answer"
                ));
            };
            resolve_answer(&gate.get().question, &answer)?;
            gate.remove()
        };
        gate.reply
            .send(answer)
            .map_err(|_| format!("the gate with question `{question_id}` stopped waiting"))
    }
}

/// Asks nobody in this process: a gate waits for an answer given through the run's
/// [`GateBoard`] (the API, or another process), or for the run to be cancelled.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoLocalPrompt;

#[async_trait]
impl Interviewer for NoLocalPrompt {
    async fn ask(&self, _question: &Question) -> Result<Answer, InterviewError> {
        std::future::pending().await
    }
}

/// `local`, with answers given through `board` taken too: what a gate of the run asks.
pub(crate) struct Gated<'a> {
    pub board: &'a GateBoard,
    pub local: &'a dyn Interviewer,
}

#[async_trait]
impl Interviewer for Gated<'_> {
    async fn ask(&self, question: &Question) -> Result<Answer, InterviewError> {
        self.board.ask(self.local, question).await
    }
}
