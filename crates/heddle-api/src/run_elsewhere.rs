//! Runs that a worker of the run queue executes on another machine: listed in the shared
//! run index, their folders out of reach. Their waiting gates are read from what the worker
//! publishes to the index, and answers and cancels are left there for the worker holding
//! the run (see `run_relay`), which takes them within a moment.

use std::time::SystemTime;

use heddle_engine::RunDir;
use heddle_engine::RunStatus;
use heddle_engine::control::ControlRequest;
use heddle_engine::interviewer::{Question, resolve_answer};
use heddle_engine::runs::find_run;
use heddle_store::{RunRecord, StoreError};

use crate::error::{ApiError, ErrorCode};
use crate::run_control::{answer_of, no_such_gate, not_running, pending_gate};
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::run_queue::millis;
use crate::run_types::{AnswerGateRequest, PendingGate};

/// Where a run is.
pub(crate) enum Located {
    /// Its folder is in this machine's runs folder.
    Here(RunDir),
    /// Only the index has it: its folder is on another machine.
    Elsewhere(Box<RunRecord>),
}

impl RunLibrary {
    /// Where the run `run` (an id, a unique prefix of one, a folder name or path) is: its
    /// folder here, else the index's record of it.
    pub(crate) async fn locate(&self, run: &str) -> Result<Located, ApiError> {
        let (runs, given) = (self.home().runs(), run.to_string());
        let here = blocking(move || Ok(find_run(&runs, &given)?)).await;
        match here {
            Ok(run_dir) => Ok(Located::Here(run_dir)),
            Err(error) if error.code == ErrorCode::NotFound => match self.index().run(run).await {
                Ok(record) => Ok(Located::Elsewhere(Box::new(record))),
                Err(StoreError::RunNotFound { .. }) => Err(error),
                Err(other) => Err(other.into()),
            },
            Err(error) => Err(error),
        }
    }

    /// The gates a run executing on another machine waits at, as its worker published them.
    pub(crate) async fn gates_elsewhere(
        &self,
        record: &RunRecord,
    ) -> Result<Vec<PendingGate>, ApiError> {
        if record.status != RunStatus::Running {
            return Ok(Vec::new());
        }
        Ok(self
            .questions_elsewhere(&record.id)
            .await?
            .into_iter()
            .map(|question| pending_gate(&record.id, question))
            .collect())
    }

    /// Answers a gate of a run executing on another machine: checked against the gate here,
    /// then left for the worker that holds the run.
    pub(crate) async fn answer_elsewhere(
        &self,
        record: &RunRecord,
        request: &AnswerGateRequest,
    ) -> Result<(), ApiError> {
        let question = self
            .questions_elsewhere(&record.id)
            .await?
            .into_iter()
            .find(|q| q.id == request.question_id)
            .ok_or_else(|| no_such_gate(&record.id, &request.question_id))?;
        let answer = answer_of(request);
        resolve_answer(&question, &answer)
            .map_err(|message| ApiError::new(ErrorCode::InvalidRequest, message))?;
        let control = ControlRequest::Answer {
            question_id: question.id,
            answer,
        };
        self.request_elsewhere(record, &control).await
    }

    /// Asks the worker executing a run on another machine to cancel it.
    pub(crate) async fn cancel_elsewhere(&self, record: &RunRecord) -> Result<(), ApiError> {
        let control = ControlRequest::Cancel {
            reason: "cancelled from another machine".into(),
        };
        self.request_elsewhere(record, &control).await
    }

    /// Leaves `control` for the worker holding the run; refused when no worker of the queue
    /// does (the run ended, or runs on a machine outside the queue, which nothing here
    /// can reach).
    async fn request_elsewhere(
        &self,
        record: &RunRecord,
        control: &ControlRequest,
    ) -> Result<(), ApiError> {
        if record.status != RunStatus::Running {
            return Err(not_running(&record.id));
        }
        if self.index().entry_of_run(&record.id).await?.is_none() {
            return Err(ApiError::new(
                ErrorCode::NotRunning,
                format!(
                    "run {} executes on another machine (in {}) and no worker of the run \
                     queue holds it; answer or cancel it on that machine",
                    record.id, record.folder
                ),
            ));
        }
        let text = serde_json::to_string(control)
            .map_err(|e| ApiError::new(ErrorCode::InvalidRequest, e.to_string()))?;
        let now = millis(SystemTime::now());
        Ok(self.index().request(&record.id, &text, now).await?)
    }

    /// The questions a worker published for run `run_id`; one that cannot be read (written
    /// by another version) is left out.
    async fn questions_elsewhere(&self, run_id: &str) -> Result<Vec<Question>, ApiError> {
        let published = self.index().waiting_gates(run_id).await?;
        Ok(published
            .iter()
            .filter_map(|text| match serde_json::from_str(text) {
                Ok(question) => Some(question),
                Err(error) => {
                    tracing::warn!(run = run_id, %error, "a published gate cannot be read");
                    None
                }
            })
            .collect())
    }
}
