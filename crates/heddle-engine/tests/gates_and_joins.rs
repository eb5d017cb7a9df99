#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Fabro's loose ends of the dialect, run end to end through the engine: `freeform=true`
//! edges of human gates.

mod support;

use std::sync::Arc;

use async_trait::async_trait;
use heddle_engine::interviewer::{Answer, InterviewError, Interviewer, Question};
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
