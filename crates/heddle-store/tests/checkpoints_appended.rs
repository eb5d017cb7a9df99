//! A live run with git checkpoints, ingested at every human gate as it runs: each ingest
//! after the first appends only the checkpoints made since (the history is listed whole
//! again only when a rollback made a new timeline), and the index it builds that way,
//! across a rollback and a resume on the new timeline, equals one rebuilt from the folder.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use heddle_checkpoint::{GitHistory, GitState, ModeChoice, history};
use heddle_engine::RunDir;
use heddle_engine::interviewer::{Answer, QueueInterviewer};
use heddle_engine::run_records::{
    CheckpointHistory, HistoryAfter, HistoryMark, HistoryReadError, ListedHistory,
};
use heddle_store::{RunReaders, Store};
use support::{Home, Scripted, dump, git_repo};

const WORKFLOW: &str = r#"digraph Reviewed {
    start [shape=Mdiamond]; exit [shape=Msquare];
    work [shape=parallelogram, script="echo more >> log.txt"];
    gate [shape=hexagon, prompt="Good enough?"];
    start -> work -> gate;
    gate -> exit [label="[A] Approve"];
    gate -> work [label="[R] Revise"];
}"#;

/// What the index asked the history for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Asked {
    /// Whole listings.
    lists: usize,
    /// Listings after a mark that appended checkpoints.
    appended: usize,
    /// Listings after a mark answered "list it all again".
    relists: usize,
}

/// The real history reader, recording what it was asked.
#[derive(Debug, Default)]
struct Recording {
    asked: Mutex<Asked>,
}

impl Recording {
    fn take(&self) -> Asked {
        std::mem::take(&mut *self.asked.lock().unwrap())
    }
}

impl CheckpointHistory for Recording {
    fn list(&self, run: &RunDir) -> Result<ListedHistory, HistoryReadError> {
        self.asked.lock().unwrap().lists += 1;
        GitHistory.list(run)
    }

    fn list_after(
        &self,
        run: &RunDir,
        known: &HistoryMark,
    ) -> Result<HistoryAfter, HistoryReadError> {
        let after = GitHistory.list_after(run, known)?;
        let mut asked = self.asked.lock().unwrap();
        match &after {
            HistoryAfter::Appended { entries, .. } if !entries.is_empty() => asked.appended += 1,
            HistoryAfter::Appended { .. } => {}
            HistoryAfter::Relist => asked.relists += 1,
        }
        Ok(after)
    }
}

/// Answers the gate's next questions with `answers`, ingesting while each one waits.
async fn answer_gates(queue: &QueueInterviewer, store: &Store, folder: &Path, answers: &[&str]) {
    for answer in answers {
        let question = loop {
            if let Some(pending) = queue.pending().into_iter().next() {
                break pending;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        store.ingest_run(folder).await.unwrap();
        queue
            .answer(&question.question.id, Answer::Choice((*answer).into()))
            .unwrap();
    }
}

/// The checkpoints as the index holds them and as git lists them, comparable.
async fn indexed_and_listed(store: &Store, run_id: &str, folder: &Path) -> (String, String) {
    let indexed = store.checkpoints(run_id).await.unwrap();
    let state = GitState::load(&RunDir::at(folder)).unwrap().unwrap();
    let repo = heddle_checkpoint::repo::open(&state).unwrap();
    let listed = history::list(&repo, &state).unwrap();
    let indexed: Vec<_> = indexed
        .iter()
        .map(|c| (&c.sha, &c.node_id, c.timeline, &c.branches, c.current))
        .collect();
    let listed: Vec<_> = listed
        .iter()
        .map(|c| {
            (
                &c.sha,
                &c.node_id,
                c.timeline as u32,
                &c.branches,
                c.current,
            )
        })
        .collect();
    (format!("{indexed:#?}"), format!("{listed:#?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_run_appends_its_checkpoints_and_equals_a_rebuilt_index() {
    let home = Home::new();
    let repo = git_repo(&home.root().join("repo"));
    let queue = Arc::new(QueueInterviewer::new());
    let engine = home.engine(
        ModeChoice::Worktree,
        Arc::new(Scripted::default()),
        queue.clone(),
    );
    let workflow = home.workflow("reviewed", WORKFLOW);
    let prepared = engine.prepare(home.request(&workflow, &repo)).unwrap();
    let folder = prepared.run_dir().root().to_path_buf();
    let run_id = prepared.run_id().to_string();
    let recording = Arc::new(Recording::default());
    let readers = RunReaders {
        checkpoints: recording.clone(),
        artifacts: Arc::new(heddle_artifacts::ArtifactManifests),
    };
    let store = Store::open(home.index("heddle.db").await, readers)
        .await
        .unwrap();

    // Three rounds of work and review: the first ingest lists the history, the others
    // append what each round added.
    let task = tokio::spawn(prepared.execute());
    answer_gates(&queue, &store, &folder, &["R", "R", "A"]).await;
    let conclusion = task.await.unwrap();
    assert_eq!(
        conclusion.status,
        heddle_engine::RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(
        recording.take(),
        Asked {
            lists: 1,
            appended: 3,
            relists: 0
        }
    );
    let (indexed, listed) = indexed_and_listed(&store, &run_id, &folder).await;
    assert_eq!(indexed, listed);

    // Roll back to the first round's work: a second timeline, listed whole again.
    heddle_checkpoint::rollback::rollback(
        &RunDir::at(&folder),
        "work@1",
        false,
        "2026-05-01T10:00:00.000Z",
    )
    .unwrap();
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(
        recording.take(),
        Asked {
            lists: 1,
            appended: 0,
            relists: 1
        }
    );
    let (indexed, listed) = indexed_and_listed(&store, &run_id, &folder).await;
    assert_eq!(indexed, listed);

    // Resumed, the run goes on along the new timeline: appended again.
    let resumed = engine.resume(&RunDir::at(&folder)).unwrap();
    let task = tokio::spawn(resumed.execute());
    answer_gates(&queue, &store, &folder, &["R", "A"]).await;
    assert_eq!(
        task.await.unwrap().status,
        heddle_engine::RunStatus::Success
    );
    store.ingest_run(&folder).await.unwrap();
    let asked = recording.take();
    assert_eq!((asked.lists, asked.relists), (0, 0), "{asked:?}");
    assert!(asked.appended >= 2, "{asked:?}");

    let checkpoints = store.checkpoints(&run_id).await.unwrap();
    assert!(checkpoints.iter().any(|c| c.timeline == 2));
    assert_eq!(checkpoints.iter().filter(|c| c.current).count(), 1);
    let (indexed, listed) = indexed_and_listed(&store, &run_id, &folder).await;
    assert_eq!(indexed, listed);

    let rebuilt = home.store("rebuilt.db").await;
    rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(dump(&rebuilt).await, dump(&store).await);
}
