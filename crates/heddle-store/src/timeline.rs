//! What one run holds: its timeline (stage visits with their human waits, lanes), its
//! checkpoints, its artifacts and its events from a sequence number.

use crate::Store;
use crate::error::Result;
use crate::types::{
    ArtifactRecord, CheckpointRecord, EventRecord, HumanWait, RunStatus, StageState, Timeline,
    TimelineStage, WaitOutcome,
};

/// Most events one call returns.
const MAX_EVENTS: u32 = 10_000;

fn to_u32(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl Store {
    /// The run's stage visits in the order they started, with attempts, retries, status,
    /// lane and human waits.
    pub async fn timeline(&self, id: &str) -> Result<Timeline> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let status = RunStatus::parse(&run.status);
        let stages = sqlx::query!(
            r#"SELECT node_id, visit, kind, branch, status, attempts, retries, started_at,
                      ended_at, duration_ms, notes, failure_reason, failure_class,
                      last_retry_reason, stage_dir
               FROM stages WHERE run_key = ?1 ORDER BY start_seq"#,
            run.key
        )
        .fetch_all(&db.reader)
        .await
        .map_err(|e| db.err(e))?;
        let waits = sqlx::query!(
            r#"SELECT question_id, node_id, visit, question, choices, started_at, ended_at,
                      duration_ms, outcome, answer
               FROM human_waits WHERE run_key = ?1 ORDER BY start_seq"#,
            run.key
        )
        .fetch_all(&db.reader)
        .await
        .map_err(|e| db.err(e))?;
        let mut waits: Vec<HumanWait> = waits
            .into_iter()
            .map(|w| HumanWait {
                question_id: w.question_id,
                node_id: w.node_id,
                visit: to_u32(w.visit),
                question: w.question,
                choices: serde_json::from_str(&w.choices).unwrap_or_default(),
                started_at: w.started_at,
                ended_at: w.ended_at,
                duration_ms: w.duration_ms,
                outcome: match w.outcome.as_deref() {
                    Some("answered") => WaitOutcome::Answered,
                    Some("timed_out") => WaitOutcome::TimedOut,
                    _ => WaitOutcome::Waiting,
                },
                answer: w.answer,
            })
            .collect();
        let mut lanes: Vec<String> = Vec::new();
        let stages = stages
            .into_iter()
            .map(|s| {
                if let Some(lane) = &s.branch
                    && !lanes.contains(lane)
                {
                    lanes.push(lane.clone());
                }
                let visit = to_u32(s.visit);
                let mut state = StageState::parse(&s.status);
                if state == StageState::Running && status != RunStatus::Running {
                    state = StageState::Interrupted;
                }
                let (mine, rest): (Vec<HumanWait>, Vec<HumanWait>) = std::mem::take(&mut waits)
                    .into_iter()
                    .partition(|w| w.node_id == s.node_id && w.visit == visit);
                waits = rest;
                TimelineStage {
                    node_id: s.node_id,
                    visit,
                    kind: s.kind,
                    branch: s.branch,
                    status: state,
                    attempts: to_u32(s.attempts),
                    retries: to_u32(s.retries),
                    started_at: s.started_at,
                    ended_at: s.ended_at,
                    duration_ms: s.duration_ms,
                    notes: s.notes.filter(|n| !n.is_empty()),
                    failure_reason: s.failure_reason,
                    failure_class: s.failure_class,
                    last_retry_reason: s.last_retry_reason,
                    stage_dir: s.stage_dir,
                    waits: mine,
                }
            })
            .collect();
        Ok(Timeline {
            run_id: run.id,
            status,
            stages,
            lanes,
        })
    }

    /// The run's git checkpoints across every timeline, timeline by timeline, oldest first
    /// within each (empty without git checkpoints).
    pub async fn checkpoints(&self, id: &str) -> Result<Vec<CheckpointRecord>> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let rows = sqlx::query!(
            r#"SELECT sha, node_id, status, completed, timeline, branches, time, parent,
                      metadata_sha, current
               FROM checkpoints WHERE run_key = ?1 ORDER BY position"#,
            run.key
        )
        .fetch_all(&db.reader)
        .await
        .map_err(|e| db.err(e))?;
        Ok(rows
            .into_iter()
            .map(|c| CheckpointRecord {
                sha: c.sha,
                node_id: c.node_id,
                status: c.status,
                completed: to_u32(c.completed),
                timeline: to_u32(c.timeline),
                branches: serde_json::from_str(&c.branches).unwrap_or_default(),
                time: c.time,
                parent: c.parent,
                metadata_sha: c.metadata_sha,
                current: c.current,
            })
            .collect())
    }

    /// The run's captured artifacts, by stage folder, attempt and path.
    pub async fn artifacts(&self, id: &str) -> Result<Vec<ArtifactRecord>> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let rows = sqlx::query!(
            r#"SELECT path, stage, node_id, retry, source, size, sha256, media_type, kind
               FROM artifacts WHERE run_key = ?1 ORDER BY stage, retry, path"#,
            run.key
        )
        .fetch_all(&db.reader)
        .await
        .map_err(|e| db.err(e))?;
        Ok(rows
            .into_iter()
            .map(|a| ArtifactRecord {
                path: a.path,
                stage: a.stage,
                node_id: a.node_id,
                retry: to_u32(a.retry),
                source: a.source,
                size: a.size,
                sha256: a.sha256,
                media_type: a.media_type,
                kind: a.kind,
            })
            .collect())
    }

    /// The run's events with `seq` above `after_seq`, in order, at most `limit` (clamped to
    /// 1..=10000).
    pub async fn events(&self, id: &str, after_seq: i64, limit: u32) -> Result<Vec<EventRecord>> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let limit = i64::from(limit.clamp(1, MAX_EVENTS));
        let rows = sqlx::query!(
            r#"SELECT seq, id, ts, node_id, event, properties
               FROM events WHERE run_key = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3"#,
            run.key,
            after_seq,
            limit
        )
        .fetch_all(&db.reader)
        .await
        .map_err(|e| db.err(e))?;
        Ok(rows
            .into_iter()
            .map(|e| EventRecord {
                seq: e.seq,
                id: e.id,
                ts: e.ts,
                node_id: e.node_id,
                event: e.event,
                properties: serde_json::from_str(&e.properties)
                    .unwrap_or_else(|_| serde_json::Value::Object(serde_json::Map::new())),
            })
            .collect())
    }
}
