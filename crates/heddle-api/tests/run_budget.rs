#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A run's budget through the API door: `start_run`'s limits win over the run config's,
//! which win over the graph's; the limits in force are recorded in the run (its
//! `run.started` event) for any client to read; and `resume_run` with a higher budget
//! finishes a run its budget stopped, running no stage twice. Cost comes from the loopback
//! fake provider (Anthropic's wire format, claude-sonnet-4-5 prices).

use std::path::{Path, PathBuf};
use std::time::Duration;

use heddle_api::runs::HeddleHome;
use heddle_api::{
    ErrorCode, OpenWorkflowRequest, ResumeRunRequest, RunHost, RunRef, StartRunRequest,
    open_workflow,
};
use heddle_engine::{Envelope, Event};
use heddle_fake_llm::{FakeLlm, FakeReply};
use tokio::sync::broadcast::Receiver;

const THREE: &str = r#"digraph Spend {
    graph [max_cost_usd=9, max_tokens=777777]
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    plan   [shape=tab, model="claude-sonnet-4-5", prompt="Plan it"];
    build  [shape=tab, model="claude-sonnet-4-5", prompt="Build it"];
    review [shape=tab, model="claude-sonnet-4-5", prompt="Review it"];
    start -> plan -> build -> review -> exit;
}
"#;

struct World {
    _dir: tempfile::TempDir,
    work: PathBuf,
    host: RunHost,
    fake: FakeLlm,
}

async fn world(config: Option<&str>) -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("spend.dot"), THREE).unwrap();
    if let Some(config) = config {
        std::fs::write(work.join("run.toml"), config).unwrap();
    }
    let fake = FakeLlm::start();
    for text in ["The plan.", "Built.", "Reviewed."] {
        // $3 per million input tokens, $15 per million output: $0.45 a stage.
        fake.push(FakeReply::text(text).usage(100_000, 10_000, 0, 0));
    }
    let env = vec![
        ("ANTHROPIC_API_KEY".to_string(), "test-key".to_string()),
        ("ANTHROPIC_BASE_URL".to_string(), fake.base_url()),
    ];
    let host = RunHost::open(HeddleHome::at(root.join("home")), env)
        .await
        .unwrap();
    World {
        _dir: dir,
        work,
        host,
        fake,
    }
}

fn start_request(work: &Path) -> StartRunRequest {
    StartRunRequest {
        workflow_path: work.join("spend.dot").display().to_string(),
        work_dir: Some(work.display().to_string()),
        checkpoints: Some("none".into()),
        trust: true,
        ..StartRunRequest::default()
    }
}

/// Waits for the run's end event.
async fn ended(events: &mut Receiver<Envelope>, run_id: &str) -> Event {
    loop {
        let envelope = tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .expect("the run ends")
            .unwrap();
        if envelope.run_id == run_id && envelope.event.ends_run() {
            return envelope.event;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_limits_win_over_the_run_config_and_the_graph_and_are_recorded() {
    let w = world(Some(
        "[workflow]\ngraph = \"spend.dot\"\n[run]\nmax_cost_usd = 2.0\nmax_tokens = 500000\n",
    ))
    .await;
    let mut events = w.host.subscribe();
    let request = StartRunRequest {
        max_cost_usd: Some(5.5),
        ..start_request(&w.work)
    };
    let started = w.host.start(request).await.unwrap();
    let end = ended(&mut events, &started.run_id).await;
    assert!(matches!(end, Event::RunCompleted { .. }), "{end:?}");

    // The caller's cost limit over the config's $2 and the graph's $9; the config's token
    // limit over the graph's.
    let run = RunRef {
        run_id: started.run_id.clone(),
    };
    let budget = w.host.recorded_budget(&run).await.unwrap();
    assert_eq!(budget.max_cost_usd, Some(5.5));
    assert_eq!(budget.max_tokens, Some(500_000));
    // As every client reads it: the run's event stream.
    let progress =
        std::fs::read_to_string(Path::new(&started.run_dir).join("progress.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(progress.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "run.started", "{first}");
    assert_eq!(first["properties"]["max_cost_usd"], 5.5, "{first}");
    assert_eq!(first["properties"]["max_tokens"], 500_000, "{first}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_caller_limits_the_graphs_are_recorded() {
    let w = world(None).await;
    let mut events = w.host.subscribe();
    let started = w.host.start(start_request(&w.work)).await.unwrap();
    ended(&mut events, &started.run_id).await;
    let run = RunRef {
        run_id: started.run_id,
    };
    let budget = w.host.recorded_budget(&run).await.unwrap();
    assert_eq!(budget.max_cost_usd, Some(9.0));
    assert_eq!(budget.max_tokens, Some(777_777));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_stopped_run_resumed_with_a_higher_budget_finishes() {
    let w = world(None).await;
    let mut events = w.host.subscribe();
    let request = StartRunRequest {
        max_cost_usd: Some(0.5),
        ..start_request(&w.work)
    };
    let started = w.host.start(request).await.unwrap();
    // plan: $0.45, under $0.50; build: $0.90, over: review does not run.
    match ended(&mut events, &started.run_id).await {
        Event::RunCancelled { reason, .. } => {
            assert!(reason.starts_with("budget exceeded"), "{reason}");
        }
        other => panic!("expected a budget stop, got {other:?}"),
    }
    assert_eq!(w.fake.requests().len(), 2);

    let resumed = w
        .host
        .resume(ResumeRunRequest {
            run_id: started.run_id.clone(),
            max_cost_usd: Some(5.0),
            max_tokens: None,
        })
        .await
        .unwrap();
    assert_eq!(resumed.start_node, "review");
    let end = ended(&mut events, &started.run_id).await;
    assert!(matches!(end, Event::RunCompleted { .. }), "{end:?}");
    assert_eq!(w.fake.requests().len(), 3, "only review ran on resume");
    let run = RunRef {
        run_id: started.run_id,
    };
    // The latest start holds the limits in force: the resume's cost, the graph's tokens.
    let budget = w.host.recorded_budget(&run).await.unwrap();
    assert_eq!(budget.max_cost_usd, Some(5.0));
    assert_eq!(budget.max_tokens, Some(777_777));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_that_are_not_positive_are_refused() {
    let w = world(None).await;
    let request = StartRunRequest {
        max_cost_usd: Some(-1.0),
        ..start_request(&w.work)
    };
    let error = w.host.start(request).await.unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidRequest, "{error:?}");
    assert!(error.message.contains("max_cost_usd"), "{}", error.message);
    let error = w
        .host
        .resume(ResumeRunRequest {
            run_id: "nothing".into(),
            max_cost_usd: None,
            max_tokens: Some(0),
        })
        .await
        .unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidRequest, "{error:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opened_workflow_names_the_budget_a_run_gets_without_caller_limits() {
    let w = world(Some(
        "[workflow]\ngraph = \"spend.dot\"\n[run]\nmax_cost_usd = 2.0\n",
    ))
    .await;
    let request = OpenWorkflowRequest {
        path: w.work.join("spend.dot").display().to_string(),
    };
    let opened = open_workflow(&request).unwrap();
    // The run config's cost limit over the graph's; the graph's token limit.
    assert_eq!(opened.default_max_cost_usd, Some(2.0));
    assert_eq!(opened.default_max_tokens, Some(777_777));
}
