//! [`GitCheckpoints`]: the engine's checkpoint hook backed by git. It keeps one open
//! [`Session`] per running run and does all git work on tokio's blocking threads.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use heddle_workflow::Attrs;

use async_trait::async_trait;
use heddle_engine::hooks::{
    CheckpointHook, CheckpointSetup, GitCheckpoint, HookError, Reopened, RunStart,
};
use heddle_engine::{Checkpoint, Clock, Manifest, RunDir};

use crate::actor::SessionHandle;
use crate::error::CheckpointError;
use crate::grouping::Grouping;
use crate::session::SessionOptions;
use crate::setup::{ModeChoice, SetupContext, set_up};
use crate::state::{DEFAULT_SIZE_CAP, GitState};

type Sessions = Mutex<HashMap<PathBuf, SessionHandle>>;

/// Git checkpoints for every run an engine starts.
pub struct GitCheckpoints {
    heddle_home: PathBuf,
    user_home: Option<PathBuf>,
    choice: ModeChoice,
    size_cap: u64,
    watch: bool,
    grouping: Grouping,
    clock: Arc<dyn Clock>,
    sessions: Arc<Sessions>,
}

impl GitCheckpoints {
    /// Checkpoints with shadow repositories under `heddle_home`, refusing `user_home` as a
    /// workspace, in the modes `choice` allows, on `clock`.
    pub fn new(
        heddle_home: PathBuf,
        user_home: Option<PathBuf>,
        choice: ModeChoice,
        clock: Arc<dyn Clock>,
    ) -> Self {
        GitCheckpoints {
            heddle_home,
            user_home,
            choice,
            size_cap: DEFAULT_SIZE_CAP,
            watch: true,
            grouping: Grouping::QUIET_STAGES,
            clock,
            sessions: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Sets the size cap for stored files.
    #[must_use]
    pub fn with_size_cap(mut self, bytes: u64) -> Self {
        self.size_cap = bytes;
        self
    }

    /// Turns the filesystem watcher off: every checkpoint rescans the work tree.
    #[must_use]
    pub fn without_watcher(mut self) -> Self {
        self.watch = false;
        self
    }

    /// Sets which checkpoints may wait to be published together (by default those of
    /// stages followed by a quiet node, [`Grouping::QUIET_STAGES`]).
    #[must_use]
    pub fn with_grouping(mut self, grouping: Grouping) -> Self {
        self.grouping = grouping;
        self
    }

    fn options(&self) -> SessionOptions {
        SessionOptions {
            watch: self.watch,
            grouping: self.grouping,
        }
    }

    fn session(&self, run_dir: &RunDir) -> Result<Option<SessionHandle>, CheckpointError> {
        let key = run_dir.root().to_path_buf();
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(session) = sessions.get(&key) {
            return Ok(Some(session.clone()));
        }
        let Some(state) = GitState::load(run_dir)? else {
            return Ok(None);
        };
        let session = SessionHandle::spawn(run_dir, state, self.options())?;
        sessions.insert(key, session.clone());
        Ok(Some(session))
    }
}

/// The workflow's `checkpoint_exclude` globs.
fn exclude_globs(workflow: &heddle_workflow::Workflow) -> Vec<String> {
    workflow
        .attr_str("checkpoint_exclude")
        .map(|v| {
            v.split(',')
                .map(str::trim)
                .filter(|g| !g.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[async_trait]
impl CheckpointHook for GitCheckpoints {
    fn start(&self, run: RunStart<'_>) -> Result<CheckpointSetup, HookError> {
        if self.choice == ModeChoice::None || run.parent_run_id.is_some() {
            return Ok(CheckpointSetup::none(run.workspace));
        }
        let now = heddle_engine::clock::rfc3339(self.clock.now());
        let context = SetupContext {
            heddle_home: &self.heddle_home,
            user_home: self.user_home.as_deref(),
            choice: self.choice,
            size_cap: self.size_cap,
            now: &now,
        };
        let setup = set_up(
            &context,
            run.run_id,
            run.run_dir,
            run.workspace,
            &run.workflow.name,
            exclude_globs(run.workflow),
        )
        .map_err(HookError::from)?;
        let session = SessionHandle::spawn(run.run_dir, setup.state.clone(), self.options())
            .map_err(HookError::from)?;
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(run.run_dir.root().to_path_buf(), session);
        Ok(CheckpointSetup {
            mode: setup.state.mode.as_str().to_string(),
            work_dir: setup.work_dir,
            base_sha: Some(setup.state.base_sha.clone()),
            run_branch: Some(GitState::short(&setup.state.branch).to_string()),
            warnings: setup.warnings,
        })
    }

    fn settle(&self, run_dir: &RunDir) -> Result<Vec<String>, HookError> {
        let now = heddle_engine::clock::rfc3339(self.clock.now());
        let finished =
            crate::rollback_journal::finish_pending(run_dir, &now).map_err(HookError::from)?;
        Ok(finished.into_iter().collect())
    }

    fn reopen(
        &self,
        run_dir: &RunDir,
        manifest: &Manifest,
        interrupted: bool,
    ) -> Result<Reopened, HookError> {
        let _ = manifest;
        let Some(state) = GitState::load(run_dir).map_err(HookError::from)? else {
            return Ok(Reopened::default());
        };
        let warnings = crate::reopen::repair(run_dir, &state).map_err(HookError::from)?;
        let repo = crate::integrity::open_verified(run_dir, &state).map_err(HookError::from)?;
        let recovered = if interrupted {
            let now = heddle_engine::clock::rfc3339(self.clock.now());
            crate::resume_restore::restore_interrupted(run_dir, &state, &repo, &now)
                .map_err(HookError::from)?
        } else {
            None
        };
        drop(repo);
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(run_dir.root());
        self.session(run_dir).map_err(HookError::from)?;
        Ok(Reopened {
            warnings,
            recovered,
        })
    }

    async fn after_node(
        &self,
        run_dir: &RunDir,
        checkpoint: &Checkpoint,
    ) -> Result<Option<GitCheckpoint>, HookError> {
        let Some(session) = self.session(run_dir).map_err(HookError::from)? else {
            return Ok(None);
        };
        let checkpoint = checkpoint.clone();
        session
            .run(move |session| session.checkpoint(&checkpoint).map(Some))
            .await
            .map_err(HookError::from)
    }

    async fn finish(&self, run_dir: &RunDir, _run_id: &str) -> Result<(), HookError> {
        let session = self
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(run_dir.root());
        let Some(session) = session else {
            return Ok(());
        };
        session
            .run(|session| session.finish())
            .await
            .map_err(HookError::from)
    }
}
