//! The work-tree watcher on a real folder with inotify: after the first answer (rescan
//! everything) each take names exactly the paths changed since the last one, and its barrier
//! is one file renamed from take to take (the same inode), never a new file per take.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use heddle_checkpoint::tracker::{Changes, Tracker};

fn barrier_files(sync: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(sync)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

#[test]
fn each_take_names_what_changed_and_reuses_one_barrier_file() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let sync = dir.path().join("sync");
    std::fs::create_dir_all(&work).unwrap();
    let mut tracker = Tracker::start(&work, &sync);
    assert_eq!(
        tracker.take(),
        Changes::Everything,
        "the first take is unsure"
    );
    let first = barrier_files(&sync);
    assert_eq!(first.len(), 1, "{first:?}");
    let inode = std::fs::metadata(&first[0]).unwrap().ino();
    for round in 0..5 {
        let name = format!("file-{round}.txt");
        std::fs::write(work.join(&name), format!("round {round}")).unwrap();
        let Changes::Paths { paths, dirs } = tracker.take() else {
            panic!("round {round}: the watcher should know what changed");
        };
        assert_eq!(
            paths,
            BTreeSet::from([PathBuf::from(&name)]),
            "round {round}"
        );
        assert!(dirs.is_empty());
        let files = barrier_files(&sync);
        assert_eq!(files.len(), 1, "round {round}: {files:?}");
        assert_eq!(
            std::fs::metadata(&files[0]).unwrap().ino(),
            inode,
            "round {round}: the barrier is the same file, renamed"
        );
    }
    drop(tracker);
    assert!(
        barrier_files(&sync).is_empty(),
        "the last barrier goes with the tracker"
    );
}
