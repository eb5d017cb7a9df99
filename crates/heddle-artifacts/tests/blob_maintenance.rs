//! Blob store maintenance: `verify` (corrupt, misnamed and leftover temporary files) and
//! `gc` (dry run, what is kept, fresh temporary files, missing stores).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod blob_support;

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use blob_support::*;
use heddle_artifacts::{BlobRef, BlobStore};

#[test]
fn verify_lists_temp_and_misnamed_files() {
    let (_dir, store) = store();
    let blob = store.put_bytes(b"one").unwrap();
    fs::create_dir_all(store.temp_dir()).unwrap();
    let temp = store.temp_dir().join("123-0-456.tmp");
    fs::write(&temp, b"partial").unwrap();
    let sha = store.root().join("sha256");
    let stray_top = sha.join("README");
    fs::write(&stray_top, b"x").unwrap();
    let bad_dir = sha.join("zz");
    fs::create_dir_all(&bad_dir).unwrap();
    let short = sha.join(&blob.hex()[..2]).join("abc");
    fs::write(&short, b"x").unwrap();
    let upper = sha
        .join(&blob.hex()[..2])
        .join(blob.hex()[2..].to_uppercase());
    fs::write(&upper, b"one").unwrap();

    let report = store.verify();
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.blobs, 1);
    assert_eq!(report.ok, 1);
    assert_eq!(report.temp_files, vec![temp]);
    let mut expected = vec![stray_top, bad_dir, short, upper];
    expected.sort();
    let mut misnamed = report.misnamed.clone();
    misnamed.sort();
    assert_eq!(misnamed, expected);

    // An empty or missing store verifies clean.
    let (_empty_dir, empty) = blob_support::store();
    let report = empty.verify();
    assert!(report.is_ok());
    assert_eq!(report.blobs, 0);
}

/// Three blobs (two kept), a fresh temp, a stale temp.
struct GcFixture {
    _dir: tempfile::TempDir,
    store: BlobStore,
    keep: BlobRef,
    drop_a: BlobRef,
    drop_b: BlobRef,
    fresh_temp: PathBuf,
    stale_temp: PathBuf,
}

fn gc_fixture() -> GcFixture {
    let (dir, store) = store();
    let keep = store.put_bytes(b"keep me").unwrap();
    let drop_a = store.put_bytes(&bytes(11, 1000)).unwrap();
    let drop_b = store.put_bytes(&bytes(12, 2500)).unwrap();
    fs::create_dir_all(store.temp_dir()).unwrap();
    let fresh_temp = store.temp_dir().join("1-1-1.tmp");
    fs::write(&fresh_temp, b"write in progress").unwrap();
    let stale_temp = store.temp_dir().join("2-2-2.tmp");
    fs::write(&stale_temp, b"crashed").unwrap();
    set_age(&stale_temp, Duration::from_secs(2 * 60 * 60));
    // A fresh temp that is just under an hour old stays too.
    set_age(&fresh_temp, Duration::from_secs(59 * 60));
    GcFixture {
        _dir: dir,
        store,
        keep,
        drop_a,
        drop_b,
        fresh_temp,
        stale_temp,
    }
}

#[test]
fn gc_dry_run_lists_without_deleting() {
    let f = gc_fixture();
    let never_stored = BlobRef::for_bytes(b"gone");
    let referenced: HashSet<BlobRef> = [f.keep.clone(), never_stored.clone()].into();
    let before = files_under(f.store.root());
    let report = f.store.gc(&referenced, true).unwrap();
    assert!(report.dry_run);
    let mut removed: Vec<(BlobRef, u64)> = report
        .removed
        .iter()
        .map(|e| (e.blob.clone(), e.size))
        .collect();
    removed.sort();
    let mut expected = vec![(f.drop_a.clone(), 1000), (f.drop_b.clone(), 2500)];
    expected.sort();
    assert_eq!(removed, expected);
    for entry in &report.removed {
        assert_eq!(entry.path, f.store.path(&entry.blob));
    }
    assert_eq!(report.bytes_freed, 1000 + 2500 + 7);
    assert_eq!(report.kept, 1);
    assert_eq!(report.kept_bytes, 7);
    assert_eq!(report.missing, vec![never_stored]);
    assert_eq!(report.temp_removed, vec![f.stale_temp.clone()]);
    assert_eq!(report.temp_kept, vec![f.fresh_temp.clone()]);
    // Nothing was deleted.
    assert_eq!(files_under(f.store.root()), before);
    assert!(f.store.contains(&f.drop_a) && f.store.contains(&f.drop_b));
}

#[test]
fn gc_deletes_only_unreferenced_and_keeps_fresh_temp_files() {
    let f = gc_fixture();
    let referenced: HashSet<BlobRef> = [f.keep.clone()].into();
    let report = f.store.gc(&referenced, false).unwrap();
    assert!(!report.dry_run);
    assert_eq!(report.removed.len(), 2);
    assert_eq!(report.bytes_freed, 1000 + 2500 + 7);
    assert!(f.store.contains(&f.keep));
    assert_eq!(f.store.read(&f.keep).unwrap(), b"keep me");
    assert!(!f.store.contains(&f.drop_a));
    assert!(!f.store.contains(&f.drop_b));
    assert!(f.fresh_temp.exists(), "a write in progress was removed");
    assert!(!f.stale_temp.exists());
    // Emptied fan-out folders are gone; the kept blob's folder stays.
    for gone in [&f.drop_a, &f.drop_b] {
        let folder = f.store.path(gone).parent().unwrap().to_path_buf();
        if folder != f.store.path(&f.keep).parent().unwrap() {
            assert!(!folder.exists(), "{} left behind", folder.display());
            assert!(report.dirs_removed.contains(&folder));
        }
    }
    assert!(f.store.path(&f.keep).parent().unwrap().is_dir());
    assert_eq!(blob_files(&f.store), vec![f.store.path(&f.keep)]);

    // A second gc finds nothing more; an empty reference set then clears the store.
    let again = f.store.gc(&referenced, false).unwrap();
    assert!(again.removed.is_empty());
    assert_eq!(again.bytes_freed, 0);
    let all = f.store.gc(&HashSet::new(), false).unwrap();
    assert_eq!(all.removed.len(), 1);
    assert!(blob_files(&f.store).is_empty());
    assert!(
        fs::read_dir(f.store.root().join("sha256"))
            .unwrap()
            .next()
            .is_none()
    );
    // The store still works after its folders were removed.
    let back = f.store.put_bytes(b"keep me").unwrap();
    assert_eq!(back, f.keep);
    assert_eq!(f.store.read(&back).unwrap(), b"keep me");
}

#[test]
fn gc_leaves_misnamed_files_alone() {
    let (_dir, store) = store();
    let blob = store.put_bytes(b"x").unwrap();
    let stray = store.path(&blob).with_file_name("notes.txt");
    fs::write(&stray, b"mine").unwrap();
    let report = store.gc(&HashSet::new(), false).unwrap();
    assert_eq!(report.removed.len(), 1);
    assert_eq!(report.ignored, vec![stray.clone()]);
    assert!(stray.exists());
    assert!(report.dirs_removed.is_empty());
}

#[test]
fn gc_on_a_missing_store_is_empty() {
    let (_dir, store) = store();
    let report = store.gc(&HashSet::new(), false).unwrap();
    assert_eq!(report.removed.len(), 0);
    assert_eq!(report.bytes_freed, 0);
}
