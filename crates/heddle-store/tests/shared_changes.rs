//! Two stores on one PostgreSQL index (two machines of a team): a change one makes (a run
//! indexed, finished, gone) reaches the other's subscribers, and each store's own
//! subscribers hear of their change once. Always on PostgreSQL: an SQLite index has no other
//! machine (its other processes are seen through the runs folder's watcher).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use heddle_store::{RunChange, RunStatus, Store};
use support::{Home, conclude, manifest, readers, synthetic_run};
use tokio::sync::broadcast::Receiver;

/// The next change `changes` hears of, within a few seconds.
async fn next(changes: &mut Receiver<RunChange>, whose: &str) -> RunChange {
    tokio::time::timeout(Duration::from_secs(10), changes.recv())
        .await
        .unwrap_or_else(|_| panic!("{whose} heard of no change"))
        .unwrap()
}

/// Whether `changes` stays quiet for a moment.
async fn quiet(changes: &mut Receiver<RunChange>) -> bool {
    tokio::time::timeout(Duration::from_millis(500), changes.recv())
        .await
        .is_err()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_on_one_machine_reaches_the_others_subscribers() {
    let laptop = Home::new();
    let server = Home::new();
    let shared =
        heddle_store::testing::postgres_database(&laptop.db("shared").to_string_lossy()).await;
    let on_laptop = Store::open(&shared, readers()).await.unwrap();
    let on_server = Store::open(&shared, readers()).await.unwrap();
    let mut laptop_hears = on_laptop.subscribe();
    let mut server_hears = on_server.subscribe();
    let id = "01M8TEAM000000000000000001";
    let folder = synthetic_run(
        &laptop.runs(),
        &manifest(id, "Team", "2026-11-28T10:00:00.000Z", &[]),
    );
    on_laptop.ingest_run(&folder).await.unwrap();
    // No process holds the synthetic run's lock, and it has no conclusion yet.
    let indexed = RunChange {
        run_id: id.into(),
        status: Some(RunStatus::Interrupted),
    };
    assert_eq!(next(&mut server_hears, "the server").await, indexed);
    assert_eq!(next(&mut laptop_hears, "the laptop").await, indexed);

    conclude(&folder, id, "success", "2026-11-28T10:00:05.000Z");
    on_laptop.ingest_run(&folder).await.unwrap();
    let finished = RunChange {
        run_id: id.into(),
        status: Some(RunStatus::Success),
    };
    assert_eq!(next(&mut server_hears, "the server").await, finished);
    assert_eq!(next(&mut laptop_hears, "the laptop").await, finished);
    assert_eq!(on_server.run(id).await.unwrap().status, RunStatus::Success);

    std::fs::remove_dir_all(&folder).unwrap();
    on_laptop.ingest_run(&folder).await.unwrap();
    let gone = RunChange {
        run_id: id.into(),
        status: None,
    };
    assert_eq!(next(&mut server_hears, "the server").await, gone);
    assert_eq!(next(&mut laptop_hears, "the laptop").await, gone);

    // Nobody hears a change twice (the laptop's own notices are not announced again).
    assert!(
        quiet(&mut laptop_hears).await,
        "the laptop heard a change twice"
    );
    assert!(
        quiet(&mut server_hears).await,
        "the server heard a change twice"
    );
    drop(server);
}
