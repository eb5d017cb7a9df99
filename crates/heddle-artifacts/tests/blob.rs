//! Blob store behaviour: round trips, write-once, concurrent writers (threads and processes),
//! corruption on read/copy/verify, error kinds, ref parsing, gc and streaming.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant, SystemTime};

use heddle_artifacts::blob::{BUFFER_SIZE, BlobRefError};
use heddle_artifacts::{BlobError, BlobRef, BlobStore};
use sha2::{Digest, Sha256};

/// SHA-256 of `abc` (FIPS 180-2 test vector).
const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

/// Deterministic pseudo-random bytes (xorshift64*), distinct per seed.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        out.extend_from_slice(&state.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    out.truncate(len);
    out
}

fn sha_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

fn store() -> (tempfile::TempDir, BlobStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = BlobStore::new(dir.path().join("blobs"));
    (dir, store)
}

/// Every regular file under `dir`, recursively, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn blob_files(store: &BlobStore) -> Vec<PathBuf> {
    files_under(&store.root().join("sha256"))
}

fn temp_files(store: &BlobStore) -> Vec<PathBuf> {
    files_under(&store.temp_dir())
}

fn set_age(path: &Path, age: Duration) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn layout_is_sha256_fanout_and_refs_are_blob_urls() {
    let (_dir, store) = store();
    let blob = store.put_bytes(b"abc").unwrap();
    assert_eq!(blob.hex(), ABC);
    assert_eq!(blob.to_string(), format!("blob://sha256/{ABC}"));
    let expected = store.root().join("sha256").join(&ABC[..2]).join(&ABC[2..]);
    assert_eq!(store.path(&blob), expected);
    assert!(expected.is_file());
    assert_eq!(fs::read(&expected).unwrap(), b"abc");
    assert!(store.contains(&blob));
    assert_eq!(store.size(&blob).unwrap(), 3);
    assert_eq!(BlobRef::for_bytes(b"abc"), blob);
    assert_eq!(blob_files(&store), vec![expected]);
    assert!(temp_files(&store).is_empty());
}

#[test]
fn round_trip_bytes_file_and_reader() {
    let (dir, store) = store();
    let empty = store.put_bytes(b"").unwrap();
    assert_eq!(store.read(&empty).unwrap(), b"");

    let data = bytes(1, 300_000);
    let from_bytes = store.put_bytes(&data).unwrap();
    assert_eq!(from_bytes.hex(), sha_hex(&data));
    assert_eq!(store.read(&from_bytes).unwrap(), data);

    let file_data = bytes(2, 3 * BUFFER_SIZE + 17);
    let source = dir.path().join("input.bin");
    fs::write(&source, &file_data).unwrap();
    let from_file = store.put_file(&source).unwrap();
    assert_eq!(from_file.hex(), sha_hex(&file_data));
    assert_eq!(store.read(&from_file).unwrap(), file_data);

    let reader_data = bytes(3, 2 * BUFFER_SIZE + 5);
    let from_reader = store
        .put_reader(io::Cursor::new(reader_data.clone()))
        .unwrap();
    assert_eq!(from_reader.hex(), sha_hex(&reader_data));
    assert_eq!(store.read(&from_reader).unwrap(), reader_data);

    let dest = dir.path().join("run/local/out.bin");
    assert_eq!(
        store.copy_to(&from_file, &dest).unwrap(),
        file_data.len() as u64
    );
    assert_eq!(fs::read(&dest).unwrap(), file_data);
    // copy_to replaces an existing destination and leaves no temp file beside it.
    store.copy_to(&from_reader, &dest).unwrap();
    assert_eq!(fs::read(&dest).unwrap(), reader_data);
    assert_eq!(files_under(&dir.path().join("run")), vec![dest]);

    assert_eq!(blob_files(&store).len(), 4);
    assert!(temp_files(&store).is_empty());
}

#[test]
fn same_content_twice_is_one_file_and_one_ref() {
    let (dir, store) = store();
    let data = bytes(7, 100_000);
    let a = store.put_bytes(&data).unwrap();
    let mtime = fs::metadata(store.path(&a)).unwrap().modified().unwrap();
    let b = store.put_bytes(&data).unwrap();
    let c = store.put_reader(&data[..]).unwrap();
    let source = dir.path().join("same.bin");
    fs::write(&source, &data).unwrap();
    let d = store.put_file(&source).unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a, d);
    assert_eq!(blob_files(&store), vec![store.path(&a)]);
    // Written once: the existing file was kept, not replaced.
    assert_eq!(
        fs::metadata(store.path(&a)).unwrap().modified().unwrap(),
        mtime
    );
    assert!(temp_files(&store).is_empty());
}

#[test]
fn put_replaces_an_existing_blob_of_the_wrong_size() {
    let (_dir, store) = store();
    let data = bytes(8, 50_000);
    let blob = store.put_bytes(&data).unwrap();
    fs::write(store.path(&blob), &data[..100]).unwrap();
    assert!(matches!(store.read(&blob), Err(BlobError::Corrupt { .. })));
    assert_eq!(store.put_reader(&data[..]).unwrap(), blob);
    assert_eq!(store.read(&blob).unwrap(), data);
}

#[test]
fn eight_threads_write_same_and_different_content() {
    let (_dir, store) = store();
    let shared: Vec<Vec<u8>> = (0..10)
        .map(|i| bytes(100 + i, 200_000 + i as usize))
        .collect();
    let shared = Arc::new(shared);
    let barrier = Arc::new(Barrier::new(8));
    let handles: Vec<_> = (0..8u64)
        .map(|t| {
            let store = store.clone();
            let shared = Arc::clone(&shared);
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                let mut refs = Vec::new();
                for (i, data) in shared.iter().enumerate() {
                    // Mix the entry points; put_reader always goes through temp + rename.
                    let blob = match (t + i as u64) % 3 {
                        0 => store.put_bytes(data).unwrap(),
                        _ => store.put_reader(&data[..]).unwrap(),
                    };
                    refs.push(blob);
                    let own = bytes(1000 + t * 100 + i as u64, 50_000);
                    let own_ref = store.put_reader(&own[..]).unwrap();
                    assert_eq!(store.read(&own_ref).unwrap(), own);
                }
                refs
            })
        })
        .collect();
    let results: Vec<Vec<BlobRef>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for refs in &results {
        assert_eq!(refs, &results[0]);
    }
    for (data, blob) in shared.iter().zip(&results[0]) {
        assert_eq!(blob.hex(), sha_hex(data));
        assert_eq!(&store.read(blob).unwrap(), data);
    }
    assert_eq!(blob_files(&store).len(), 10 + 8 * 10);
    assert!(temp_files(&store).is_empty());
    let report = store.verify();
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.ok, 90);
}

const CHILD_ENV: &str = "HEDDLE_BLOB_TEST_CHILD_ROOT";

fn process_contents() -> Vec<Vec<u8>> {
    (0..30).map(|i| bytes(5000 + i, 150_000)).collect()
}

/// Not a test on its own: the writer process for `processes_write_same_content`, which runs
/// this test binary again with `CHILD_ENV` set. Without it, returns at once.
#[test]
fn child_writer_process() {
    let Ok(root) = std::env::var(CHILD_ENV) else {
        return;
    };
    let root = PathBuf::from(root);
    let go = root.with_extension("go");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !go.exists() {
        assert!(Instant::now() < deadline, "no go signal");
        std::thread::sleep(Duration::from_millis(1));
    }
    let store = BlobStore::new(&root);
    for (i, data) in process_contents().iter().enumerate() {
        let blob = if i % 2 == 0 {
            store.put_reader(&data[..]).unwrap()
        } else {
            store.put_bytes(data).unwrap()
        };
        assert_eq!(blob.hex(), sha_hex(data));
    }
}

#[test]
fn processes_write_same_content() {
    let (dir, _) = store();
    let root = dir.path().join("shared-blobs");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(&exe)
                .args(["--exact", "child_writer_process", "--test-threads=1"])
                .env(CHILD_ENV, &root)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Let the children start and wait at the line, then release them together and join in.
    std::thread::sleep(Duration::from_millis(200));
    fs::write(root.with_extension("go"), b"").unwrap();
    let store = BlobStore::new(&root);
    let contents = process_contents();
    for data in &contents {
        store.put_reader(&data[..]).unwrap();
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a writer process failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(blob_files(&store).len(), contents.len());
    for data in &contents {
        assert_eq!(&store.read(&BlobRef::for_bytes(data)).unwrap(), data);
    }
    assert!(temp_files(&store).is_empty());
    assert!(store.verify().is_ok());
}

#[test]
fn corrupted_blob_is_reported_by_read_copy_to_and_verify() {
    let (dir, store) = store();
    let good = store.put_bytes(b"fine").unwrap();
    let data = bytes(9, 400_000);
    let blob = store.put_bytes(&data).unwrap();
    let path = store.path(&blob);
    // Flip one byte in place: same size, different content.
    let mut on_disk = fs::read(&path).unwrap();
    on_disk[123_456] ^= 0x01;
    fs::write(&path, &on_disk).unwrap();
    let actual_hex = sha_hex(&on_disk);

    let err = store.read(&blob).unwrap_err();
    assert_eq!(
        err,
        BlobError::Corrupt {
            blob: blob.clone(),
            path: path.clone(),
            actual: actual_hex.clone(),
        }
    );
    assert!(
        err.to_string().contains(&path.display().to_string()),
        "{err}"
    );

    let dest_dir = dir.path().join("run");
    let dest = dest_dir.join("copy.bin");
    let err = store.copy_to(&blob, &dest).unwrap_err();
    assert!(
        matches!(&err, BlobError::Corrupt { path: p, actual, .. } if *p == path && *actual == actual_hex),
        "{err:?}"
    );
    // Nothing half-copied is left at or beside the destination.
    assert!(!dest.exists());
    assert!(files_under(&dest_dir).is_empty());

    let report = store.verify();
    assert!(!report.is_ok());
    assert_eq!(report.blobs, 2);
    assert_eq!(report.ok, 1);
    assert_eq!(report.bytes, 4 + 400_000);
    assert_eq!(report.corrupt.len(), 1);
    assert_eq!(report.corrupt[0].blob, blob);
    assert_eq!(report.corrupt[0].path, path);
    assert_eq!(report.corrupt[0].actual, actual_hex);
    assert_eq!(store.read(&good).unwrap(), b"fine");
}

#[test]
fn not_found_and_io_errors_are_distinct_and_name_the_path() {
    let (dir, store) = store();
    let missing = BlobRef::for_bytes(b"never stored");
    let missing_path = store.path(&missing);
    assert!(!store.contains(&missing));
    assert_eq!(
        store.read(&missing).unwrap_err(),
        BlobError::NotFound {
            blob: missing.clone(),
            path: missing_path.clone(),
        }
    );
    assert!(matches!(
        store.copy_to(&missing, &dir.path().join("x")).unwrap_err(),
        BlobError::NotFound { path, .. } if path == missing_path
    ));
    assert!(matches!(
        store.size(&missing).unwrap_err(),
        BlobError::NotFound { .. }
    ));

    // A folder where the blob's file should be: a storage error, not "not found".
    let odd = BlobRef::for_bytes(b"odd");
    let odd_path = store.path(&odd);
    fs::create_dir_all(&odd_path).unwrap();
    let err = store.read(&odd).unwrap_err();
    assert!(
        matches!(&err, BlobError::Io { path, .. } if *path == odd_path),
        "{err:?}"
    );
    assert!(err.to_string().contains(&odd_path.display().to_string()));
    assert!(!store.contains(&odd));

    // A missing input file is an I/O error naming the input.
    let input = dir.path().join("no-such-input");
    let err = store.put_file(&input).unwrap_err();
    assert!(
        matches!(&err, BlobError::Io { path, .. } if *path == input),
        "{err:?}"
    );
}

#[test]
fn failing_reader_stores_nothing() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0);
            buf[..n].fill(7);
            self.0 -= n;
            Ok(n)
        }
    }
    let (_dir, store) = store();
    let err = store.put_reader(Failing(3 * BUFFER_SIZE)).unwrap_err();
    assert!(
        matches!(&err, BlobError::Input { message } if message.contains("disk on fire")),
        "{err:?}"
    );
    assert!(blob_files(&store).is_empty());
    assert!(temp_files(&store).is_empty());
}

#[test]
fn blob_ref_parses_displays_and_serialises() {
    let text = format!("blob://sha256/{ABC}");
    let blob = BlobRef::from_str(&text).unwrap();
    assert_eq!(blob.hex(), ABC);
    assert_eq!(blob.algorithm(), "sha256");
    assert_eq!(blob.to_string(), text);
    assert_eq!(BlobRef::from_hex(ABC).unwrap(), blob);

    let json = serde_json::to_string(&blob).unwrap();
    assert_eq!(json, format!("\"{text}\""));
    assert_eq!(serde_json::from_str::<BlobRef>(&json).unwrap(), blob);
    let in_struct: Vec<BlobRef> = serde_json::from_str(&format!("[\"{text}\"]")).unwrap();
    assert_eq!(in_struct, vec![blob.clone()]);

    let upper = ABC.to_uppercase();
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "expected `blob://sha256/"),
        (ABC.to_owned(), "expected `blob://sha256/"),
        (format!("sha256/{ABC}"), "expected `blob://sha256/"),
        (format!("blob:/sha256/{ABC}"), "expected `blob://sha256/"),
        (format!("blob://{ABC}"), "missing `/`"),
        (
            format!("blob://md5/{ABC}"),
            "unsupported hash algorithm `md5`",
        ),
        (
            format!("blob://SHA256/{ABC}"),
            "unsupported hash algorithm `SHA256`",
        ),
        ("blob://sha256/".to_owned(), "empty"),
        (
            "blob://sha256/abc".to_owned(),
            "has 3 hex characters; sha256 needs 64",
        ),
        (format!("blob://sha256/{ABC}0"), "has 65 hex characters"),
        (
            format!("blob://sha256/{upper}"),
            "lowercase hex; found `B` at position 0",
        ),
        (
            format!("blob://sha256/{}g", &ABC[..63]),
            "non-hex character `g` at position 63",
        ),
        (
            format!("blob://sha256/{ABC}/x"),
            "non-hex character `/` at position 64",
        ),
        (
            format!("blob://sha256/ {ABC}"),
            "non-hex character ` ` at position 0",
        ),
    ];
    for (input, reason) in cases {
        let err: BlobRefError = input.parse::<BlobRef>().unwrap_err();
        let message = err.to_string();
        assert!(
            err.reason.contains(reason),
            "input {input:?}: expected reason containing {reason:?}, got {message:?}"
        );
        assert!(message.starts_with("invalid blob ref `"), "{message}");
    }
    let err = BlobRef::from_hex(&upper).unwrap_err();
    assert!(err.reason.contains("lowercase"), "{err}");
    assert!(BlobRef::from_hex("abc").is_err());
    assert!(BlobRef::from_hex(&format!("blob://sha256/{ABC}")).is_err());

    let err = serde_json::from_str::<BlobRef>("\"blob://sha256/abc\"").unwrap_err();
    assert!(err.to_string().contains("sha256 needs 64"), "{err}");
    assert!(serde_json::from_str::<BlobRef>("42").is_err());

    // Long junk is shortened in the message.
    let long = "x".repeat(10_000);
    assert!(long.parse::<BlobRef>().unwrap_err().to_string().len() < 400);
}

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
    let (_empty_dir, empty) = self::store();
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

/// Generates `total` pseudo-random bytes, hashing what it hands out. When `watch` is set, on
/// every read it checks that everything handed out so far (minus at most one buffer) is already
/// in the store's temp file, i.e. the put streams to disk instead of collecting the input in
/// memory.
struct WatchingReader {
    watch: Option<PathBuf>,
    total: usize,
    produced: usize,
    reads: usize,
    max_request: usize,
    block: Vec<u8>,
    hasher: Sha256,
}

impl WatchingReader {
    fn new(total: usize, watch: Option<PathBuf>) -> Self {
        WatchingReader {
            watch,
            total,
            produced: 0,
            reads: 0,
            max_request: 0,
            block: bytes(42, 64 * 1024),
            hasher: Sha256::new(),
        }
    }
}

impl Read for WatchingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reads += 1;
        self.max_request = self.max_request.max(buf.len());
        if let Some(temp_dir) = &self.watch {
            let on_disk: u64 = files_under(temp_dir)
                .iter()
                .map(|p| fs::metadata(p).unwrap().len())
                .sum();
            assert!(
                on_disk + (BUFFER_SIZE as u64) >= self.produced as u64,
                "after {} bytes read only {on_disk} bytes reached the temp file",
                self.produced
            );
        }
        // The content at a position depends only on the position: 64 KiB blocks of random
        // bytes, each stamped with its block number so no two are alike.
        let len = self.block.len();
        let offset = self.produced % len;
        let n = buf.len().min(self.total - self.produced).min(len - offset);
        buf[..n].copy_from_slice(&self.block[offset..offset + n]);
        let stamp = ((self.produced / len) as u64).to_le_bytes();
        if offset < stamp.len() {
            let end = (offset + n).min(stamp.len());
            buf[..end - offset].copy_from_slice(&stamp[offset..end]);
        }
        self.hasher.update(&buf[..n]);
        self.produced += n;
        Ok(n)
    }
}

#[test]
fn twenty_megabytes_stream_through_a_bounded_buffer() {
    const SIZE: usize = 20 * 1024 * 1024;
    let (dir, store) = store();
    let mut reader = WatchingReader::new(SIZE, Some(store.temp_dir()));
    let blob = store.put_reader(&mut reader).unwrap();
    assert_eq!(reader.produced, SIZE);
    assert!(reader.reads > 300, "{} reads", reader.reads);
    assert!(
        reader.max_request <= 8 * 1024 * 1024,
        "asked for {} bytes at once",
        reader.max_request
    );
    assert_eq!(blob.hex(), hex::encode(reader.hasher.finalize()));
    assert_eq!(store.size(&blob).unwrap(), SIZE as u64);
    assert!(temp_files(&store).is_empty());

    // The same content as a file: the same ref, and copy_to re-hashes it on the way out.
    let source = dir.path().join("big.bin");
    let mut file = fs::File::create(&source).unwrap();
    io::copy(&mut WatchingReader::new(SIZE, None), &mut file).unwrap();
    drop(file);
    assert_eq!(store.put_file(&source).unwrap(), blob);
    let dest = dir.path().join("out/big.bin");
    assert_eq!(store.copy_to(&blob, &dest).unwrap(), SIZE as u64);
    assert!(fs::read(&dest).unwrap() == fs::read(&source).unwrap());
    assert_eq!(blob_files(&store), vec![store.path(&blob)]);
    assert!(temp_files(&store).is_empty());
}

#[test]
fn put_files_stores_a_batch_in_order_and_reports_each_failure() {
    let (dir, store) = store();
    let mut sources = Vec::new();
    let mut expected = Vec::new();
    for i in 0..40u64 {
        let data = bytes(700 + i % 30, ((i % 30) as usize) * 7919);
        let path = dir.path().join(format!("in{i:02}.bin"));
        fs::write(&path, &data).unwrap();
        sources.push(path);
        expected.push(Some(BlobRef::for_bytes(&data)));
    }
    let missing = dir.path().join("missing.bin");
    sources.insert(5, missing.clone());
    expected.insert(5, None);
    let results = store.put_files(&sources);
    assert_eq!(results.len(), sources.len());
    for (i, (result, expected)) in results.iter().zip(&expected).enumerate() {
        match (result, expected) {
            (Ok(blob), Some(want)) => assert_eq!(blob, want, "source {i}"),
            (Err(BlobError::Io { path, .. }), None) => assert_eq!(path, &missing),
            other => panic!("source {i}: {other:?}"),
        }
    }
    // 30 distinct contents (10 repeats), all readable and intact; nothing left in tmp/.
    assert_eq!(blob_files(&store).len(), 30);
    for (source, blob) in sources.iter().zip(&expected) {
        if let Some(blob) = blob {
            assert_eq!(store.read(blob).unwrap(), fs::read(source).unwrap());
        }
    }
    assert!(temp_files(&store).is_empty());
    assert!(store.verify().is_ok());
    // Again: everything is already there.
    let again = store.put_files(sources.iter().filter(|p| **p != missing));
    assert!(again.iter().all(Result::is_ok));
    assert_eq!(blob_files(&store).len(), 30);
    assert!(store.put_files(Vec::<PathBuf>::new()).is_empty());
}
