//! Setting runs up to execute: a new run of a workflow, a stopped run continued, a fork of
//! another run's checkpoint, a run rebuilt from git alone. Every door goes through these,
//! so the checks (trust, inputs, checkpoint mode) are made once: [`crate::RunHost`] runs
//! what they prepare on its own tasks, the CLI in the foreground with a live view.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use heddle_checkpoint::ModeChoice;
use heddle_engine::interviewer::Interviewer;
use heddle_engine::{Budget, Conclusion, PreparedRun, RunDir, RunRequest};

use crate::error::{ApiError, ErrorCode};
use crate::run_budget::caller_budget;
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::run_trust::work_dir_of;
use crate::run_types::{ForkRequest, ResumeRunRequest, StartRunRequest};
use crate::runs::{engine, fork_run};

/// How this process executes runs: the environment their commands get (its `HOME` is
/// refused as a workspace) and who is asked at a human gate here (answers given through
/// the API or another process are taken too).
#[derive(Clone)]
pub struct Executor {
    /// The environment passed to commands and providers.
    pub env: Vec<(String, String)>,
    /// Asks human gates in this process.
    pub interviewer: Arc<dyn Interviewer>,
    /// A worker's team remote: each checkpoint is pushed there before the next stage.
    pub push_to: Option<TeamRemote>,
}

/// Where a worker's runs are pushed: from its clone to the team's remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRemote {
    /// The clone the run works in.
    pub repository: PathBuf,
    /// The team's remote (a path, a `file://` URL or a network remote).
    pub remote: String,
}

/// A new run ready to execute, and what the person should know before it does.
#[derive(Debug)]
pub struct PreparedStart {
    /// The run, set up in its folder and not executing yet.
    pub run: PreparedRun,
    /// Notes on the run config (unknown keys, ...).
    pub warnings: Vec<String>,
}

impl RunLibrary {
    /// Validates the workflow (`request.workflow_path`, or the workflow a run config
    /// names), checks it is trusted, and sets the run up in `run_dir` (default: a new
    /// folder under `runs/`). Its budget: the request's limits, else the run config's, else
    /// the graph's.
    pub async fn prepare_start(
        &self,
        request: StartRunRequest,
        run_dir: Option<PathBuf>,
        executor: &Executor,
    ) -> Result<PreparedStart, ApiError> {
        let checkpoints = checkpoint_mode(request.checkpoints.as_deref())?;
        let caller = caller_budget(request.max_cost_usd, request.max_tokens)?;
        let resolved = crate::run_inputs::resolve_run(
            Path::new(&request.workflow_path),
            request.goal,
            request.inputs,
        )
        .map_err(|message| ApiError::new(ErrorCode::InvalidRequest, message))?;
        let workflow_path = resolved.workflow_path;
        let work_dir = work_dir_of(&workflow_path, request.work_dir.as_deref());
        let source = self
            .trusted_source(
                &workflow_path,
                &work_dir,
                request.trust,
                request.trust_digest,
            )
            .await?;
        let engine = engine(
            self.home(),
            request.dry_run,
            executor.interviewer.clone(),
            executor.env.clone(),
            executor.push_to.clone(),
            checkpoints,
        );
        let run = RunRequest {
            workflow_path,
            source: Some(source),
            goal: resolved.goal,
            labels: request.labels,
            inputs: resolved.inputs,
            runs_root: self.home().runs(),
            run_dir,
            work_dir,
            dry_run: request.dry_run,
            parent_run_id: None,
        };
        let budget = caller.or(resolved.budget);
        let run = blocking(move || engine.prepare(run).map_err(ApiError::from))
            .await?
            .with_budget(budget);
        Ok(PreparedStart {
            run,
            warnings: resolved.warnings,
        })
    }

    /// Continues a stopped run from its checkpoint, under the request's limits where it
    /// gives them (else the run config's, else the graph's).
    pub async fn prepare_resume(
        &self,
        request: &ResumeRunRequest,
        executor: &Executor,
    ) -> Result<PreparedRun, ApiError> {
        let caller = caller_budget(request.max_cost_usd, request.max_tokens)?;
        let run_dir = self.find(&request.run_id)?;
        self.prepare_continue(run_dir, caller, executor).await
    }

    /// Makes a new run from a checkpoint of another, ready to continue.
    pub async fn prepare_fork(
        &self,
        request: &ForkRequest,
        executor: &Executor,
    ) -> Result<PreparedRun, ApiError> {
        let source = self.find(&request.run_id)?;
        let (home, from) = (self.home().clone(), request.from.clone());
        let run_dir =
            blocking(move || fork_run(&home, &source, &from).map_err(ApiError::from)).await?;
        self.prepare_continue(run_dir, Budget::default(), executor)
            .await
    }

    /// Rebuilds a run from git alone (`refs/heddle/{id}` and its run branch in the
    /// repository at `repository`), ready to continue under `max_cost_usd` / `max_tokens`
    /// where given.
    pub async fn prepare_from_ref(
        &self,
        repository: &Path,
        reference: &str,
        max_cost_usd: Option<f64>,
        max_tokens: Option<u64>,
        executor: &Executor,
    ) -> Result<PreparedRun, ApiError> {
        let caller = caller_budget(max_cost_usd, max_tokens)?;
        let (repository, reference, runs) = (
            repository.to_path_buf(),
            reference.to_string(),
            self.home().runs(),
        );
        let run_dir = blocking(move || {
            Ok(heddle_checkpoint::from_ref::restore_from_ref(
                &repository,
                &reference,
                &runs,
            )?)
        })
        .await?;
        self.prepare_continue(run_dir, caller, executor).await
    }

    /// `caller`: the limits the caller gave, laid over the run config's.
    async fn prepare_continue(
        &self,
        run_dir: RunDir,
        caller: Budget,
        executor: &Executor,
    ) -> Result<PreparedRun, ApiError> {
        let manifest = run_dir.read_manifest().ok();
        let dry_run = manifest.as_ref().is_some_and(|m| m.dry_run);
        // The budget is not frozen in the run: the caller's limits, over the run config beside
        // the workflow as it is now (the run records what it ran under in `run.started`).
        let config = manifest
            .and_then(|m| {
                crate::run_inputs::resolve_run(
                    Path::new(&m.workflow_path),
                    None,
                    Default::default(),
                )
                .ok()
            })
            .map(|resolved| resolved.budget)
            .unwrap_or_default();
        let engine = engine(
            self.home(),
            dry_run,
            executor.interviewer.clone(),
            executor.env.clone(),
            executor.push_to.clone(),
            ModeChoice::Auto,
        );
        let run = blocking(move || engine.resume(&run_dir).map_err(ApiError::from)).await?;
        Ok(run.with_budget(caller.or(config)))
    }

    /// Executes `prepared` to its end, keeping the index current: the run is listed as soon
    /// as it starts and as it ended once this returns.
    pub async fn execute(&self, prepared: PreparedRun) -> Conclusion {
        let folder = prepared.run_dir().root().to_path_buf();
        // A run the index cannot list yet still runs; the watcher or the next catch-up
        // lists it.
        let _ = self.index().ingest_run(&folder).await;
        let conclusion = prepared.execute().await;
        let _ = self.index().ingest_run(&folder).await;
        conclusion
    }
}

/// The checkpoint mode a request names.
fn checkpoint_mode(name: Option<&str>) -> Result<ModeChoice, ApiError> {
    match name {
        None | Some("auto") => Ok(ModeChoice::Auto),
        Some("worktree") => Ok(ModeChoice::Worktree),
        Some("shadow") => Ok(ModeChoice::Shadow),
        Some("none") => Ok(ModeChoice::None),
        Some(other) => Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("checkpoints `{other}` is not one of auto, worktree, shadow or none"),
        )),
    }
}
