//! The timeline of a real run: retries of an LLM stage, a parallel node's lanes and a human
//! gate's wait, and an index ingested while the run executed equal to a rebuilt one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::Arc;
use std::time::Duration;

use heddle_checkpoint::ModeChoice;
use heddle_engine::interviewer::{Answer, QueueInterviewer};
use heddle_store::{RunStatus, StageState, WaitOutcome};
use support::{Home, Scripted, dump, run};

const WORKFLOW: &str = r#"digraph Timeline {
    start [shape=Mdiamond]; exit [shape=Msquare];
    prep  [shape=parallelogram, script="echo prep"];
    flaky [shape=tab, prompt="try", max_retries=2];
    fork  [shape=component];
    left  [shape=parallelogram, script="echo left; sleep 0.1"];
    right [shape=parallelogram, script="echo right"];
    join  [shape=tripleoctagon];
    gate  [shape=hexagon, prompt="Ship it?"];
    start -> prep -> flaky -> fork;
    fork -> left; fork -> right; left -> join; right -> join;
    join -> gate;
    gate -> exit [label="[A] Approve"];
    gate -> prep [label="[R] Revise"];
}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeline_shows_retries_lanes_and_a_human_wait() {
    let home = Home::new();
    let llm = Scripted::default().reply("flaky", r#"{"outcome": "retry"}"#);
    let queue = Arc::new(QueueInterviewer::new());
    let engine = home.engine(ModeChoice::None, Arc::new(llm), queue.clone());
    let workflow = home.workflow("timeline", WORKFLOW);
    let prepared = engine
        .prepare(home.request(&workflow, &home.work()))
        .unwrap();
    let folder = prepared.run_dir().root().to_path_buf();
    let run_id = prepared.run_id().to_string();
    let task = tokio::spawn(prepared.execute());

    let store = home.store("heddle.db").await;
    // Wait for the gate's question, ingest while it waits: the wait is open.
    let question = loop {
        if let Some(pending) = queue.pending().into_iter().next() {
            break pending;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    store.ingest_run(&folder).await.unwrap();
    let waiting = store.timeline(&run_id).await.unwrap();
    assert_eq!(waiting.status, RunStatus::Running);
    let gate = waiting.stages.iter().find(|s| s.node_id == "gate").unwrap();
    assert_eq!(gate.status, StageState::Running);
    assert_eq!(gate.waits.len(), 1);
    assert_eq!(gate.waits[0].outcome, WaitOutcome::Waiting);
    assert_eq!(gate.waits[0].question, "Ship it?");

    tokio::time::sleep(Duration::from_millis(30)).await;
    queue
        .answer(&question.question.id, Answer::Choice("A".into()))
        .unwrap();
    let conclusion = task.await.unwrap();
    assert_eq!(
        conclusion.status,
        heddle_engine::RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );
    store.ingest_run(&folder).await.unwrap();
    let timeline = store.timeline(&run_id).await.unwrap();
    assert_eq!(timeline.status, RunStatus::Success);
    let nodes: Vec<&str> = timeline.stages.iter().map(|s| s.node_id.as_str()).collect();
    assert_eq!(nodes[..4], ["start", "prep", "flaky", "fork"]);
    assert!(
        nodes.contains(&"left") && nodes.contains(&"right"),
        "{nodes:?}"
    );

    let flaky = timeline
        .stages
        .iter()
        .find(|s| s.node_id == "flaky")
        .unwrap();
    assert_eq!(flaky.attempts, 2);
    assert_eq!(flaky.retries, 1);
    assert_eq!(flaky.status, StageState::Success);
    assert!(flaky.last_retry_reason.is_some());

    let mut lanes = timeline.lanes.clone();
    lanes.sort();
    assert_eq!(lanes, ["left", "right"]);
    for lane in ["left", "right"] {
        let stage = timeline.stages.iter().find(|s| s.node_id == lane).unwrap();
        assert_eq!(stage.branch.as_deref(), Some(lane));
        assert_eq!(stage.kind, "command");
        assert!(stage.ended_at.is_some() && stage.duration_ms.is_some());
    }
    let fork = timeline
        .stages
        .iter()
        .find(|s| s.node_id == "fork")
        .unwrap();
    assert_eq!(fork.branch, None);

    let gate = timeline
        .stages
        .iter()
        .find(|s| s.node_id == "gate")
        .unwrap();
    assert_eq!(gate.status, StageState::Success);
    let wait = &gate.waits[0];
    assert_eq!(wait.outcome, WaitOutcome::Answered);
    assert_eq!(wait.answer.as_deref(), Some("[A] Approve"));
    assert_eq!(wait.choices.len(), 2);
    assert!(wait.duration_ms.unwrap() >= 20, "{wait:?}");
    assert!(wait.ended_at.is_some());
    assert_eq!(gate.stage_dir, "nodes/gate");

    // The same run indexed from scratch gives the same answers.
    let rebuilt = home.store("rebuilt.db").await;
    rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(dump(&store).await, dump(&rebuilt).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn index_ingested_while_runs_execute_equals_a_rebuilt_one() {
    let home = Home::new();
    let work = home.work();
    let live = home.store("live.db").await;
    // Ingest every run folder again and again while the runs execute.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let poller = {
        let live = live.clone();
        let runs = home.runs();
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut rounds = 0u32;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                if let Ok(entries) = std::fs::read_dir(&runs) {
                    for entry in entries.flatten() {
                        let _ = live.ingest_run(&entry.path()).await;
                    }
                }
                rounds += 1;
                tokio::time::sleep(Duration::from_millis(3)).await;
            }
            rounds
        })
    };
    let timeline = home.workflow("timeline", WORKFLOW);
    let chain = home.workflow(
        "chain",
        r#"digraph Chain {
            start [shape=Mdiamond]; exit [shape=Msquare];
            a [shape=parallelogram, script="for i in 1 2 3 4 5; do echo line $i; sleep 0.02; done"];
            b [shape=parallelogram, script="echo oops >&2; exit 3"];
            start -> a -> b; b -> exit [condition="outcome=success"];
        }"#,
    );
    let engine = home.engine(
        ModeChoice::None,
        Arc::new(Scripted::default().reply("flaky", r#"{"outcome": "retry"}"#)),
        Arc::new(heddle_engine::interviewer::AutoApprove),
    );
    let mut labelled = home.request(&chain, &work);
    labelled.labels.insert("team".into(), "core".into());
    let (_, first) = run(&engine, home.request(&timeline, &work)).await;
    let (_, second) = run(&engine, labelled).await;
    assert_eq!(first.status, heddle_engine::RunStatus::Success);
    assert_eq!(second.status, heddle_engine::RunStatus::Fail);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(poller.await.unwrap() > 2);
    // Catch up with the last lines (what the watcher would do on the final change).
    for entry in std::fs::read_dir(home.runs()).unwrap().flatten() {
        live.ingest_run(&entry.path()).await.unwrap();
    }

    let rebuilt = home.store("rebuilt.db").await;
    let report = rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(report.runs, 2);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let live_dump = dump(&live).await;
    assert_eq!(live_dump, dump(&rebuilt).await);
    assert_eq!(live_dump["list"]["total"], 2);
    // And a reindex of the live database changes nothing either.
    live.reindex(&home.runs()).await.unwrap();
    assert_eq!(dump(&live).await, live_dump);
}
