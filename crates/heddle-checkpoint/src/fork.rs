//! Forking: a new run that starts from any checkpoint of another, with that checkpoint's
//! files and context. In worktree mode the fork gets its own branch at the checkpoint and
//! its own worktree; in shadow mode the workspace is shared, so its current state is saved
//! as a recovery snapshot before the checkpoint's files are put back.

use std::collections::BTreeMap;
use std::path::Path;

use git2::Repository;
use heddle_engine::RunDir;
use heddle_engine::rundir::{atomic_write, write_json};

use crate::error::{CheckpointError, Result};
use crate::history::{checkpoint_at, resolve};
use crate::integrity::open_run;
use crate::metadata::commit_metadata;
use crate::recovery::RecoverySnapshot;
use crate::repo::{add_worktree, commit, compare_and_swap, signature, tip, worktree_name};
use crate::state::{GitState, Mode, metadata_ref, timeline_branch};

/// Creates run `new_id` in `new_dir` (which must not exist) from checkpoint `target` of the
/// run in `source`; ready for the engine to resume. `now` is the fork's start time.
pub fn fork(
    source: &RunDir,
    target: &str,
    new_id: &str,
    new_dir: &Path,
    now: &str,
) -> Result<RunDir> {
    let (state, repo) = open_run(source)?;
    let manifest = source.read_manifest()?;
    let target_oid = resolve(&repo, &state, target)?;
    if new_dir.exists() {
        return Err(CheckpointError::Refused {
            path: new_dir.to_path_buf(),
            reason: "already exists; choose another run folder".into(),
        });
    }
    let run_dir = RunDir::create(new_dir)?;
    let branch = timeline_branch(new_id, 1);
    let inside = Path::new(&manifest.work_dir)
        .strip_prefix(&state.work_tree)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut new_state = GitState {
        run_id: new_id.to_string(),
        branch: branch.clone(),
        timelines: vec![branch.clone()],
        metadata_ref: metadata_ref(new_id),
        ..state.clone()
    };
    match state.mode {
        Mode::Worktree => {
            let common = Repository::open(&state.git_dir)
                .map_err(|e| crate::repo::damaged(&state.git_dir, &e))?;
            compare_and_swap(&common, &branch, None, target_oid, "heddle: fork")?;
            let name = worktree_name(new_id);
            new_state.index = add_worktree(&common, &name, &run_dir.worktree(), &branch)?;
            new_state.work_tree = run_dir.worktree();
            new_state.worktree_name = Some(name);
        }
        Mode::Shadow => {
            new_state.index = run_dir.root().join("git-index");
            new_state.worktree_name = None;
            let parent = tip(&repo, &state.branch)?.unwrap_or(target_oid);
            let mut recovery = RecoverySnapshot::take(
                &repo,
                &new_state,
                &run_dir,
                parent,
                &format!("fork from {target}"),
                now,
            )?;
            compare_and_swap(&repo, &branch, None, target_oid, "heddle: fork")?;
            let target_tree = commit(&repo, target_oid)?.tree_id();
            recovery.restore(&repo, &new_state, target_tree)?;
        }
    }
    new_state.save(&run_dir)?;
    let mut labels: BTreeMap<String, String> = manifest.labels.clone();
    labels.insert(
        "forked_from".into(),
        format!("{}@{}", manifest.run_id, &target_oid.to_string()[..12]),
    );
    let manifest_id = manifest.run_id.clone();
    let new_manifest = heddle_engine::Manifest {
        run_id: new_id.to_string(),
        start_time: now.to_string(),
        run_branch: Some(GitState::short(&branch).to_string()),
        work_dir: new_state
            .work_tree
            .join(&inside)
            .to_string_lossy()
            .into_owned(),
        labels,
        ..manifest
    };
    write_json(&run_dir.manifest(), &new_manifest, true)?;
    let graph =
        std::fs::read(source.graph()).map_err(|e| CheckpointError::io(source.graph(), &e))?;
    atomic_write(&run_dir.graph(), &graph, true)?;
    if let Some(mut checkpoint) = checkpoint_at(&repo, target_oid)? {
        checkpoint.run_id = new_id.to_string();
        checkpoint.git_commit_sha = Some(target_oid.to_string());
        checkpoint.save(&run_dir.checkpoint())?;
    }
    // The fork's metadata history starts now, so it can be resumed from git alone and
    // verified before its first checkpoint.
    commit_metadata(
        &repo,
        &run_dir,
        &new_state.metadata_ref,
        &[],
        &format!("heddle({new_id}) fork of {} at {target_oid}\n", manifest_id),
        &signature(now)?,
    )?;
    Ok(run_dir)
}
