//! What can go wrong with the index, with what a person needs to act on it: the database
//! (file or URL), the run, the file and line of an unreadable event.

use std::path::PathBuf;

/// A store error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The index could not be opened, created or migrated.
    #[error("cannot open the run index {index}: {message}")]
    Open {
        /// The database file, or the PostgreSQL URL without its password.
        index: String,
        /// What the database or the migration said.
        message: String,
    },
    /// A query or write failed.
    #[error("run index {index}: {message}")]
    Database {
        /// The database file, or the PostgreSQL URL without its password.
        index: String,
        /// What the database said.
        message: String,
    },
    /// A file of a run folder could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A line of progress.jsonl is not an event. The events before it are indexed; the line
    /// is skipped and recorded on the run (`ingest_error`).
    #[error("{file}:{line}: not a run event ({message})")]
    CorruptEvent {
        /// The progress.jsonl file.
        file: PathBuf,
        /// The line (from 1).
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// A run's git checkpoints could not be read.
    #[error("checkpoints of run {run_id}: {message}")]
    Checkpoints {
        /// The run's id (a ULID).
        run_id: String,
        /// What git said.
        message: String,
    },
    /// No indexed run has this id or prefix.
    #[error("no run matches `{id}` in the index (try `heddle reindex` if it is on disk)")]
    RunNotFound {
        /// The id or prefix given.
        id: String,
    },
    /// The prefix matches several runs.
    #[error("`{prefix}` matches {count} runs ({}{}); give more characters", .candidates.join(", "), if (.candidates.len() as i64) < *.count { ", ..." } else { "" })]
    AmbiguousRun {
        /// The prefix given.
        prefix: String,
        /// How many runs it matches.
        count: i64,
        /// The first few matching run ids.
        candidates: Vec<String>,
    },
    /// A time given in a request is not RFC 3339.
    #[error("`{value}` is not an RFC 3339 time for {field} (like 2026-11-22T17:40:01Z)")]
    InvalidTime {
        /// The request field that held it, e.g. `since`.
        field: &'static str,
        /// The value given.
        value: String,
    },
    /// A worker no longer holds a queue entry it acted on: its lease ran out and another
    /// worker claimed the entry, or the entry finished. The worker must stop working on it.
    #[error(
        "queue entry {entry} is no longer held by worker {worker} (its lease ran out and \
         another worker took it over, or it finished)"
    )]
    LeaseLost {
        /// The queue entry.
        entry: String,
        /// The worker that acted on it.
        worker: String,
    },
    /// The filesystem watcher could not start.
    #[error("cannot watch {path}: {message}")]
    Watch {
        /// The folder the watcher was asked to watch.
        path: PathBuf,
        /// What the watcher said.
        message: String,
    },
}

impl StoreError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, error: &std::io::Error) -> Self {
        StoreError::Io {
            path: path.into(),
            message: heddle_engine::describe_io(error),
        }
    }
}

/// Results of store operations.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
