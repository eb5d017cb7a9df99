//! What one run holds: its timeline (stage visits with their human waits, lanes), its
//! checkpoints, its artifacts and its events from a sequence number.

use std::collections::{HashMap, HashSet};

use crate::Store;
use crate::db::on_reader;
use crate::detail_rows::{ArtifactRow, CheckpointRow, EventRow, WaitRow, to_u32};
use crate::error::Result;
use crate::stage_rows::stage_rows;
use crate::types::{
    ArtifactRecord, CheckpointRecord, EventRecord, HumanWait, RunStatus, StageState, Timeline,
    TimelineStage,
};

/// Most events one call returns.
const MAX_EVENTS: u32 = 10_000;

/// The human waits of each stage visit keyed `(node, visit)` in `stages`, in stage order:
/// every wait asked at that node and visit, in the order asked, goes to the first stage with
/// that key (a later one gets none); a wait no stage has is left out. One pass over each
/// list, however many stages and waits.
fn waits_by_stage(stages: &[(&str, u32)], waits: Vec<HumanWait>) -> Vec<Vec<HumanWait>> {
    let mut by_key: HashMap<(String, u32), Vec<HumanWait>> = HashMap::new();
    for wait in waits {
        by_key
            .entry((wait.node_id.clone(), wait.visit))
            .or_default()
            .push(wait);
    }
    stages
        .iter()
        .map(|(node, visit)| {
            by_key
                .remove(&((*node).to_string(), *visit))
                .unwrap_or_default()
        })
        .collect()
}

impl Store {
    /// The run's stage visits in the order they started, with attempts, retries, status,
    /// lane and human waits.
    pub async fn timeline(&self, id: &str) -> Result<Timeline> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let status = RunStatus::parse(&run.status);
        let stages = stage_rows(db, run.key).await?;
        let waits = on_reader!(db, |pool| sqlx::query_as::<_, WaitRow>(
            r#"SELECT question_id, node_id, visit, question, choices, started_at, ended_at,
                      duration_ms, outcome, answer
               FROM human_waits WHERE run_key = $1 ORDER BY start_seq"#
        )
        .bind(run.key)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        let waits: Vec<HumanWait> = waits.into_iter().map(WaitRow::into_wait).collect();
        let keys: Vec<(&str, u32)> = stages
            .iter()
            .map(|s| (s.node_id.as_str(), to_u32(s.visit)))
            .collect();
        let waits_of_stages = waits_by_stage(&keys, waits);
        let mut lanes: Vec<String> = Vec::new();
        let mut seen_lanes: HashSet<String> = HashSet::new();
        let stages = stages
            .into_iter()
            .zip(waits_of_stages)
            .map(|(s, mine)| {
                if let Some(lane) = &s.branch
                    && seen_lanes.insert(lane.clone())
                {
                    lanes.push(lane.clone());
                }
                let visit = to_u32(s.visit);
                let mut state = StageState::parse(&s.status);
                if state == StageState::Running && status != RunStatus::Running {
                    state = StageState::Interrupted;
                }
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
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, CheckpointRow>(
            r#"SELECT sha, node_id, status, completed, timeline, branches, time, parent,
                      metadata_sha, current
               FROM checkpoints WHERE run_key = $1 ORDER BY position"#
        )
        .bind(run.key)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows.into_iter().map(CheckpointRow::into_record).collect())
    }

    /// The run's captured artifacts, by stage folder, attempt and path.
    pub async fn artifacts(&self, id: &str) -> Result<Vec<ArtifactRecord>> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, ArtifactRow>(
            r#"SELECT path, stage, node_id, retry, source, size, sha256, media_type, kind
               FROM artifacts WHERE run_key = $1 ORDER BY stage, retry, path"#
        )
        .bind(run.key)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows.into_iter().map(ArtifactRow::into_record).collect())
    }

    /// The run's events with `seq` above `after_seq`, in order, at most `limit` (clamped to
    /// 1..=10000).
    pub async fn events(&self, id: &str, after_seq: i64, limit: u32) -> Result<Vec<EventRecord>> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let limit = i64::from(limit.clamp(1, MAX_EVENTS));
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, EventRow>(
            r#"SELECT seq, id, ts, node_id, event, properties
               FROM events WHERE run_key = $1 AND seq > $2 ORDER BY seq LIMIT $3"#
        )
        .bind(run.key)
        .bind(after_seq)
        .bind(limit)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows.into_iter().map(EventRow::into_record).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{HumanWait, waits_by_stage};
    use crate::types::WaitOutcome;

    fn wait(id: &str, node: &str, visit: u32) -> HumanWait {
        HumanWait {
            question_id: id.into(),
            node_id: node.into(),
            visit,
            question: format!("{node}?"),
            choices: vec!["Yes".into()],
            started_at: String::new(),
            ended_at: None,
            duration_ms: None,
            outcome: WaitOutcome::Waiting,
            answer: None,
        }
    }

    /// The matching as the timeline did it before: each stage takes, from the waits no
    /// earlier stage took, those of its node and visit.
    fn by_scanning(stages: &[(&str, u32)], mut waits: Vec<HumanWait>) -> Vec<Vec<HumanWait>> {
        stages
            .iter()
            .map(|(node, visit)| {
                let (mine, rest) = std::mem::take(&mut waits)
                    .into_iter()
                    .partition(|w| w.node_id == *node && w.visit == *visit);
                waits = rest;
                mine
            })
            .collect()
    }

    #[test]
    fn each_stage_gets_the_waits_of_its_node_and_visit_in_order() {
        // Two gates visited in a loop, a gate asked twice in one visit (a timed-out
        // question asked again), a stage key seen twice, and a wait no stage has.
        let stages = [
            ("work", 1),
            ("review", 1),
            ("ship", 1),
            ("work", 2),
            ("review", 2),
            ("review", 2),
            ("ship", 2),
            ("review", 3),
        ];
        let waits = vec![
            wait("q1", "review", 1),
            wait("q2", "ship", 1),
            wait("q3", "review", 2),
            wait("q4", "review", 2),
            wait("q5", "ship", 2),
            wait("q6", "review", 3),
            wait("q7", "gone", 1),
        ];
        let matched = waits_by_stage(&stages, waits.clone());
        assert_eq!(matched, by_scanning(&stages, waits));
        let ids: Vec<Vec<&str>> = matched
            .iter()
            .map(|w| w.iter().map(|w| w.question_id.as_str()).collect())
            .collect();
        assert_eq!(
            ids,
            [
                vec![],
                vec!["q1"],
                vec!["q2"],
                vec![],
                vec!["q3", "q4"],
                vec![],
                vec!["q5"],
                vec!["q6"],
            ]
        );
    }
}
