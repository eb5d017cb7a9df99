//! A run's tokens and cost, end to end against the loopback fake provider (Anthropic's wire
//! format): `heddle ps -a` shows the run's cost and `heddle inspect` its cost and tokens,
//! summed from the stages; `heddle run --max-cost` stops the run at the stage boundary after
//! the budget is passed, and `heddle resume --max-cost HIGHER` finishes it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_fake_llm::{FakeLlm, FakeReply};

mod sandbox;

use sandbox::{Sandbox, describe, events, json, run_id, text};

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
    assert!(
        header.contains("COST") && header.contains("BUDGET"),
        "{listing}"
    );
    let row = listing.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(row.contains("$0.63          -"), "no budget: {listing}");

    let inspect = sandbox.heddle(&["inspect", &id]);
    assert!(inspect.status.success(), "{}", describe(&inspect));
    let report = text(&inspect.stdout);
    assert!(
        report.contains("cost      $0.63 (150000 input + 12000 output tokens)"),
        "{report}"
    );
    assert!(report.contains("budget    none"), "{report}");
}

const THREE: &str = r#"digraph Spend {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    plan   [shape=tab, model="claude-sonnet-4-5", prompt="Plan it"];
    build  [shape=tab, model="claude-sonnet-4-5", prompt="Build it"];
    review [shape=tab, model="claude-sonnet-4-5", prompt="Review it"];
    start -> plan -> build -> review -> exit;
}
"#;

#[test]
fn max_cost_stops_at_the_next_stage_and_a_higher_budget_resumes_it() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("spend.dot", THREE);
    let fake = FakeLlm::start();
    for text in ["The plan.", "Built.", "Reviewed."] {
        // $0.45 each on claude-sonnet-4-5.
        fake.push(FakeReply::text(text).usage(100_000, 10_000, 0, 0));
    }
    let with_fake = |args: &[&str]| {
        sandbox
            .command(args)
            .env("ANTHROPIC_API_KEY", "test-key")
            .env("ANTHROPIC_BASE_URL", fake.base_url())
            .output()
            .unwrap()
    };
    // plan: $0.45, under $0.50; build: $0.90, over: review must not run.
    let out = with_fake(&["run", flow.to_str().unwrap(), "--max-cost", "0.5"]);
    assert_eq!(out.status.code(), Some(130), "{}", describe(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("budget exceeded"), "{stderr}");
    assert!(stderr.contains("--max-cost"), "{stderr}");
    let run = sandbox.only_run();
    let id = run_id(&run);
    assert_eq!(fake.requests().len(), 2, "review never asked the model");
    let checkpoint = json(&run.join("checkpoint.json"));
    assert_eq!(checkpoint["next_node_id"], "review", "{checkpoint}");
    let inspect = sandbox.heddle(&["inspect", &id]);
    let report = text(&inspect.stdout);
    assert!(report.contains("status    cancelled"), "{report}");
    assert!(report.contains("reason    budget exceeded"), "{report}");
    assert!(report.contains("cost      $0.90"), "{report}");
    // The run records the limits it ran under; inspect shows them.
    assert!(report.contains("budget    $0.5\n"), "{report}");

    let resumed = with_fake(&["resume", &id, "--max-cost", "5"]);
    assert!(resumed.status.success(), "{}", describe(&resumed));
    assert_eq!(fake.requests().len(), 3, "only review ran on resume");
    let started: Vec<String> = events(&run)
        .iter()
        .filter(|e| e["event"] == "stage.started")
        .map(|e| e["node_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        started,
        ["start", "plan", "build", "review", "exit"],
        "no stage twice"
    );
    let inspect = sandbox.heddle(&["inspect", &id]);
    let report = text(&inspect.stdout);
    assert!(report.contains("status    success"), "{report}");
    assert!(report.contains("cost      $1.35"), "{report}");
    assert!(report.contains("budget    $5\n"), "{report}");
    // `ps` lists the run's cost beside the budget its resume ran under.
    let ps = sandbox.heddle(&["ps", "-a"]);
    let listing = text(&ps.stdout);
    let row = listing.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(row.contains("$1.35      $5.00"), "{listing}");
    let ps = sandbox.heddle(&["ps", "-a", "--json"]);
    let listed: serde_json::Value = serde_json::from_slice(&ps.stdout).unwrap();
    assert_eq!(listed[0]["max_cost_usd"], 5.0, "{listed}");
    let inspect = sandbox.heddle(&["inspect", &id, "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    assert_eq!(report["budget"]["max_cost_usd"], 5.0, "{report}");
    assert_eq!(
        report["budget"]["max_tokens"],
        serde_json::Value::Null,
        "{report}"
    );
}
