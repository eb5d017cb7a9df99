//! Setting a new run up: a branch and a worktree in a clean repository, or a branch in the
//! workspace's shadow repository (a dirty repository, or no repository).

use std::path::{Path, PathBuf};

use git2::{Repository, StatusOptions};
use heddle_engine::RunDir;

use crate::error::{CheckpointError, Result};
use crate::message::{CheckpointType, CommitFacts, MessageParts};
use crate::repo::{add_worktree, compare_and_swap, signature, worktree_name};
use crate::shadow::{open_or_create, refuse_unsafe_workspace};
use crate::snapshot::scan_work_tree;
use crate::state::{GitState, Mode, metadata_ref, timeline_branch};

/// Which mode a run may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModeChoice {
    /// Worktree in a clean repository, shadow otherwise.
    #[default]
    Auto,
    /// A git worktree of the workspace's repository; setup fails when that is not possible.
    Worktree,
    /// Always a shadow repository.
    Shadow,
    /// No git checkpoints; the run works in the workspace itself.
    None,
}

/// Everything setup needs besides the run.
#[derive(Debug, Clone)]
pub struct SetupContext<'a> {
    /// `$HEDDLE_HOME` (shadow repositories live under it).
    pub heddle_home: &'a Path,
    /// The user's home folder (refused as a workspace).
    pub user_home: Option<&'a Path>,
    /// The mode the run request asked for (`checkpoints`); `Auto` by default.
    pub choice: ModeChoice,
    /// The size cap for stored files.
    pub size_cap: u64,
    /// Now (RFC 3339), for the setup commit.
    pub now: &'a str,
}

/// What setup decided.
#[derive(Debug)]
pub struct Setup {
    /// The state as saved in the run folder's `git.json`.
    pub state: GitState,
    /// Where stages run: the workspace (shadow), or the same folder inside the run's worktree.
    pub work_dir: PathBuf,
    /// Why the mode was chosen, what was skipped.
    pub warnings: Vec<String>,
}

/// Sets up checkpoints for run `run_id` working in `workspace`.
pub fn set_up(
    context: &SetupContext<'_>,
    run_id: &str,
    run_dir: &RunDir,
    workspace: &Path,
    workflow_name: &str,
    exclude: Vec<String>,
) -> Result<Setup> {
    let workspace = workspace
        .canonicalize()
        .map_err(|e| CheckpointError::io(workspace, &e))?;
    let mut warnings = Vec::new();
    if context.choice != ModeChoice::Shadow {
        match clean_repository(&workspace) {
            Ok(repo) => {
                return worktree(
                    context, repo, run_id, run_dir, &workspace, exclude, warnings,
                );
            }
            Err(reason) if context.choice == ModeChoice::Worktree => {
                return Err(CheckpointError::Refused {
                    path: workspace,
                    reason: format!("worktree checkpoints need a clean git repository: {reason}"),
                });
            }
            // No repository at all: shadow mode is simply how such folders are kept.
            Err(reason) if reason == NOT_A_REPOSITORY => {}
            Err(reason) => warnings.push(format!(
                "checkpoints go to a shadow repository (your git history is not touched): {reason}"
            )),
        }
    }
    shadow(
        context,
        run_id,
        run_dir,
        &workspace,
        workflow_name,
        exclude,
        warnings,
    )
}

const NOT_A_REPOSITORY: &str = "the folder is not in a git repository";

/// The repository holding `workspace`, if it is clean (no changed or untracked files) and
/// has a commit; otherwise why not.
fn clean_repository(workspace: &Path) -> std::result::Result<Repository, String> {
    let repo = Repository::discover(workspace).map_err(|_| NOT_A_REPOSITORY.to_string())?;
    if repo.is_bare() || repo.workdir().is_none() {
        return Err("the repository has no work tree".into());
    }
    if repo.head().and_then(|h| h.peel_to_commit()).is_err() {
        return Err("the repository has no commits yet".into());
    }
    let statuses = repo
        .statuses(Some(
            StatusOptions::new()
                .include_untracked(true)
                .recurse_untracked_dirs(false)
                .exclude_submodules(true),
        ))
        .map_err(|e| format!("its status cannot be read: {}", e.message()))?;
    let dirty = !statuses.is_empty();
    if dirty {
        let first: Vec<String> = statuses
            .iter()
            .take(3)
            .filter_map(|s| s.path().ok().map(str::to_string))
            .collect();
        return Err(format!(
            "it has uncommitted changes ({} path(s), e.g. {})",
            statuses.len(),
            first.join(", ")
        ));
    }
    drop(statuses);
    Ok(repo)
}

fn worktree(
    context: &SetupContext<'_>,
    repo: Repository,
    run_id: &str,
    run_dir: &RunDir,
    workspace: &Path,
    exclude: Vec<String>,
    warnings: Vec<String>,
) -> Result<Setup> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let head = repo
        .head()
        .and_then(|h| h.peel_to_commit())
        .map_err(|e| git("HEAD", &e))?;
    let branch = timeline_branch(run_id, 1);
    compare_and_swap(&repo, &branch, None, head.id(), "heddle: run branch")?;
    let name = worktree_name(run_id);
    let path = run_dir.worktree();
    let index = add_worktree(&repo, &name, &path, &branch)?;
    let root = repo
        .workdir()
        .and_then(|w| w.canonicalize().ok())
        .unwrap_or_default();
    let inside = workspace.strip_prefix(&root).unwrap_or(Path::new(""));
    let state = GitState {
        run_id: run_id.to_string(),
        mode: Mode::Worktree,
        git_dir: repo.commondir().to_path_buf(),
        work_tree: path.clone(),
        index,
        worktree_name: Some(name),
        base_sha: head.id().to_string(),
        branch: branch.clone(),
        timelines: vec![branch],
        metadata_ref: metadata_ref(run_id),
        exclude,
        size_cap: context.size_cap,
        skip_prefixes: Vec::new(),
    };
    state.save(run_dir)?;
    Ok(Setup {
        state,
        work_dir: path.join(inside),
        warnings,
    })
}

fn shadow(
    context: &SetupContext<'_>,
    run_id: &str,
    run_dir: &RunDir,
    workspace: &Path,
    workflow_name: &str,
    exclude: Vec<String>,
    mut warnings: Vec<String>,
) -> Result<Setup> {
    refuse_unsafe_workspace(workspace, context.user_home)?;
    let home = context
        .heddle_home
        .canonicalize()
        .unwrap_or_else(|_| context.heddle_home.to_path_buf());
    let (dir, repo) = open_or_create(context.heddle_home, workspace)?;
    // Heddle's own data inside the workspace is never part of a checkpoint.
    let skip_prefixes: Vec<PathBuf> = home
        .strip_prefix(workspace)
        .ok()
        .map(Path::to_path_buf)
        .into_iter()
        .collect();
    let branch = timeline_branch(run_id, 1);
    let mut state = GitState {
        run_id: run_id.to_string(),
        mode: Mode::Shadow,
        git_dir: dir,
        work_tree: workspace.to_path_buf(),
        index: run_dir.root().join("git-index"),
        worktree_name: None,
        base_sha: String::new(),
        branch: branch.clone(),
        timelines: vec![branch.clone()],
        metadata_ref: metadata_ref(run_id),
        exclude,
        size_cap: context.size_cap,
        skip_prefixes,
    };
    let (_, tree_id, skipped) = scan_work_tree(&repo, &state)?;
    warnings.extend(skipped);
    let tree = repo
        .find_tree(tree_id)
        .map_err(|e| CheckpointError::git(repo.path(), "setup tree", &e))?;
    let now = context.now;
    let facts = CommitFacts {
        run_id: run_id.to_string(),
        node_id: "start".into(),
        status: "setup".into(),
        completed: 0,
        metadata_sha: String::new(),
    };
    let message = crate::message::shadow_message(&MessageParts {
        facts: &facts,
        kind: CheckpointType::Setup,
        label: workflow_name,
        timestamp: now,
        duration_ms: 0,
    });
    let sig = signature(now)?;
    let commit = repo
        .commit(None, &sig, &sig, &message, &tree, &[])
        .map_err(|e| CheckpointError::git(repo.path(), "setup commit", &e))?;
    compare_and_swap(&repo, &branch, None, commit, "heddle: run branch")?;
    state.base_sha = commit.to_string();
    state.save(run_dir)?;
    Ok(Setup {
        state,
        work_dir: workspace.to_path_buf(),
        warnings,
    })
}
