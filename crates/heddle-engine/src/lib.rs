//! heddle-engine owns the run loop and the types of a run: the context, stage outcomes,
//! edge selection, retries, goal gates, parallel branches, human gates, the preamble, the
//! event stream and the run directory (manifest, checkpoint.json, progress.jsonl,
//! conclusion.json, per-stage folders).
//!
//! It calls out through traits it defines ([`llm::LlmBackend`],
//! [`interviewer::Interviewer`], [`hooks::CheckpointHook`], [`hooks::ArtifactHook`]) so it runs and is tested with
//! in-memory implementations; heddle-api wires in the real ones. Time and randomness come
//! in through [`Clock`] and [`Entropy`].

// Before the modules that use its macro (`event`).
#[macro_use]
mod event_decl;

pub mod atomic_file;
pub mod budget;
pub mod checkpoint;
pub mod checkpoint_state;
pub mod clock;
pub mod context;
pub mod control;
pub mod emitter;
pub mod entropy;
mod error;
pub mod event;
pub mod fidelity;
pub mod handlers;
pub mod hooks;
pub mod interviewer;
pub mod llm;
pub mod outcome;
pub mod preamble;
pub mod progress_tail;
pub mod retry;
pub mod routing;
pub mod run;
pub mod run_records;
pub mod rundir;
pub mod runlock;
pub mod runs;
pub mod timeline_file;
pub mod work_tree;

pub use budget::{Budget, Spent};
pub use checkpoint::{Checkpoint, StageRecord};
pub use clock::{Clock, FakeClock, SystemClock};
pub use context::Context;
pub use emitter::{Emitter, NodeEvents};
pub use entropy::{Entropy, OsEntropy, SeededEntropy};
pub use error::{EngineError, describe_io};
pub use event::{EdgeReason, Envelope, Event};
pub use fidelity::Fidelity;
pub use outcome::{FailureClass, Outcome, StageStatus, Usage};
pub use run::{CancelHandle, Engine, EngineConfig, EngineEnv, PreparedRun, RunRequest, Services};
pub use rundir::{Conclusion, Manifest, RunDir, RunStatus};
