//! Goal and inputs reach the model: `heddle run -V` and a run config beside the workflow,
//! rendered into inline and `@file` prompts, sent over a real wire format to the loopback
//! fake provider, kept in prompt.md and recorded in manifest.json.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ffi::OsStr;

use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};

mod gitfixture;
mod sandbox;

use gitfixture::{Fixture, describe, json};

const FLOW: &str = r#"digraph Inputs {
    graph [goal="Document {{ inputs.module }}"]
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    plan  [shape=tab, model="claude-sonnet-4-5", prompt="Plan: $goal for {{ inputs.audience }}"];
    write [shape=tab, model="claude-sonnet-4-5", prompt="@prompts/write.md"];
    start -> plan -> write -> exit;
}
"#;

fn sent_text(body: &serde_json::Value) -> String {
    body.to_string()
}

#[test]
fn inputs_from_flags_and_run_config_reach_the_model_and_prompt_md() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    let flow = fx.write_flow("inputs.dot", FLOW);
    let flows = flow.parent().unwrap();
    std::fs::create_dir_all(flows.join("prompts")).unwrap();
    std::fs::write(
        flows.join("prompts/write.md"),
        "Write the docs of {{ inputs.module }} ({{ goal }}); keep {% raw %}{{ braces }}{% endraw %}.\n",
    )
    .unwrap();
    std::fs::write(
        flows.join("run.toml"),
        "[workflow]\ngraph = \"inputs.dot\"\n[run.inputs]\nmodule = \"parser\"\naudience = \"nobody\"\n",
    )
    .unwrap();
    let fake = FakeLlm::start();
    fake.script([
        Scripted::Reply(FakeReply::text("planned")),
        Scripted::Reply(FakeReply::text("written")),
    ]);
    let url = fake.base_url();
    let env = [
        ("ANTHROPIC_API_KEY", OsStr::new("test-key")),
        ("ANTHROPIC_BASE_URL", OsStr::new(&url)),
    ];
    let out = fx.heddle(
        &["run", flow.to_str().unwrap(), "-V", "audience=maintainers"],
        &env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let plan = sent_text(&requests[0].body);
    assert!(
        plan.contains("Plan: Document parser for maintainers"),
        "{plan}"
    );
    let write = sent_text(&requests[1].body);
    assert!(
        write.contains("Write the docs of parser (Document parser); keep {{ braces }}."),
        "{write}"
    );
    let run = fx.only_run();
    let prompt = std::fs::read_to_string(run.join("nodes/plan/prompt.md")).unwrap();
    assert!(
        prompt.contains("Plan: Document parser for maintainers"),
        "{prompt}"
    );
    let manifest = json(&run.join("manifest.json"));
    assert_eq!(manifest["inputs"]["module"], "parser");
    assert_eq!(manifest["inputs"]["audience"], "maintainers");
    assert_eq!(manifest["goal"], "Document parser");
    // graph.dot keeps the file as written.
    let graph = std::fs::read_to_string(run.join("graph.dot")).unwrap();
    assert!(graph.contains("{{ inputs.audience }}"));
}

#[test]
fn a_bad_input_flag_stops_before_a_run_starts() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    let flow = fx.write_flow("inputs.dot", FLOW);
    let out = fx.heddle(
        &[
            "run",
            "--dry-run",
            flow.to_str().unwrap(),
            "-I", // Fabro's spelling of -V
            "no-equals",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        describe(&out).contains("expected NAME=VALUE"),
        "{}",
        describe(&out)
    );
}
