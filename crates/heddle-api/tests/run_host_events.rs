#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `RunHost::subscribe`: a subscriber made before any run sees every event of the runs the
//! host executes, whichever run they belong to (the desktop notifies from them).

use std::time::Duration;

use heddle_api::runs::HeddleHome;
use heddle_api::{RunHost, StartRunRequest};
use heddle_engine::Event;

const FLOW: &str = r#"digraph Two {
    start [shape=Mdiamond]; exit [shape=Msquare];
    ok [shape=parallelogram, script="echo ok"];
    start -> ok -> exit;
}"#;

const FAILING: &str = r#"digraph Broken {
    start [shape=Mdiamond]; exit [shape=Msquare];
    bad [shape=parallelogram, script="exit 3"];
    start -> bad;
    bad -> exit [condition="outcome=success"];
}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_sees_every_run_start_and_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("two.dot"), FLOW).unwrap();
    std::fs::write(work.join("broken.dot"), FAILING).unwrap();
    let host = RunHost::open(HeddleHome::at(root.join("home")), Vec::new())
        .await
        .unwrap();
    let mut events = host.subscribe();

    let mut started = Vec::new();
    for file in ["two.dot", "broken.dot"] {
        let request = StartRunRequest {
            workflow_path: work.join(file).display().to_string(),
            work_dir: Some(work.display().to_string()),
            checkpoints: Some("none".into()),
            trust: true,
            ..StartRunRequest::default()
        };
        started.push(host.start(request).await.unwrap().run_id);
    }

    let mut ends = Vec::new();
    let mut workflows = Vec::new();
    while ends.len() < 2 {
        let envelope = tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .expect("the runs end")
            .unwrap();
        assert!(started.contains(&envelope.run_id), "{envelope:?}");
        match envelope.event {
            Event::RunStarted { workflow, .. } => workflows.push(workflow),
            Event::RunCompleted { .. } => ends.push((envelope.run_id, "completed")),
            Event::RunFailed { .. } => ends.push((envelope.run_id, "failed")),
            _ => {}
        }
    }
    workflows.sort();
    assert_eq!(workflows, ["Broken", "Two"]);
    ends.sort();
    let mut expected = vec![
        (started[0].clone(), "completed"),
        (started[1].clone(), "failed"),
    ];
    expected.sort();
    assert_eq!(ends, expected);
}
