//! [`RunLibrary`]: the runs Heddle keeps, read and rewound without executing anything. It
//! holds Heddle's data folder and the run index (`$HEDDLE_HOME/heddle.db`), and answers the
//! cheap operations every door shares: finding and listing runs, their timelines,
//! checkpoints, diffs, files and artifacts, rollback, and requests to the process that
//! executes a run (gate answers, cancel). Opening one starts no watcher and no executor, so
//! a one-shot CLI command opens it as cheaply as a long-lived server does; [`crate::RunHost`]
//! adds execution on top.

use heddle_engine::RunDir;
use heddle_engine::runs::find_run;
use std::sync::Arc;

use heddle_store::{RunReaders, Store};

use crate::error::ApiError;
use crate::event_feed::EventFeed;
use crate::index_feed::IndexFeed;
use crate::progress_feed::ProgressFeed;
use crate::run_elsewhere::Located;
use crate::run_graph_cache::RunGraphCache;
use crate::runs::HeddleHome;
use crate::shared_runs::SharedRuns;
use crate::team_history::TeamMirror;

/// The readers the index uses for run folders: git checkpoint histories and artifact
/// manifests.
pub fn run_readers() -> RunReaders {
    RunReaders {
        checkpoints: Arc::new(heddle_checkpoint::GitHistory),
        artifacts: Arc::new(heddle_artifacts::ArtifactManifests),
    }
}

/// The runs in one Heddle data folder and their index.
#[derive(Debug, Clone)]
pub struct RunLibrary {
    home: HeddleHome,
    index: Store,
    /// The store run files are shared in (`HEDDLE_RUN_FILES_URL`), and what was fetched
    /// from it so far.
    shared: Option<SharedRuns>,
    /// What was fetched from the team's remote so far, for runs executed elsewhere.
    team_mirror: TeamMirror,
    /// The run graphs parsed lately.
    graphs: RunGraphCache,
}

impl RunLibrary {
    /// The runs of `home`, with its index opened (created when missing).
    pub async fn open(home: HeddleHome) -> Result<Self, ApiError> {
        let index = Store::open(home.index()?, run_readers()).await?;
        let shared = home.shared_files()?.map(SharedRuns::new);
        Ok(RunLibrary {
            home,
            index,
            shared,
            team_mirror: TeamMirror::default(),
            graphs: RunGraphCache::default(),
        })
    }

    /// The run index.
    pub fn index(&self) -> &Store {
        &self.index
    }

    /// Heddle's data folder.
    pub fn home(&self) -> &HeddleHome {
        &self.home
    }

    /// What was fetched from the team's remote so far.
    pub(crate) fn team_mirror(&self) -> &TeamMirror {
        &self.team_mirror
    }

    /// The run graphs parsed lately.
    pub(crate) fn graphs(&self) -> &RunGraphCache {
        &self.graphs
    }

    /// The store run files are shared in, when one is configured.
    pub(crate) fn shared(&self) -> Option<&SharedRuns> {
        self.shared.as_ref()
    }

    /// The folder of run `run`: an id, a unique prefix of one, a folder name, or a path to a
    /// run folder. A run kept outside the runs folder is found through its link there.
    pub fn find(&self, run: &str) -> Result<RunDir, ApiError> {
        Ok(find_run(&self.home.runs(), run)?)
    }

    /// Brings the index up to date with every run folder, for a process that has no watcher
    /// running (a CLI command): folders that changed are read again, runs whose process died
    /// are marked interrupted, and runs whose folder is gone leave the index.
    pub async fn catch_up(&self) -> Result<(), ApiError> {
        self.index.rescan(&self.home.runs()).await?;
        Ok(())
    }

    /// Rebuilds the index from every run folder, as if it had never been built (the folders
    /// are the source of truth). Folders that cannot be read are listed in the report.
    pub async fn reindex(&self) -> Result<heddle_store::ReindexReport, ApiError> {
        Ok(self.index.reindex(&self.home.runs()).await?)
    }

    /// Brings the index of run `run` (id, prefix or folder) up to date from its folder, for
    /// a process without a watcher; its id.
    pub async fn refresh(&self, run: &str) -> Result<String, ApiError> {
        let run_dir = self.find(run)?;
        let run_id = run_dir.read_manifest()?.run_id;
        self.index.ingest_run(run_dir.root()).await?;
        Ok(run_id)
    }

    /// The events of a run after `after_seq`, then new ones as its process writes them,
    /// until it ends: from its folder, or from the index when a worker executes it on
    /// another machine.
    pub async fn events(&self, run: &str, after_seq: u64) -> Result<EventFeed, ApiError> {
        Ok(match self.locate(run).await? {
            Located::Here(run_dir) => {
                EventFeed::from_progress(ProgressFeed::new(run_dir, after_seq, None))
            }
            Located::Elsewhere(record) => {
                EventFeed::from_index(IndexFeed::new(self.index.clone(), record.id, after_seq))
            }
        })
    }
}
