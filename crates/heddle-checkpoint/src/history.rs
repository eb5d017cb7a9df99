//! Reading a run's checkpoint history for people and the UI: every checkpoint across every
//! timeline, finding one by `last-success`, `NODE[:start|end]`, `NODE@VISIT` or a (partial)
//! sha, the files at a checkpoint, one file's content, the diff between two checkpoints,
//! and the checkpoint.json a commit links to.

use std::collections::BTreeMap;
use std::path::Path;

use git2::{Oid, Repository, Sort};
use heddle_engine::Checkpoint;
use serde::Serialize;

use crate::error::{CheckpointError, Result};
use crate::message::facts;
use crate::metadata::read_checkpoint;
use crate::repo::{commit, tip};
use crate::state::GitState;

pub use heddle_engine::run_records::CheckpointEntry;
use heddle_engine::run_records::{HistoryMark, ListedHistory, TimelineTip};

/// Every checkpoint of the run, timeline by timeline, oldest first within each; a commit
/// shared by several timelines is listed once, under the first.
pub fn list(repo: &Repository, state: &GitState) -> Result<Vec<CheckpointEntry>> {
    Ok(list_marked(repo, state)?.entries)
}

/// [`list`], with where it ended: each timeline's tip as it was read (once) for the
/// listing, so [`crate::history_after::list_after`] can go on from there.
pub fn list_marked(repo: &Repository, state: &GitState) -> Result<ListedHistory> {
    let base = Oid::from_str(&state.base_sha)
        .map_err(|e| CheckpointError::git(&state.git_dir, "base sha", &e))?;
    let tips = tips(repo, state)?;
    let current_tip = current_tip(repo, state, &tips)?;
    let mut seen: BTreeMap<Oid, usize> = BTreeMap::new();
    let mut entries: Vec<CheckpointEntry> = Vec::new();
    for (n, (branch, head)) in state.timelines.iter().zip(&tips).enumerate() {
        let Some(head) = *head else {
            continue;
        };
        let short = GitState::short(branch).to_string();
        for oid in walk(repo, head, base)? {
            if let Some(&at) = seen.get(&oid) {
                entries[at].branches.push(short.clone());
                continue;
            }
            let Some(entry) = entry(repo, oid, n + 1, &short, current_tip)? else {
                continue;
            };
            seen.insert(oid, entries.len());
            entries.push(entry);
        }
    }
    let mark = mark(state, &tips, entries.len());
    Ok(ListedHistory {
        entries,
        mark: Some(mark),
    })
}

/// The tip of each timeline branch of the run (`None`: the branch does not exist), read
/// once each.
pub(crate) fn tips(repo: &Repository, state: &GitState) -> Result<Vec<Option<Oid>>> {
    state.timelines.iter().map(|b| tip(repo, b)).collect()
}

/// The tip of the branch the run continues on: from `tips` when it is a timeline (it
/// always is in a sound git.json), else read.
pub(crate) fn current_tip(
    repo: &Repository,
    state: &GitState,
    tips: &[Option<Oid>],
) -> Result<Option<Oid>> {
    match state.timelines.iter().position(|b| *b == state.branch) {
        Some(at) => Ok(tips[at]),
        None => tip(repo, &state.branch),
    }
}

/// Where a listing that read `tips` and gave `count` entries ended.
pub(crate) fn mark(state: &GitState, tips: &[Option<Oid>], count: usize) -> HistoryMark {
    HistoryMark {
        base: state.base_sha.clone(),
        branch: state.branch.clone(),
        tips: state
            .timelines
            .iter()
            .zip(tips)
            .map(|(branch, sha)| TimelineTip {
                branch: branch.clone(),
                sha: sha.map(|s| s.to_string()),
            })
            .collect(),
        count,
    }
}

/// The entry of checkpoint commit `oid`, first made on timeline `timeline` (branch
/// `short`); `None` for a commit that is not a checkpoint.
pub(crate) fn entry(
    repo: &Repository,
    oid: Oid,
    timeline: usize,
    short: &str,
    current_tip: Option<Oid>,
) -> Result<Option<CheckpointEntry>> {
    let commit = commit(repo, oid)?;
    let Some(facts) = facts(&commit) else {
        return Ok(None);
    };
    Ok(Some(CheckpointEntry {
        sha: oid.to_string(),
        node_id: facts.node_id,
        status: facts.status,
        completed: facts.completed,
        metadata_sha: facts.metadata_sha,
        time: heddle_engine::clock::rfc3339(
            std::time::UNIX_EPOCH
                + std::time::Duration::from_secs(
                    u64::try_from(commit.time().seconds()).unwrap_or(0),
                ),
        ),
        parent: commit.parent_id(0).ok().map(|p| p.to_string()),
        timeline,
        branches: vec![short.to_string()],
        current: Some(oid) == current_tip,
    }))
}

/// Commits from `base` (excluded) to `head`, oldest first.
fn walk(repo: &Repository, head: Oid, base: Oid) -> Result<Vec<Oid>> {
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), "walk the run's history", e);
    let mut walk = repo.revwalk().map_err(|e| git(&e))?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)
        .map_err(|e| git(&e))?;
    walk.push(head).map_err(|e| git(&e))?;
    if head != base {
        walk.hide(base).map_err(|e| git(&e))?;
    }
    walk.map(|r| r.map_err(|e| git(&e))).collect()
}

/// Finds the commit `target` names: `last-success`, `NODE`, `NODE:end`, `NODE:start` (the
/// state before it ran), `NODE@VISIT`, or a full or partial sha (any timeline).
pub fn resolve(repo: &Repository, state: &GitState, target: &str) -> Result<Oid> {
    let entries = list(repo, state)?;
    let current: Vec<&CheckpointEntry> = current_line(repo, state, &entries)?;
    let not_found = |hint: String| CheckpointError::NoSuchCheckpoint {
        target: target.to_string(),
        hint,
    };
    if target == "last-success" {
        return current
            .iter()
            .rev()
            .find(|e| {
                matches!(
                    e.status.as_str(),
                    "success" | "partial_success" | "completed"
                )
            })
            .map(|e| oid(&e.sha))
            .ok_or_else(|| not_found("; no checkpoint on this timeline succeeded".into()))?;
    }
    let hex = target.len() >= 4 && target.chars().all(|c| c.is_ascii_hexdigit());
    if hex {
        let matches: Vec<&CheckpointEntry> = entries
            .iter()
            .filter(|e| e.sha.starts_with(&target.to_ascii_lowercase()))
            .collect();
        match matches.as_slice() {
            [one] => return oid(&one.sha),
            [] if state.base_sha.starts_with(target) => return oid(&state.base_sha),
            [] => {}
            many => {
                return Err(CheckpointError::Ambiguous {
                    prefix: target.to_string(),
                    candidates: many
                        .iter()
                        .map(|e| format!("{} ({} {})", &e.sha[..12], e.node_id, e.status))
                        .collect(),
                });
            }
        }
    }
    let (node, which) = match target.rsplit_once(':') {
        Some((node, which)) => (node, which),
        None => (target, "end"),
    };
    let (node, visit) = match node.rsplit_once('@') {
        Some((node, visit)) => (node, visit.parse::<usize>().ok()),
        None => (node, None),
    };
    // This timeline first; then any other.
    let found = |pool: &[&CheckpointEntry]| -> Option<CheckpointEntry> {
        let of_node: Vec<&&CheckpointEntry> = pool.iter().filter(|e| e.node_id == node).collect();
        match visit {
            Some(v) => of_node.get(v.checked_sub(1)?).map(|e| (**e).clone()),
            None => of_node.last().map(|e| (**e).clone()),
        }
    };
    let all: Vec<&CheckpointEntry> = entries.iter().collect();
    let entry = found(&current).or_else(|| found(&all)).ok_or_else(|| {
        let nodes: std::collections::BTreeSet<&str> =
            entries.iter().map(|e| e.node_id.as_str()).collect();
        not_found(format!(
            "; checkpoints exist for: {}",
            nodes.into_iter().collect::<Vec<_>>().join(", ")
        ))
    })?;
    match which {
        "end" => oid(&entry.sha),
        "start" => entry
            .parent
            .as_deref()
            .map(oid)
            .unwrap_or_else(|| oid(&state.base_sha)),
        other => Err(not_found(format!("; `{other}` is not `start` or `end`"))),
    }
}

/// The entries on the current timeline, oldest first.
fn current_line<'e>(
    repo: &Repository,
    state: &GitState,
    entries: &'e [CheckpointEntry],
) -> Result<Vec<&'e CheckpointEntry>> {
    let Some(head) = tip(repo, &state.branch)? else {
        return Ok(Vec::new());
    };
    let base = oid(&state.base_sha)?;
    let line = walk(repo, head, base)?;
    let by_sha: BTreeMap<&str, &CheckpointEntry> =
        entries.iter().map(|e| (e.sha.as_str(), e)).collect();
    Ok(line
        .iter()
        .filter_map(|o| by_sha.get(o.to_string().as_str()).copied())
        .collect())
}

pub(crate) fn oid(sha: &str) -> Result<Oid> {
    Oid::from_str(sha).map_err(|e| CheckpointError::git(".", sha, &e))
}

/// One file at a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TreeFile {
    /// `/`-separated path from the root of the checkpoint's tree.
    pub path: String,
    /// Size of the file's content (a link's target text) in bytes.
    pub size: usize,
    /// `file`, `executable` or `link`.
    pub kind: &'static str,
}

/// Every file at checkpoint `at`.
pub fn files_at(repo: &Repository, at: Oid) -> Result<Vec<TreeFile>> {
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), &format!("files at {at}"), e);
    let tree = commit(repo, at)?.tree().map_err(|e| git(&e))?;
    let mut files = Vec::new();
    let mut failure = None;
    tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
        let kind = match entry.filemode() {
            0o100755 => "executable",
            0o120000 => "link",
            0o100644 => "file",
            _ => return git2::TreeWalkResult::Ok,
        };
        match repo.find_blob(entry.id()) {
            Ok(blob) => files.push(TreeFile {
                path: format!("{dir}{}", entry.name().unwrap_or_default()),
                size: blob.size(),
                kind,
            }),
            Err(e) => {
                failure = Some(e);
                return git2::TreeWalkResult::Abort;
            }
        }
        git2::TreeWalkResult::Ok
    })
    .or_else(|e| {
        if failure.is_some() {
            Ok(())
        } else {
            Err(git(&e))
        }
    })?;
    if let Some(e) = failure {
        return Err(git(&e));
    }
    Ok(files)
}

/// The content of `path` at checkpoint `at`.
pub fn read_at(repo: &Repository, at: Oid, path: &str) -> Result<Vec<u8>> {
    let what = format!("{path} at {at}");
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), &what, e);
    let tree = commit(repo, at)?.tree().map_err(|e| git(&e))?;
    let entry = tree.get_path(Path::new(path)).map_err(|e| git(&e))?;
    let blob = repo.find_blob(entry.id()).map_err(|e| git(&e))?;
    Ok(blob.content().to_vec())
}

/// The checkpoint (with its history) checkpoint `at` links to (through its
/// `Heddle-Checkpoint` trailer); `None` for the run's base commit.
pub fn checkpoint_at(repo: &Repository, at: Oid) -> Result<Option<Checkpoint>> {
    Ok(checkpoint_text_at(repo, at)?.map(|(checkpoint, _)| checkpoint))
}

/// [`checkpoint_at`], with the raw timeline.jsonl text the checkpoint covers (`None` for a
/// format 1 checkpoint, whose history is inline).
pub fn checkpoint_text_at(
    repo: &Repository,
    at: Oid,
) -> Result<Option<(Checkpoint, Option<Vec<u8>>)>> {
    let commit = commit(repo, at)?;
    let Some(facts) = facts(&commit) else {
        return Ok(None);
    };
    let metadata = oid(&facts.metadata_sha)?;
    read_checkpoint(repo, metadata).map(Some)
}
