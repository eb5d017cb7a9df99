//! A run's tokens and cost, end to end against the loopback fake provider (Anthropic's wire
//! format): `heddle ps -a` shows the run's cost and `heddle inspect` its cost and tokens,
//! summed from the stages.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_fake_llm::{FakeLlm, FakeReply};

mod sandbox;

use sandbox::{Sandbox, describe, run_id, text};

const FLOW: &str = r#"digraph Priced {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    plan   [shape=tab, model="claude-sonnet-4-5", prompt="Plan it"];
    review [shape=tab, model="claude-sonnet-4-5", prompt="Review it"];
    start -> plan -> review -> exit;
}
"#;

#[test]
fn ps_and_inspect_show_the_runs_summed_cost_and_tokens() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("priced.dot", FLOW);
    let fake = FakeLlm::start();
    // claude-sonnet-4-5: $3 per million input tokens, $15 per million output tokens.
    fake.push(FakeReply::text("The plan.").usage(100_000, 10_000, 0, 0)); // $0.45
    fake.push(FakeReply::text("Looks good.").usage(50_000, 2_000, 0, 0)); // $0.18
    let out = sandbox
        .command(&["run", flow.to_str().unwrap()])
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("ANTHROPIC_BASE_URL", fake.base_url())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let id = run_id(&sandbox.only_run());

    let ps = sandbox.heddle(&["ps", "-a"]);
    assert!(ps.status.success(), "{}", describe(&ps));
    let listing = text(&ps.stdout);
    let header = listing.lines().next().unwrap();
    assert!(header.contains("COST"), "{listing}");
    let row = listing.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(row.contains("$0.63"), "{listing}");

    let inspect = sandbox.heddle(&["inspect", &id]);
    assert!(inspect.status.success(), "{}", describe(&inspect));
    let report = text(&inspect.stdout);
    assert!(
        report.contains("cost      $0.63 (150000 input + 12000 output tokens)"),
        "{report}"
    );
}
