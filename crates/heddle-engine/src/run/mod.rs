//! Running a workflow: preparing the run directory, the loop that walks the graph, and
//! resuming from checkpoint.json.

mod branches;
mod capture;
mod dispatch;
mod execute;
mod fan_in;
mod fan_in_choice;
mod goal;
mod join;
mod launch;
mod loops;
mod manager;
mod manager_child;
mod offload;
mod parallel;
mod shared;
mod spec;
mod stage;
mod state;
mod walk;

pub use execute::{CancelHandle, PreparedRun};

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::clock::Clock;
use crate::entropy::Entropy;
use crate::hooks::CheckpointHook;
use crate::interviewer::Interviewer;
use crate::llm::LlmBackend;

/// Time, randomness and the environment, passed in.
#[derive(Clone)]
#[allow(missing_debug_implementations)]
pub struct EngineEnv {
    /// Timestamps of events and checkpoints, and timeouts (a fake one in tests).
    pub clock: Arc<dyn Clock>,
    /// Randomness (run ids, jitter).
    pub entropy: Arc<dyn Entropy>,
    /// The environment commands inherit (the CLI passes its own).
    pub env: Vec<(String, String)>,
}

/// The implementations the engine calls out to.
#[derive(Clone)]
pub struct Services {
    /// LLM stages.
    pub llm: Arc<dyn LlmBackend>,
    /// Human gates.
    pub interviewer: Arc<dyn Interviewer>,
    /// Git checkpoints.
    pub checkpoints: Arc<dyn CheckpointHook>,
    /// Test-artifact capture around command stages.
    pub artifacts: Arc<dyn crate::hooks::ArtifactHook>,
    /// Where context values over [`OFFLOAD_BYTES`] go.
    pub blobs: Arc<dyn crate::hooks::BlobSink>,
}

/// Context values whose JSON is larger than this are stored as blobs; the context (and so
/// the checkpoint) keeps their `blob://` ref.
pub const OFFLOAD_BYTES: usize = 100 * 1024;

/// Limits and switches.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The same failure signature this many times fails the run (loop detection).
    pub loop_failure_limit: u32,
    /// `loop_restart` edges taken at most this many times.
    pub max_restarts: u32,
    /// fsync checkpoint.json before renaming it into place.
    pub sync_checkpoints: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            loop_failure_limit: 3,
            max_restarts: 20,
            sync_checkpoints: true,
        }
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The workflow file.
    pub workflow_path: PathBuf,
    /// Its content (read from `workflow_path` when `None`).
    pub source: Option<String>,
    /// Overrides the graph's `goal`.
    pub goal: Option<String>,
    /// `--label K=V` pairs.
    pub labels: BTreeMap<String, String>,
    /// `inputs.NAME` values for the workflow's templates (`-V`, run.toml, the API).
    pub inputs: BTreeMap<String, String>,
    /// The runs folder (`$HEDDLE_HOME/runs`).
    pub runs_root: PathBuf,
    /// An explicit run directory (`--run-dir`), instead of `runs_root/YYYYMMDD-{id}`.
    pub run_dir: Option<PathBuf>,
    /// Where stages run.
    pub work_dir: PathBuf,
    /// Simulated LLM stages.
    pub dry_run: bool,
    /// The supervising run (manager loop children).
    pub parent_run_id: Option<String>,
}

/// The executor.
#[derive(Clone)]
pub struct Engine {
    env: EngineEnv,
    services: Services,
    config: EngineConfig,
}

impl Engine {
    /// An engine over `env` and `services` with default limits.
    pub fn new(env: EngineEnv, services: Services) -> Self {
        Engine {
            env,
            services,
            config: EngineConfig::default(),
        }
    }

    /// The same engine with `config`.
    pub fn with_config(mut self, config: EngineConfig) -> Self {
        self.config = config;
        self
    }
}
