//! Reaching the process that executes a run, from any process: the gates waiting in it,
//! answering one, and cancelling the run. A run executing in this process is reached
//! directly ([`crate::RunHost`]); any other through its control channel
//! (`heddle_engine::control`), so the window answers a terminal's run and the reverse; a
//! run a worker of the run queue executes on another machine, through the shared index
//! (`run_elsewhere`).

use std::time::SystemTime;

use heddle_engine::control::{ControlRequest, send_request, waiting_gates};
use heddle_engine::interviewer::{Answer, Question, resolve_answer};
use heddle_engine::{OsEntropy, RunDir, RunStatus};

use crate::error::{ApiError, ErrorCode};
use crate::run_elsewhere::Located;
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::run_types::{AnswerGateRequest, GateChoice, PendingGate, RunRef};

impl RunLibrary {
    /// The human gates of a run waiting for an answer, whichever process executes it (none
    /// when no process does), on this machine or, for a worker of the run queue, another.
    pub async fn pending_gates(&self, request: &RunRef) -> Result<Vec<PendingGate>, ApiError> {
        let run_dir = match self.locate(&request.run_id).await? {
            Located::Here(run_dir) => run_dir,
            Located::Elsewhere(record) => return self.gates_elsewhere(&record).await,
        };
        blocking(move || {
            if run_dir.status() != RunStatus::Running {
                return Ok(Vec::new());
            }
            let run_id = run_dir.read_manifest()?.run_id;
            Ok(waiting_gates(&run_dir)
                .into_iter()
                .map(|question| pending_gate(&run_id, question))
                .collect())
        })
        .await
    }

    /// Answers a waiting gate of a run another process executes. The answer is checked
    /// against the gate's choices here, so a wrong one is refused at once.
    pub async fn answer_gate(&self, request: &AnswerGateRequest) -> Result<(), ApiError> {
        let run_dir = match self.locate(&request.run_id).await? {
            Located::Here(run_dir) => run_dir,
            Located::Elsewhere(record) => return self.answer_elsewhere(&record, request).await,
        };
        let request = request.clone();
        blocking(move || {
            let run_id = executing(&run_dir)?;
            let question = waiting_gates(&run_dir)
                .into_iter()
                .find(|q| q.id == request.question_id)
                .ok_or_else(|| no_such_gate(&run_id, &request.question_id))?;
            let answer = answer_of(&request);
            resolve_answer(&question, &answer)
                .map_err(|message| ApiError::new(ErrorCode::InvalidRequest, message))?;
            let control = ControlRequest::Answer {
                question_id: question.id,
                answer,
            };
            leave_request(&run_dir, &control)
        })
        .await
    }

    /// Asks the process executing a run to cancel it.
    pub async fn cancel(&self, request: &RunRef) -> Result<(), ApiError> {
        let run_dir = match self.locate(&request.run_id).await? {
            Located::Here(run_dir) => run_dir,
            Located::Elsewhere(record) => return self.cancel_elsewhere(&record).await,
        };
        blocking(move || {
            executing(&run_dir)?;
            let control = ControlRequest::Cancel {
                reason: "cancelled from another Heddle process".into(),
            };
            leave_request(&run_dir, &control)
        })
        .await
    }

    /// Fails with `not_running` unless some process executes the run now.
    pub async fn ensure_executing(&self, run: &str) -> Result<(), ApiError> {
        match self.locate(run).await? {
            Located::Here(run_dir) => blocking(move || executing(&run_dir).map(|_| ())).await,
            Located::Elsewhere(record) if record.status == RunStatus::Running => Ok(()),
            Located::Elsewhere(record) => Err(not_running(&record.id)),
        }
    }
}

/// Leaves `control` in the control channel of the run in `run_dir`, now.
fn leave_request(run_dir: &RunDir, control: &ControlRequest) -> Result<(), ApiError> {
    Ok(send_request(
        run_dir,
        control,
        SystemTime::now(),
        &OsEntropy::new(),
    )?)
}

/// The id of the run in `run_dir`, which some process executes now (else `not_running`).
fn executing(run_dir: &RunDir) -> Result<String, ApiError> {
    let run_id = run_dir.read_manifest()?.run_id;
    if run_dir.status() != RunStatus::Running {
        return Err(not_running(&run_id));
    }
    Ok(run_id)
}

/// No gate `question_id` waits in run `run_id`.
pub(crate) fn no_such_gate(run_id: &str, question_id: &str) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidRequest,
        format!(
            "no gate with question `{question_id}` is waiting in run {run_id}; \
             `heddle answer {run_id}` lists the waiting ones"
        ),
    )
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
