//! Ingesting a live run batch by batch reads only what the new events concern: the artifact
//! folders of the stages they name (an earlier stage's manifest is not read again), all of
//! them once the run ends; and the run's counts follow its rows across batches.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::sync::{Arc, Mutex};

use heddle_engine::RunDir;
use heddle_engine::run_records::{ArtifactListing, ListedArtifact};
use heddle_engine::{Event, StageStatus};
use heddle_store::{RunReaders, Store};
use serde_json::json;
use support::{Home, append, conclude, line, manifest, synthetic_run};

const RUN: &str = "01LIVEINGEST00000000000000";

/// The real artifact reader, recording what it was asked to read.
#[derive(Debug, Default)]
struct Recording {
    /// `None` for a whole listing, else the stage folders asked for.
    asked: Mutex<Vec<Option<Vec<String>>>>,
}

impl Recording {
    fn take(&self) -> Vec<Option<Vec<String>>> {
        std::mem::take(&mut *self.asked.lock().unwrap())
    }
}

impl ArtifactListing for Recording {
    fn list(&self, run: &RunDir) -> Vec<ListedArtifact> {
        self.asked.lock().unwrap().push(None);
        heddle_artifacts::ArtifactManifests.list(run)
    }

    fn list_stages(&self, run: &RunDir, stages: &[String]) -> Vec<ListedArtifact> {
        self.asked.lock().unwrap().push(Some(stages.to_vec()));
        heddle_artifacts::ArtifactManifests.list_stages(run, stages)
    }
}

/// Writes the capture manifest of `artifacts/{stage}/retry_0` listing `files`.
fn capture(folder: &Path, stage: &str, files: &[&str]) {
    let dest = folder.join("artifacts").join(stage).join("retry_0");
    std::fs::create_dir_all(&dest).unwrap();
    let artifacts: Vec<_> = files
        .iter()
        .map(|f| {
            json!({ "path": f, "size": 3, "sha256": "0".repeat(64),
                    "media_type": "application/xml", "kind": "junit" })
        })
        .collect();
    let report = json!({ "artifacts": artifacts, "skipped": [], "bytes": 3 * files.len() });
    std::fs::write(dest.join("manifest.json"), report.to_string()).unwrap();
}

/// The lines of one stage visit in `dir` (its captures announced first), from `seq`.
fn visit(seq: u64, node: &str, visit: u32, dir: &str, captured: &[&str]) -> String {
    let stage_dir = Some(format!("nodes/{dir}"));
    let mut text = line(
        RUN,
        seq,
        Some(node),
        Event::StageStarted {
            kind: "command".into(),
            visit,
            attempt: 1,
            branch: None,
            stage_dir: stage_dir.clone(),
        },
    );
    let mut seq = seq;
    for file in captured {
        seq += 1;
        text.push_str(&line(
            RUN,
            seq,
            Some(node),
            Event::ArtifactCaptured {
                path: format!("artifacts/{dir}/retry_0/{file}"),
                kind: "junit".into(),
                media_type: "application/xml".into(),
                size: 3,
            },
        ));
    }
    text.push_str(&line(
        RUN,
        seq + 1,
        Some(node),
        Event::StageCompleted {
            status: StageStatus::Fail,
            duration_ms: 5,
            visit,
            attempts: 1,
            notes: String::new(),
            branch: None,
            stage_dir,
            usage: None,
            cost_usd: None,
        },
    ));
    text
}

fn paths(listed: &[heddle_store::ArtifactRecord]) -> Vec<&str> {
    listed.iter().map(|a| a.path.as_str()).collect()
}

#[tokio::test]
async fn a_batch_reads_only_the_artifact_folders_of_its_stages() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "Loop", "2026-01-01T00:00:00.000Z", &[]),
    );
    let recording = Arc::new(Recording::default());
    let readers = RunReaders {
        checkpoints: Arc::new(heddle_checkpoint::GitHistory),
        artifacts: recording.clone(),
    };
    let store = Store::open(home.index("heddle.db").await, readers)
        .await
        .unwrap();

    // The first batch: a new run is read whole.
    capture(&folder, "test", &["junit.xml"]);
    append(&folder, &visit(1, "test", 1, "test", &["junit.xml"]));
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(recording.take(), [None]);
    let listed = store.artifacts(RUN).await.unwrap();
    assert_eq!(paths(&listed), ["test/retry_0/junit.xml"]);

    // The next batch names only `fix`: `test`'s manifest, changed meanwhile without an
    // event saying so, is not read again.
    capture(&folder, "test", &["junit.xml", "late.xml"]);
    capture(&folder, "fix", &["a.xml", "b.xml"]);
    append(&folder, &visit(4, "fix", 1, "fix", &["a.xml", "b.xml"]));
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(recording.take(), [Some(vec!["fix".to_string()])]);
    let listed = store.artifacts(RUN).await.unwrap();
    assert_eq!(
        paths(&listed),
        [
            "fix/retry_0/a.xml",
            "fix/retry_0/b.xml",
            "test/retry_0/junit.xml"
        ]
    );
    assert_eq!(store.run(RUN).await.unwrap().artifact_count, 3);

    // A stage that captured nothing: its folder is looked at, nothing is added.
    append(&folder, &visit(8, "test", 2, "test-visit_2", &[]));
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(recording.take(), [Some(vec!["test-visit_2".to_string()])]);
    assert_eq!(store.run(RUN).await.unwrap().artifact_count, 3);

    // A stage folder captured again (its manifest now lists one file): its rows are
    // replaced, the others stay.
    capture(&folder, "fix", &["b.xml"]);
    append(&folder, &visit(10, "fix", 1, "fix", &["b.xml"]));
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(recording.take(), [Some(vec!["fix".to_string()])]);
    let listed = store.artifacts(RUN).await.unwrap();
    assert_eq!(
        paths(&listed),
        ["fix/retry_0/b.xml", "test/retry_0/junit.xml"]
    );
    assert_eq!(store.run(RUN).await.unwrap().artifact_count, 2);

    // The run's end reads every folder again.
    append(
        &folder,
        &line(
            RUN,
            13,
            None,
            Event::RunCompleted {
                duration_ms: 50,
                stages: 4,
            },
        ),
    );
    conclude(&folder, RUN, "success", "2026-01-01T00:01:00.000Z");
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(recording.take(), [None]);
    let listed = store.artifacts(RUN).await.unwrap();
    assert_eq!(
        paths(&listed),
        [
            "fix/retry_0/b.xml",
            "test/retry_0/junit.xml",
            "test/retry_0/late.xml"
        ]
    );
    let run = store.run(RUN).await.unwrap();
    assert_eq!(
        (run.artifact_count, run.stage_count, run.event_count),
        (3, 3, 13)
    );

    // A rebuilt index counts the same.
    let rebuilt = home.store("rebuilt.db").await;
    rebuilt.ingest_run(&folder).await.unwrap();
    let again = rebuilt.run(RUN).await.unwrap();
    assert_eq!(
        (again.artifact_count, again.stage_count, again.event_count),
        (3, 3, 13)
    );
}
