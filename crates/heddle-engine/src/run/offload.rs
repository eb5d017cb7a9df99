//! Offloading to the blob store: a stage's context update whose JSON exceeds
//! [`super::OFFLOAD_BYTES`] is replaced in the context by its `blob://sha256/{hex}` ref, and
//! a command's complete output (its logs) is stored with the refs kept on the stage record,
//! so checkpoints carry refs, never host paths. Without a blob store nothing changes.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::OFFLOAD_BYTES;
use super::shared::Shared;
use crate::context::Context;
use crate::event::Event;
use crate::hooks::BlobSinkError;

/// Replaces the large values among `updates` (already merged into `context`) by refs.
pub(crate) async fn offload_large(
    shared: &Shared,
    node: &str,
    updates: &BTreeMap<String, Json>,
    context: &Context,
) {
    for (key, value) in updates {
        let Ok(bytes) = serde_json::to_vec(value) else {
            continue;
        };
        if bytes.len() <= OFFLOAD_BYTES {
            continue;
        }
        let sink = shared.spec.engine.services.blobs.clone();
        let size = bytes.len();
        let reason = match tokio::task::spawn_blocking(move || sink.put(&bytes)).await {
            Ok(Ok(blob)) => {
                context.set(key.clone(), blob);
                continue;
            }
            Ok(Err(BlobSinkError::NoStore)) => continue,
            Ok(Err(error)) => error.to_string(),
            Err(stopped) => stopped.to_string(),
        };
        shared.emitter.emit(
            Some(node),
            Event::Warning {
                message: format!(
                    "`{key}` ({size} bytes) could not be stored as a blob and stays in the checkpoint: {reason}"
                ),
            },
        );
    }
}

/// Stores a command stage's `stdout.log` and `stderr.log` as blobs and records their refs.
pub(crate) async fn store_logs(
    shared: &Shared,
    node: &heddle_workflow::Node,
    stage_dir: &std::path::Path,
    outcome: &mut crate::outcome::Outcome,
) {
    for name in ["stdout.log", "stderr.log"] {
        let path = stage_dir.join(name);
        if !path.is_file() {
            continue;
        }
        let sink = shared.spec.engine.services.blobs.clone();
        let reason = match tokio::task::spawn_blocking(move || sink.put_file(&path)).await {
            Ok(Ok(blob)) => {
                outcome.blobs.insert(name.to_string(), blob);
                continue;
            }
            Ok(Err(BlobSinkError::NoStore)) => continue,
            Ok(Err(error)) => error.to_string(),
            Err(stopped) => stopped.to_string(),
        };
        shared.emitter.emit(
            Some(&node.id),
            Event::Warning {
                message: format!("{name} could not be stored as a blob: {reason}"),
            },
        );
    }
}

/// The context as a preamble shows it: every value held as a blob ref is materialised into
/// the run-local file `blobs/{hex}.json` of the run folder, and the value shown is that
/// file's path (a model with file tools can read it).
pub(crate) async fn materialise_for_preamble(
    shared: &Shared,
    mut values: BTreeMap<String, Json>,
) -> BTreeMap<String, Json> {
    for (key, value) in values.iter_mut() {
        // Only what the preamble shows is worth writing out.
        if !crate::preamble::shows_context_key(key) {
            continue;
        }
        let Some(blob) = value.as_str().filter(|v| v.starts_with("blob://sha256/")) else {
            continue;
        };
        let hex = blob.trim_start_matches("blob://sha256/").to_string();
        let dest = shared
            .spec
            .run_dir
            .root()
            .join("blobs")
            .join(format!("{hex}.json"));
        let sink = shared.spec.engine.services.blobs.clone();
        let (ref_text, path) = (blob.to_string(), dest.clone());
        let copied = if dest.is_file() {
            std::fs::metadata(&dest).map(|m| m.len()).ok()
        } else {
            tokio::task::spawn_blocking(move || sink.copy_to(&ref_text, &path))
                .await
                .ok()
                .and_then(Result::ok)
        };
        if let Some(bytes) = copied {
            *value = Json::String(format!(
                "(a large value, {bytes} bytes of JSON, in the file {})",
                dest.display()
            ));
        }
    }
    values
}
