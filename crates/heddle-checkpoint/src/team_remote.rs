//! Runs kept on a team's git remote: a fresh clone of the remote with every run's refs (a
//! plain clone leaves out the metadata refs `refs/heddle/*`), for a worker to start a run in
//! or to take one over from; and pushing a run's branches (`heddle/run/{id}` and its
//! timelines `{id}-t{n}`) and metadata ref to the remote, which a worker does after each
//! checkpoint so another one can carry the run on from the remote alone. The remote is a
//! path, a `file://` URL, or a network remote (`ssh://`, `user@host:path`, `https://`,
//! `git://`) reached with the credentials [`RemoteAccess`] offers.

use std::path::Path;
use std::time::Duration;

use git2::{FetchOptions, PushOptions, Repository};

use crate::error::CheckpointError;
use crate::remote_access::{RemoteAccess, machine_config, shown_remote};

/// What a clone fetches beside the branches: every run's metadata ref.
const RUN_REFS: &str = "+refs/heddle/*:refs/heddle/*";

/// Clones `remote` into `into` (a folder that does not exist yet) with every run's refs,
/// and with the runs' branches as local branches, offering `access`'s credentials.
pub fn clone_with_runs(
    remote: &str,
    into: &Path,
    access: &RemoteAccess,
) -> Result<Repository, CheckpointError> {
    let shown = shown_remote(remote);
    let config =
        machine_config().map_err(|e| CheckpointError::git(into, "git configuration", &e))?;
    let mut options = FetchOptions::new();
    options.remote_callbacks(access.callbacks(&config));
    let repo = git2::build::RepoBuilder::new()
        .fetch_options(options)
        .clone(remote, into)
        .map_err(|e| CheckpointError::remote("cloning", remote, &e))?;
    {
        let mut origin = repo
            .find_remote("origin")
            .map_err(|e| CheckpointError::git(into, "the remote origin", &e))?;
        let mut options = FetchOptions::new();
        options.remote_callbacks(access.callbacks(&config));
        origin
            .fetch(
                &[RUN_REFS, "+refs/heads/heddle/run/*:refs/heads/heddle/run/*"],
                Some(&mut options),
                None,
            )
            .map_err(|e| CheckpointError::remote("fetching the runs' refs from", remote, &e))?;
    }
    tracing::debug!(remote = %shown, into = %into.display(), "cloned the team's remote");
    Ok(repo)
}

/// Connects to `remote` with `access`'s credentials and lists its refs, as a worker does
/// when it starts: a remote it cannot reach is reported then, not at its first claim.
/// Returns how many refs the remote has.
pub fn reach(remote: &str, access: &RemoteAccess) -> Result<usize, CheckpointError> {
    let what = "reaching";
    let config = machine_config().map_err(|e| CheckpointError::remote(what, remote, &e))?;
    let mut target = git2::Remote::create_detached(remote)
        .map_err(|e| CheckpointError::remote(what, remote, &e))?;
    let connection = target
        .connect_auth(
            git2::Direction::Fetch,
            Some(access.callbacks(&config)),
            None,
        )
        .map_err(|e| CheckpointError::remote(what, remote, &e))?;
    let refs = connection
        .list()
        .map_err(|e| CheckpointError::remote(what, remote, &e))?
        .len();
    Ok(refs)
}

/// Whether `name` is one of run `run_id`'s refs: its metadata ref `refs/heddle/{id}`, its
/// branch `refs/heads/heddle/run/{id}`, or a timeline of it (`…/{id}-t{n}`).
pub(crate) fn is_run_ref(name: &str, run_id: &str) -> bool {
    let branch = format!("refs/heads/heddle/run/{run_id}");
    name == format!("refs/heddle/{run_id}")
        || name == branch
        || name
            .strip_prefix(&branch)
            .and_then(|rest| rest.strip_prefix("-t"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The refs of run `run_id` in `repo`: its metadata ref and its branches.
fn run_refs(repo: &Repository, run_id: &str) -> Result<Vec<String>, git2::Error> {
    let mut names = Vec::new();
    for reference in repo.references()? {
        let reference = reference?;
        if let Ok(name) = reference.name()
            && is_run_ref(name, run_id)
        {
            names.push(name.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// Pushes run `run_id`'s branches and metadata ref from the repository at `repo` to
/// `remote`, moving them there wherever they are (a rollback moves a branch back), offering
/// `access`'s credentials.
pub fn push_run(
    repo: &Path,
    remote: &str,
    run_id: &str,
    access: &RemoteAccess,
) -> Result<Vec<String>, CheckpointError> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo, what, e);
    let repository = Repository::open(repo).map_err(|e| git("opening the repository", &e))?;
    let names = run_refs(&repository, run_id).map_err(|e| git("listing the run's refs", &e))?;
    if names.is_empty() {
        return Ok(names);
    }
    let specs: Vec<String> = names.iter().map(|n| format!("+{n}:{n}")).collect();
    let what = format!("pushing run {run_id} to");
    let mut target = repository
        .remote_anonymous(remote)
        .map_err(|e| CheckpointError::remote(&what, remote, &e))?;
    let config = repository
        .config()
        .map_err(|e| git("the repository's git configuration", &e))?;
    let mut callbacks = access.callbacks(&config);
    let rejected = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let noted = rejected.clone();
    callbacks.push_update_reference(move |name, status| {
        if let Some(status) = status
            && let Ok(mut noted) = noted.lock()
        {
            noted.push(format!("{name}: {status}"));
        }
        Ok(())
    });
    let mut options = PushOptions::new();
    options.remote_callbacks(callbacks);
    target
        .push(&specs, Some(&mut options))
        .map_err(|e| CheckpointError::remote(&what, remote, &e))?;
    let rejected = rejected.lock().map(|r| r.clone()).unwrap_or_default();
    if !rejected.is_empty() {
        return Err(CheckpointError::Remote {
            what,
            message: format!("{}: refused {}", shown_remote(remote), rejected.join(", ")),
        });
    }
    Ok(names)
}

/// How long a push that could not reach the remote waits before each new try.
const PUSH_RETRY_WAITS: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(4)];

/// [`push_run`], tried again after [`PUSH_RETRY_WAITS`] while the remote cannot be reached
/// (a network blip must not end a run that is otherwise fine). The credentials are gathered
/// for each try (the agent, keys and helpers may change while a run goes on); they are not
/// `Sync`, so they stay on the pushing thread.
pub fn push_with_retries(
    repository: &Path,
    remote: &str,
    run_id: &str,
) -> Result<Vec<String>, CheckpointError> {
    let mut waits = PUSH_RETRY_WAITS.iter();
    loop {
        let pushed = push_run(repository, remote, run_id, &RemoteAccess::unattended());
        let wait = match &pushed {
            Err(CheckpointError::Remote { .. }) => waits.next(),
            _ => None,
        };
        match (pushed, wait) {
            (Err(error), Some(wait)) => {
                tracing::warn!(run = run_id, %error, wait_ms = wait.as_millis(), "push failed; trying again");
                std::thread::sleep(*wait);
            }
            (pushed, _) => return pushed,
        }
    }
}

/// The path of `file` inside its git repository (from the repository's top folder, with `/`
/// separators), as a worker's clone of the team's remote will have it.
pub fn path_in_repository(file: &Path) -> Result<String, CheckpointError> {
    let absolute = std::path::absolute(file).map_err(|e| CheckpointError::io(file, &e))?;
    let folder = absolute.parent().unwrap_or(&absolute);
    let repo = Repository::discover(folder).map_err(|e| CheckpointError::Refused {
        path: absolute.clone(),
        reason: format!(
            "is not in a git repository ({}); a queued run names its workflow by its path in \
             the repository that workers clone",
            e.message()
        ),
    })?;
    let top = repo.workdir().ok_or_else(|| CheckpointError::Refused {
        path: absolute.clone(),
        reason: "is in a bare repository".into(),
    })?;
    let top = top
        .canonicalize()
        .map_err(|e| CheckpointError::io(top, &e))?;
    let canonical = absolute
        .canonicalize()
        .map_err(|e| CheckpointError::io(&absolute, &e))?;
    let inside = canonical
        .strip_prefix(&top)
        .map_err(|_| CheckpointError::Refused {
            path: canonical.clone(),
            reason: format!("is not inside the repository {}", top.display()),
        })?;
    Ok(inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/"))
}
