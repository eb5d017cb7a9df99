//! Blob store behaviour: round trips, write-once, concurrent writers (threads and processes),
//! corruption on read/copy/verify, error kinds, ref parsing and streaming. (verify and gc
//! are in blob_maintenance.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::{self, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use heddle_artifacts::blob::{BUFFER_SIZE, BlobRefError};
use heddle_artifacts::{BlobError, BlobRef, BlobStore};
use sha2::{Digest, Sha256};

mod blob_support;

use blob_support::*;

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
