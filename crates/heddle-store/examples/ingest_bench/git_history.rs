//! Git checkpoints for the benchmark's synthetic runs: a shadow repository per run with one
//! checkpoint commit per stage on the run branch, in the engine's message format, and
//! git.json pointing at it, so the index reads them with the real [`GitHistory`]; and a
//! reader that always lists the whole history, as the index did before it appended a live
//! run's new checkpoints (`--git full`).

use git2::{Oid, Repository, Signature, Time};
use heddle_checkpoint::GitHistory;
use heddle_checkpoint::message::{CommitFacts, worktree_message};
use heddle_checkpoint::state::{GitState, Mode, metadata_ref, timeline_branch};
use heddle_engine::RunDir;
use heddle_engine::run_records::{CheckpointHistory, HistoryReadError, ListedHistory};

use crate::Res;

/// [`GitHistory`] without `list_after`: every ingest lists the whole history.
#[derive(Debug, Default)]
pub struct FullListing;

impl CheckpointHistory for FullListing {
    fn list(&self, run: &RunDir) -> Result<ListedHistory, HistoryReadError> {
        GitHistory.list(run)
    }
}

/// A run's shadow repository, committed to stage by stage.
pub struct GitRun {
    repo: Repository,
    run_id: String,
    branch: String,
    tip: Oid,
    tree: Oid,
    completed: usize,
}

impl GitRun {
    /// Creates the repository under the run folder, its base commit and git.json.
    pub fn create(run: &RunDir, run_id: &str) -> Res<GitRun> {
        let git_dir = run.root().join("shadow.git");
        let work_tree = run.root().join("work");
        std::fs::create_dir_all(&work_tree)?;
        let repo = Repository::init_bare(&git_dir)?;
        let tree = repo.treebuilder(None)?.write()?;
        let sig = signature(0)?;
        let branch = timeline_branch(run_id, 1);
        let base = {
            let empty = repo.find_tree(tree)?;
            repo.commit(Some(&branch), &sig, &sig, "base\n", &empty, &[])?
        };
        GitState {
            run_id: run_id.into(),
            mode: Mode::Shadow,
            git_dir,
            work_tree,
            index: run.root().join("git-index"),
            worktree_name: None,
            base_sha: base.to_string(),
            branch: branch.clone(),
            timelines: vec![branch.clone()],
            metadata_ref: metadata_ref(run_id),
            exclude: Vec::new(),
            size_cap: heddle_checkpoint::state::DEFAULT_SIZE_CAP,
            skip_prefixes: Vec::new(),
        }
        .save(run)?;
        Ok(GitRun {
            repo,
            run_id: run_id.into(),
            branch,
            tip: base,
            tree,
            completed: 0,
        })
    }

    /// Commits the checkpoint after `node`'s stage ended with `status`; its sha.
    pub fn checkpoint(&mut self, node: &str, status: &str) -> Res<String> {
        self.completed += 1;
        let facts = CommitFacts {
            run_id: self.run_id.clone(),
            node_id: node.into(),
            status: status.into(),
            completed: self.completed,
            // The metadata commit is not read by the index; any sha does.
            metadata_sha: self.tip.to_string(),
        };
        let sig = signature(i64::try_from(self.completed)?)?;
        let tree = self.repo.find_tree(self.tree)?;
        let parent = self.repo.find_commit(self.tip)?;
        self.tip = self.repo.commit(
            Some(&self.branch),
            &sig,
            &sig,
            &worktree_message(&facts),
            &tree,
            &[&parent],
        )?;
        Ok(self.tip.to_string())
    }
}

fn signature(seconds: i64) -> Res<Signature<'static>> {
    Ok(Signature::new(
        "bench",
        "bench@localhost",
        &Time::new(1_790_000_000 + seconds, 0),
    )?)
}
