//! For tests of Heddle's crates (the `testing` feature): a fresh PostgreSQL database on the
//! test suite's throwaway server (`scripts/postgres-for-tests.sh`), so a test can run against
//! the PostgreSQL index as it runs against an SQLite file. Only tests use it, and a server
//! that cannot be reached fails the test that asked, saying why.
#![allow(clippy::panic)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::process::Command;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

use crate::IndexLocation;

/// The variable that names the test server (`postgres://…/postgres`); when unset, the server
/// is started with `scripts/postgres-for-tests.sh start` (once; later calls find it running).
pub const SERVER_VARIABLE: &str = "HEDDLE_TEST_POSTGRES_URL";

/// The variable that makes tests which can use either index use PostgreSQL
/// (`HEDDLE_TEST_INDEX=postgres`); `scripts/test.sh` runs the store's tests both ways.
pub const INDEX_VARIABLE: &str = "HEDDLE_TEST_INDEX";

/// Whether this test run asks for the PostgreSQL index.
pub fn postgres_asked() -> bool {
    std::env::var(INDEX_VARIABLE).is_ok_and(|v| v == "postgres")
}

/// The URL of the test server: the variable's, else that of the server the script starts.
///
/// # Panics
/// When the server cannot be started (a test failure that says why).
pub fn server_url() -> String {
    if let Ok(url) = std::env::var(SERVER_VARIABLE)
        && !url.is_empty()
    {
        return url;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/postgres-for-tests.sh"
    );
    let output = Command::new(script)
        .arg("start")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    assert!(
        output.status.success(),
        "{script} start failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// A database named after `key` on the test server, created empty the first time it is
/// asked for (the same `key` gives the same database, as the same file path would).
///
/// # Panics
/// When the server cannot be reached.
pub async fn postgres_database(key: &str) -> IndexLocation {
    let server = server_url();
    let mut hasher = DefaultHasher::new();
    key.hash(&mut hasher);
    let name = format!("heddle_test_{:016x}", hasher.finish());
    let mut admin = PgConnection::connect(&server)
        .await
        .unwrap_or_else(|e| panic!("cannot reach the test PostgreSQL at {server}: {e}"));
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&mut admin)
            .await
            .unwrap_or_else(|e| panic!("cannot list the test server's databases: {e}"));
    if !exists {
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap_or_else(|e| panic!("cannot create the test database {name}: {e}"));
    }
    let base = server
        .rsplit_once('/')
        .map_or(server.as_str(), |(base, _)| base);
    IndexLocation::Postgres(format!("{base}/{name}"))
}
