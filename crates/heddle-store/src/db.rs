//! Opening the index and writing to it, on either database: an SQLite file (WAL, foreign
//! keys, one writer connection so writes queue instead of failing busy, several readers) or
//! a PostgreSQL database (one pool). Each is migrated from its own folder under
//! `migrations/`. Queries are written once (`$1` parameters, which both read) and run on
//! whichever the index is through [`on_tx!`], [`on_reader!`] and [`on_writer!`]; the few
//! statements whose text differs are [`Sql`] pairs.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use nix::fcntl::{Flock, FlockArg};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Postgres, Sqlite, SqlitePool, Transaction};

use crate::error::{Result, StoreError};
use crate::location::IndexLocation;

/// How long a connection waits for another process's write lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Reader connections of an SQLite index.
const READERS: u32 = 4;

/// Connections to a PostgreSQL index.
const POSTGRES_CONNECTIONS: u32 = 8;

/// How long opening a PostgreSQL index waits for its server.
const POSTGRES_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The connections of one index.
#[derive(Debug, Clone)]
pub(crate) enum Pools {
    Sqlite {
        writer: SqlitePool,
        reader: SqlitePool,
    },
    Postgres(PgPool),
}

/// One statement whose text differs between the databases.
pub(crate) struct Sql {
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

/// An ingest's write transaction.
pub(crate) enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

/// Runs `$body` with `$conn` bound to the transaction's connection, whichever the database.
macro_rules! on_tx {
    ($tx:expr, |$conn:ident| $body:expr) => {
        match &mut *$tx {
            $crate::db::Tx::Sqlite(tx) => {
                let $conn = &mut **tx;
                $body
            }
            $crate::db::Tx::Postgres(tx) => {
                let $conn = &mut **tx;
                $body
            }
        }
    };
}

/// Runs `$body` with `$pool` bound to the index's reading pool.
macro_rules! on_reader {
    ($db:expr, |$pool:ident| $body:expr) => {
        match &$db.pools {
            $crate::db::Pools::Sqlite { reader: $pool, .. } => $body,
            $crate::db::Pools::Postgres($pool) => $body,
        }
    };
}

/// Runs `$body` with `$pool` bound to the index's writing pool.
macro_rules! on_writer {
    ($db:expr, |$pool:ident| $body:expr) => {
        match &$db.pools {
            $crate::db::Pools::Sqlite { writer: $pool, .. } => $body,
            $crate::db::Pools::Postgres($pool) => $body,
        }
    };
}

pub(crate) use {on_reader, on_tx, on_writer};

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

/// The pools of one index.
#[derive(Debug, Clone)]
pub(crate) struct Db {
    pub location: IndexLocation,
    /// The index as messages name it (no password).
    pub name: String,
    pub pools: Pools,
}

impl Db {
    /// Opens and migrates the index at `location` (an SQLite file and its folder are created
    /// when missing).
    pub async fn open(location: &IndexLocation) -> Result<Db> {
        let name = location.describe();
        let open_err = |message: String| StoreError::Open {
            index: name.clone(),
            message,
        };
        let pools = match location {
            IndexLocation::File(path) => open_sqlite(path).await.map_err(open_err)?,
            IndexLocation::Postgres(url) => open_postgres(url).await.map_err(open_err)?,
        };
        Ok(Db {
            location: location.clone(),
            name,
            pools,
        })
    }

    /// Maps a database error to one naming the index.
    pub fn err(&self, error: impl std::fmt::Display) -> StoreError {
        StoreError::Database {
            index: self.name.clone(),
            message: error.to_string(),
        }
    }

    /// The text of `sql` for this index's database.
    pub fn sql(&self, sql: &Sql) -> &'static str {
        match self.pools {
            Pools::Sqlite { .. } => sql.sqlite,
            Pools::Postgres(_) => sql.postgres,
        }
    }

    /// A write transaction that never fails half-way because another process wrote the same
    /// run in between: on SQLite it holds the database's write lock from its start; on
    /// PostgreSQL it holds a lock on `run_folder` until it ends.
    pub async fn write(&self, run_folder: &str) -> Result<Tx> {
        match &self.pools {
            Pools::Sqlite { writer, .. } => Ok(Tx::Sqlite(
                writer
                    .begin_with("BEGIN IMMEDIATE")
                    .await
                    .map_err(|e| self.err(e))?,
            )),
            Pools::Postgres(pool) => {
                let mut tx = pool.begin().await.map_err(|e| self.err(e))?;
                sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
                    .bind(run_folder)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| self.err(e))?;
                Ok(Tx::Postgres(tx))
            }
        }
    }
}

impl Tx {
    pub async fn commit(self, db: &Db) -> Result<()> {
        match self {
            Tx::Sqlite(tx) => tx.commit().await,
            Tx::Postgres(tx) => tx.commit().await,
        }
        .map_err(|e| db.err(e))
    }

    pub async fn rollback(self, db: &Db) -> Result<()> {
        match self {
            Tx::Sqlite(tx) => tx.rollback().await,
            Tx::Postgres(tx) => tx.rollback().await,
        }
        .map_err(|e| db.err(e))
    }
}

async fn open_sqlite(path: &Path) -> Result<Pools, String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| heddle_engine::describe_io(&e))?;
    }
    let options = SqliteConnectOptions::from_str("sqlite:")
        .map_err(|e| e.to_string())?
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
        .map_err(|e| format!("cannot lock the index to migrate it: {e}"))?;
    let writer = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options.clone())
        .await
        .map_err(|e| e.to_string())?;
    sqlx::migrate!("./migrations/sqlite")
        .run(&writer)
        .await
        .map_err(|e| format!("migration failed: {e}"))?;
    drop(migrating);
    let reader = SqlitePoolOptions::new()
        .max_connections(READERS)
        .connect_with(options)
        .await
        .map_err(|e| e.to_string())?;
    Ok(Pools::Sqlite { writer, reader })
}

async fn open_postgres(url: &str) -> Result<Pools, String> {
    let pool = PgPoolOptions::new()
        .max_connections(POSTGRES_CONNECTIONS)
        .acquire_timeout(POSTGRES_CONNECT_TIMEOUT)
        .connect(url)
        .await
        .map_err(|e| e.to_string())?;
    // The migrator holds PostgreSQL's advisory lock while it runs: servers and workers
    // opening a new index at once migrate it once.
    sqlx::migrate!("./migrations/postgres")
        .run(&pool)
        .await
        .map_err(|e| format!("migration failed: {e}"))?;
    Ok(Pools::Postgres(pool))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]

    use super::{Db, Pools};
    use crate::location::IndexLocation;

    #[tokio::test]
    async fn every_sqlite_connection_keeps_its_temporary_data_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&IndexLocation::File(dir.path().join("heddle.db")))
            .await
            .unwrap();
        let Pools::Sqlite { writer, reader } = &db.pools else {
            panic!("a file index is SQLite");
        };
        for pool in [writer, reader] {
            let store: i64 = sqlx::query_scalar("PRAGMA temp_store")
                .fetch_one(pool)
                .await
                .unwrap();
            assert_eq!(store, 2, "temp_store: 2 is MEMORY");
        }
    }
}
