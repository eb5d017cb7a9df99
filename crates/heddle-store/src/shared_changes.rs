//! On a PostgreSQL index shared by several machines, the run changes one process makes reach
//! the subscribers of every other process ([`crate::Store::subscribe`]): each change is also
//! sent with `NOTIFY` on the channel `heddle_run_changes` (the change as JSON, with the
//! sending store's token), and each store listens on that channel and announces the changes
//! other stores sent. A notice is sent right after the change commits, so a process killed
//! in between leaves the others without that one notice until the run's next change. On
//! SQLite, other processes' changes reach a process through its watcher of the runs folder.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgListener, PgPool};
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use crate::types::RunChange;

/// The channel the notices travel on.
const CHANNEL: &str = "heddle_run_changes";

/// How long the listener waits before connecting again after losing its connection.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// One change as it travels.
#[derive(Debug, Serialize, Deserialize)]
struct Notice {
    /// The token of the store that made the change.
    origin: String,
    #[serde(flatten)]
    change: RunChange,
}

/// A token telling this store's notices from other stores' (random: it only has to differ
/// between stores, never to be reproduced).
pub(crate) fn origin_token() -> String {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    format!("{:016x}-{}", hasher.finish(), std::process::id())
}

/// Sends `change` to the other stores on the database of `pool`.
pub(crate) async fn notify(pool: &PgPool, origin: &str, change: &RunChange) {
    let notice = Notice {
        origin: origin.to_string(),
        change: change.clone(),
    };
    let Ok(payload) = serde_json::to_string(&notice) else {
        return;
    };
    if let Err(error) = sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(&payload)
        .execute(pool)
        .await
    {
        tracing::warn!(run = %change.run_id, %error, "cannot tell other processes of a run change");
    }
}

/// Listens on the database of `pool` for the changes other stores make and announces them on
/// `changes`, until aborted; a lost connection is made again. Returns once listening, so no
/// change made after the store opened is missed.
pub(crate) async fn listen(
    pool: PgPool,
    origin: String,
    changes: broadcast::Sender<RunChange>,
) -> Result<JoinHandle<()>, sqlx::Error> {
    let mut listener = connect(&pool).await?;
    Ok(tokio::spawn(async move {
        loop {
            if let Err(error) = relay(&mut listener, &origin, &changes).await {
                tracing::warn!(%error, "run changes from other processes: listening again");
            }
            loop {
                tokio::time::sleep(RECONNECT_AFTER).await;
                match connect(&pool).await {
                    Ok(again) => {
                        listener = again;
                        break;
                    }
                    Err(error) => {
                        tracing::warn!(%error, "run changes from other processes: cannot listen");
                    }
                }
            }
        }
    }))
}

async fn connect(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

async fn relay(
    listener: &mut PgListener,
    origin: &str,
    changes: &broadcast::Sender<RunChange>,
) -> Result<(), sqlx::Error> {
    loop {
        let notification = listener.recv().await?;
        let Ok(notice) = serde_json::from_str::<Notice>(notification.payload()) else {
            continue;
        };
        if notice.origin != origin {
            // No subscriber is fine.
            let _ = changes.send(notice.change);
        }
    }
}
