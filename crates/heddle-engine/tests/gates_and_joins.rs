#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Fabro's loose ends of the dialect, run end to end through the engine: `freeform=true`
//! edges of human gates, `k_of_n(N)` / `quorum(F)` join policies, `error_policy`, and a
//! fan-in with a `prompt` that asks the model for the best branch.

mod support;

use std::sync::Arc;

use async_trait::async_trait;
use heddle_engine::interviewer::{Answer, InterviewError, Interviewer, Question};
use heddle_engine::{RunStatus, StageStatus};
use serde_json::Value;
use support::Harness;

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare];";

/// Answers every gate with the same free text.
struct Writes(&'static str);

#[async_trait]
impl Interviewer for Writes {
    async fn ask(&self, _question: &Question) -> Result<Answer, InterviewError> {
        Ok(Answer::Freeform(self.0.to_string()))
    }
}

const GATE: &str = r#"review [shape=hexagon, label="Ship it?"];
    ship [shape=parallelogram, script="true"]; revise [shape=parallelogram, script="true"];
    start -> review; review -> ship [label="[A] Approve"]; review -> revise [freeform=true];
    ship -> exit; revise -> exit;"#;

#[tokio::test]
async fn free_text_goes_along_the_freeform_edge_and_lands_in_context() {
    let mut h = Harness::new();
    // The text names a choice's label: along a freeform edge it is still free text.
    h.interviewer = Arc::new(Writes("Approve, after you add tests"));
    let done = h.run(&format!("digraph G {{ {HEAD} {GATE} }}")).await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "review", "revise", "exit"]);
    let context = done.checkpoint().context_values;
    assert_eq!(context["human.gate.selected"], "freeform");
    assert_eq!(context["human.gate.text"], "Approve, after you add tests");
    assert_eq!(context["human.gate.label"], "Approve, after you add tests");
    let interview: Value = serde_json::from_str(
        &std::fs::read_to_string(done.run_dir.root().join("nodes/review/interview.json")).unwrap(),
    )
    .unwrap();
    // The gate accepts free text though the node does not say so; its one choice is Approve.
    assert_eq!(interview["question"]["allow_freeform"], true);
    assert_eq!(interview["question"]["freeform_target"], "revise");
    assert_eq!(
        interview["question"]["choices"].as_array().unwrap().len(),
        1
    );
}

#[tokio::test]
async fn a_gate_with_only_a_freeform_edge_asks_for_text() {
    let mut h = Harness::new();
    h.interviewer = Arc::new(Writes("use the staging database"));
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} ask [shape=hexagon, label="Anything to add?"];
            note [shape=parallelogram, script="true"];
            start -> ask; ask -> note [freeform=true]; note -> exit; }}"#
        ))
        .await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "ask", "note", "exit"]);
    assert_eq!(
        done.checkpoint().context_values["human.gate.text"],
        "use the staging database"
    );
}

/// A parallel node `fork` with `attrs`, branches `a`, `b`, `c` running `scripts`, joining
/// at `join`, which goes on to `exit` only when it succeeds.
fn fan(attrs: &str, scripts: [&str; 3], join_attrs: &str) -> String {
    let [a, b, c] = scripts;
    format!(
        r#"digraph G {{ {HEAD}
        fork [shape=component, {attrs}];
        a [shape=parallelogram, script="{a}"]; b [shape=parallelogram, script="{b}"];
        c [shape=parallelogram, script="{c}"];
        join [shape=tripleoctagon, {join_attrs}];
        start -> fork; fork -> a; fork -> b; fork -> c; a -> join; b -> join; c -> join;
        join -> exit [condition="outcome=success"]; }}"#
    )
}

/// The notes of `node`'s last stage.
fn notes(done: &support::Finished, node: &str) -> String {
    let timeline = done.checkpoint().timeline;
    let stage = timeline.iter().rev().find(|s| s.node_id == node).unwrap();
    stage.notes.clone()
}

fn result<'a>(results: &'a Value, branch: &str) -> &'a Value {
    results
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["branch"] == branch)
        .unwrap()
}

#[tokio::test]
async fn k_of_n_goes_on_once_enough_branches_succeeded_and_stops_the_rest() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&fan(
            r#"join_policy="k_of_n(2)""#,
            ["true", "true", "sleep 30"],
            "",
        ))
        .await;
    done.assert_success();
    let context = done.checkpoint().context_values;
    let c = result(&context["parallel.results"], "c");
    assert_eq!(c["status"], "skipped", "{c}");
    assert!(
        c["failure_reason"]
            .as_str()
            .unwrap()
            .contains("join policy k_of_n(2) was met"),
        "{c}"
    );
    assert_eq!(context["parallel.join"]["met"], true);
    assert_eq!(context["parallel.join"]["needed"], 2);
    assert_eq!(
        done.checkpoint().node_outcomes["fork"].status,
        StageStatus::Success
    );
}

#[tokio::test]
async fn an_unmet_join_policy_fails_the_parallel_node_and_its_fan_in() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&fan(
            r#"join_policy="k_of_n(2)""#,
            ["true", "false", "false"],
            "",
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    let outcomes = done.checkpoint().node_outcomes;
    assert_eq!(outcomes["fork"].status, StageStatus::Fail);
    assert!(
        outcomes["fork"]
            .failure_reason
            .as_deref()
            .unwrap()
            .contains("join policy k_of_n(2) of `fork` was not met: 1 of 3"),
        "{:?}",
        outcomes["fork"].failure_reason
    );
    // The fan-in still runs (the branches' results are there to see) and fails.
    assert_eq!(outcomes["join"].status, StageStatus::Fail);
    assert!(
        done.reason().contains("join policy k_of_n(2) was not met"),
        "{}",
        done.reason()
    );
    assert_eq!(
        done.checkpoint().context_values["parallel.fan_in.best_id"],
        "a"
    );
}

#[tokio::test]
async fn quorum_needs_the_fraction_rounded_up() {
    let mut h = Harness::new();
    h.real_clock = true;
    // 0.5 of 3 branches is 2: one success is not enough.
    let done = h
        .run(&fan(
            r#"join_policy="quorum(0.5)""#,
            ["true", "false", "false"],
            "",
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    let context = done.checkpoint().context_values;
    assert_eq!(context["parallel.join"]["needed"], 2);
    assert_eq!(context["parallel.join"]["met"], false);
    let done = h
        .run(&fan(
            r#"join_policy="quorum(0.5)""#,
            ["true", "false", "true"],
            "",
        ))
        .await;
    done.assert_success();
}

#[tokio::test]
async fn fail_fast_stops_the_other_branches_at_the_first_failure() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&fan(
            "error_policy=fail_fast",
            ["false", "sleep 30", "sleep 30"],
            "",
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    let checkpoint = done.checkpoint();
    let b = result(&checkpoint.context_values["parallel.results"], "b");
    assert_eq!(b["status"], "skipped", "{b}");
    assert!(
        b["failure_reason"].as_str().unwrap().contains("fail_fast"),
        "{b}"
    );
    assert!(
        checkpoint.node_outcomes["fork"]
            .failure_reason
            .as_deref()
            .unwrap()
            .contains("error_policy=fail_fast"),
        "{:?}",
        checkpoint.node_outcomes["fork"].failure_reason
    );
    // Without fail_fast, a failure and two successes are a partial success.
    let done = h
        .run(&fan("error_policy=continue", ["false", "true", "true"], ""))
        .await;
    done.assert_success();
    assert_eq!(
        done.checkpoint().node_outcomes["fork"].status,
        StageStatus::PartialSuccess
    );
}

#[tokio::test]
async fn ignore_counts_failed_branches_as_successes() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run(&fan("error_policy=ignore", ["false", "true", "false"], ""))
        .await;
    done.assert_success();
    let checkpoint = done.checkpoint();
    assert_eq!(
        checkpoint.node_outcomes["fork"].status,
        StageStatus::Success
    );
    let a = result(&checkpoint.context_values["parallel.results"], "a");
    assert_eq!(a["status"], "success", "{a}");
    assert_eq!(a["failure_ignored"], true, "{a}");
    assert!(a["failure_reason"].as_str().is_some(), "{a}");
    // A real success ranks before an ignored failure.
    assert_eq!(checkpoint.context_values["parallel.fan_in.best_id"], "b");
}

#[tokio::test]
async fn a_fan_in_with_a_prompt_lets_the_model_pick_the_branch() {
    let mut h = Harness::new();
    h.real_clock = true;
    h.llm = h
        .llm
        .reply("join", "After reading them, `c` is the most careful one.");
    let done = h
        .run(&fan(
            "",
            ["true", "true", "true"],
            r#"prompt="Pick the most careful branch""#,
        ))
        .await;
    done.assert_success();
    let context = done.checkpoint().context_values;
    // The ranking alone would pick `a` (all succeeded; ids break the tie).
    assert_eq!(context["parallel.fan_in.best_id"], "c");
    assert_eq!(context["parallel.fan_in.best_outcome"], "success");
    assert!(
        context["response.join"]
            .as_str()
            .unwrap()
            .contains("most careful")
    );
    let prompt = h.llm.prompts_for("join").join("\n");
    assert!(
        prompt.starts_with("Pick the most careful branch"),
        "{prompt}"
    );
    assert!(prompt.contains("\"branch\": \"b\""), "{prompt}");
    assert!(prompt.contains("`a`, `b`, `c`"), "{prompt}");
    let stage = done.run_dir.root().join("nodes/join");
    assert!(stage.join("prompt.md").exists());
    assert!(stage.join("response.md").exists());
    assert!(notes(&done, "join").contains("the model chose `c`"));
}

#[tokio::test]
async fn a_reply_naming_no_branch_leaves_the_choice_to_the_ranking() {
    let mut h = Harness::new();
    h.real_clock = true;
    h.llm = h.llm.reply("join", "They are all lovely.");
    let done = h
        .run(&fan("", ["false", "true", "true"], r#"prompt="Pick one""#))
        .await;
    done.assert_success();
    let checkpoint = done.checkpoint();
    assert_eq!(checkpoint.context_values["parallel.fan_in.best_id"], "b");
    let notes = notes(&done, "join");
    assert!(notes.contains("names no branch"), "{notes}");
}
