//! Garbage collection of checkpoint repositories (`heddle gc`): the refs of runs whose run
//! folder is gone are deleted, and a Heddle-owned (shadow) repository is rewritten as one
//! pack of what is still reachable, so what only deleted runs used leaves the disk.
//!
//! - Which runs exist: the entries of the runs folder ([`RunFolders`]). A run whose folder
//!   (or link) is there keeps every ref; only refs of Heddle's own shapes are candidates
//!   ([`crate::gc_refs`]).
//! - Which repositories: every shadow repository under `$HEDDLE_HOME/shadow/`, every
//!   repository a run's git.json names, and any the caller adds.
//! - The user's own repository (worktree mode) only loses Heddle's refs and the git
//!   bookkeeping of deleted runs' worktrees; its objects are left to `git gc`.
//! - Nothing changes while a run in a visited repository is live: the whole collection is
//!   refused, naming the run and its process.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use git2::{Oid, Repository};
use serde::Serialize;

use crate::error::CheckpointError;
use crate::gc_refs::{DoomedRef, delete_refs, doomed_refs, prune_worktrees};
use crate::gc_repack::{
    ObjectCounts, OldObjects, count_objects, reachable, remove_old, roots, write_pack,
};
use crate::gc_runs::{LiveRun, RunFolders, canonical};
use crate::shadow::{shadow_root, workspace_of};

/// Who owns a repository, which decides what gc may do to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RepositoryOwner {
    /// A shadow repository: refs deleted and objects rewritten as one pack.
    Heddle,
    /// The user's repository (worktree mode): only Heddle's refs and worktrees go.
    User,
}

/// What gc did (or, in a dry run, would do) to one repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RepositoryGc {
    /// The repository's git dir.
    pub git_dir: String,
    /// Heddle's shadow repository, or the user's own.
    pub owner: RepositoryOwner,
    /// The folder a shadow repository keeps checkpoints of.
    pub workspace: Option<String>,
    /// Deleted runs whose refs were found here, in id order.
    pub runs_pruned: Vec<String>,
    /// Full names of the refs deleted (or to delete).
    pub refs_deleted: Vec<String>,
    /// Worktrees of deleted runs (`heddle-{id}`) whose git bookkeeping was removed.
    pub worktrees_pruned: Vec<String>,
    /// The object store before (shadow repositories only).
    pub before: Option<ObjectCounts>,
    /// The object store after (shadow repositories, not in a dry run).
    pub after: Option<ObjectCounts>,
    /// Objects still reachable, which the one pack holds (or would hold).
    pub kept_objects: Option<u64>,
    /// What was left alone, and why.
    pub notes: Vec<String>,
}

/// Why gc did not run.
#[derive(Debug, thiserror::Error)]
pub enum GcError {
    /// Runs are executing in a repository gc would change.
    #[error("{}", live_message(.runs))]
    Live {
        /// The runs, with the processes executing them.
        runs: Vec<LiveRun>,
    },
    /// Reading or writing a repository or the runs folder failed.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// "run X (pid N) is running; ..." for a refusal.
pub fn live_message(runs: &[LiveRun]) -> String {
    let listed: Vec<String> = runs
        .iter()
        .map(|r| {
            if r.pid > 0 {
                format!("run {} (pid {})", r.id, r.pid)
            } else {
                format!("run {}", r.id)
            }
        })
        .collect();
    format!(
        "{} {} running; gc changes nothing while a run is live. Wait for it to end or cancel \
         it (`heddle cancel ID`), or pass --dry-run to see what would go",
        listed.join(", "),
        if runs.len() == 1 { "is" } else { "are" }
    )
}

/// What a collection covers.
#[derive(Debug, Clone)]
pub struct GcOptions {
    /// `$HEDDLE_HOME` (its `shadow/` repositories are visited).
    pub heddle_home: PathBuf,
    /// The runs folder (which runs still exist).
    pub runs_root: PathBuf,
    /// Further repositories (any path inside one) to delete deleted runs' refs from.
    pub extra_repositories: Vec<PathBuf>,
    /// Only report what would go.
    pub dry_run: bool,
    /// When the collection started: files changed after it are never removed.
    pub started: SystemTime,
}

/// Collects every repository `options` covers, in git-dir order. Refused as a whole,
/// before anything changes, while a run in any of them is live (not in a dry run).
pub fn collect_garbage(options: &GcOptions) -> Result<Vec<RepositoryGc>, GcError> {
    let runs = RunFolders::scan(&options.runs_root)?;
    let targets = repositories(options, runs.as_ref().unwrap_or(&RunFolders::default()));
    let Some(runs) = runs else {
        // No runs folder: nothing to collect on a fresh install; with repositories to
        // visit, a wrong `$HEDDLE_HOME` would make every run look deleted.
        if targets.is_empty() {
            return Ok(Vec::new());
        }
        return Err(CheckpointError::Refused {
            path: options.runs_root.clone(),
            reason: "there is no runs folder, so every run would look deleted; is                      HEDDLE_HOME right? Nothing was collected"
                .into(),
        }
        .into());
    };
    if !options.dry_run {
        let mut live: Vec<LiveRun> = Vec::new();
        for git_dir in targets.keys() {
            for run in runs.live_in(git_dir) {
                if !live.contains(&run) {
                    live.push(run);
                }
            }
        }
        if !live.is_empty() {
            return Err(GcError::Live { runs: live });
        }
    }
    let mut reports = Vec::new();
    for (git_dir, owner) in targets {
        reports.push(collect_repository(&git_dir, owner, &runs, options)?);
    }
    Ok(reports)
}

/// The repositories to visit, each once (canonical git dir), with their owner.
fn repositories(options: &GcOptions, runs: &RunFolders) -> BTreeMap<PathBuf, RepositoryOwner> {
    let shadows = canonical(&shadow_root(&options.heddle_home));
    let owner = |dir: &Path| {
        if dir.parent() == Some(shadows.as_path()) && workspace_of(dir).is_some() {
            RepositoryOwner::Heddle
        } else {
            RepositoryOwner::User
        }
    };
    let mut found: BTreeSet<PathBuf> = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir(&shadows) {
        for entry in entries.filter_map(Result::ok) {
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if !hidden && workspace_of(&entry.path()).is_some() {
                found.insert(canonical(&entry.path()));
            }
        }
    }
    found.extend(runs.repositories().into_iter().filter(|d| d.is_dir()));
    for path in &options.extra_repositories {
        if let Ok(repo) = Repository::discover(path) {
            found.insert(canonical(repo.commondir()));
        }
    }
    found.into_iter().map(|d| (d.clone(), owner(&d))).collect()
}

/// Collects one repository.
fn collect_repository(
    git_dir: &Path,
    owner: RepositoryOwner,
    runs: &RunFolders,
    options: &GcOptions,
) -> Result<RepositoryGc, GcError> {
    let mut report = RepositoryGc {
        git_dir: git_dir.to_string_lossy().into_owned(),
        owner,
        workspace: workspace_of(git_dir).filter(|_| owner == RepositoryOwner::Heddle),
        runs_pruned: Vec::new(),
        refs_deleted: Vec::new(),
        worktrees_pruned: Vec::new(),
        before: None,
        after: None,
        kept_objects: None,
        notes: Vec::new(),
    };
    let opened = match owner {
        RepositoryOwner::Heddle => Repository::open_bare(git_dir),
        RepositoryOwner::User => Repository::open(git_dir),
    };
    let repo = match opened {
        Ok(repo) => repo,
        Err(e) => {
            report
                .notes
                .push(format!("left alone: it cannot be opened ({})", e.message()));
            return Ok(report);
        }
    };
    let doomed = doomed_refs(&repo, runs)?;
    let run_ids: BTreeSet<String> = doomed.iter().map(|d| d.run_id.clone()).collect();
    report.runs_pruned = run_ids.iter().cloned().collect();
    if owner == RepositoryOwner::User {
        report.worktrees_pruned = prune_worktrees(&repo, &report.runs_pruned, options.dry_run)?;
    }
    report.refs_deleted = if options.dry_run {
        doomed.iter().map(|d| d.name.clone()).collect()
    } else {
        delete_refs(&repo, &doomed)?
    };
    match owner {
        RepositoryOwner::User => report.notes.push(
            "your own repository: only Heddle's refs were collected; its objects are left to \
             `git gc`"
                .into(),
        ),
        RepositoryOwner::Heddle => repack(&repo, git_dir, runs, options, &doomed, &mut report)?,
    }
    Ok(report)
}

/// Rewrites a shadow repository as one pack (counts only, in a dry run).
fn repack(
    repo: &Repository,
    git_dir: &Path,
    runs: &RunFolders,
    options: &GcOptions,
    doomed: &[DoomedRef],
    report: &mut RepositoryGc,
) -> Result<(), GcError> {
    // Listed before the roots are found: what is written later is never removed.
    let old = OldObjects::list(repo)?;
    report.before = Some(count_objects(repo)?);
    let extra = index_objects(&runs.shadow_indexes(git_dir));
    if options.dry_run {
        let skip = doomed.iter().map(|d| d.name.clone()).collect();
        report.kept_objects = Some(reachable(repo, &roots(repo, &skip, &extra)?)?);
        return Ok(());
    }
    let refs = ref_snapshot(repo);
    let (pack, kept) = write_pack(repo, &roots(repo, &BTreeSet::new(), &extra)?)?;
    report.kept_objects = Some(kept);
    // A run that started meanwhile may use objects the old files hold: keep them then.
    let quiet = ref_snapshot(repo) == refs
        && RunFolders::scan(&options.runs_root)?.is_some_and(|now| now.live_in(git_dir).is_empty());
    if quiet {
        remove_old(repo, &old, pack.as_deref(), options.started)?;
    } else {
        report.notes.push(
            "the repository changed while it was collected; the old objects were kept (run \
             gc again)"
                .into(),
        );
    }
    // Opened afresh: this handle still maps the packs just removed.
    let reopened = Repository::open_bare(git_dir)
        .map_err(|e| CheckpointError::git(git_dir, "open the repository again", &e))?;
    report.after = Some(count_objects(&reopened)?);
    Ok(())
}

/// Every ref and HEAD with what it points at.
fn ref_snapshot(repo: &Repository) -> Vec<(String, Option<Oid>)> {
    let mut refs = vec![("HEAD".to_string(), repo.refname_to_id("HEAD").ok())];
    if let Ok(references) = repo.references() {
        for reference in references.filter_map(Result::ok) {
            if let Ok(name) = reference.name() {
                refs.push((name.to_string(), reference.target()));
            }
        }
    }
    refs
}

/// The objects the private indexes at `paths` list (unreadable ones list none: a run
/// rescans its work tree when its index cannot be read).
fn index_objects(paths: &[PathBuf]) -> Vec<Oid> {
    let mut objects = Vec::new();
    for path in paths {
        if let Ok(index) = git2::Index::open(path) {
            objects.extend(index.iter().map(|entry| entry.id));
        }
    }
    objects
}
