//! Test-artifact capture around command stages: the work tree is fingerprinted before the
//! command and what it left is captured after, through the artifact hook, off the async
//! workers. Captured files become `artifact.captured` events; skipped ones, warnings.

use std::any::Any;
use std::path::Path;

use heddle_workflow::Node;

use super::shared::Shared;
use crate::event::Event;
use crate::hooks::{ArtifactStage, CapturedArtifacts};
use crate::outcome::Outcome;

/// The fingerprint taken before a stage (`None` when it could not be taken).
pub(crate) async fn before(shared: &Shared) -> Option<Box<dyn Any + Send>> {
    let hook = shared.spec.engine.services.artifacts.clone();
    let work_dir = shared.spec.work_dir.clone();
    tokio::task::spawn_blocking(move || hook.before_stage(&work_dir))
        .await
        .ok()
}

/// Captures into `artifacts/{stage folder}/retry_{attempt - 1}` and records the result on
/// the outcome: the count, and the JUnit summary in the notes.
pub(crate) async fn after(
    shared: &Shared,
    node: &Node,
    stage_dir: &Path,
    attempt: u32,
    before: Option<Box<dyn Any + Send>>,
    mut outcome: Outcome,
) -> Outcome {
    let Some(before) = before else {
        return outcome;
    };
    let folder = stage_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| node.id.clone());
    let dest = shared
        .spec
        .run_dir
        .artifacts()
        .join(folder)
        .join(format!("retry_{}", attempt.saturating_sub(1)));
    let hook = shared.spec.engine.services.artifacts.clone();
    let work_dir = shared.spec.work_dir.clone();
    let run_root = shared.spec.run_dir.root().to_path_buf();
    let node_id = node.id.clone();
    let captured = tokio::task::spawn_blocking(move || {
        let stage = ArtifactStage {
            node_id: &node_id,
            work_dir: &work_dir,
            dest: &dest,
            run_dir: &run_root,
        };
        hook.after_stage(&stage, before)
    })
    .await
    .unwrap_or_else(|_| Ok(CapturedArtifacts::default()));
    let events = shared.emitter.for_node(&node.id);
    let captured = match captured {
        Ok(captured) => captured,
        Err(error) => {
            events.emit(Event::Warning {
                message: error.to_string(),
            });
            return outcome;
        }
    };
    for artifact in &captured.artifacts {
        events.emit(Event::ArtifactCaptured {
            path: artifact.path.clone(),
            kind: artifact.kind.clone(),
            media_type: artifact.media_type.clone(),
            size: artifact.size,
        });
    }
    for skipped in &captured.skipped {
        events.emit(Event::Warning {
            message: format!("artifact not captured: {skipped}"),
        });
    }
    outcome.artifacts = captured.artifacts.len();
    if let Some(summary) = captured.junit_summary {
        outcome.notes = if outcome.notes.is_empty() {
            format!("tests: {summary}")
        } else {
            format!("{}; tests: {summary}", outcome.notes)
        };
        outcome.junit = Some(summary);
    }
    outcome
}
