//! Runs: where they live (`$HEDDLE_HOME`), and an engine wired with the real services: git
//! checkpoints, artifact capture, the blob store, and heddle-llm's providers (or simulated
//! replies with `--dry-run`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use heddle_artifacts::{SharedFiles, SharedFilesError};
use heddle_checkpoint::pushing_hook::PushingCheckpoints;
use heddle_checkpoint::{GitCheckpoints, ModeChoice};
use heddle_engine::interviewer::Interviewer;
use heddle_engine::llm::{LlmBackend, SimulatedBackend};
use heddle_engine::{Engine, EngineEnv, OsEntropy, Services, SystemClock};
use heddle_store::{IndexLocation, StoreError};

/// Heddle's data folder: `runs/`, `blobs/`, `shadow/`, `heddle.db` (the run index, unless a
/// database URL puts it elsewhere), `shared-runs/` (runs of other machines, when a run files
/// URL shares them), `team-remote.git` (their checkpoints, when a team remote is given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeddleHome {
    root: PathBuf,
    /// `HEDDLE_DATABASE_URL`: a PostgreSQL index shared by a team, or another SQLite file.
    database_url: Option<String>,
    /// `HEDDLE_RUN_FILES_URL` and the `AWS_*` settings: a store a team shares run files in.
    run_files: Option<(String, Vec<(String, String)>)>,
    /// `HEDDLE_TEAM_REMOTE`: the git remote the team's workers push runs to, for reading
    /// the checkpoints of runs they executed.
    team_remote: Option<String>,
}

impl HeddleHome {
    /// `$HEDDLE_HOME` when set, else `$HOME/.heddle`, from values the caller read.
    pub fn resolve(heddle_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<HeddleHome> {
        heddle_home
            .filter(|p| !p.as_os_str().is_empty())
            .or_else(|| home.map(|h| h.join(".heddle")))
            .map(HeddleHome::at)
    }

    /// A home at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        HeddleHome {
            root: root.into(),
            database_url: None,
            run_files: None,
            team_remote: None,
        }
    }

    /// The home with its run index in the database `url` names (`HEDDLE_DATABASE_URL`, read
    /// by the caller): `postgres://…` or `sqlite:PATH`; `None` or empty keeps `heddle.db`.
    pub fn with_database_url(mut self, url: Option<String>) -> Self {
        self.database_url = url.filter(|u| !u.trim().is_empty());
        self
    }

    /// The home sharing run files through the store `url` names (`HEDDLE_RUN_FILES_URL`,
    /// read by the caller): `file:///folder` or `s3://bucket/prefix`, reached with the
    /// `AWS_*` settings of `env`; `None` or empty shares none.
    pub fn with_run_files(mut self, url: Option<String>, env: &[(String, String)]) -> Self {
        self.run_files = url.filter(|u| !u.trim().is_empty()).map(|url| {
            let settings = env
                .iter()
                .filter(|(key, _)| key.starts_with("AWS_"))
                .cloned()
                .collect();
            (url, settings)
        });
        self
    }

    /// The home reading the checkpoints of runs a queue worker executed from the git remote
    /// `remote` names (`HEDDLE_TEAM_REMOTE`, read by the caller; the remote the workers
    /// push to); `None` or empty reads none.
    pub fn with_team_remote(mut self, remote: Option<String>) -> Self {
        self.team_remote = remote.filter(|r| !r.trim().is_empty());
        self
    }

    /// The team's git remote, when one was given.
    pub fn team_remote(&self) -> Option<&str> {
        self.team_remote.as_deref()
    }

    /// `team-remote.git`: a bare repository holding the refs of the runs read from the team's
    /// remote.
    pub fn team_mirror(&self) -> PathBuf {
        self.root.join("team-remote.git")
    }

    /// The store run files are shared in, when one was given.
    pub fn shared_files(&self) -> Result<Option<SharedFiles>, SharedFilesError> {
        self.run_files
            .as_ref()
            .map(|(url, env)| SharedFiles::open(url, env))
            .transpose()
    }

    /// `shared-runs/`: copies of runs other machines ran, fetched from the shared store.
    pub fn shared_runs(&self) -> PathBuf {
        self.root.join("shared-runs")
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `runs/`.
    pub fn runs(&self) -> PathBuf {
        self.root.join("runs")
    }

    /// `blobs/`.
    pub fn blobs(&self) -> PathBuf {
        self.root.join("blobs")
    }

    /// The run index: the database URL's when one was given, else the file `heddle.db`.
    pub fn index(&self) -> Result<IndexLocation, StoreError> {
        IndexLocation::choose(self.database_url.as_deref(), self.root.join("heddle.db"))
    }
}

/// An engine on the real clock and randomness, with simulated LLM replies when `dry_run`
/// (else the providers this build has), the given interviewer, test-artifact capture around
/// command stages, large context values offloaded to `home`'s blob store, and git
/// checkpoints in the modes `checkpoints` allows (shadow repositories under `home`; the
/// `HOME` in `env` is refused as a workspace), pushed to a team's remote after each one when
/// `push_to` names it.
pub fn engine(
    home: &HeddleHome,
    dry_run: bool,
    interviewer: Arc<dyn Interviewer>,
    env: Vec<(String, String)>,
    push_to: Option<crate::run_launch::TeamRemote>,
    checkpoints: ModeChoice,
) -> Engine {
    let clock = Arc::new(SystemClock::new());
    let user_home = env
        .iter()
        .find(|(k, _)| k == "HOME")
        .map(|(_, v)| PathBuf::from(v));
    let git = GitCheckpoints::new(
        home.root().to_path_buf(),
        user_home,
        checkpoints,
        clock.clone(),
    );
    let llm: Arc<dyn LlmBackend> = if dry_run {
        Arc::new(SimulatedBackend)
    } else {
        Arc::new(heddle_llm::ProviderBackend::load(
            home.root(),
            env.clone(),
            Arc::new(heddle_checkpoint::GitStatusWatch),
        ))
    };
    Engine::new(
        EngineEnv {
            clock,
            entropy: Arc::new(OsEntropy::new()),
            env,
        },
        Services {
            llm,
            interviewer,
            checkpoints: match push_to {
                Some(team) => Arc::new(PushingCheckpoints::new(git, team.repository, team.remote)),
                None => Arc::new(git),
            },
            artifacts: Arc::new(heddle_artifacts::CaptureHook::default()),
            blobs: Arc::new(heddle_artifacts::BlobStore::new(home.blobs())),
        },
    )
}

/// Makes a new run folder in `home` from checkpoint `from` of the run in `source`, with a
/// fresh id dated now, ready for the engine to resume. Blocking (git work).
pub fn fork_run(
    home: &HeddleHome,
    source: &heddle_engine::RunDir,
    from: &str,
) -> Result<heddle_engine::RunDir, heddle_checkpoint::CheckpointError> {
    let now = std::time::SystemTime::now();
    let new_id = heddle_engine::entropy::new_ulid(now, &OsEntropy::new());
    let stamp = heddle_engine::clock::rfc3339(now);
    let new_dir = home
        .runs()
        .join(heddle_engine::RunDir::folder_name(&stamp, &new_id));
    heddle_checkpoint::fork::fork(source, from, &new_id, &new_dir, &stamp)
}
