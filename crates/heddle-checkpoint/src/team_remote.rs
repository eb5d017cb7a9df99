//! Runs kept on a team's git remote: a fresh clone of the remote's default branch, plus the
//! refs of the one run a worker carries on (a plain clone would bring every run's branch and
//! leave out the metadata refs `refs/heddle/*`), for a worker to start a run in or to take
//! one over from; and pushing a run's branches (`heddle/run/{id}` and its
//! timelines `{id}-t{n}`) and metadata ref to the remote, which a worker does after each
//! checkpoint so another one can carry the run on from the remote alone. The remote is a
//! path, a `file://` URL, or a network remote (`ssh://`, `user@host:path`, `https://`,
//! `git://`) reached with the credentials [`RemoteAccess`] offers.

use std::path::Path;
use std::time::Duration;

use git2::{Direction, FetchOptions, PushOptions, Repository};

use crate::error::CheckpointError;
use crate::remote_access::{RemoteAccess, machine_config, shown_remote};

/// Clones `remote` into `into` (a folder that does not exist yet): its default branch,
/// checked out, and, when `run` names one, that run's branches (as local branches) and
/// metadata ref, for a worker to carry it on; offering `access`'s credentials. Other runs'
/// branches and refs stay on the remote: they grow with the team's history and a worker
/// needs none of them.
pub fn clone_with_runs(
    remote: &str,
    into: &Path,
    run: Option<&str>,
    access: &RemoteAccess,
) -> Result<Repository, CheckpointError> {
    let shown = shown_remote(remote);
    let local = |what: &str, e: &git2::Error| CheckpointError::git(into, what, e);
    let what = "cloning";
    let config = machine_config().map_err(|e| local("git configuration", &e))?;
    let repo = Repository::init(into).map_err(|e| local("making the clone", &e))?;
    let mut origin = repo
        .remote_with_fetch("origin", remote, "+refs/heads/*:refs/remotes/origin/*")
        .map_err(|e| CheckpointError::remote(what, remote, &e))?;
    let offered = advertised(&mut origin, remote, what, access, &config)?;
    let default = offered.default_branch.unwrap_or_default();
    let run_refs: Vec<String> = offered
        .refs
        .into_iter()
        .filter(|name| run.is_some_and(|id| is_run_ref(name, id)))
        .collect();
    let branch = default
        .strip_prefix("refs/heads/")
        .filter(|b| !b.is_empty())
        .ok_or_else(|| CheckpointError::Remote {
            what: what.into(),
            message: format!("{shown}: the remote has no default branch (is it empty?)"),
        })?
        .to_string();
    let tracking = format!("refs/remotes/origin/{branch}");
    let mut specs = vec![format!("+{default}:{tracking}")];
    specs.extend(same_names(&run_refs));
    fetch(&mut origin, &specs, remote, what, access, &config)?;
    drop(origin);
    {
        let commit = repo
            .find_reference(&tracking)
            .and_then(|r| r.peel_to_commit())
            .map_err(|e| local(&format!("the fetched {tracking}"), &e))?;
        let mut made = repo
            .branch(&branch, &commit, true)
            .map_err(|e| local(&format!("the branch {branch}"), &e))?;
        made.set_upstream(Some(&format!("origin/{branch}")))
            .map_err(|e| local(&format!("the upstream of {branch}"), &e))?;
    }
    repo.set_head(&format!("refs/heads/{branch}"))
        .map_err(|e| local("HEAD", &e))?;
    repo.checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
        .map_err(|e| local(&format!("checking out {branch}"), &e))?;
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
    Ok(advertised(&mut target, remote, what, access, &config)?
        .refs
        .len())
}

/// What a remote advertises to a fetch: its default branch (`refs/heads/…`; none for an
/// empty remote) and the names of all its refs.
pub(crate) struct Advertised {
    pub(crate) default_branch: Option<String>,
    pub(crate) refs: Vec<String>,
}

/// Connects `target` (the remote `remote`, for `what`) with `access`'s credentials and reads
/// what it advertises.
pub(crate) fn advertised(
    target: &mut git2::Remote<'_>,
    remote: &str,
    what: &str,
    access: &RemoteAccess,
    config: &git2::Config,
) -> Result<Advertised, CheckpointError> {
    let failed = |e: git2::Error| CheckpointError::remote(what, remote, &e);
    let connection = target
        .connect_auth(Direction::Fetch, Some(access.callbacks(config)), None)
        .map_err(failed)?;
    let default_branch = connection
        .default_branch()
        .ok()
        .and_then(|name| name.as_str().ok().map(str::to_string));
    let refs = connection
        .list()
        .map_err(failed)?
        .iter()
        .map(|head| head.name().to_string())
        .collect();
    Ok(Advertised {
        default_branch,
        refs,
    })
}

/// Fetches `specs` from `target` (the remote `remote`, for `what`) with `access`'s
/// credentials.
pub(crate) fn fetch(
    target: &mut git2::Remote<'_>,
    specs: &[String],
    remote: &str,
    what: &str,
    access: &RemoteAccess,
    config: &git2::Config,
) -> Result<(), CheckpointError> {
    let mut options = FetchOptions::new();
    options.remote_callbacks(access.callbacks(config));
    target
        .fetch(specs, Some(&mut options), None)
        .map_err(|e| CheckpointError::remote(what, remote, &e))
}

/// `+name:name` for each of `names`: refs that keep their names on both sides, moved
/// wherever they are.
pub(crate) fn same_names(names: &[String]) -> Vec<String> {
    names.iter().map(|n| format!("+{n}:{n}")).collect()
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
    let specs = same_names(&names);
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
