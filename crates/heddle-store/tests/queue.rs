//! The run queue, on whichever index the tests run against (SQLite, or PostgreSQL with
//! `HEDDLE_TEST_INDEX=postgres`): workers claim the oldest entry, a lease that runs out hands
//! the entry to another worker and the first one's hold is refused from then on, a released
//! entry goes back to the front of the queue, a waiting entry can be cancelled, and workers
//! claiming at once through their own connections never get the same entry.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use heddle_store::{QueueCancel, QueueState, RunStatus, StoreError};
use support::Home;

const LEASE: Duration = Duration::from_secs(30);
const T0: i64 = 1_790_000_000_000;

#[tokio::test]
async fn workers_claim_the_oldest_entries_and_report_their_runs() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    for (i, id) in ["01A", "01B", "01C"].iter().enumerate() {
        let entry = store
            .enqueue(
                id,
                &format!(r#"{{"workflow":"flow{i}.dot"}}"#),
                T0 + i as i64,
            )
            .await
            .unwrap();
        assert_eq!(entry.state, QueueState::Queued);
        assert_eq!(entry.claims, 0);
    }

    let first = store.claim("w1", T0 + 10, LEASE).await.unwrap().unwrap();
    assert_eq!(
        (first.id.as_str(), first.request.as_str()),
        ("01A", r#"{"workflow":"flow0.dot"}"#)
    );
    assert_eq!(first.state, QueueState::Claimed);
    assert_eq!(first.worker.as_deref(), Some("w1"));
    assert_eq!(first.lease_until_ms, Some(T0 + 10 + 30_000));
    assert_eq!(first.claims, 1);
    let second = store.claim("w2", T0 + 11, LEASE).await.unwrap().unwrap();
    assert_eq!(second.id, "01B");

    store
        .attach_run("01A", "w1", "01RUN", Path::new("/w1/runs/01RUN"))
        .await
        .unwrap();
    store
        .heartbeat("01A", "w1", T0 + 20_000, LEASE)
        .await
        .unwrap();
    store
        .finish("01A", "w1", "success", T0 + 25_000)
        .await
        .unwrap();
    // Another worker cannot act on an entry it does not hold.
    assert!(matches!(
        store.heartbeat("01B", "w1", T0 + 26_000, LEASE).await,
        Err(StoreError::LeaseLost { .. })
    ));

    let listed = store.queue(10).await.unwrap();
    let states: Vec<(&str, QueueState, Option<&str>)> = listed
        .iter()
        .map(|e| (e.id.as_str(), e.state, e.worker.as_deref()))
        .collect();
    assert_eq!(
        states,
        [
            ("01A", QueueState::Finished, Some("w1")),
            ("01B", QueueState::Claimed, Some("w2")),
            ("01C", QueueState::Queued, None),
        ]
    );
    let done = &listed[0];
    assert_eq!(done.run_id.as_deref(), Some("01RUN"));
    assert_eq!(done.outcome.as_deref(), Some("success"));
    assert_eq!(done.finished_ms, Some(T0 + 25_000));
    assert_eq!(done.heartbeat_ms, Some(T0 + 20_000));
    assert_eq!(done.lease_until_ms, None);
    // Only the last finished entries are listed with the waiting ones.
    assert_eq!(store.queue(0).await.unwrap().len(), 2);

    let third = store
        .claim("w1", T0 + 30_000, LEASE)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(third.id, "01C");
    assert!(
        store
            .claim("w3", T0 + 30_001, LEASE)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn an_expired_lease_hands_the_entry_to_another_worker() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    store.enqueue("01A", "{}", T0).await.unwrap();
    store.claim("dies", T0, LEASE).await.unwrap().unwrap();
    store
        .attach_run("01A", "dies", "01RUN", Path::new("/dies/runs/01RUN"))
        .await
        .unwrap();
    store
        .heartbeat("01A", "dies", T0 + 20_000, LEASE)
        .await
        .unwrap();

    // Within the renewed lease nobody else gets it.
    assert!(
        store
            .claim("next", T0 + 49_999, LEASE)
            .await
            .unwrap()
            .is_none()
    );
    let taken = store
        .claim("next", T0 + 50_001, LEASE)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(taken.id, "01A");
    assert_eq!(taken.worker.as_deref(), Some("next"));
    assert_eq!(taken.claims, 2);
    assert_eq!(
        taken.run_id.as_deref(),
        Some("01RUN"),
        "the run to resume stays on the entry"
    );

    // The worker that lost it is refused from now on, whatever it tries.
    for refused in [
        store.heartbeat("01A", "dies", T0 + 50_002, LEASE).await,
        store
            .attach_run("01A", "dies", "01OTHER", Path::new("/dies/runs/01OTHER"))
            .await,
        store.finish("01A", "dies", "fail", T0 + 50_003).await,
    ] {
        let error = refused.unwrap_err();
        assert!(matches!(error, StoreError::LeaseLost { .. }), "{error}");
        assert!(error.to_string().contains("worker dies"), "{error}");
    }
    store
        .finish("01A", "next", "success", T0 + 60_000)
        .await
        .unwrap();
    let entry = &store.queue(1).await.unwrap()[0];
    assert_eq!(
        (entry.outcome.as_deref(), entry.run_id.as_deref()),
        (Some("success"), Some("01RUN"))
    );
}

#[tokio::test]
async fn a_released_entry_is_claimed_again_first_with_its_run() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    store.enqueue("01A", "{}", T0).await.unwrap();
    store.enqueue("01B", "{}", T0 + 1).await.unwrap();
    store.claim("offline", T0, LEASE).await.unwrap().unwrap();
    store
        .attach_run("01A", "offline", "01RUN", Path::new("/offline/runs/01RUN"))
        .await
        .unwrap();
    store.release("01A", "offline").await.unwrap();

    let entry = &store.queue(0).await.unwrap()[0];
    assert_eq!(entry.state, QueueState::Queued);
    assert_eq!(
        (entry.worker.as_deref(), entry.lease_until_ms),
        (None, None)
    );
    // Within what was the first worker's lease, another takes it, oldest first, run kept.
    let again = store.claim("online", T0 + 5, LEASE).await.unwrap().unwrap();
    assert_eq!(
        (again.id.as_str(), again.run_id.as_deref(), again.claims),
        ("01A", Some("01RUN"), 2)
    );
    // The worker that let go holds nothing any more.
    let error = store.release("01A", "offline").await.unwrap_err();
    assert!(matches!(error, StoreError::LeaseLost { .. }), "{error}");
}

#[tokio::test]
async fn a_waiting_entry_is_cancelled_and_never_claimed() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    store.enqueue("01A", "{}", T0).await.unwrap();
    store.enqueue("01B", "{}", T0 + 1).await.unwrap();

    let QueueCancel::Cancelled(cancelled) = store.cancel_queued("01A", T0 + 5).await.unwrap()
    else {
        panic!("a waiting entry is cancelled");
    };
    assert_eq!(cancelled.state, QueueState::Finished);
    assert_eq!(
        (cancelled.outcome.as_deref(), cancelled.finished_ms),
        (Some("cancelled"), Some(T0 + 5))
    );
    // Workers pass it by.
    let next = store.claim("w1", T0 + 6, LEASE).await.unwrap().unwrap();
    assert_eq!(next.id, "01B");
    // A held entry is not cancelled here: it is answered as it is, for the caller to say so.
    let QueueCancel::Unchanged(held) = store.cancel_queued("01B", T0 + 7).await.unwrap() else {
        panic!("a held entry is not cancelled here");
    };
    assert_eq!(
        (held.state, held.worker.as_deref()),
        (QueueState::Claimed, Some("w1"))
    );
    // Cancelling again changes nothing; an unknown entry is none.
    let QueueCancel::Unchanged(again) = store.cancel_queued("01A", T0 + 8).await.unwrap() else {
        panic!("a finished entry is not cancelled again");
    };
    assert_eq!(again.finished_ms, Some(T0 + 5));
    assert_eq!(
        store.cancel_queued("01Z", T0 + 9).await.unwrap(),
        QueueCancel::Missing
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn workers_claiming_at_once_never_share_an_entry() {
    const ENTRIES: usize = 200;
    const WORKERS: usize = 8;
    let home = Home::new();
    let store = home.store("heddle.db").await;
    for i in 0..ENTRIES {
        store
            .enqueue(&format!("{i:03}"), "{}", T0 + i as i64)
            .await
            .unwrap();
    }
    // Each worker has its own connections, as separate processes would.
    let mut workers = Vec::new();
    for w in 0..WORKERS {
        let store = home.store("heddle.db").await;
        workers.push(tokio::spawn(async move {
            let name = format!("w{w}");
            let mut mine = Vec::new();
            while let Some(entry) = store.claim(&name, T0 + 1_000, LEASE).await.unwrap() {
                mine.push(entry.id);
            }
            (name, mine)
        }));
    }
    let mut holder: BTreeMap<String, String> = BTreeMap::new();
    for worker in workers {
        let (name, mine) = worker.await.unwrap();
        for id in mine {
            if let Some(other) = holder.insert(id.clone(), name.clone()) {
                panic!("{id} was claimed by both {other} and {name}");
            }
        }
    }
    assert_eq!(holder.len(), ENTRIES, "every entry is claimed once");
    let listed = store.queue(0).await.unwrap();
    assert!(
        listed
            .iter()
            .all(|e| e.state == QueueState::Claimed && e.claims == 1)
    );
    for entry in listed {
        assert_eq!(entry.worker.as_ref(), holder.get(&entry.id));
    }
}

#[tokio::test]
async fn the_entry_holding_a_run_is_found_until_it_finishes() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    store.enqueue("01A", "{}", T0).await.unwrap();
    store.claim("w1", T0 + 1, LEASE).await.unwrap().unwrap();
    assert!(store.entry_of_run("01RUN").await.unwrap().is_none());
    store
        .attach_run("01A", "w1", "01RUN", Path::new("/w1/runs/01RUN"))
        .await
        .unwrap();
    let held = store.entry_of_run("01RUN").await.unwrap().unwrap();
    assert_eq!(
        (held.id.as_str(), held.worker.as_deref()),
        ("01A", Some("w1"))
    );
    // Its lease ran out: still held (the next worker to claim it resumes the run).
    let later = T0 + 60_000;
    assert!(store.entry_of_run("01RUN").await.unwrap().is_some());
    let taken = store.claim("w2", later, LEASE).await.unwrap().unwrap();
    assert_eq!(taken.run_id.as_deref(), Some("01RUN"));
    assert_eq!(
        store
            .entry_of_run("01RUN")
            .await
            .unwrap()
            .unwrap()
            .worker
            .as_deref(),
        Some("w2")
    );
    store
        .finish("01A", "w2", "success", later + 1)
        .await
        .unwrap();
    assert!(store.entry_of_run("01RUN").await.unwrap().is_none());
}

#[tokio::test]
async fn the_folder_a_dead_worker_left_does_not_replace_the_run_taken_over() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let manifest = support::manifest("01RUN", "flow", "2026-11-28T08:00:00.000Z", &[]);
    // Two machines' runs folders: the dead worker's, and the one that took over.
    let dead = support::synthetic_run(&home.root().join("dead/runs"), &manifest);
    let live = support::synthetic_run(&home.root().join("live/runs"), &manifest);

    store.enqueue("01A", "{}", T0).await.unwrap();
    store.claim("dies", T0, LEASE).await.unwrap().unwrap();
    store
        .attach_run("01A", "dies", "01RUN", &dead)
        .await
        .unwrap();
    store.ingest_run(&dead).await.unwrap();
    assert_eq!(
        store.run("01RUN").await.unwrap().folder,
        dead.display().to_string()
    );

    let later = T0 + 60_000;
    store.claim("next", later, LEASE).await.unwrap().unwrap();
    store
        .attach_run("01A", "next", "01RUN", &live)
        .await
        .unwrap();
    store.ingest_run(&live).await.unwrap();
    support::conclude(&live, "01RUN", "success", "2026-11-28T08:01:00.000Z");
    store.ingest_run(&live).await.unwrap();

    // The dead worker's machine reads its folder again (its next `heddle ps`): left alone.
    let stale = store.ingest_run(&dead).await.unwrap();
    assert!(!stale.changed, "{stale:?}");
    let record = store.run("01RUN").await.unwrap();
    assert_eq!(record.folder, live.display().to_string());
    assert_eq!(record.status, RunStatus::Success);
}
