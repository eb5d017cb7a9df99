//! A stage visit run again in a new folder (after a rollback, the engine gives it
//! `nodes/{node}-rerun_{k}`) gets its own row in the index, so the abandoned timeline's stage
//! stays; retries and human waits go to the row that started last. Events without
//! `stage_dir` (older logs) keep one row per `(node, visit)`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::{Event, StageStatus};
use heddle_store::{StageState, Store};
use support::{Home, append, conclude, line, manifest, synthetic_run};

const RUN: &str = "01RERUNS000000000000000000";

/// Builds the lines of a log, numbering them.
#[derive(Default)]
struct Log {
    lines: Vec<String>,
}

impl Log {
    fn push(&mut self, node: &str, event: Event) -> &mut Self {
        let seq = u64::try_from(self.lines.len()).unwrap() + 1;
        self.lines.push(line(RUN, seq, Some(node), event));
        self
    }

    fn started(&mut self, node: &str, visit: u32, dir: Option<&str>) -> &mut Self {
        self.push(
            node,
            Event::StageStarted {
                kind: "command".into(),
                visit,
                attempt: 1,
                branch: None,
                stage_dir: dir.map(str::to_string),
            },
        )
    }

    fn completed(&mut self, node: &str, visit: u32, dir: Option<&str>) -> &mut Self {
        self.push(
            node,
            Event::StageCompleted {
                status: StageStatus::Success,
                duration_ms: 5,
                visit,
                attempts: 1,
                notes: format!("{node} {}", dir.unwrap_or("-")),
                branch: None,
                stage_dir: dir.map(str::to_string),
                usage: None,
                cost_usd: None,
            },
        )
    }

    fn retrying(&mut self, node: &str) -> &mut Self {
        self.push(
            node,
            Event::StageRetrying {
                attempt: 1,
                max_attempts: 2,
                delay_ms: 0,
                reason: "flaky".into(),
            },
        )
    }

    fn asked(&mut self, node: &str, question_id: &str) -> &mut Self {
        self.push(
            node,
            Event::InterviewStarted {
                question: "Ship it?".into(),
                choices: vec!["Yes".into()],
                question_id: question_id.into(),
            },
        )
    }
}

/// `(node, visit, stage_dir, status, retries, questions)` of the run's timeline.
type Row = (String, u32, String, StageState, u32, Vec<String>);

async fn rows(store: &Store) -> Vec<Row> {
    store
        .timeline(RUN)
        .await
        .unwrap()
        .stages
        .into_iter()
        .map(|s| {
            let questions = s.waits.iter().map(|w| w.question_id.clone()).collect();
            (
                s.node_id,
                s.visit,
                s.stage_dir,
                s.status,
                s.retries,
                questions,
            )
        })
        .collect()
}

fn row(node: &str, visit: u32, dir: &str, retries: u32, questions: &[&str]) -> Row {
    (
        node.into(),
        visit,
        dir.into(),
        StageState::Success,
        retries,
        questions.iter().map(|q| (*q).to_string()).collect(),
    )
}

#[tokio::test]
async fn a_rerun_in_a_new_folder_keeps_the_old_timelines_stage() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let mut first = Log::default();
    first
        .started("unit", 1, Some("nodes/unit"))
        .completed("unit", 1, Some("nodes/unit"))
        .started("gate", 1, Some("nodes/gate"))
        .asked("gate", "q1")
        .completed("gate", 1, Some("nodes/gate"))
        // An older log's node: no stage_dir.
        .started("old", 1, None)
        .completed("old", 1, None);
    let mut second = Log {
        lines: first.lines.clone(),
    };
    // Rolled back to the start: each stage runs again, in a new folder.
    second
        .started("unit", 1, Some("nodes/unit-rerun_2"))
        .retrying("unit")
        .started("unit", 1, Some("nodes/unit-rerun_2"))
        .completed("unit", 1, Some("nodes/unit-rerun_2"))
        .started("gate", 1, Some("nodes/gate-rerun_2"))
        .asked("gate", "q2")
        .completed("gate", 1, Some("nodes/gate-rerun_2"))
        .started("old", 1, None)
        .completed("old", 1, None)
        // A loop: unit's second visit; visit 2 is taken in the index by the rerun.
        .started("unit", 2, Some("nodes/unit-visit_2"))
        .completed("unit", 2, Some("nodes/unit-visit_2"));

    // Ingested as the watcher does (the first timeline, then the rest) and all at once.
    let live = home.store("live.db").await;
    append(&folder, &first.lines.concat());
    live.ingest_run(&folder).await.unwrap();
    append(&folder, &second.lines[first.lines.len()..].concat());
    conclude(&folder, RUN, "success", "2026-01-01T00:01:00.000Z");
    live.ingest_run(&folder).await.unwrap();
    let whole = home.store("whole.db").await;
    whole.ingest_run(&folder).await.unwrap();

    let expected = vec![
        row("unit", 1, "nodes/unit", 0, &[]),
        row("gate", 1, "nodes/gate", 0, &["q1"]),
        row("unit", 2, "nodes/unit-rerun_2", 1, &[]),
        row("gate", 2, "nodes/gate-rerun_2", 0, &["q2"]),
        // Without stage_dir, as before: the visit's row starts over.
        row("old", 1, "nodes/old", 0, &[]),
        row("unit", 3, "nodes/unit-visit_2", 0, &[]),
    ];
    assert_eq!(rows(&live).await, expected);
    assert_eq!(rows(&whole).await, expected);
    let notes: Vec<Option<String>> = whole
        .timeline(RUN)
        .await
        .unwrap()
        .stages
        .into_iter()
        .map(|s| s.notes)
        .collect();
    assert_eq!(notes[0].as_deref(), Some("unit nodes/unit"));
    assert_eq!(notes[2].as_deref(), Some("unit nodes/unit-rerun_2"));
}
