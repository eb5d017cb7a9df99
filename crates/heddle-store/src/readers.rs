//! The readers the index uses for what other crates keep in a run folder: the checkpoint
//! history (git, through heddle-checkpoint) and the captured artifacts (manifests, through
//! heddle-artifacts). heddle-api hands in the real ones; the store knows only the engine's
//! traits.

use std::sync::Arc;

use heddle_engine::run_records::{ArtifactListing, CheckpointHistory};

/// How the index reads checkpoints and artifacts from a run folder.
#[derive(Debug, Clone)]
pub struct RunReaders {
    /// Lists a run's git checkpoints (none when it keeps none).
    pub checkpoints: Arc<dyn CheckpointHistory>,
    /// Lists the files a run captured.
    pub artifacts: Arc<dyn ArtifactListing>,
}
