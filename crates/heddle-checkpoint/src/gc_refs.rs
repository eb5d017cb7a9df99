//! The refs Heddle owns in a repository, and which of them belong to deleted runs. Heddle
//! owns exactly these shapes (see [`crate::state`]): the timeline branches
//! `refs/heads/heddle/run/{id}` and `…/{id}-t{n}`, the metadata ref `refs/heddle/{id}`,
//! and the recovery refs `refs/heddle/recovery/{id}/{n}`; plus the worktrees named
//! `heddle-{id}` in worktree mode. Any other ref is never touched.

use git2::{Oid, Repository};

use crate::error::{CheckpointError, Result};
use crate::gc_runs::RunFolders;
use crate::repo::worktree_name;

/// A ref of a deleted run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoomedRef {
    /// Full ref name.
    pub name: String,
    /// What it pointed at when it was found (it is deleted only if it still does).
    pub target: Oid,
    /// The deleted run it belongs to.
    pub run_id: String,
}

/// The run ids a Heddle-owned ref may belong to (two for a branch `{x}-t{n}`: the run `x`'s
/// timeline n, or a run whose id is the whole name); `None` for a ref Heddle does not own.
pub fn run_ids_of(name: &str) -> Option<Vec<String>> {
    let single = |id: &str| !id.is_empty() && !id.contains('/');
    let numbered = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = name.strip_prefix("refs/heads/heddle/run/") {
        if !single(rest) {
            return None;
        }
        let mut ids = vec![rest.to_string()];
        if let Some((id, n)) = rest.rsplit_once("-t")
            && !id.is_empty()
            && numbered(n)
        {
            ids.push(id.to_string());
        }
        return Some(ids);
    }
    if let Some(rest) = name.strip_prefix("refs/heddle/recovery/") {
        let (id, n) = rest.split_once('/')?;
        return (single(id) && numbered(n)).then(|| vec![id.to_string()]);
    }
    let rest = name.strip_prefix("refs/heddle/")?;
    (single(rest) && rest != "recovery").then(|| vec![rest.to_string()])
}

/// The Heddle refs of `repo` whose run has no folder in `runs`, in name order.
pub fn doomed_refs(repo: &Repository, runs: &RunFolders) -> Result<Vec<DoomedRef>> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let mut doomed = Vec::new();
    for reference in repo.references().map_err(|e| git("list refs", &e))? {
        let reference = reference.map_err(|e| git("read a ref", &e))?;
        let (Some(name), Some(target)) = (reference.name().ok(), reference.target()) else {
            continue;
        };
        let Some(ids) = run_ids_of(name) else {
            continue;
        };
        if ids.iter().any(|id| runs.has(id)) {
            continue;
        }
        let run_id = ids.last().cloned().unwrap_or_default();
        doomed.push(DoomedRef {
            name: name.to_string(),
            target,
            run_id,
        });
    }
    doomed.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(doomed)
}

/// Deletes `doomed` refs (and their reflogs), each only if it still points where it did
/// when found; the names deleted.
pub fn delete_refs(repo: &Repository, doomed: &[DoomedRef]) -> Result<Vec<String>> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let mut deleted = Vec::new();
    for doomed in doomed {
        let mut reference = match repo.find_reference(&doomed.name) {
            Ok(reference) => reference,
            Err(e) if e.code() == git2::ErrorCode::NotFound => continue,
            Err(e) => return Err(git(&doomed.name, &e)),
        };
        if reference.target() != Some(doomed.target) {
            continue;
        }
        reference.delete().map_err(|e| git(&doomed.name, &e))?;
        match repo.reflog_delete(&doomed.name) {
            Err(e) if e.code() != git2::ErrorCode::NotFound => {
                return Err(git(&format!("reflog of {}", doomed.name), &e));
            }
            _ => {}
        }
        deleted.push(doomed.name.clone());
    }
    Ok(deleted)
}

/// The worktrees of runs `run_ids` (named `heddle-{id}`) whose folder is gone: git's
/// bookkeeping for them (`worktrees/heddle-{id}/`) can go. Pruned unless `dry_run`; their
/// names.
pub fn prune_worktrees(
    repo: &Repository,
    run_ids: &[String],
    dry_run: bool,
) -> Result<Vec<String>> {
    let mut pruned = Vec::new();
    for id in run_ids {
        let name = worktree_name(id);
        let Ok(worktree) = repo.find_worktree(&name) else {
            continue;
        };
        // Not prunable while its folder exists or while someone locked it.
        if !worktree.is_prunable(None).unwrap_or(false) {
            continue;
        }
        if !dry_run {
            worktree
                .prune(None)
                .map_err(|e| CheckpointError::git(repo.path(), &format!("prune {name}"), &e))?;
        }
        pruned.push(name);
    }
    Ok(pruned)
}

#[cfg(test)]
mod tests {
    use super::run_ids_of;

    fn ids(name: &str) -> Option<Vec<String>> {
        run_ids_of(name)
    }

    #[test]
    fn only_heddle_shaped_refs_name_runs() {
        assert_eq!(ids("refs/heads/heddle/run/R1"), Some(vec!["R1".into()]));
        assert_eq!(
            ids("refs/heads/heddle/run/R1-t3"),
            Some(vec!["R1-t3".into(), "R1".into()])
        );
        assert_eq!(ids("refs/heddle/R1"), Some(vec!["R1".into()]));
        assert_eq!(ids("refs/heddle/recovery/R1/2"), Some(vec!["R1".into()]));
        for foreign in [
            "refs/heads/main",
            "refs/heads/heddle/run",
            "refs/heads/heddle/run/",
            "refs/heads/heddle/run/a/b",
            "refs/heads/heddle/other/R1",
            "refs/heddle/recovery",
            "refs/heddle/recovery/R1",
            "refs/heddle/recovery/R1/x",
            "refs/heddle/notes/R1",
            "refs/tags/heddle/R1",
            "refs/heddle/",
        ] {
            assert_eq!(ids(foreign), None, "{foreign}");
        }
    }
}
