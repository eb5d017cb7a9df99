#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! A run folder and its blobs copied to a shared store and back: on a shared folder
//! (`file://`) and on an S3-compatible server (the test suite's moto, started by
//! `scripts/s3-for-tests.sh`, whose endpoint `HEDDLE_TEST_S3_URL` gives). Only what changed
//! travels again; what the store holds that leads out of the run's folder, or a blob that
//! does not hash to its name, is refused.

use std::path::Path;

use heddle_artifacts::shared::{DownloadMarks, UploadMarks};
use heddle_artifacts::{BlobRef, BlobStore, SharedFiles, SharedFilesError};

const RUN: &str = "01RUNSHARED";

/// A run folder naming one blob, with files that must travel and some that must not.
fn run_folder(root: &Path, blobs: &BlobStore) -> (std::path::PathBuf, BlobRef) {
    let blob = blobs.put_bytes(b"the whole command output").unwrap();
    let folder = root.join("runs/20261128-01RUNSHARED");
    std::fs::create_dir_all(folder.join("nodes/plan")).unwrap();
    std::fs::create_dir_all(folder.join("control/gates")).unwrap();
    std::fs::write(
        folder.join("manifest.json"),
        format!(
            r#"{{"run_id":"{RUN}","output":"blob://sha256/{}"}}"#,
            blob.hex()
        ),
    )
    .unwrap();
    std::fs::write(folder.join("nodes/plan/response.md"), "# The plan\n").unwrap();
    std::fs::write(folder.join("control/gates/q1.json"), "{}").unwrap();
    std::fs::write(folder.join(".hidden"), "no").unwrap();
    std::fs::write(folder.join("run.lock"), "123").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", folder.join("nodes/plan/link")).unwrap();
    (folder, blob)
}

async fn round_trip(shared: &SharedFiles) {
    let machine = tempfile::tempdir().unwrap();
    let blobs = BlobStore::new(machine.path().join("blobs"));
    let (folder, blob) = run_folder(machine.path(), &blobs);

    let mut marks = UploadMarks::default();
    let sent = shared
        .upload_run(RUN, &folder, &blobs, &mut marks)
        .await
        .unwrap();
    assert_eq!((sent.files, sent.blobs), (2, 1), "{sent:?}");
    let again = shared
        .upload_run(RUN, &folder, &blobs, &mut marks)
        .await
        .unwrap();
    assert_eq!(
        (again.files, again.blobs),
        (0, 0),
        "nothing changed: {again:?}"
    );

    let viewer = tempfile::tempdir().unwrap();
    let viewer_blobs = BlobStore::new(viewer.path().join("blobs"));
    let mirror = viewer.path().join("mirror");
    let mut seen = DownloadMarks::default();
    let got = shared
        .download_run(RUN, &mirror, &viewer_blobs, &mut seen)
        .await
        .unwrap();
    assert_eq!((got.listed, got.files, got.blobs), (2, 2, 1), "{got:?}");
    assert_eq!(
        std::fs::read_to_string(mirror.join("nodes/plan/response.md")).unwrap(),
        "# The plan\n"
    );
    assert!(viewer_blobs.contains(&blob));
    for left in ["control", ".hidden", "run.lock", "nodes/plan/link"] {
        assert!(!mirror.join(left).exists(), "{left} travelled");
    }
    let unchanged = shared
        .download_run(RUN, &mirror, &viewer_blobs, &mut seen)
        .await
        .unwrap();
    assert_eq!((unchanged.files, unchanged.blobs), (0, 0), "{unchanged:?}");

    // The run goes on: only the changed file travels, both ways.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(folder.join("nodes/plan/response.md"), "# The PLAN\n").unwrap();
    let sent = shared
        .upload_run(RUN, &folder, &blobs, &mut marks)
        .await
        .unwrap();
    assert_eq!((sent.files, sent.blobs), (1, 0), "{sent:?}");
    let got = shared
        .download_run(RUN, &mirror, &viewer_blobs, &mut seen)
        .await
        .unwrap();
    assert_eq!(got.files, 1, "{got:?}");
    assert_eq!(
        std::fs::read_to_string(mirror.join("nodes/plan/response.md")).unwrap(),
        "# The PLAN\n"
    );

    // A run the store does not hold lists nothing.
    let none = shared
        .download_run(
            "01OTHER",
            &viewer.path().join("other"),
            &viewer_blobs,
            &mut DownloadMarks::default(),
        )
        .await
        .unwrap();
    assert_eq!(none.listed, 0);
}

fn s3_env(endpoint: &str) -> Vec<(String, String)> {
    [
        ("AWS_ENDPOINT_URL", endpoint),
        ("AWS_ALLOW_HTTP", "true"),
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("AWS_REGION", "us-east-1"),
        ("HOME", "/nowhere"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// The test S3 server's endpoint; the suite's script starts it.
fn s3_endpoint() -> String {
    std::env::var("HEDDLE_TEST_S3_URL").unwrap_or_else(|_| {
        panic!(
            "HEDDLE_TEST_S3_URL is not set: start the test S3 server with \
             `export HEDDLE_TEST_S3_URL=$(scripts/s3-for-tests.sh start)` (scripts/test.sh does)"
        )
    })
}

#[tokio::test]
async fn a_run_travels_through_a_shared_folder() {
    let store = tempfile::tempdir().unwrap();
    let url = format!("file://{}", store.path().display());
    round_trip(&SharedFiles::open(&url, &[]).unwrap()).await;
    assert!(
        store
            .path()
            .join("runs")
            .join(RUN)
            .join("manifest.json")
            .is_file()
    );
}

#[tokio::test]
async fn a_run_travels_through_an_s3_bucket() {
    let endpoint = s3_endpoint();
    // Each test in a prefix of its own: the bucket is shared by the suite.
    let prefix = format!("s3://heddle-test/{}", std::process::id());
    round_trip(&SharedFiles::open(&prefix, &s3_env(&endpoint)).unwrap()).await;
}

#[tokio::test]
async fn what_leads_out_of_the_run_or_lies_about_its_hash_is_refused() {
    let store = tempfile::tempdir().unwrap();
    let url = format!("file://{}", store.path().display());
    let shared = SharedFiles::open(&url, &[]).unwrap();
    let viewer = tempfile::tempdir().unwrap();
    let blobs = BlobStore::new(viewer.path().join("blobs"));

    let hidden = store.path().join("runs/01EVIL/.git");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::write(hidden.join("config"), "[core]\n").unwrap();
    let refused = shared
        .download_run(
            "01EVIL",
            &viewer.path().join("evil"),
            &blobs,
            &mut DownloadMarks::default(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(refused, SharedFilesError::Refused { .. }),
        "{refused}"
    );
    assert!(!viewer.path().join("evil/.git").exists());

    // A link planted where the copy's folders go is not written through.
    let run = store.path().join("runs/01LINKED/nodes");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("response.md"), "text").unwrap();
    let mirror = viewer.path().join("linked");
    let outside = viewer.path().join("outside");
    std::fs::create_dir_all(&mirror).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, mirror.join("nodes")).unwrap();
    let refused = shared
        .download_run("01LINKED", &mirror, &blobs, &mut DownloadMarks::default())
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("symbolic link"), "{refused}");
    assert!(!outside.join("response.md").exists());

    // A blob whose content is not what its name says.
    let named = BlobRef::for_bytes(b"what the run wrote");
    let run = store.path().join("runs/01LIAR");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(
        run.join("manifest.json"),
        format!(r#"{{"output":"blob://sha256/{}"}}"#, named.hex()),
    )
    .unwrap();
    let blob_dir = store.path().join("blobs/sha256");
    std::fs::create_dir_all(&blob_dir).unwrap();
    std::fs::write(blob_dir.join(named.hex()), b"something else").unwrap();
    let refused = shared
        .download_run(
            "01LIAR",
            &viewer.path().join("liar"),
            &blobs,
            &mut DownloadMarks::default(),
        )
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("hashes to"), "{refused}");
    assert!(!blobs.contains(&named));
}

#[test]
fn a_url_heddle_cannot_use_is_refused_saying_what_would_do() {
    for url in ["ftp://example.com/x", "not a url", "gs://bucket"] {
        let error = SharedFiles::open(url, &[]).unwrap_err().to_string();
        assert!(error.contains("s3://bucket/prefix"), "{error}");
    }
}
