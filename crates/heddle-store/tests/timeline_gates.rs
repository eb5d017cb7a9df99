//! The timeline of a real run through two human gates visited in a loop: each gate visit
//! shows exactly the wait asked at it, in order, and no other stage shows any.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::Arc;
use std::time::Duration;

use heddle_checkpoint::ModeChoice;
use heddle_engine::interviewer::{Answer, QueueInterviewer};
use heddle_store::WaitOutcome;
use support::{Home, Scripted};

/// A wait as the test compares it: node, visit, question, outcome.
type Shown = (String, u32, String, WaitOutcome);

const WORKFLOW: &str = r#"digraph Gates {
    start [shape=Mdiamond]; exit [shape=Msquare];
    work   [shape=parallelogram, script="echo work"];
    review [shape=hexagon, prompt="Reviewed?"];
    ship   [shape=hexagon, prompt="Ship?"];
    start -> work -> review;
    review -> work [label="[R] Revise"];
    review -> ship [label="[A] Approve"];
    ship -> work [label="[N] No"];
    ship -> exit [label="[Y] Yes"];
}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_gate_visit_shows_its_own_wait() {
    let home = Home::new();
    let queue = Arc::new(QueueInterviewer::new());
    let engine = home.engine(
        ModeChoice::None,
        Arc::new(Scripted::default()),
        queue.clone(),
    );
    let workflow = home.workflow("gates", WORKFLOW);
    let prepared = engine
        .prepare(home.request(&workflow, &home.work()))
        .unwrap();
    let folder = prepared.run_dir().root().to_path_buf();
    let run_id = prepared.run_id().to_string();
    let task = tokio::spawn(prepared.execute());
    let mut asked = Vec::new();
    for answer in ["R", "A", "N", "A", "Y"] {
        let pending = loop {
            if let Some(pending) = queue.pending().into_iter().next() {
                break pending;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        asked.push(pending.question.id.clone());
        queue
            .answer(&pending.question.id, Answer::Choice(answer.into()))
            .unwrap();
    }
    let conclusion = task.await.unwrap();
    assert_eq!(
        conclusion.status,
        heddle_engine::RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );

    let store = home.store("heddle.db").await;
    store.ingest_run(&folder).await.unwrap();
    let timeline = store.timeline(&run_id).await.unwrap();
    let shown: Vec<(String, u32, Vec<Shown>)> = timeline
        .stages
        .iter()
        .map(|s| {
            let waits = s
                .waits
                .iter()
                .map(|w| (w.node_id.clone(), w.visit, w.question.clone(), w.outcome))
                .collect();
            (s.node_id.clone(), s.visit, waits)
        })
        .collect();
    let answered = |node: &str, visit: u32, question: &str| {
        vec![(
            node.to_string(),
            visit,
            question.to_string(),
            WaitOutcome::Answered,
        )]
    };
    let none = Vec::new;
    assert_eq!(
        shown,
        [
            ("start".to_string(), 1, none()),
            ("work".to_string(), 1, none()),
            ("review".to_string(), 1, answered("review", 1, "Reviewed?")),
            ("work".to_string(), 2, none()),
            ("review".to_string(), 2, answered("review", 2, "Reviewed?")),
            ("ship".to_string(), 1, answered("ship", 1, "Ship?")),
            ("work".to_string(), 3, none()),
            ("review".to_string(), 3, answered("review", 3, "Reviewed?")),
            ("ship".to_string(), 2, answered("ship", 2, "Ship?")),
            ("exit".to_string(), 1, none()),
        ]
    );
    let ids: Vec<&str> = timeline
        .stages
        .iter()
        .flat_map(|s| s.waits.iter().map(|w| w.question_id.as_str()))
        .collect();
    assert_eq!(ids, asked);
}
