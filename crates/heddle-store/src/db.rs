//! Opening the database: the file, WAL, foreign keys, migrations, and the two pools (one
//! writer connection, so writes queue instead of failing busy; several readers).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use nix::fcntl::{Flock, FlockArg};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};

use crate::error::{Result, StoreError};

/// How long a connection waits for another process's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Reader connections.
const READERS: u32 = 4;

/// Holds an exclusive lock on `{db}.migrate.lock` (created when missing) until dropped,
/// waiting for another process that holds it.
async fn lock_migrations(db: &Path) -> std::io::Result<Flock<std::fs::File>> {
    let mut name = db.as_os_str().to_owned();
    name.push(".migrate.lock");
    let path = PathBuf::from(name);
    tokio::task::spawn_blocking(move || {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        Flock::lock(file, FlockArg::LockExclusive).map_err(|(_, errno)| errno.into())
    })
    .await
    .map_err(std::io::Error::other)?
}

/// The pools of one database file.
#[derive(Debug, Clone)]
pub(crate) struct Db {
    pub path: PathBuf,
    pub writer: SqlitePool,
    pub reader: SqlitePool,
}

impl Db {
    /// Opens (creating it and its folder when missing) and migrates the database at `path`.
    pub async fn open(path: &Path) -> Result<Db> {
        let open_err = |message: String| StoreError::Open {
            path: path.to_path_buf(),
            message,
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| open_err(heddle_engine::describe_io(&e)))?;
        }
        let options = SqliteConnectOptions::from_str("sqlite:")
            .map_err(|e| open_err(e.to_string()))?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            // Statement journals and sorts stay in memory: an ingest's transaction would
            // otherwise write every statement's undo pages to a temporary file (13 KB a
            // stage of a long run's final ingest, never read back).
            .pragma("temp_store", "memory")
            .busy_timeout(BUSY_TIMEOUT);
        // Processes opening a new index at once (two `heddle run`s, a server and a CLI)
        // would both create its tables: one migrates while the others wait.
        let migrating = lock_migrations(path)
            .await
            .map_err(|e| open_err(format!("cannot lock the index to migrate it: {e}")))?;
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .map_err(|e| open_err(e.to_string()))?;
        sqlx::migrate!("./migrations")
            .run(&writer)
            .await
            .map_err(|e| open_err(format!("migration failed: {e}")))?;
        drop(migrating);
        let reader = SqlitePoolOptions::new()
            .max_connections(READERS)
            .connect_with(options)
            .await
            .map_err(|e| open_err(e.to_string()))?;
        Ok(Db {
            path: path.to_path_buf(),
            writer,
            reader,
        })
    }

    /// Maps a database error to one naming the file.
    pub fn err(&self, error: impl std::fmt::Display) -> StoreError {
        StoreError::Database {
            path: self.path.clone(),
            message: error.to_string(),
        }
    }

    /// A write transaction that holds the database's write lock from its start, so it never
    /// fails half-way because another process wrote in between.
    pub async fn write(&self) -> Result<Transaction<'static, Sqlite>> {
        self.writer
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::Db;

    #[tokio::test]
    async fn every_connection_keeps_its_temporary_data_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("heddle.db")).await.unwrap();
        for pool in [&db.writer, &db.reader] {
            let store: i64 = sqlx::query_scalar("PRAGMA temp_store")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(store, 2, "temp_store: 2 is MEMORY");
        }
    }
}
