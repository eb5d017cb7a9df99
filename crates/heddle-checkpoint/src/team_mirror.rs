//! Reading a run a worker executed elsewhere: its refs are fetched from the team's remote
//! into a bare repository of this machine (the mirror, shared by every run it reads), whose
//! commits then answer the run's checkpoint views as its own repository would. The mirror
//! only ever receives what the remote has; nothing is pushed from it.

use std::path::Path;

use git2::Repository;

use crate::error::CheckpointError;
use crate::remote_access::{RemoteAccess, shown_remote};
use crate::team_remote::{advertised, fetch, is_run_ref, same_names};

/// The mirror as it is, without asking the remote (for a run fetched a moment ago).
pub fn open_mirror(mirror: &Path) -> Result<Repository, CheckpointError> {
    Repository::open_bare(mirror)
        .map_err(|e| CheckpointError::git(mirror, "opening the team remote's mirror", &e))
}

/// Brings run `run_id`'s branches and metadata ref from `remote` into the bare repository
/// `mirror` (made when missing), offering `access`'s credentials; the mirror. `not_found`
/// when the remote has none of the run's refs.
pub fn mirror_run(
    mirror: &Path,
    remote: &str,
    run_id: &str,
    access: &RemoteAccess,
) -> Result<Repository, CheckpointError> {
    let repo = if mirror.join("HEAD").exists() {
        Repository::open_bare(mirror)
    } else {
        Repository::init_bare(mirror)
    }
    .map_err(|e| CheckpointError::git(mirror, "opening the team remote's mirror", &e))?;
    let what = format!("reading run {run_id} from");
    let config = repo
        .config()
        .map_err(|e| CheckpointError::git(mirror, "the mirror's git configuration", &e))?;
    let mut target = repo
        .remote_anonymous(remote)
        .map_err(|e| CheckpointError::remote(&what, remote, &e))?;
    let names: Vec<String> = advertised(&mut target, remote, &what, access, &config)?
        .refs
        .into_iter()
        .filter(|name| is_run_ref(name, run_id))
        .collect();
    if names.is_empty() {
        return Err(CheckpointError::NotFound {
            what: format!("run {run_id} (its refs)"),
            repo: shown_remote(remote).into(),
        });
    }
    fetch(
        &mut target,
        &same_names(&names),
        remote,
        &what,
        access,
        &config,
    )?;
    drop(target);
    Ok(repo)
}
