//! A rescan drops the runs whose folder left its runs folder, and only those: runs indexed
//! from another machine's runs folder (a shared index), or from a folder whose name merely
//! starts the same (`runs2/` beside `runs/`), stay. On whichever index the tests run
//! against (SQLite, or PostgreSQL with `HEDDLE_TEST_INDEX=postgres`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_store::RunStatus;
use support::{Home, conclude, manifest, synthetic_run};

const START: &str = "2026-11-28T09:00:00.000Z";

#[tokio::test]
async fn a_rescan_drops_only_its_own_runs_whose_folder_is_gone() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let mine = home.root().join("runs");
    let sibling = home.root().join("runs2");
    let other_machine = home.root().join("elsewhere/runs");
    let mut folders = Vec::new();
    for (root, id) in [
        (&mine, "01KEPT"),
        (&mine, "01GONE"),
        (&sibling, "01SIBLING"),
        (&other_machine, "01OTHER"),
    ] {
        let folder = synthetic_run(root, &manifest(id, "flow", START, &[]));
        conclude(&folder, id, "success", START);
        store.ingest_run(&folder).await.unwrap();
        folders.push(folder);
    }
    // Gone: one run of this runs folder, and the sibling's and the other machine's folders
    // (as seen from here, they are not in this runs folder at all).
    std::fs::remove_dir_all(&folders[1]).unwrap();
    std::fs::remove_dir_all(&folders[2]).unwrap();
    std::fs::remove_dir_all(&folders[3]).unwrap();

    let report = store.rescan(&mine).await.unwrap();
    assert_eq!(report.removed, 1, "{report:?}");
    assert!(store.run("01GONE").await.is_err());
    for kept in ["01KEPT", "01SIBLING", "01OTHER"] {
        assert_eq!(
            store.run(kept).await.unwrap().status,
            RunStatus::Success,
            "{kept}"
        );
    }
    // The same runs folder named with a trailing separator drops nothing more.
    let again = store.rescan(&home.root().join("runs/")).await.unwrap();
    assert_eq!(again.removed, 0, "{again:?}");
}
