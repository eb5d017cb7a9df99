//! Loops: detecting a failure that keeps repeating, and `loop_restart` edges that start the
//! run over with a fresh context.

use super::shared::Shared;
use super::state::failure_signature;
use super::walk::WalkEnd;
use crate::context::{Context, keys};
use crate::event::Event;
use crate::outcome::{FailureClass, Outcome};

/// Loop detection: the same failure `loop_failure_limit` times ends the run.
pub(crate) fn count_failure(
    shared: &Shared,
    context: &Context,
    node: &str,
    class: &str,
    reason: &str,
) -> Option<WalkEnd> {
    let signature = failure_signature(node, class, reason);
    context.set(keys::FAILURE_SIGNATURE, signature.clone());
    let count = shared.state().progress.count_failure(&signature);
    let limit = shared.spec.engine.config.loop_failure_limit;
    (count >= limit).then(|| WalkEnd::Failed {
        node: node.to_string(),
        resume_at: Some(node.to_string()),
        reason: format!(
            "loop detected: `{node}` failed the same way {count} times ({reason}); fix the cause, then resume"
        ),
    })
}

/// A `loop_restart` edge: start over at `target` with a fresh context.
pub(crate) fn restart(
    shared: &Shared,
    context: &Context,
    from: &str,
    target: &str,
    failure: Option<&Outcome>,
) -> Option<WalkEnd> {
    let mut guard = shared.state();
    let state = &mut guard.progress;
    state.restarts += 1;
    let restarts = state.restarts;
    if restarts > shared.spec.engine.config.max_restarts {
        return Some(WalkEnd::Failed {
            node: from.to_string(),
            resume_at: None,
            reason: format!(
                "`{from}` restarted the run {} times; stopping (loop_restart limit)",
                restarts - 1
            ),
        });
    }
    if let Some(outcome) = failure {
        let class = outcome.failure_class.unwrap_or(FailureClass::Deterministic);
        let reason = outcome.failure_reason.clone().unwrap_or_default();
        let signature = failure_signature(from, class.as_str(), &reason);
        let count = state
            .restart_failure_signatures
            .entry(signature)
            .or_insert(0);
        *count += 1;
        if *count >= shared.spec.engine.config.loop_failure_limit {
            return Some(WalkEnd::Failed {
                node: from.to_string(),
                resume_at: None,
                reason: format!(
                    "restart loop: `{from}` failed the same way before {} restarts ({reason})",
                    *count
                ),
            });
        }
    }
    state.loop_failure_signatures.clear();
    state.clear_outcomes();
    state.logs.push(format!(
        "restart {restarts}: {from} -> {target} with a fresh context"
    ));
    drop(guard);
    context.replace(shared.spec.fresh_context().snapshot());
    shared.emitter.emit(
        Some(from),
        Event::LoopRestarted {
            target: target.to_string(),
            restarts,
        },
    );
    None
}
