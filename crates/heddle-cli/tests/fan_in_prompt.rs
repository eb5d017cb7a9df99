//! A fan-in with a `prompt`, end to end: `heddle run` against the loopback fake provider
//! (Anthropic's Messages API over real SSE). The branches are commands, so the fan-in's
//! question is the only model call; the model's pick, not the ranking, becomes
//! `parallel.fan_in.best_id`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_fake_llm::{FakeLlm, FakeReply};
use serde_json::Value;

mod sandbox;

use sandbox::{Sandbox, describe, json};

const FLOW: &str = r#"digraph Pick {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    fork  [shape=component];
    quick   [shape=parallelogram, script="echo quick"];
    careful [shape=parallelogram, script="echo careful"];
    pick [shape=tripleoctagon, model="claude-sonnet-4-5",
          prompt="Which branch checked its work best?"];
    start -> fork; fork -> quick; fork -> careful;
    quick -> pick; careful -> pick; pick -> exit;
}
"#;

#[test]
fn the_model_picks_the_best_branch_at_a_fan_in_with_a_prompt() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("pick.dot", FLOW);
    let fake = FakeLlm::start();
    // Ranked alone, `careful` wins (both succeeded; ids break the tie): the model says quick.
    fake.push(FakeReply::text("The best branch is quick."));
    let out = sandbox
        .command(&["run", flow.to_str().unwrap()])
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("ANTHROPIC_BASE_URL", fake.base_url())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let run = sandbox.only_run();
    let context = Value::Object(sandbox::context_values(&run));
    assert_eq!(context["parallel.fan_in.best_id"], "quick", "{context}");
    assert_eq!(context["parallel.fan_in.best_outcome"], "success");
    assert_eq!(context["response.pick"], "The best branch is quick.");

    let requests = fake.requests();
    assert_eq!(requests.len(), 1, "only the fan-in asks the model");
    let sent = requests[0].body.to_string();
    assert!(
        sent.contains("Which branch checked its work best?"),
        "{sent}"
    );
    assert!(sent.contains("`careful`, `quick`"), "{sent}");
    let prompt = std::fs::read_to_string(run.join("nodes/pick/prompt.md")).unwrap();
    assert!(prompt.contains("\"branch\": \"careful\""), "{prompt}");
    let status: Value = json(&run.join("nodes/pick/status.json"));
    assert_eq!(status["status"], "success", "{status}");
}
