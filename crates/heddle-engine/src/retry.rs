//! Retries: how many attempts a stage gets and how long to wait between them.
//!
//! Presets (`retry_policy`): `none` 1 attempt; `standard` 5 attempts, 200 ms doubling;
//! `aggressive` 5 attempts, 500 ms doubling; `linear` 3 attempts, 500 ms flat; `patient`
//! 3 attempts, 2 s tripling. Delays are capped at 60 s and multiplied by a jitter in
//! [0.5, 1.5). An explicit `max_retries` (or the graph's `default_max_retries`) sets the
//! attempts; the policy then only shapes the delays. Without either a stage gets one attempt.

use std::time::Duration;

use heddle_workflow::{Attrs, Node, Workflow};

use crate::entropy::Entropy;

/// Longest wait between attempts.
pub const MAX_DELAY: Duration = Duration::from_secs(60);

/// How a stage is retried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in total (at least 1).
    pub max_attempts: u32,
    /// Wait before the second attempt.
    pub initial_delay: Duration,
    /// Factor applied to the wait after each attempt.
    pub backoff_factor: f64,
    /// Whether waits are jittered.
    pub jitter: bool,
}

impl RetryPolicy {
    /// The preset named `name` (`none`, `standard`, `aggressive`, `linear`, `patient`).
    pub fn preset(name: &str) -> Option<RetryPolicy> {
        let (max_attempts, initial_ms, backoff_factor) = match name.trim() {
            "none" => (1, 200, 2.0),
            "standard" => (5, 200, 2.0),
            "aggressive" => (5, 500, 2.0),
            "linear" => (3, 500, 1.0),
            "patient" => (3, 2000, 3.0),
            _ => return None,
        };
        Some(RetryPolicy {
            max_attempts,
            initial_delay: Duration::from_millis(initial_ms),
            backoff_factor,
            jitter: true,
        })
    }

    /// The policy of `node`: `max_retries` (else the graph's `default_max_retries`) sets the
    /// attempts, `retry_policy` the preset; one attempt when neither is set.
    pub fn for_node(node: &Node, workflow: &Workflow) -> RetryPolicy {
        let preset = node.attr_str("retry_policy").and_then(RetryPolicy::preset);
        let retries = node
            .attr_int("max_retries")
            .or_else(|| workflow.attr_int("default_max_retries"));
        let base = preset.unwrap_or(RetryPolicy {
            max_attempts: 1,
            initial_delay: Duration::from_millis(200),
            backoff_factor: 2.0,
            jitter: true,
        });
        match retries {
            Some(n) => RetryPolicy {
                max_attempts: u32::try_from(n.max(0))
                    .unwrap_or(u32::MAX)
                    .saturating_add(1),
                ..base
            },
            None => base,
        }
    }

    /// The wait after attempt `attempt` (from 1) failed, before the next one.
    pub fn delay(&self, attempt: u32, entropy: &dyn Entropy) -> Duration {
        let exponent = i32::try_from(attempt.saturating_sub(1)).unwrap_or(i32::MAX);
        let base = self.initial_delay.as_secs_f64() * self.backoff_factor.powi(exponent);
        let capped = base.min(MAX_DELAY.as_secs_f64());
        let jittered = if self.jitter {
            capped * (0.5 + entropy.next_unit())
        } else {
            capped
        };
        Duration::from_secs_f64(jittered.min(MAX_DELAY.as_secs_f64()))
    }
}
