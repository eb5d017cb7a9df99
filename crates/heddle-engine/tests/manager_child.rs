#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A manager loop's child as Fabro and the Attractor spec write it: the graph's
//! `stack.child_dotfile` and `stack.child_workdir`, a child written inline, the parent's goal
//! and context handed down, and what the child changed handed back.

mod support;

use heddle_engine::{Checkpoint, RunDir, RunStatus};
use serde_json::json;
use support::Harness;

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare];";

fn child_run(done: &support::Finished, node: &str) -> RunDir {
    RunDir::at(done.run_dir.stage_dir(node, 1).join("child"))
}

#[tokio::test]
async fn the_graph_names_the_child_and_its_folder_and_context_flows_both_ways() {
    let mut h = Harness::new();
    h.real_clock = true;
    std::fs::create_dir_all(h.work_dir().join("children")).unwrap();
    std::fs::write(
        h.work_dir().join("children/worker.dot"),
        r#"digraph Worker { start [shape=Mdiamond]; exit [shape=Msquare];
           work [shape=parallelogram, script="pwd > where.txt; echo child-out"]; start -> work -> exit; }"#,
    )
    .unwrap();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD}
               graph [goal="Ship the parser", stack.child_dotfile="children/worker.dot", stack.child_workdir="scratch"];
               plan [shape=box, prompt="plan it"];
               boss [shape=house, "manager.poll_interval"="20ms"];
               start -> plan -> boss -> exit; }}"#
        ))
        .await;
    done.assert_success();

    // The child ran in `scratch/` under the parent's work dir, created for it.
    let scratch = h.work_dir().join("scratch");
    let wrote = std::fs::read_to_string(scratch.join("where.txt")).unwrap();
    assert_eq!(
        std::path::Path::new(wrote.trim()).canonicalize().unwrap(),
        scratch.canonicalize().unwrap()
    );
    let child = child_run(&done, "boss");
    let manifest = child.read_manifest().unwrap();
    assert!(manifest.workflow_path.ends_with("children/worker.dot"));
    // The child has no goal of its own: it works on the parent's.
    assert_eq!(manifest.goal.as_deref(), Some("Ship the parser"));

    // It started with the parent's work (the plan's response), not its bookkeeping.
    let child_context = Checkpoint::load(&child.checkpoint())
        .unwrap()
        .context_values;
    assert!(
        child_context.contains_key("response.plan"),
        "{child_context:?}"
    );
    assert_eq!(
        child_context.get("graph.goal"),
        Some(&json!("Ship the parser"))
    );

    // What the child changed came back, with the `stack.child.*` telemetry.
    let parent = done.checkpoint().context_values;
    assert_eq!(parent.get("command.output"), Some(&json!("child-out\n")));
    assert_eq!(parent.get("stack.child.status"), Some(&json!("completed")));
    assert_eq!(parent.get("stack.child.outcome"), Some(&json!("success")));
    assert_eq!(
        parent.get("stack.child.run_id"),
        Some(&json!(manifest.run_id))
    );
    // The parent's own keys are its own: the child's `internal.run_id` did not come back.
    assert_eq!(
        parent.get("internal.run_id"),
        Some(&json!(done.conclusion.run_id))
    );
}

#[tokio::test]
async fn an_inline_child_runs_in_the_parents_folder_and_keeps_its_own_goal() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD}
               graph [goal="Parent goal"];
               boss [shape=house, "manager.poll_interval"="20ms",
                     stack.child_dot_source="digraph C {{ graph [goal=\"Child goal\"]; start [shape=Mdiamond]; exit [shape=Msquare]; t [shape=parallelogram, script=\"echo inline > inline.txt\"]; start -> t -> exit }}"];
               start -> boss -> exit; }}"#
        ))
        .await;
    done.assert_success();
    assert_eq!(
        std::fs::read_to_string(h.work_dir().join("inline.txt")).unwrap(),
        "inline\n"
    );
    let manifest = child_run(&done, "boss").read_manifest().unwrap();
    assert_eq!(manifest.goal.as_deref(), Some("Child goal"));
}

#[tokio::test]
async fn a_failed_child_is_reported_by_status_and_outcome() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD}
               boss [shape=house, "manager.poll_interval"="20ms",
                     stack.child_dot_source="digraph C {{ start [shape=Mdiamond]; exit [shape=Msquare]; t [shape=parallelogram, script=\"exit 3\"]; start -> t; t -> exit [condition=\"outcome=success\"] }}"];
               report [shape=parallelogram, script="echo reported"];
               start -> boss -> exit;
               boss -> report [condition="stack.child.outcome=fail"];
               report -> exit; }}"#
        ))
        .await;
    assert_eq!(done.stages(), ["start", "boss", "report", "exit"]);
    assert_eq!(done.conclusion.status, RunStatus::Success);
    let parent = done.checkpoint().context_values;
    assert_eq!(parent.get("stack.child.status"), Some(&json!("failed")));
}

#[tokio::test]
async fn a_missing_child_file_names_where_it_was_looked_for() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} graph [stack.child_dotfile="nope/child.dot"];
               boss [shape=house]; start -> boss; boss -> exit [condition="outcome=success"]; }}"#
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    let reason = done.reason();
    assert!(reason.contains("nope/child.dot"), "{reason}");
    assert!(reason.contains("graph stack.child_dotfile"), "{reason}");
}
