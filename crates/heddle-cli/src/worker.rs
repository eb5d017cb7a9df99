//! `heddle worker`: claims queued runs from the run index's queue and executes each in a
//! fresh clone of the team's git remote (heddle-api's `RunLibrary::work_one`), one at a time,
//! until stopped; with `--once`, until the queue is empty.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use heddle_api::RunLibrary;
use heddle_api::run_queue::{WorkDone, Worked, Worker};
use heddle_engine::{Clock, SystemClock};

use crate::run::Environment;

/// How long an idle worker waits before looking at the queue again.
const IDLE: Duration = Duration::from_secs(1);
/// How long a worker that could not reach the remote first waits before claiming again;
/// each failure in a row doubles it, up to [`UNREACHABLE_MAX`].
const UNREACHABLE_FIRST: Duration = Duration::from_secs(2);
const UNREACHABLE_MAX: Duration = Duration::from_secs(60);

/// Options of `heddle worker`.
pub struct WorkerOptions {
    /// `--remote`; `None` takes the home's team remote (`HEDDLE_TEAM_REMOTE`).
    pub remote: Option<String>,
    pub name: Option<String>,
    pub clones: Option<PathBuf>,
    pub lease: Duration,
    pub once: bool,
}

/// `heddle worker`.
pub async fn work(
    options: WorkerOptions,
    env: Environment,
    out: &mut dyn Write,
) -> Result<(), String> {
    let remote = options
        .remote
        .or_else(|| env.home.team_remote().map(str::to_string))
        .ok_or(
            "no team remote: give --remote (a path or an ssh://, user@host:path or https:// \
             URL) or set HEDDLE_TEAM_REMOTE",
        )?;
    let library = RunLibrary::open(env.home.clone())
        .await
        .map_err(|e| e.message)?;
    let host = env
        .vars
        .iter()
        .find(|(k, _)| k == "HOSTNAME")
        .map_or("worker", |(_, v)| v.as_str());
    let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
    let worker = Worker {
        name: options
            .name
            .unwrap_or_else(|| format!("{host}-{}", std::process::id())),
        remote,
        clones: options
            .clones
            .unwrap_or_else(|| env.home.root().join("worker")),
        lease: options.lease,
        env: env.vars.clone(),
        clock: clock.clone(),
        started: clock.now(),
    };
    worker.reach_remote().await.map_err(|e| e.message)?;
    let _ = writeln!(
        out,
        "worker {} takes runs for {}",
        worker.name,
        worker.shown_remote()
    );
    let mut unreachable_wait = UNREACHABLE_FIRST;
    loop {
        let worked = library.work_one(&worker).await.map_err(|e| e.message)?;
        if !matches!(
            worked,
            Some(Worked {
                done: WorkDone::Released { .. },
                ..
            })
        ) {
            unreachable_wait = UNREACHABLE_FIRST;
        }
        match worked {
            Some(Worked {
                entry,
                done:
                    WorkDone::Ran {
                        run_id,
                        conclusion,
                        lease_lost,
                    },
            }) => {
                let _ = writeln!(
                    out,
                    "entry {}: run {run_id} {}{}",
                    entry.id,
                    conclusion.status.as_str(),
                    if lease_lost {
                        " (lost its lease; another worker took it over)"
                    } else {
                        ""
                    }
                );
            }
            Some(Worked {
                entry,
                done: WorkDone::NotStarted { reason },
            }) => {
                let _ = writeln!(out, "entry {}: not started: {reason}", entry.id);
            }
            Some(Worked {
                entry,
                done: WorkDone::Released { reason },
            }) => {
                let _ = writeln!(out, "entry {}: back in the queue: {reason}", entry.id);
                if options.once {
                    library
                        .worker_stopped(&worker)
                        .await
                        .map_err(|e| e.message)?;
                    return Err(format!("cannot reach the team's remote: {reason}"));
                }
                tokio::time::sleep(unreachable_wait).await;
                unreachable_wait = (unreachable_wait * 2).min(UNREACHABLE_MAX);
            }
            None if options.once => {
                return library.worker_stopped(&worker).await.map_err(|e| e.message);
            }
            None => tokio::time::sleep(IDLE).await,
        }
    }
}
