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
        let sink = shared.engine.services.blobs.clone();
        let size = bytes.len();
        let stored = tokio::task::spawn_blocking(move || sink.put(&bytes))
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        match stored {
            Ok(blob) => context.set(key.clone(), blob),
            Err(reason) if reason == "no blob store" => {}
            Err(reason) => {
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
        let sink = shared.engine.services.blobs.clone();
        let stored = tokio::task::spawn_blocking(move || sink.put_file(&path))
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
        match stored {
            Ok(blob) => {
                outcome.blobs.insert(name.to_string(), blob);
            }
            Err(reason) if reason == "no blob store" => {}
            Err(reason) => {
                shared.emitter.emit(
                    Some(&node.id),
                    Event::Warning {
                        message: format!("{name} could not be stored as a blob: {reason}"),
                    },
                );
            }
        }
    }
}
