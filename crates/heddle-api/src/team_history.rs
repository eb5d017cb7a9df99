//! The checkpoints of a run a queue worker executed on another machine: the run's folder
//! comes from the shared run files (`HEDDLE_RUN_FILES_URL`), its commits from the team's git
//! remote (`HEDDLE_TEAM_REMOTE`), fetched into `$HEDDLE_HOME/team-remote.git`. The checkpoint
//! views (list, files, a file, the saved state, diffs) then read them as they read a run of
//! this machine. Only reading: a rollback or fork still needs the run's own folder.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use heddle_checkpoint::RunHistory;
use heddle_checkpoint::remote_access::RemoteAccess;
use heddle_checkpoint::team_mirror::{mirror_run, open_mirror};
use heddle_store::RunRecord;
use tokio::sync::Mutex;

use crate::error::{ApiError, ErrorCode};
use crate::run_host::blocking;
use crate::run_library::RunLibrary;

/// How long a run's refs fetched from the remote are read without asking the remote again:
/// a run screen asks for several views at once, and one fetch serves them all.
const FRESH_FOR: Duration = Duration::from_secs(3);

/// When each run's refs were last fetched into the mirror; one fetch at a time.
#[derive(Debug, Clone, Default)]
pub(crate) struct TeamMirror {
    fetched: Arc<Mutex<HashMap<String, Instant>>>,
}

impl RunLibrary {
    /// The checkpoint history of `record`'s run, which executed on another machine.
    pub(crate) async fn history_elsewhere(
        &self,
        record: &RunRecord,
    ) -> Result<RunHistory, ApiError> {
        let Some(remote) = self.home().team_remote().map(str::to_string) else {
            return Err(ApiError::new(
                ErrorCode::NotFound,
                format!(
                    "run {} ran on another machine (in {}); its checkpoints are there and on \
                     the team's git remote. Set HEDDLE_TEAM_REMOTE to that remote (and \
                     HEDDLE_RUN_FILES_URL) to read them here (docs/team.md)",
                    record.id, record.folder
                ),
            ));
        };
        // The caller located the run already: fetch its copy without locating it again.
        let run_dir = self.fetch_shared(record).await?;
        let mirror = self.home().team_mirror();
        let run_id = record.id.clone();
        // Held across the fetch: two views asking at once share one fetch.
        let mut fetched = self.team_mirror().fetched.lock().await;
        let fresh = fetched
            .get(&run_id)
            .is_some_and(|at| at.elapsed() < FRESH_FOR);
        let key = run_id.clone();
        let history = blocking(move || {
            let repo = if fresh {
                open_mirror(&mirror)?
            } else {
                mirror_run(&mirror, &remote, &run_id, &RemoteAccess::unattended())?
            };
            Ok(RunHistory::open_in(&run_dir, repo)?)
        })
        .await?;
        if !fresh {
            fetched.insert(key, Instant::now());
        }
        Ok(history)
    }
}
