//! Reaching the process that executes a run, from any process: the gates waiting in it,
//! answering one, and cancelling the run. A run executing in this process is reached
//! directly ([`crate::RunHost`]); any other through its control channel
//! (`heddle_engine::control`), so the window answers a terminal's run and the reverse.

use std::time::SystemTime;

use heddle_engine::control::{ControlRequest, send_request, waiting_gates};
use heddle_engine::interviewer::{Answer, Question, resolve_answer};
use heddle_engine::{OsEntropy, RunDir, RunStatus};

use crate::error::{ApiError, ErrorCode};
use crate::run_library::RunLibrary;
use crate::run_types::{AnswerGateRequest, GateChoice, PendingGate, RunRef};

impl RunLibrary {
    /// The human gates of a run waiting for an answer, whichever process executes it (none
    /// when no process does).
    pub fn pending_gates(&self, request: &RunRef) -> Result<Vec<PendingGate>, ApiError> {
        let run_dir = self.find(&request.run_id)?;
        if run_dir.status() != RunStatus::Running {
            return Ok(Vec::new());
        }
        let run_id = run_dir.read_manifest()?.run_id;
        Ok(waiting_gates(&run_dir)
            .into_iter()
            .map(|question| pending_gate(&run_id, question))
            .collect())
    }

    /// Answers a waiting gate of a run another process executes. The answer is checked
    /// against the gate's choices here, so a wrong one is refused at once.
    pub fn answer_gate(&self, request: &AnswerGateRequest) -> Result<(), ApiError> {
        let (run_dir, run_id) = self.executing(&request.run_id)?;
        let question = waiting_gates(&run_dir)
            .into_iter()
            .find(|q| q.id == request.question_id)
            .ok_or_else(|| {
                ApiError::new(
                    ErrorCode::InvalidRequest,
                    format!(
                        "no gate with question `{}` is waiting in run {run_id}; \
                         `heddle answer {run_id}` lists the waiting ones",
                        request.question_id
                    ),
                )
            })?;
        let answer = answer_of(request);
        resolve_answer(&question, &answer)
            .map_err(|message| ApiError::new(ErrorCode::InvalidRequest, message))?;
        let control = ControlRequest::Answer {
            question_id: question.id,
            answer,
        };
        Ok(send_request(
            &run_dir,
            &control,
            SystemTime::now(),
            &OsEntropy::new(),
        )?)
    }

    /// Asks the process executing a run to cancel it.
    pub fn cancel(&self, request: &RunRef) -> Result<(), ApiError> {
        let (run_dir, _) = self.executing(&request.run_id)?;
        let control = ControlRequest::Cancel {
            reason: "cancelled from another Heddle process".into(),
        };
        Ok(send_request(
            &run_dir,
            &control,
            SystemTime::now(),
            &OsEntropy::new(),
        )?)
    }

    /// Fails with `not_running` unless some process executes the run now.
    pub fn ensure_executing(&self, run: &str) -> Result<(), ApiError> {
        self.executing(run).map(|_| ())
    }

    /// The folder and id of a run some process executes now.
    fn executing(&self, run: &str) -> Result<(RunDir, String), ApiError> {
        let run_dir = self.find(run)?;
        let run_id = run_dir.read_manifest()?.run_id;
        if run_dir.status() != RunStatus::Running {
            return Err(not_running(&run_id));
        }
        Ok((run_dir, run_id))
    }
}

/// The answer a request gives.
pub(crate) fn answer_of(request: &AnswerGateRequest) -> Answer {
    if request.freeform {
        Answer::Freeform(request.answer.clone())
    } else {
        Answer::Choice(request.answer.clone())
    }
}

/// A waiting question as the API shows it.
pub(crate) fn pending_gate(run_id: &str, question: Question) -> PendingGate {
    PendingGate {
        run_id: run_id.to_string(),
        question_id: question.id,
        node_id: question.node_id,
        text: question.text,
        choices: question
            .choices
            .into_iter()
            .map(|c| GateChoice {
                key: c.key,
                label: c.label,
                target: c.target,
            })
            .collect(),
        allow_freeform: question.allow_freeform,
    }
}

/// No process executes the run.
pub(crate) fn not_running(run_id: &str) -> ApiError {
    ApiError::new(
        ErrorCode::NotRunning,
        format!(
            "run {run_id} is not executing (it ended, or its process stopped); resume it first"
        ),
    )
}
