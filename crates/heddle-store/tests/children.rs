//! Manager-loop child runs (`nodes/{node}/child`) are indexed with their parent, by a
//! reindex and by the watcher, and listed only when asked for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_store::{PageRequest, RunFilter, RunStatus};
use support::{Home, dump, eventually, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_runs_are_indexed_with_their_parent() {
    let home = Home::new();
    home.workflow(
        "child",
        r#"digraph Child {
            start [shape=Mdiamond]; exit [shape=Msquare];
            work [shape=parallelogram, script="echo child work; sleep 0.1"];
            start -> work -> exit;
        }"#,
    );
    let parent = home.workflow(
        "parent",
        r#"digraph Parent {
            start [shape=Mdiamond]; exit [shape=Msquare];
            supervise [shape=house, "stack.child_workflow"="child.dot",
                       "manager.poll_interval"="50ms", "manager.max_cycles"="100"];
            start -> supervise -> exit;
        }"#,
    );
    let live = home.store("live.db").await;
    let watcher = live.watch(&home.runs()).unwrap();
    let (dir, conclusion) = run(&home.plain_engine(), home.request(&parent, &home.work())).await;
    assert_eq!(
        conclusion.status,
        heddle_engine::RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );
    let child_folder = dir.root().join("nodes/supervise/child");
    assert!(child_folder.join("manifest.json").is_file());

    let children = RunFilter {
        parent_run_id: Some(conclusion.run_id.clone()),
        ..RunFilter::default()
    };
    eventually(10, "the parent and its child, concluded", || async {
        let parent_done = live
            .run(&conclusion.run_id)
            .await
            .is_ok_and(|r| r.status == RunStatus::Success);
        let page = live
            .list_runs(&children, &PageRequest::default())
            .await
            .unwrap();
        parent_done && page.total == 1 && page.items[0].status == RunStatus::Success
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    watcher.stop().await;

    let top = live
        .list_runs(&RunFilter::default(), &PageRequest::default())
        .await
        .unwrap();
    assert_eq!(top.total, 1, "children are left out by default");
    let everything = RunFilter {
        include_children: true,
        ..RunFilter::default()
    };
    let all = live
        .list_runs(&everything, &PageRequest::default())
        .await
        .unwrap();
    assert_eq!(all.total, 2);
    let child = all
        .items
        .iter()
        .find(|r| r.parent_run_id.is_some())
        .unwrap();
    assert_eq!(child.workflow_name, "Child");
    assert_eq!(child.folder, child_folder.to_string_lossy());
    let stages: Vec<String> = live
        .timeline(&child.id)
        .await
        .unwrap()
        .stages
        .into_iter()
        .map(|s| s.node_id)
        .collect();
    assert_eq!(stages, ["start", "work", "exit"]);

    let rebuilt = home.store("rebuilt.db").await;
    let report = rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(report.runs, 2);
    assert_eq!(dump(&rebuilt).await, dump(&live).await);
}
