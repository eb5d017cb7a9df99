//! The runs a garbage collection must keep: every entry of the runs folder (a run folder,
//! or the link to one kept elsewhere), with the ids it goes by, the repository its
//! `git.json` names, and whether a process is running it now (its run lock is held).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use heddle_engine::RunDir;
use heddle_engine::runlock::RunLock;

use crate::error::{CheckpointError, Result};
use crate::state::GitState;

/// One entry of the runs folder.
#[derive(Debug, Clone)]
pub struct KnownRun {
    /// The run's id as its manifest (or, unreadable, its folder name) gives it.
    pub id: String,
    /// The run folder (the link's target for a run kept elsewhere).
    pub folder: PathBuf,
    /// The repository (git dir) its checkpoints go to, canonical; `None` without git.json.
    pub git_dir: Option<PathBuf>,
    /// Its private index in a shadow repository (objects it lists are kept).
    pub shadow_index: Option<PathBuf>,
    /// It runs without git checkpoints (manifest mode `none`).
    pub no_git: bool,
    /// A process executes it now.
    pub live: bool,
    /// That process's id, when run.pid is readable.
    pub pid: Option<i32>,
}

/// A run being executed, as a refusal names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRun {
    /// Its id.
    pub id: String,
    /// The process executing it (0 when run.pid is unreadable).
    pub pid: i32,
}

/// Every run of one runs folder.
#[derive(Debug, Clone, Default)]
pub struct RunFolders {
    runs: Vec<KnownRun>,
    /// Every id any entry goes by, upper-cased (run ids are ULIDs; lookups ignore case).
    ids: BTreeSet<String>,
}

impl RunFolders {
    /// Reads `runs_root`; `None` when there is no runs folder (no run was ever made here,
    /// or `$HEDDLE_HOME` is wrong: the caller decides which).
    pub fn scan(runs_root: &Path) -> Result<Option<RunFolders>> {
        let entries = match std::fs::read_dir(runs_root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CheckpointError::io(runs_root, &e)),
        };
        let mut folders = RunFolders::default();
        for entry in entries {
            let entry = entry.map_err(|e| CheckpointError::io(runs_root, &e))?;
            folders.add(&entry.path(), &entry.file_name().to_string_lossy());
        }
        folders.runs.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(Some(folders))
    }

    fn add(&mut self, path: &Path, name: &str) {
        // The folder name (`YYYYMMDD-{id}`) and its id part always count, even for a link
        // whose target is gone (an unmounted disk is not a deleted run).
        let name_id = name.split_once('-').map_or(name, |(_, id)| id);
        self.ids.insert(name.to_ascii_uppercase());
        self.ids.insert(name_id.to_ascii_uppercase());
        let folder = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if !folder.is_dir() {
            return;
        }
        let run_dir = RunDir::at(&folder);
        let manifest = run_dir.read_manifest().ok();
        let no_git = manifest
            .as_ref()
            .is_some_and(|m| m.checkpoint_mode == heddle_engine::hooks::NO_GIT_CHECKPOINTS);
        let manifest_id = manifest.map(|m| m.run_id);
        let state = GitState::load(&run_dir).ok().flatten();
        for id in manifest_id.iter().chain(state.as_ref().map(|s| &s.run_id)) {
            self.ids.insert(id.to_ascii_uppercase());
        }
        let live = RunLock::is_held(&run_dir);
        let git_dir = state.as_ref().map(|s| canonical(&s.git_dir));
        let shadow_index = state
            .as_ref()
            .filter(|s| s.mode == crate::state::Mode::Shadow)
            .map(|s| s.index.clone());
        self.runs.push(KnownRun {
            id: manifest_id.unwrap_or_else(|| name_id.to_string()),
            pid: live.then(|| run_dir.read_pid()).flatten(),
            folder,
            git_dir,
            shadow_index,
            no_git,
            live,
        });
    }

    /// Whether a run folder exists for run id `id`.
    pub fn has(&self, id: &str) -> bool {
        self.ids.contains(&id.to_ascii_uppercase())
    }

    /// Every run.
    pub fn runs(&self) -> &[KnownRun] {
        &self.runs
    }

    /// The runs being executed now.
    pub fn live(&self) -> Vec<LiveRun> {
        self.runs
            .iter()
            .filter(|r| r.live)
            .map(|r| LiveRun {
                id: r.id.clone(),
                pid: r.pid.unwrap_or(0),
            })
            .collect()
    }

    /// The runs being executed now whose checkpoints go to `git_dir`, or whose repository
    /// is not known yet (a run setting up may be about to write to any repository).
    pub fn live_in(&self, git_dir: &Path) -> Vec<LiveRun> {
        let git_dir = canonical(git_dir);
        self.runs
            .iter()
            .filter(|r| r.live && !r.no_git)
            .filter(|r| r.git_dir.as_ref().is_none_or(|d| *d == git_dir))
            .map(|r| LiveRun {
                id: r.id.clone(),
                pid: r.pid.unwrap_or(0),
            })
            .collect()
    }

    /// The private indexes of the runs keeping checkpoints in shadow repository `git_dir`.
    pub fn shadow_indexes(&self, git_dir: &Path) -> Vec<PathBuf> {
        let git_dir = canonical(git_dir);
        self.runs
            .iter()
            .filter(|r| r.git_dir.as_deref() == Some(git_dir.as_path()))
            .filter_map(|r| r.shadow_index.clone())
            .collect()
    }

    /// The repositories the runs' git.json files name (canonical, each once).
    pub fn repositories(&self) -> BTreeSet<PathBuf> {
        self.runs.iter().filter_map(|r| r.git_dir.clone()).collect()
    }
}

/// `path` canonical when it exists, as given otherwise.
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}
