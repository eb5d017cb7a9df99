//! Listing runs: filters by status, workflow, labels and start time, keyset pagination,
//! lookups by prefix, a run's status from its lock and conclusion, recent workflows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::collections::BTreeMap;

use heddle_engine::RunDir;
use heddle_engine::runlock::RunLock;
use heddle_store::{PageRequest, RunFilter, RunStatus, Store, StoreError};
use support::{Home, conclude, manifest, synthetic_run};

/// 30 runs a minute apart on 2026-03-01 from 10:00: workflows `alpha` (even) and `beta`
/// (odd), statuses cycling success, fail, cancelled, interrupted; label `env` = `prod` on
/// every third run.
async fn thirty_runs(home: &Home) -> Store {
    let store = home.store("heddle.db").await;
    for i in 0..30u32 {
        let id = format!("01RUN{i:02}AAAAAAAAAAAAAAAAAAA");
        let start = format!("2026-03-01T10:{i:02}:00.000Z");
        let workflow = if i.is_multiple_of(2) { "alpha" } else { "beta" };
        let mut labels = vec![("n", "x")];
        if i.is_multiple_of(3) {
            labels.push(("env", "prod"));
        }
        let folder = synthetic_run(&home.runs(), &manifest(&id, workflow, &start, &labels));
        match i % 4 {
            0 => conclude(&folder, &id, "success", &start),
            1 => conclude(&folder, &id, "fail", &start),
            2 => conclude(&folder, &id, "cancelled", &start),
            _ => {}
        }
    }
    let report = store.reindex(&home.runs()).await.unwrap();
    assert_eq!(report.runs, 30);
    store
}

fn ids(page: &heddle_store::RunPage) -> Vec<String> {
    page.items.iter().map(|r| r.id[5..7].to_string()).collect()
}

#[tokio::test]
async fn filters_and_pages_newest_first() {
    let home = Home::new();
    let store = thirty_runs(&home).await;
    let all = RunFilter::default();
    let first = store
        .list_runs(
            &all,
            &PageRequest {
                limit: 12,
                after: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(first.total, 30);
    assert_eq!(ids(&first)[..3], ["29", "28", "27"]);
    // Walk every page with the cursor: each run once, in order.
    let mut seen = ids(&first);
    let mut next = first.next.clone();
    while let Some(after) = next {
        let page = store
            .list_runs(
                &all,
                &PageRequest {
                    limit: 12,
                    after: Some(after),
                },
            )
            .await
            .unwrap();
        seen.extend(ids(&page));
        next = page.next;
    }
    let expected: Vec<String> = (0..30).rev().map(|i| format!("{i:02}")).collect();
    assert_eq!(seen, expected);

    let status = RunFilter {
        status: vec![RunStatus::Fail, RunStatus::Interrupted],
        ..RunFilter::default()
    };
    let page = store
        .list_runs(&status, &PageRequest::default())
        .await
        .unwrap();
    assert_eq!(page.total, 15);
    assert!(
        page.items
            .iter()
            .all(|r| matches!(r.status, RunStatus::Fail | RunStatus::Interrupted))
    );
    assert_eq!(page.next, None);

    let beta_prod = RunFilter {
        workflow: Some("beta".into()),
        labels: BTreeMap::from([("env".to_string(), "prod".to_string())]),
        ..RunFilter::default()
    };
    let page = store
        .list_runs(&beta_prod, &PageRequest::default())
        .await
        .unwrap();
    assert_eq!(ids(&page), ["27", "21", "15", "09", "03"]);
    assert_eq!(page.items[0].labels["env"], "prod");
    assert_eq!(page.items[0].workflow_name, "beta");

    let two_labels = RunFilter {
        labels: BTreeMap::from([
            ("env".to_string(), "prod".to_string()),
            ("n".to_string(), "y".to_string()),
        ]),
        ..RunFilter::default()
    };
    assert_eq!(
        store
            .list_runs(&two_labels, &PageRequest::default())
            .await
            .unwrap()
            .total,
        0
    );

    let window = RunFilter {
        since: Some("2026-03-01T10:05:00Z".into()),
        until: Some("2026-03-01T10:08:00Z".into()),
        ..RunFilter::default()
    };
    let page = store
        .list_runs(&window, &PageRequest::default())
        .await
        .unwrap();
    assert_eq!(ids(&page), ["07", "06", "05"]);

    let combined = RunFilter {
        status: vec![RunStatus::Success],
        workflow: Some("alpha".into()),
        since: Some("2026-03-01T10:10:00Z".into()),
        ..RunFilter::default()
    };
    let page = store
        .list_runs(
            &combined,
            &PageRequest {
                limit: 2,
                after: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (ids(&page), page.total),
        (vec!["28".into(), "24".into()], 5)
    );
    let rest = store
        .list_runs(
            &combined,
            &PageRequest {
                limit: 2,
                after: page.next,
            },
        )
        .await
        .unwrap();
    assert_eq!(ids(&rest), ["20", "16"]);

    let bad = RunFilter {
        since: Some("yesterday".into()),
        ..RunFilter::default()
    };
    let error = store
        .list_runs(&bad, &PageRequest::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, StoreError::InvalidTime { field: "since", .. }),
        "{error}"
    );
}

#[tokio::test]
async fn runs_are_found_by_id_prefix_or_folder() {
    let home = Home::new();
    let store = thirty_runs(&home).await;
    let full = "01RUN07AAAAAAAAAAAAAAAAAAA";
    assert_eq!(store.run(full).await.unwrap().id, full);
    assert_eq!(store.run("01run07").await.unwrap().id, full);
    assert_eq!(store.run("20260301-01RUN07").await.unwrap().id, full);
    let folder = store.run(full).await.unwrap().folder;
    assert_eq!(store.run(&folder).await.unwrap().id, full);

    match store.run("01RUN1").await.unwrap_err() {
        StoreError::AmbiguousRun {
            prefix,
            count,
            candidates,
        } => {
            assert_eq!((prefix.as_str(), count), ("01RUN1", 10));
            assert_eq!(candidates.len(), 5);
            assert_eq!(candidates[0], "01RUN10AAAAAAAAAAAAAAAAAAA");
        }
        other => panic!("{other}"),
    }
    let message = store.run("01RUN").await.unwrap_err().to_string();
    assert!(
        message.contains("matches 30 runs") && message.contains(", ..."),
        "{message}"
    );
    for missing in ["01RUN99", "", "  ", "%", "01RUN0_"] {
        assert!(
            matches!(
                store.run(missing).await,
                Err(StoreError::RunNotFound { .. })
            ),
            "{missing}"
        );
    }
    assert!(matches!(
        store.timeline("nope").await,
        Err(StoreError::RunNotFound { .. })
    ));
}

#[tokio::test]
async fn a_run_without_conclusion_is_running_while_locked_else_interrupted() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let id = "01LOCKED000000000000000000";
    let folder = synthetic_run(
        &home.runs(),
        &manifest(id, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let dir = RunDir::at(&folder);

    // A pid file left by a process that is gone (nobody holds its lock).
    std::fs::write(dir.pid(), "999999\n").unwrap();
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(store.run(id).await.unwrap().status, RunStatus::Interrupted);

    // A live process holds the lock.
    let lock = RunLock::acquire(&dir, id).unwrap();
    let report = store.ingest_run(&folder).await.unwrap();
    assert_eq!(report.status, Some(RunStatus::Running));
    assert!(report.changed);

    // It died without concluding.
    drop(lock);
    std::fs::write(dir.pid(), "999999\n").unwrap();
    store.ingest_run(&folder).await.unwrap();
    let run = store.run(id).await.unwrap();
    assert_eq!(run.status, RunStatus::Interrupted);
    assert_eq!(run.ended_at, None);

    // No pid file at all.
    std::fs::remove_file(dir.pid()).unwrap();
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(store.run(id).await.unwrap().status, RunStatus::Interrupted);
}

#[tokio::test]
async fn recent_workflows_newest_first() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let a = home.root().join("a.dot");
    let b = home.root().join("b.dot");
    store
        .touch_workflow(&a, "A", "2026-01-01T10:00:00Z")
        .await
        .unwrap();
    store
        .touch_workflow(&b, "B", "2026-01-01T11:00:00Z")
        .await
        .unwrap();
    let names: Vec<String> = store
        .recent_workflows(10)
        .await
        .unwrap()
        .into_iter()
        .map(|w| w.name)
        .collect();
    assert_eq!(names, ["B", "A"]);
    store
        .touch_workflow(&a, "A2", "2026-01-01T12:00:00Z")
        .await
        .unwrap();
    let recent = store.recent_workflows(1).await.unwrap();
    assert_eq!(recent.len(), 1);
    assert_eq!(
        (recent[0].name.as_str(), recent[0].last_opened.as_str()),
        ("A2", "2026-01-01T12:00:00Z")
    );
    assert!(matches!(
        store.touch_workflow(&a, "A", "noon").await,
        Err(StoreError::InvalidTime { .. })
    ));
    // A reindex leaves them alone; forgetting removes one.
    store.reindex(&home.runs()).await.unwrap();
    assert_eq!(store.recent_workflows(10).await.unwrap().len(), 2);
    store.forget_workflow(&a).await.unwrap();
    assert_eq!(store.recent_workflows(10).await.unwrap()[0].name, "B");
}
