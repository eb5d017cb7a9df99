//! What a manager loop hands its child run and what it takes back. The child is found through
//! `heddle_workflow::manager_child` (the node's inline source or file, else the graph's
//! `stack.child_dotfile`), runs in `stack.child_workdir` (relative to the parent's work dir),
//! gets the parent's goal when it has none of its own, and starts with the parent's context;
//! the keys it sets or changes come back to the parent, as Fabro does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use heddle_workflow::{
    ChildSource, Node, OsFiles, load_source, manager_child, manager_child_workdir,
};
use serde_json::Value as Json;

use super::RunRequest;
use super::shared::Shared;
use crate::context::keys;

/// A child run ready to be prepared.
pub(super) struct ChildPlan {
    /// What the engine is asked to start.
    pub request: RunRequest,
    /// The child as a person reads it in messages: its file, or `inline in node X`.
    pub shown: String,
}

/// Works out the child run of manager loop `node`, or says why there is none.
pub(super) fn plan_child(
    shared: &Shared,
    node: &Node,
    child_dir: &Path,
) -> Result<ChildPlan, String> {
    let (workflow_path, source, shown) = match manager_child(&shared.spec.workflow, node) {
        None => {
            return Err(format!(
                "manager loop `{}` has no child workflow: set stack.child_workflow on it or \
                 stack.child_dotfile on the graph",
                node.id
            ));
        }
        Some(ChildSource::Inline(source)) => (
            shared.spec.workflow_path.clone(),
            source.to_string(),
            format!("the child written inline in `{}`", node.id),
        ),
        Some(ChildSource::File { reference, from }) => {
            let path = heddle_workflow::resolve_reference(&shared.spec.workflow_path, reference);
            let source = std::fs::read_to_string(&path).map_err(|error| {
                format!(
                    "manager loop `{}`: child workflow {} ({from}): {error}",
                    node.id,
                    path.display()
                )
            })?;
            let shown = path.display().to_string();
            (path, source, shown)
        }
    };
    let own_goal = load_source(&source, &workflow_path, &OsFiles)
        .workflow
        .and_then(|child| child.goal);
    let work_dir = child_work_dir(shared, node)?;
    Ok(ChildPlan {
        request: RunRequest {
            workflow_path,
            source: Some(source),
            goal: own_goal
                .is_none()
                .then(|| shared.spec.goal.clone())
                .flatten(),
            labels: BTreeMap::new(),
            inputs: shared.spec.inputs.clone(),
            runs_root: shared.spec.run_dir.root().to_path_buf(),
            run_dir: Some(child_dir.to_path_buf()),
            work_dir,
            dry_run: shared.spec.dry_run,
            parent_run_id: Some(shared.spec.run_id.clone()),
        },
        shown,
    })
}

/// `stack.child_workdir` resolved against the parent's work dir (created when missing), or
/// the parent's work dir itself.
fn child_work_dir(shared: &Shared, node: &Node) -> Result<PathBuf, String> {
    let Some(dir) = manager_child_workdir(&shared.spec.workflow, node) else {
        return Ok(shared.spec.work_dir.clone());
    };
    let path = shared.spec.work_dir.join(dir);
    std::fs::create_dir_all(&path).map_err(|error| {
        format!(
            "manager loop `{}`: stack.child_workdir {}: {error}",
            node.id,
            path.display()
        )
    })?;
    if !path.is_dir() {
        return Err(format!(
            "manager loop `{}`: stack.child_workdir {} is not a folder",
            node.id,
            path.display()
        ));
    }
    Ok(path)
}

/// Keys that describe one stage or the run itself rather than the work: never handed down
/// to a child and never taken back from it.
fn stays_with_its_run(key: &str) -> bool {
    [
        keys::CURRENT_NODE,
        keys::OUTCOME,
        keys::PREFERRED_LABEL,
        keys::FAILURE_REASON,
        keys::FAILURE_CLASS,
        keys::FAILURE_SIGNATURE,
        keys::LAST_STAGE,
        keys::LAST_RESPONSE,
    ]
    .contains(&key)
        || ["internal.", "graph.", "thread.", "stack.child.", "manager."]
            .iter()
            .any(|prefix| key.starts_with(prefix))
}

/// The parent's context as the child starts with it.
pub(super) fn inherited_context(parent: BTreeMap<String, Json>) -> BTreeMap<String, Json> {
    parent
        .into_iter()
        .filter(|(key, _)| !stays_with_its_run(key))
        .collect()
}

/// The keys the child set or changed, relative to what it was handed.
pub(super) fn returned_context(
    handed: &BTreeMap<String, Json>,
    child_final: BTreeMap<String, Json>,
) -> BTreeMap<String, Json> {
    child_final
        .into_iter()
        .filter(|(key, value)| !stays_with_its_run(key) && handed.get(key) != Some(value))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(pairs: &[(&str, Json)]) -> BTreeMap<String, Json> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn the_child_gets_the_work_not_the_parents_bookkeeping() {
        let parent = map(&[
            ("plan.ready", json!(true)),
            ("response.plan", json!("the plan")),
            ("outcome", json!("success")),
            ("internal.run_id", json!("P")),
            ("graph.goal", json!("g")),
            ("stack.child.status", json!("running")),
        ]);
        assert_eq!(
            inherited_context(parent),
            map(&[
                ("plan.ready", json!(true)),
                ("response.plan", json!("the plan"))
            ])
        );
    }

    #[test]
    fn only_what_the_child_changed_comes_back() {
        let handed = map(&[("plan.ready", json!(true)), ("count", json!(1))]);
        let child = map(&[
            ("plan.ready", json!(true)),
            ("count", json!(2)),
            ("tests.passed", json!("yes")),
            ("outcome", json!("success")),
            ("internal.run_id", json!("C")),
            ("last_stage", json!("test")),
        ]);
        assert_eq!(
            returned_context(&handed, child),
            map(&[("count", json!(2)), ("tests.passed", json!("yes"))])
        );
    }
}
