//! How a parallel node's branches join: its `join_policy` (`wait_all`, `first_success`,
//! `k_of_n(N)`, `quorum(F)`) says when enough branches succeeded, its `error_policy`
//! (`continue`, `fail_fast`, `ignore`) what a failing branch does; both decide when the other
//! branches are stopped and the parallel node's outcome.

use heddle_workflow::{Attrs, ErrorPolicy, JoinPolicy, Node};
use serde_json::{Value as Json, json};

use crate::context::keys;
use crate::outcome::{FailureClass, Outcome, StageStatus};

/// One branch's result, as `parallel.results` holds it.
#[derive(Debug, Clone)]
pub(super) struct BranchResult {
    pub branch: String,
    pub status: StageStatus,
    pub last_node: Option<String>,
    pub failure_reason: Option<String>,
    pub score: Option<f64>,
    /// The branch failed and `error_policy=ignore` counts it as a success.
    pub failure_ignored: bool,
    pub updates: Vec<(String, Json)>,
}

/// A parallel node's policies and how far its branches got.
#[derive(Debug)]
pub(super) struct Join {
    pub policy: JoinPolicy,
    pub errors: ErrorPolicy,
    total: usize,
    succeeded: usize,
    /// Why the remaining branches were stopped, once they were.
    stopped: Option<String>,
}

impl Join {
    /// The policies of `node`, else of its fan-in (a value that does not parse, which
    /// validation reports, reads as the default).
    pub fn new(node: &Node, fan_in: Option<&Node>, total: usize) -> Join {
        let read = |key: &str| {
            node.attr_str(key)
                .or_else(|| fan_in.and_then(|n| n.attr_str(key)))
        };
        Join {
            policy: read("join_policy")
                .and_then(|p| JoinPolicy::parse(p).ok())
                .unwrap_or(JoinPolicy::WaitAll),
            errors: read("error_policy")
                .and_then(ErrorPolicy::parse)
                .unwrap_or_default(),
            total,
            succeeded: 0,
            stopped: None,
        }
    }

    /// Why the branches not yet ended were stopped (`None` while they run on).
    pub fn stop_reason(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Counts an ended branch (applying `error_policy=ignore` to it); true when the
    /// branches still running must be stopped now: the join policy is met (every policy
    /// but `wait_all`), or, with `error_policy=fail_fast`, the branch failed.
    pub fn ended(&mut self, result: &mut BranchResult) -> bool {
        if self.errors == ErrorPolicy::Ignore && result.status == StageStatus::Fail {
            result.status = StageStatus::Success;
            result.failure_ignored = true;
        }
        if result.status.is_success() {
            self.succeeded += 1;
        }
        if self.stopped.is_some() {
            return false;
        }
        self.stopped =
            if self.policy.stops_early() && self.succeeded >= self.policy.needed(self.total) {
                Some(match self.policy {
                    JoinPolicy::FirstSuccess => "another branch succeeded first".to_string(),
                    policy => format!("the join policy {policy} was met"),
                })
            } else if self.errors == ErrorPolicy::FailFast && result.status == StageStatus::Fail {
                Some(format!(
                    "branch `{}` failed and error_policy is fail_fast",
                    result.branch
                ))
            } else {
                None
            };
        self.stopped.is_some()
    }

    /// The parallel node's outcome from its branches' results: `parallel.results`,
    /// `parallel.join`, the branches' `response.*`/`output.*` keys, and the fan-in to go to.
    pub fn summarize(&self, node: &str, fan_in: &str, results: &[BranchResult]) -> Outcome {
        let total = results.len();
        let succeeded = results.iter().filter(|r| r.status.is_success()).count();
        let failed: Vec<&BranchResult> = results
            .iter()
            .filter(|r| r.status == StageStatus::Fail)
            .collect();
        let needed = self.policy.needed(total);
        let failed_fast = self.errors == ErrorPolicy::FailFast && !failed.is_empty();
        let met = match self.policy {
            JoinPolicy::WaitAll => !failed_fast,
            _ => succeeded >= needed,
        };
        let status = if !met || succeeded == 0 {
            StageStatus::Fail
        } else if succeeded == total || self.policy != JoinPolicy::WaitAll {
            StageStatus::Success
        } else {
            StageStatus::PartialSuccess
        };
        let mut outcome = Outcome::new(status).with_notes(format!(
            "{succeeded} of {total} branch(es) succeeded ({}{})",
            self.policy,
            match self.errors {
                ErrorPolicy::Continue => String::new(),
                errors => format!(", error_policy={}", errors.as_str()),
            }
        ));
        if status == StageStatus::Fail {
            let listed = |of: &[&BranchResult]| {
                of.iter()
                    .map(|r| {
                        format!(
                            "{}: {}",
                            r.branch,
                            r.failure_reason.as_deref().unwrap_or("failed")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let all: Vec<&BranchResult> = results.iter().collect();
            let reason = if succeeded == 0 && !failed_fast {
                format!("every branch of `{node}` failed ({})", listed(&all))
            } else if failed_fast {
                format!(
                    "a branch of `{node}` failed and error_policy=fail_fast stopped the others ({})",
                    listed(&failed)
                )
            } else {
                format!(
                    "the join policy {} of `{node}` was not met: {succeeded} of {total} branch(es) succeeded, {needed} needed ({})",
                    self.policy,
                    listed(&all)
                )
            };
            outcome.failure_class = Some(FailureClass::Deterministic);
            outcome.failure_reason = Some(reason);
        }
        let listed: Vec<Json> = results.iter().map(result_json).collect();
        outcome
            .context_updates
            .insert(keys::PARALLEL_RESULTS.to_string(), Json::Array(listed));
        outcome.context_updates.insert(
            keys::PARALLEL_JOIN.to_string(),
            json!({
                "policy": self.policy.to_string(),
                "error_policy": self.errors.as_str(),
                "needed": needed,
                "succeeded": succeeded,
                "total": total,
                "met": met,
            }),
        );
        for result in results {
            for (key, value) in &result.updates {
                outcome.context_updates.insert(key.clone(), value.clone());
            }
        }
        outcome.suggested_next_ids = vec![fan_in.to_string()];
        outcome
    }
}

/// One entry of `parallel.results`.
fn result_json(r: &BranchResult) -> Json {
    let mut entry = json!({
        "branch": r.branch,
        "status": r.status,
        "last_node": r.last_node,
        "failure_reason": r.failure_reason,
        "score": r.score,
    });
    if r.failure_ignored
        && let Some(object) = entry.as_object_mut()
    {
        object.insert("failure_ignored".into(), Json::Bool(true));
    }
    entry
}
