//! Gates, requests and workers of runs executed on other machines, on whichever index the
//! tests run against (SQLite, or PostgreSQL with `HEDDLE_TEST_INDEX=postgres`): a gate is
//! listed while its worker says it waits, a request is handed out once and in order, and a
//! worker is listed as it last reported itself until it stops.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_store::WorkerRecord;
use support::Home;

const T0: i64 = 1_790_000_000_000;

#[tokio::test]
async fn a_gate_is_listed_while_its_worker_says_it_waits() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    store
        .gate_waiting("RUN1", "w1", "q2", r#"{"id":"q2"}"#)
        .await
        .unwrap();
    store
        .gate_waiting("RUN1", "w1", "q1", r#"{"id":"q1"}"#)
        .await
        .unwrap();
    store
        .gate_waiting("RUN2", "w2", "q1", r#"{"id":"other"}"#)
        .await
        .unwrap();
    assert_eq!(
        store.waiting_gates("RUN1").await.unwrap(),
        [r#"{"id":"q1"}"#, r#"{"id":"q2"}"#]
    );
    // Published again (a worker that took the run over): replaced, not doubled.
    store
        .gate_waiting("RUN1", "w3", "q1", r#"{"id":"q1","again":true}"#)
        .await
        .unwrap();
    store.gate_closed("RUN1", "q2").await.unwrap();
    assert_eq!(
        store.waiting_gates("RUN1").await.unwrap(),
        [r#"{"id":"q1","again":true}"#]
    );
    store.gates_closed("RUN1").await.unwrap();
    assert!(store.waiting_gates("RUN1").await.unwrap().is_empty());
    assert_eq!(store.waiting_gates("RUN2").await.unwrap().len(), 1);
}

#[tokio::test]
async fn requests_are_taken_once_in_the_order_they_were_made() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    assert!(store.take_requests("RUN1").await.unwrap().is_empty());
    store.request("RUN1", "answer yes", T0).await.unwrap();
    store.request("RUN2", "cancel", T0 + 1).await.unwrap();
    store.request("RUN1", "cancel", T0 + 2).await.unwrap();

    let taken = store.take_requests("RUN1").await.unwrap();
    let texts: Vec<&str> = taken.iter().map(|r| r.request.as_str()).collect();
    assert_eq!(texts, ["answer yes", "cancel"]);
    assert!(taken[0].id < taken[1].id);
    assert!(store.take_requests("RUN1").await.unwrap().is_empty());

    // One made after a take is handed out by the next.
    store.request("RUN1", "later", T0 + 3).await.unwrap();
    let later = store.take_requests("RUN1").await.unwrap();
    assert_eq!(later.len(), 1);
    assert_eq!(later[0].request, "later");
    assert_eq!(
        store.take_requests("RUN2").await.unwrap()[0].request,
        "cancel"
    );
}

#[tokio::test]
async fn workers_are_listed_as_they_last_reported_until_they_stop() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let mut w1 = WorkerRecord {
        name: "w1".into(),
        remote: "/srv/team.git".into(),
        started_ms: T0,
        seen_ms: T0,
        entry: None,
    };
    store.worker_seen(&w1).await.unwrap();
    let w0 = WorkerRecord {
        name: "w0".into(),
        seen_ms: T0 + 5,
        ..w1.clone()
    };
    store.worker_seen(&w0).await.unwrap();
    w1.seen_ms = T0 + 10_000;
    w1.entry = Some("01ENTRY".into());
    store.worker_seen(&w1).await.unwrap();
    assert_eq!(store.workers().await.unwrap(), [w0.clone(), w1.clone()]);

    store.worker_stopped("w1").await.unwrap();
    assert_eq!(store.workers().await.unwrap(), [w0]);
}
