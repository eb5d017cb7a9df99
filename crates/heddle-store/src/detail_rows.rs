//! Rows of a run's detail tables as both databases hand them over, and the records the
//! queries answer with: human waits, checkpoints, artifacts and events.

use crate::types::{ArtifactRecord, CheckpointRecord, EventRecord, HumanWait, WaitOutcome};

/// A count or position kept as a database integer, as the records carry it.
pub(crate) fn to_u32(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

/// A row of `human_waits`.
#[derive(sqlx::FromRow)]
pub(crate) struct WaitRow {
    question_id: String,
    node_id: String,
    visit: i64,
    question: String,
    choices: String,
    started_at: String,
    ended_at: Option<String>,
    duration_ms: Option<i64>,
    outcome: Option<String>,
    answer: Option<String>,
}

impl WaitRow {
    pub(crate) fn into_wait(self) -> HumanWait {
        HumanWait {
            question_id: self.question_id,
            node_id: self.node_id,
            visit: to_u32(self.visit),
            question: self.question,
            choices: serde_json::from_str(&self.choices).unwrap_or_default(),
            started_at: self.started_at,
            ended_at: self.ended_at,
            duration_ms: self.duration_ms,
            outcome: match self.outcome.as_deref() {
                Some("answered") => WaitOutcome::Answered,
                Some("timed_out") => WaitOutcome::TimedOut,
                _ => WaitOutcome::Waiting,
            },
            answer: self.answer,
        }
    }
}

/// A row of `checkpoints`.
#[derive(sqlx::FromRow)]
pub(crate) struct CheckpointRow {
    sha: String,
    node_id: String,
    status: String,
    completed: i64,
    timeline: i64,
    branches: String,
    time: String,
    parent: Option<String>,
    metadata_sha: String,
    current: bool,
}

impl CheckpointRow {
    pub(crate) fn into_record(self) -> CheckpointRecord {
        CheckpointRecord {
            sha: self.sha,
            node_id: self.node_id,
            status: self.status,
            completed: to_u32(self.completed),
            timeline: to_u32(self.timeline),
            branches: serde_json::from_str(&self.branches).unwrap_or_default(),
            time: self.time,
            parent: self.parent,
            metadata_sha: self.metadata_sha,
            current: self.current,
        }
    }
}

/// A row of `artifacts`.
#[derive(sqlx::FromRow)]
pub(crate) struct ArtifactRow {
    path: String,
    stage: String,
    node_id: String,
    retry: i64,
    source: String,
    size: i64,
    sha256: String,
    media_type: String,
    kind: String,
}

impl ArtifactRow {
    pub(crate) fn into_record(self) -> ArtifactRecord {
        ArtifactRecord {
            path: self.path,
            stage: self.stage,
            node_id: self.node_id,
            retry: to_u32(self.retry),
            source: self.source,
            size: self.size,
            sha256: self.sha256,
            media_type: self.media_type,
            kind: self.kind,
        }
    }
}

/// A row of `events`.
#[derive(sqlx::FromRow)]
pub(crate) struct EventRow {
    seq: i64,
    id: String,
    ts: String,
    node_id: Option<String>,
    event: String,
    properties: String,
}

impl EventRow {
    pub(crate) fn into_record(self) -> EventRecord {
        EventRecord {
            seq: self.seq,
            id: self.id,
            ts: self.ts,
            node_id: self.node_id,
            event: self.event,
            properties: serde_json::from_str(&self.properties)
                .unwrap_or_else(|_| serde_json::Value::Object(serde_json::Map::new())),
        }
    }
}
