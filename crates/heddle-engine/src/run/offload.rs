//! Offloading large context values: a stage's update whose JSON exceeds
//! [`super::OFFLOAD_BYTES`] is stored through the blob sink and replaced in the context by
//! its `blob://sha256/{hex}` ref. Without a blob store the value stays inline.

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
