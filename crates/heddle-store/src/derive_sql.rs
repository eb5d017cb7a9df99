//! The statements [`crate::derive`] runs for each stage and interview event, written once
//! for both databases. The stage upserts differ in one place: SQLite is told which index
//! finds a stage folder's row (`INDEXED BY`), PostgreSQL's planner is left to choose.

use crate::db::Sql;

/// The visit a stage event's row takes, looked up in the statement (see [`crate::derive`]'s
/// doc): the row of the folder named (`$folder`); else `$3` unless another folder holds it,
/// then the node's highest plus one; `$3` when no folder is named (`$named` is NULL). The
/// folder's index is named on SQLite: walking the node's visits newest first (the primary
/// key's order) would read all of a loop's visits for a new folder.
macro_rules! visit_of_folder {
    ($indexed:literal, $named:literal, $folder:literal) => {
        concat!(
            "CASE WHEN ",
            $named,
            " IS NULL THEN $3 ELSE COALESCE(
                 (SELECT visit FROM stages ",
            $indexed,
            "
                  WHERE run_key = $1 AND node_id = $2 AND stage_dir = ",
            $folder,
            "
                  ORDER BY visit DESC LIMIT 1),
                 CASE WHEN EXISTS (SELECT 1 FROM stages
                                   WHERE run_key = $1 AND node_id = $2 AND visit = $3)
                      THEN COALESCE((SELECT MAX(visit) FROM stages
                                     WHERE run_key = $1 AND node_id = $2), $3) + 1
                      ELSE $3 END) END"
        )
    };
}

/// `stage.started`: `$1` run, `$2` node, `$3` visit, `$4` seq, `$5` kind, `$6` branch,
/// `$7` attempt, `$8` time, `$9` folder, `$10` the folder as the event named it. Another
/// attempt of an open visit adds to it; a visit that had ended starts over.
macro_rules! stage_started_sql {
    ($indexed:literal) => {
        concat!(
            "INSERT INTO stages (run_key, node_id, visit, start_seq, kind, branch, status,
                                 attempts, retries, started_at, stage_dir)
             VALUES ($1, $2, ",
            visit_of_folder!($indexed, "$10", "$9"),
            ", $4, $5, $6, 'running', $7, 0, $8, $9)
             ON CONFLICT (run_key, node_id, visit) DO UPDATE SET
                 status = 'running',
                 kind = excluded.kind,
                 branch = COALESCE(excluded.branch, stages.branch),
                 start_seq = CASE WHEN stages.ended_at IS NULL THEN stages.start_seq
                                  ELSE excluded.start_seq END,
                 started_at = CASE WHEN stages.ended_at IS NULL THEN stages.started_at
                                   ELSE excluded.started_at END,
                 attempts = CASE WHEN stages.ended_at IS NULL
                                      AND stages.attempts > excluded.attempts
                                 THEN stages.attempts ELSE excluded.attempts END,
                 retries = CASE WHEN stages.ended_at IS NULL THEN stages.retries ELSE 0 END,
                 ended_at = NULL, duration_ms = NULL, notes = NULL,
                 failure_reason = NULL, failure_class = NULL"
        )
    };
}

/// `stage.completed` / `stage.failed`: `$1` run, `$2` node, `$3` visit, `$4` seq, `$5`
/// branch, `$6` status, `$7` attempts, `$8` time, `$9` duration, `$10` notes, `$11`
/// reason, `$12` failure class, `$13` folder, `$14`/`$15` tokens in/out, `$16` cost, `$17`
/// the folder as the event named it.
macro_rules! stage_ended_sql {
    ($indexed:literal) => {
        concat!(
            "INSERT INTO stages (run_key, node_id, visit, start_seq, kind, branch, status,
                                 attempts, retries, started_at, ended_at, duration_ms,
                                 notes, failure_reason, failure_class, stage_dir,
                                 input_tokens, output_tokens, cost_usd)
             VALUES ($1, $2, ",
            visit_of_folder!($indexed, "$17", "$13"),
            ", $4, '', $5, $6, $7, 0, $8, $8, $9, $10, $11, $12, $13, $14, $15, $16)
             ON CONFLICT (run_key, node_id, visit) DO UPDATE SET
                 status = excluded.status,
                 attempts = CASE WHEN stages.attempts > excluded.attempts
                                 THEN stages.attempts ELSE excluded.attempts END,
                 branch = COALESCE(stages.branch, excluded.branch),
                 ended_at = excluded.ended_at,
                 duration_ms = excluded.duration_ms,
                 notes = excluded.notes,
                 failure_reason = excluded.failure_reason,
                 failure_class = excluded.failure_class,
                 input_tokens = excluded.input_tokens,
                 output_tokens = excluded.output_tokens,
                 cost_usd = excluded.cost_usd"
        )
    };
}

pub(crate) const STAGE_STARTED: Sql = Sql {
    sqlite: stage_started_sql!("INDEXED BY stages_by_folder"),
    postgres: stage_started_sql!(""),
};

pub(crate) const STAGE_ENDED: Sql = Sql {
    sqlite: stage_ended_sql!("INDEXED BY stages_by_folder"),
    postgres: stage_ended_sql!(""),
};

/// `stage.retrying`: `$1` run, `$2` node, `$3` reason; counted on the node's latest visit.
pub(crate) const STAGE_RETRYING: &str =
    "UPDATE stages SET retries = retries + 1, last_retry_reason = $3
     WHERE run_key = $1 AND node_id = $2
       AND visit = (SELECT visit FROM stages WHERE run_key = $1 AND node_id = $2
                    ORDER BY start_seq DESC LIMIT 1)";

/// `interview.started`: `$1` run, `$2` question, `$3` node, `$4` seq, `$5` text, `$6`
/// choices (JSON), `$7` time; on the node's latest started visit.
pub(crate) const WAIT_STARTED: &str =
    "INSERT INTO human_waits (run_key, question_id, node_id, visit, start_seq, question,
                              choices, started_at)
     VALUES ($1, $2, $3,
             COALESCE((SELECT visit FROM stages WHERE run_key = $1 AND node_id = $3
                       ORDER BY start_seq DESC LIMIT 1), 1),
             $4, $5, $6, $7)
     ON CONFLICT (run_key, question_id) DO UPDATE SET
         question = excluded.question, choices = excluded.choices";

/// The node's open waits (`$1` run, `$2` node): question id and start time.
pub(crate) const OPEN_WAITS: &str = "SELECT question_id, started_at FROM human_waits
     WHERE run_key = $1 AND node_id = $2 AND outcome IS NULL";

/// A wait's end: `$1` run, `$2` question, `$3` outcome, `$4` answer, `$5` time, `$6`
/// milliseconds waited.
pub(crate) const WAIT_ENDED: &str = "UPDATE human_waits SET
         outcome = $3, answer = $4, ended_at = $5, duration_ms = $6
     WHERE run_key = $1 AND question_id = $2";
