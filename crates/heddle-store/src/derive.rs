//! Deriving stages and human waits from events, incrementally: each new event updates the
//! rows it concerns, so ingesting a file in pieces gives what ingesting it whole gives.
//!
//! - `stage.started` opens the visit `(node, visit)`: another attempt of an open visit adds
//!   to it; a visit that had ended and starts again (resumed after a cancel) starts over;
//! - `stage.completed` / `stage.failed` close it with status, duration, attempts, notes;
//! - `stage.retrying` counts a retry on the node's latest started visit;
//! - `interview.started` opens a human wait on the node's latest started visit, and
//!   `interview.answered` / `interview.timed_out` close the node's open wait.
//!
//! A stage event that names its folder (`stage_dir`) belongs to the row of that folder. A
//! visit run again in a new folder (after a rollback, the engine never reuses a finished
//! stage's folder) gets its own row: when `(node, visit)` is taken by another folder, the
//! row's visit is the node's highest plus one, so the abandoned timeline's stage stays in
//! the index beside the new one. Events without `stage_dir` (older logs) use the folder
//! their visit implies.
//!
//! Events are the engine's own [`Event`] type; the ones not listed above derive nothing.

use heddle_engine::Event;
use sqlx::SqliteConnection;

use crate::db::Db;
use crate::error::Result;
use crate::progress::ParsedEvent;

/// A stage visit's end, from `stage.completed` or `stage.failed`.
struct StageEnd<'a> {
    status: &'static str,
    duration_ms: u64,
    visit: u32,
    attempts: u32,
    notes: Option<&'a str>,
    reason: Option<&'a str>,
    failure_class: Option<&'static str>,
    branch: Option<&'a str>,
    stage_dir: Option<&'a str>,
    usage: Option<heddle_engine::Usage>,
    cost_usd: Option<f64>,
}

impl<'a> StageEnd<'a> {
    fn of(event: &'a Event) -> Option<Self> {
        match event {
            Event::StageCompleted {
                status,
                duration_ms,
                visit,
                attempts,
                notes,
                branch,
                stage_dir,
                usage,
                cost_usd,
            } => Some(StageEnd {
                status: status.as_str(),
                duration_ms: *duration_ms,
                visit: *visit,
                attempts: *attempts,
                notes: Some(notes.as_str()).filter(|n| !n.is_empty()),
                reason: None,
                failure_class: None,
                branch: branch.as_deref(),
                stage_dir: stage_dir.as_deref(),
                usage: *usage,
                cost_usd: *cost_usd,
            }),
            Event::StageFailed {
                reason,
                failure_class,
                duration_ms,
                visit,
                attempts,
                branch,
                stage_dir,
                usage,
                cost_usd,
            } => Some(StageEnd {
                status: "fail",
                duration_ms: *duration_ms,
                visit: *visit,
                attempts: *attempts,
                notes: None,
                reason: Some(reason.as_str()),
                failure_class: failure_class.map(|c| c.as_str()),
                branch: branch.as_deref(),
                stage_dir: stage_dir.as_deref(),
                usage: *usage,
                cost_usd: *cost_usd,
            }),
            _ => None,
        }
    }
}

/// The folder of a stage visit, relative to the run folder, when the event does not say.
fn stage_dir(node: &str, visit: i64) -> String {
    heddle_engine::RunDir::stage_dir_name(node, u32::try_from(visit).unwrap_or(1))
}

/// Applies `event` to the stages and waits of run `run_key`.
pub(crate) async fn apply(
    conn: &mut SqliteConnection,
    store: &Db,
    run_key: i64,
    event: &ParsedEvent,
) -> Result<()> {
    let Some(node) = event.envelope.node_id.as_deref() else {
        return Ok(());
    };
    let db = |e: sqlx::Error| {
        store.err(format!(
            "deriving from event {} ({}, progress.jsonl line {}): {e}",
            event.seq,
            event.name(),
            event.line
        ))
    };
    let ts = event.envelope.ts.as_str();
    match &event.envelope.event {
        Event::StageStarted {
            kind,
            visit,
            attempt,
            branch,
            stage_dir: named,
        } => {
            let visit = i64::from(*visit);
            let dir = named.clone().unwrap_or_else(|| stage_dir(node, visit));
            let attempt = i64::from(*attempt);
            // The row's visit, looked up in the statement (see the module doc): the row of
            // the folder named; else `?3` unless another folder holds it, then the node's
            // highest plus one; `?3` when no folder is named. The same as for stage ends.
            // The folder's index is named: walking the node's visits newest first (the
            // primary key's order) would read all of a loop's visits for a new folder.
            sqlx::query!(
                "INSERT INTO stages (run_key, node_id, visit, start_seq, kind, branch, status,
                                     attempts, retries, started_at, stage_dir)
                 VALUES (?1, ?2,
                         CASE WHEN ?10 IS NULL THEN ?3 ELSE COALESCE(
                             (SELECT visit FROM stages INDEXED BY stages_by_folder
                              WHERE run_key = ?1 AND node_id = ?2 AND stage_dir = ?9
                              ORDER BY visit DESC LIMIT 1),
                             CASE WHEN EXISTS (SELECT 1 FROM stages
                                               WHERE run_key = ?1 AND node_id = ?2
                                                 AND visit = ?3)
                                  THEN COALESCE((SELECT MAX(visit) FROM stages
                                                 WHERE run_key = ?1 AND node_id = ?2), ?3) + 1
                                  ELSE ?3 END) END,
                         ?4, ?5, ?6, 'running', ?7, 0, ?8, ?9)
                 ON CONFLICT (run_key, node_id, visit) DO UPDATE SET
                     status = 'running',
                     kind = excluded.kind,
                     branch = COALESCE(excluded.branch, stages.branch),
                     start_seq = CASE WHEN stages.ended_at IS NULL THEN stages.start_seq
                                      ELSE excluded.start_seq END,
                     started_at = CASE WHEN stages.ended_at IS NULL THEN stages.started_at
                                       ELSE excluded.started_at END,
                     attempts = CASE WHEN stages.ended_at IS NULL
                                     THEN MAX(stages.attempts, excluded.attempts)
                                     ELSE excluded.attempts END,
                     retries = CASE WHEN stages.ended_at IS NULL THEN stages.retries ELSE 0 END,
                     ended_at = NULL, duration_ms = NULL, notes = NULL,
                     failure_reason = NULL, failure_class = NULL",
                run_key,
                node,
                visit,
                event.seq,
                kind,
                branch,
                attempt,
                ts,
                dir,
                named,
            )
            .execute(&mut *conn)
            .await
            .map_err(db)?;
        }
        ended @ (Event::StageCompleted { .. } | Event::StageFailed { .. }) => {
            let Some(p) = StageEnd::of(ended) else {
                return Ok(());
            };
            let visit = i64::from(p.visit);
            let dir = p
                .stage_dir
                .map_or_else(|| stage_dir(node, visit), str::to_owned);
            let attempts = i64::from(p.attempts);
            let duration_ms = i64::try_from(p.duration_ms).unwrap_or(i64::MAX);
            let tokens = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
            let input_tokens = p.usage.map(|u| tokens(u.input_tokens));
            let output_tokens = p.usage.map(|u| tokens(u.output_tokens));
            sqlx::query!(
                "INSERT INTO stages (run_key, node_id, visit, start_seq, kind, branch, status,
                                     attempts, retries, started_at, ended_at, duration_ms,
                                     notes, failure_reason, failure_class, stage_dir,
                                     input_tokens, output_tokens, cost_usd)
                 VALUES (?1, ?2,
                         CASE WHEN ?17 IS NULL THEN ?3 ELSE COALESCE(
                             (SELECT visit FROM stages INDEXED BY stages_by_folder
                              WHERE run_key = ?1 AND node_id = ?2 AND stage_dir = ?13
                              ORDER BY visit DESC LIMIT 1),
                             CASE WHEN EXISTS (SELECT 1 FROM stages
                                               WHERE run_key = ?1 AND node_id = ?2
                                                 AND visit = ?3)
                                  THEN COALESCE((SELECT MAX(visit) FROM stages
                                                 WHERE run_key = ?1 AND node_id = ?2), ?3) + 1
                                  ELSE ?3 END) END,
                         ?4, '', ?5, ?6, ?7, 0, ?8, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                 ON CONFLICT (run_key, node_id, visit) DO UPDATE SET
                     status = excluded.status,
                     attempts = MAX(stages.attempts, excluded.attempts),
                     branch = COALESCE(stages.branch, excluded.branch),
                     ended_at = excluded.ended_at,
                     duration_ms = excluded.duration_ms,
                     notes = excluded.notes,
                     failure_reason = excluded.failure_reason,
                     failure_class = excluded.failure_class,
                     input_tokens = excluded.input_tokens,
                     output_tokens = excluded.output_tokens,
                     cost_usd = excluded.cost_usd",
                run_key,
                node,
                visit,
                event.seq,
                p.branch,
                p.status,
                attempts,
                ts,
                duration_ms,
                p.notes,
                p.reason,
                p.failure_class,
                dir,
                input_tokens,
                output_tokens,
                p.cost_usd,
                p.stage_dir,
            )
            .execute(&mut *conn)
            .await
            .map_err(db)?;
        }
        Event::StageRetrying { reason, .. } => {
            sqlx::query!(
                "UPDATE stages SET retries = retries + 1, last_retry_reason = ?3
                 WHERE run_key = ?1 AND node_id = ?2
                   AND visit = (SELECT visit FROM stages WHERE run_key = ?1 AND node_id = ?2
                                ORDER BY start_seq DESC LIMIT 1)",
                run_key,
                node,
                reason,
            )
            .execute(&mut *conn)
            .await
            .map_err(db)?;
        }
        Event::InterviewStarted {
            question,
            choices,
            question_id,
        } => {
            let choices = serde_json::to_string(choices).unwrap_or_else(|_| "[]".into());
            sqlx::query!(
                "INSERT INTO human_waits (run_key, question_id, node_id, visit, start_seq,
                                          question, choices, started_at)
                 VALUES (?1, ?2, ?3,
                         COALESCE((SELECT visit FROM stages
                                   WHERE run_key = ?1 AND node_id = ?3
                                   ORDER BY start_seq DESC LIMIT 1), 1),
                         ?4, ?5, ?6, ?7)
                 ON CONFLICT (run_key, question_id) DO UPDATE SET
                     question = excluded.question, choices = excluded.choices",
                run_key,
                question_id,
                node,
                event.seq,
                question,
                choices,
                ts,
            )
            .execute(&mut *conn)
            .await
            .map_err(db)?;
        }
        ended @ (Event::InterviewAnswered { .. } | Event::InterviewTimedOut { .. }) => {
            let (outcome, answer) = match ended {
                Event::InterviewAnswered {
                    selected,
                    label,
                    text,
                } => {
                    let answer = text
                        .as_deref()
                        .filter(|t| !t.is_empty())
                        .or(label.as_deref())
                        .or(Some(selected.as_str()));
                    ("answered", answer)
                }
                Event::InterviewTimedOut { default_choice } => {
                    ("timed_out", default_choice.as_deref())
                }
                _ => return Ok(()),
            };
            sqlx::query!(
                "UPDATE human_waits SET
                     outcome = ?3, answer = ?4, ended_at = ?5,
                     duration_ms = CAST(ROUND((unixepoch(?5, 'subsec')
                                               - unixepoch(started_at, 'subsec')) * 1000)
                                        AS INTEGER)
                 WHERE run_key = ?1 AND node_id = ?2 AND outcome IS NULL",
                run_key,
                node,
                outcome,
                answer,
                ts,
            )
            .execute(&mut *conn)
            .await
            .map_err(db)?;
        }
        _ => {}
    }
    Ok(())
}
