//! Shadow repositories: `$HEDDLE_HOME/shadow/{hash of the workspace path}/`, a git
//! directory outside the workspace whose work tree is the workspace. Created atomically
//! (built in a temporary folder, then renamed), with a local config that pins the
//! identity and turns off signing, hooks and reflogs. Nothing reads a shadow branch's
//! reflog (every checkpoint is on its branch, and a rollback keeps the abandoned timeline
//! on a branch of its own), and writing it cost each checkpoint a file append, a read of
//! the identity from three config files, and about 150 bytes of repository a stage.

use std::path::{Path, PathBuf};

use git2::{Repository, RepositoryInitOptions};
use sha2::{Digest, Sha256};

use crate::error::{CheckpointError, Result};
use crate::repo::{IDENTITY_EMAIL, IDENTITY_NAME, damaged};

/// The file in a shadow repository that names its workspace.
const WORKSPACE_FILE: &str = "heddle-workspace";

/// The folder all shadow repositories live in.
pub fn shadow_root(heddle_home: &Path) -> PathBuf {
    heddle_home.join("shadow")
}

/// Where the shadow repository of `workspace` lives.
pub fn shadow_dir(heddle_home: &Path, workspace: &Path) -> PathBuf {
    let digest = Sha256::digest(workspace.as_os_str().as_encoded_bytes());
    shadow_root(heddle_home).join(hex::encode(&digest[..8]))
}

/// The workspace shadow repository `dir` belongs to; `None` when `dir` is not one.
pub fn workspace_of(dir: &Path) -> Option<String> {
    let recorded = std::fs::read_to_string(dir.join(WORKSPACE_FILE)).ok()?;
    Some(recorded.trim_end_matches('\n').to_string())
}

/// Opens the shadow repository at `dir` as a health check (it is not kept open).
pub fn check_opens(dir: &Path) -> Result<()> {
    Repository::open_bare(dir)
        .map(|_| ())
        .map_err(|e| CheckpointError::git(dir, "open the shadow repository", &e))
}

/// Refuses folders no run should snapshot whole: `/` and the user's home folder.
pub fn refuse_unsafe_workspace(workspace: &Path, user_home: Option<&Path>) -> Result<()> {
    let home = user_home.and_then(|h| h.canonicalize().ok());
    if workspace.parent().is_none() || home.as_deref() == Some(workspace) {
        return Err(CheckpointError::Refused {
            path: workspace.to_path_buf(),
            reason: "Heddle does not checkpoint your whole home folder or `/`; run in a project \
                     folder (--work-dir DIR), or pass --checkpoints none"
                .into(),
        });
    }
    Ok(())
}

/// Opens the shadow repository of `workspace` (canonical), creating it if needed.
pub fn open_or_create(heddle_home: &Path, workspace: &Path) -> Result<(PathBuf, Repository)> {
    let dir = shadow_dir(heddle_home, workspace);
    if !dir.exists() {
        create(&dir, workspace)?;
    }
    let repo = Repository::open_bare(&dir).map_err(|e| damaged(&dir, &e))?;
    let recorded = std::fs::read_to_string(dir.join(WORKSPACE_FILE)).unwrap_or_default();
    if recorded.trim_end_matches('\n') != workspace.to_string_lossy() {
        return Err(CheckpointError::Storage {
            path: dir,
            message: format!(
                "this shadow repository belongs to `{}`, not `{}`; move it aside",
                recorded.trim(),
                workspace.display()
            ),
        });
    }
    repo.set_workdir(workspace, false)
        .map_err(|e| damaged(&dir, &e))?;
    stop_reflogs(&dir, &repo)?;
    Ok((dir, repo))
}

/// The config key that turns reflogs on or off.
const LOG_REF_UPDATES: &str = "core.logAllRefUpdates";

/// Turns reflogs off in a shadow repository created before they were (once: the key is
/// read first, in the repository's own config, so a user's global setting neither stands
/// in for it nor changes it later). Reflogs already written stay, and stop growing.
fn stop_reflogs(dir: &Path, repo: &Repository) -> Result<()> {
    let git =
        |e: git2::Error| CheckpointError::git(dir, "turn the shadow repository's reflogs off", &e);
    let mut config = repo
        .config()
        .and_then(|c| c.open_level(git2::ConfigLevel::Local))
        .map_err(git)?;
    if matches!(config.get_bool(LOG_REF_UPDATES), Ok(false)) {
        return Ok(());
    }
    match config.set_bool(LOG_REF_UPDATES, false) {
        // Another run is writing the config (the same key, as it opens the repository).
        Err(e) if e.code() == git2::ErrorCode::Locked => Ok(()),
        result => result.map_err(git),
    }
}

fn create(dir: &Path, workspace: &Path) -> Result<()> {
    let parent = dir.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent, &e))?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = parent.join(format!(".tmp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    let git = |e: git2::Error| CheckpointError::git(&temp, "create the shadow repository", &e);
    let repo = Repository::init_opts(
        &temp,
        RepositoryInitOptions::new()
            .bare(true)
            .initial_head("heddle"),
    )
    .map_err(git)?;
    let mut config = repo.config().map_err(git)?;
    for (key, value) in [
        ("user.name", IDENTITY_NAME),
        ("user.email", IDENTITY_EMAIL),
        ("core.worktree", &workspace.to_string_lossy()),
        ("core.hooksPath", "/dev/null"),
        ("core.autocrlf", "false"),
        ("core.fsmonitor", "false"),
        ("gc.auto", "0"),
    ] {
        config.set_str(key, value).map_err(git)?;
    }
    for (key, value) in [
        ("core.bare", false),
        ("core.symlinks", true),
        ("commit.gpgsign", false),
        ("tag.gpgsign", false),
        (LOG_REF_UPDATES, false),
    ] {
        config.set_bool(key, value).map_err(git)?;
    }
    let marker = temp.join(WORKSPACE_FILE);
    std::fs::write(&marker, format!("{}\n", workspace.to_string_lossy()))
        .map_err(|e| CheckpointError::io(&marker, &e))?;
    match std::fs::rename(&temp, dir) {
        Ok(()) => Ok(()),
        // Another run created it first: use theirs.
        Err(_) if dir.exists() => {
            let _ = std::fs::remove_dir_all(&temp);
            Ok(())
        }
        Err(e) => Err(CheckpointError::io(dir, &e)),
    }
}
