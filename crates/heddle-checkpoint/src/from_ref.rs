//! Resume from git alone: in a clone that has `refs/heddle/{run_id}` and the run branch but
//! no run directory, rebuild the run directory from the metadata history (manifest, graph,
//! checkpoint and its timeline), re-attach a worktree to the run branch, and hand the run to the engine.

use std::path::{Path, PathBuf};

use git2::{BranchType, Oid, Repository};
use heddle_engine::rundir::{atomic_write, write_json};
use heddle_engine::{Manifest, RunDir};

use crate::error::{CheckpointError, Result};
use crate::metadata::{read_checkpoint, read_file};
use crate::reopen::attach_worktree;
use crate::repo::worktree_name;
use crate::state::{DEFAULT_SIZE_CAP, GitState, Mode, metadata_ref, timeline_branch};

/// Rebuilds the run recorded under `reference` (`refs/heddle/{id}`, or just the id) in the
/// repository holding `workspace`, as a run folder under `runs_root`.
pub fn restore_from_ref(workspace: &Path, reference: &str, runs_root: &Path) -> Result<RunDir> {
    let repo = Repository::discover(workspace)
        .map_err(|e| CheckpointError::git(workspace, "find the repository", &e))?;
    let reference = if reference.starts_with("refs/") {
        reference.to_string()
    } else {
        metadata_ref(reference)
    };
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let metadata = repo.refname_to_id(&reference).map_err(|e| {
        git(
            &format!(
                "ref {reference} (fetch it with `git fetch origin '{reference}:{reference}'`)"
            ),
            &e,
        )
    })?;
    let json = |name: &str| -> Result<Vec<u8>> { read_file(&repo, metadata, name) };
    let manifest: Manifest =
        serde_json::from_slice(&json("manifest.json")?).map_err(|e| CheckpointError::Storage {
            path: repo.path().to_path_buf(),
            message: format!("manifest.json in {reference}: {e}"),
        })?;
    let (mut checkpoint, history) = read_checkpoint(&repo, metadata)?;
    let graph = json("graph.dot")?;
    let run_id = manifest.run_id.clone();
    let root = runs_root.join(RunDir::folder_name(&manifest.start_time, &run_id));
    if root.join("manifest.json").exists() {
        return Err(CheckpointError::Refused {
            path: root,
            reason: format!(
                "the run folder already exists; continue it with `heddle resume {run_id}`"
            ),
        });
    }
    let (count, branch) = latest_timeline(&repo, &run_id)?;
    let head: Oid = repo.refname_to_id(&branch).map_err(|e| git(&branch, &e))?;
    let run_dir = RunDir::create(root)?;
    let workdir_root = repo.workdir().map(Path::to_path_buf).unwrap_or_default();
    let mut state = GitState {
        run_id: run_id.clone(),
        mode: Mode::Worktree,
        git_dir: repo.commondir().to_path_buf(),
        work_tree: run_dir.worktree(),
        // Set by attaching the worktree below.
        index: PathBuf::new(),
        worktree_name: Some(worktree_name(&run_id)),
        base_sha: manifest.base_sha.clone().unwrap_or_default(),
        branch: branch.clone(),
        timelines: (1..=count).map(|n| timeline_branch(&run_id, n)).collect(),
        metadata_ref: reference.clone(),
        exclude: Vec::new(),
        size_cap: DEFAULT_SIZE_CAP,
        skip_prefixes: Vec::new(),
    };
    state.index = attach_worktree(&state)?;
    // Stages ran in a sub-folder of the old worktree (`{run_dir}/worktree/{inside}`).
    let inside: PathBuf = match manifest.workspace {
        Some(_) => Path::new(&manifest.work_dir)
            .components()
            .skip_while(|c| c.as_os_str() != "worktree")
            .skip(1)
            .collect(),
        None => PathBuf::new(),
    };
    state.save(&run_dir)?;
    let rebuilt = Manifest {
        work_dir: run_dir
            .worktree()
            .join(inside)
            .to_string_lossy()
            .into_owned(),
        workspace: Some(workdir_root.to_string_lossy().into_owned()),
        run_branch: Some(GitState::short(&branch).to_string()),
        ..manifest
    };
    write_json(&run_dir.manifest(), &rebuilt, true)?;
    atomic_write(&run_dir.graph(), &graph, true)?;
    checkpoint.git_commit_sha = Some(head.to_string());
    match history {
        // The history byte for byte as the metadata tree has it, so later metadata commits
        // find their chunks unchanged.
        Some(text) => {
            atomic_write(&run_dir.timeline(), &text, true)?;
            checkpoint.history_bytes = Some(text.len() as u64);
            checkpoint.save_head(&run_dir.checkpoint(), true)?;
        }
        None => checkpoint.save(&run_dir.checkpoint())?,
    }
    Ok(run_dir)
}

/// The latest timeline of run `run_id` this repository has (`n` and its full branch name),
/// as a local branch or one fetched from a remote (a local branch is made for it).
fn latest_timeline(repo: &Repository, run_id: &str) -> Result<(usize, String)> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let names = |kind: BranchType| -> Result<Vec<(String, git2::Branch<'_>)>> {
        Ok(repo
            .branches(Some(kind))
            .map_err(|e| git("list branches", &e))?
            .filter_map(std::result::Result::ok)
            .filter_map(|(b, _)| Some((b.name().ok()??.to_string(), b)))
            .collect())
    };
    let local = names(BranchType::Local)?;
    let remote = names(BranchType::Remote)?;
    for n in (1..=64).rev() {
        let full = timeline_branch(run_id, n);
        let short = GitState::short(&full).to_string();
        if local.iter().any(|(name, _)| *name == short) {
            return Ok((n, full));
        }
        let suffix = format!("/{short}");
        if let Some((_, fetched)) = remote.iter().find(|(name, _)| name.ends_with(&suffix)) {
            let commit = fetched
                .get()
                .peel_to_commit()
                .map_err(|e| git(&short, &e))?;
            repo.branch(&short, &commit, false)
                .map_err(|e| git(&short, &e))?;
            return Ok((n, full));
        }
    }
    Err(CheckpointError::NotFound {
        what: format!("run branch heddle/run/{run_id} (fetch it too)"),
        repo: repo.path().to_path_buf(),
    })
}
