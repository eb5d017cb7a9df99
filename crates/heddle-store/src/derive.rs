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

use crate::db::{Db, Tx, on_tx};
use crate::derive_sql::{
    OPEN_WAITS, STAGE_ENDED, STAGE_RETRYING, STAGE_STARTED, WAIT_ENDED, WAIT_STARTED,
};
use crate::error::Result;
use crate::progress::ParsedEvent;
use heddle_engine::Event;

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

/// Milliseconds from `start` to `end` (RFC 3339 times); `None` when either is not one.
fn millis_between(start: &str, end: &str) -> Option<i64> {
    let start = humantime::parse_rfc3339_weak(start).ok()?;
    let end = humantime::parse_rfc3339_weak(end).ok()?;
    let nanos = match end.duration_since(start) {
        Ok(later) => i128::try_from(later.as_nanos()).ok()?,
        Err(earlier) => -i128::try_from(earlier.duration().as_nanos()).ok()?,
    };
    i64::try_from((nanos + nanos.signum() * 500_000) / 1_000_000).ok()
}

/// Applies `event` to the stages and waits of run `run_key`.
pub(crate) async fn apply(
    tx: &mut Tx,
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
            // The row's visit is looked up in the statement (see `derive_sql`).
            on_tx!(tx, |conn| sqlx::query(store.sql(&STAGE_STARTED))
                .bind(run_key)
                .bind(node)
                .bind(visit)
                .bind(event.seq)
                .bind(kind)
                .bind(branch)
                .bind(attempt)
                .bind(ts)
                .bind(dir)
                .bind(named)
                .execute(conn)
                .await
                .map(|_| ()))
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
            on_tx!(tx, |conn| sqlx::query(store.sql(&STAGE_ENDED))
                .bind(run_key)
                .bind(node)
                .bind(visit)
                .bind(event.seq)
                .bind(p.branch)
                .bind(p.status)
                .bind(attempts)
                .bind(ts)
                .bind(duration_ms)
                .bind(p.notes)
                .bind(p.reason)
                .bind(p.failure_class)
                .bind(dir)
                .bind(input_tokens)
                .bind(output_tokens)
                .bind(p.cost_usd)
                .bind(p.stage_dir)
                .execute(conn)
                .await
                .map(|_| ()))
            .map_err(db)?;
        }
        Event::StageRetrying { reason, .. } => {
            on_tx!(tx, |conn| sqlx::query(STAGE_RETRYING)
                .bind(run_key)
                .bind(node)
                .bind(reason)
                .execute(conn)
                .await
                .map(|_| ()))
            .map_err(db)?;
        }
        Event::InterviewStarted {
            question,
            choices,
            question_id,
        } => {
            let choices = serde_json::to_string(choices).unwrap_or_else(|_| "[]".into());
            on_tx!(tx, |conn| sqlx::query(WAIT_STARTED)
                .bind(run_key)
                .bind(question_id)
                .bind(node)
                .bind(event.seq)
                .bind(question)
                .bind(choices)
                .bind(ts)
                .execute(conn)
                .await
                .map(|_| ()))
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
            let open: Vec<(String, String)> = on_tx!(tx, |conn| sqlx::query_as(OPEN_WAITS)
                .bind(run_key)
                .bind(node)
                .fetch_all(conn)
                .await)
            .map_err(db)?;
            for (question_id, started_at) in open {
                on_tx!(tx, |conn| sqlx::query(WAIT_ENDED)
                    .bind(run_key)
                    .bind(&question_id)
                    .bind(outcome)
                    .bind(answer)
                    .bind(ts)
                    .bind(millis_between(&started_at, ts))
                    .execute(conn)
                    .await
                    .map(|_| ()))
                .map_err(db)?;
            }
        }
        _ => {}
    }
    Ok(())
}
