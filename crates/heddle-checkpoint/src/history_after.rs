//! Listing only the checkpoints made since an earlier listing: what a live run's index reads
//! after each stage. The history counts as grown only when every timeline is where the
//! earlier listing left it but the one the run continues on (the last), which moved forward
//! from its old tip through new single-parent commits that no other timeline holds; those
//! commits are then exactly what a full listing would add at its end. Anything else (a
//! rollback made a timeline, a branch moved elsewhere, git.json changed) asks for a full
//! listing.

use git2::{Oid, Repository, Sort};
use heddle_engine::run_records::{CheckpointEntry, HistoryMark};

use crate::error::{CheckpointError, Result};
use crate::history::{current_tip, entry, mark, oid, tips};
use crate::state::GitState;

/// The checkpoints after those a listing that ended at `known` gave, with where this
/// listing ends and whether the run's tip moved; `None` when the history is not a simple
/// extension of what was known (list it all again).
pub fn list_after(
    repo: &Repository,
    state: &GitState,
    known: &HistoryMark,
) -> Result<Option<(Vec<CheckpointEntry>, HistoryMark, bool)>> {
    let same_layout = known.base == state.base_sha
        && known.branch == state.branch
        && state.timelines.last() == Some(&state.branch)
        && known.tips.len() == state.timelines.len()
        && known
            .tips
            .iter()
            .zip(&state.timelines)
            .all(|(tip, branch)| tip.branch == *branch);
    if !same_layout {
        return Ok(None);
    }
    let now = tips(repo, state)?;
    let last = now.len() - 1;
    let mut was = Vec::with_capacity(now.len());
    for tip in &known.tips {
        was.push(tip.sha.as_deref().map(oid).transpose()?);
    }
    if now[..last] != was[..last] {
        return Ok(None);
    }
    let (Some(old), Some(new)) = (was[last], current_tip(repo, state, &now)?) else {
        return Ok(None);
    };
    if old == new {
        return Ok(Some((Vec::new(), known.clone(), false)));
    }
    let others: Vec<Oid> = now[..last].iter().flatten().copied().collect();
    let Some(chain) = chain(repo, state, old, new, &others)? else {
        return Ok(None);
    };
    let short = GitState::short(&state.branch);
    let mut entries = Vec::new();
    for oid in chain {
        if let Some(entry) = entry(repo, oid, now.len(), short, Some(new))? {
            entries.push(entry);
        }
    }
    let mark = mark(state, &now, known.count + entries.len());
    Ok(Some((entries, mark, true)))
}

/// The commits from `old` (excluded) to `new`, oldest first, when they form one line of
/// single-parent commits that starts on `old` and that neither the run's base nor any of
/// `others` holds; `None` otherwise.
fn chain(
    repo: &Repository,
    state: &GitState,
    old: Oid,
    new: Oid,
    others: &[Oid],
) -> Result<Option<Vec<Oid>>> {
    let git = |e: &git2::Error| CheckpointError::git(repo.path(), "walk the run's new commits", e);
    let base = oid(&state.base_sha)?;
    let mut walk = repo.revwalk().map_err(|e| git(&e))?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)
        .map_err(|e| git(&e))?;
    walk.push(new).map_err(|e| git(&e))?;
    for hidden in [old, base].iter().chain(others) {
        walk.hide(*hidden).map_err(|e| git(&e))?;
    }
    let mut line = Vec::new();
    let mut previous = old;
    for next in walk {
        let next = next.map_err(|e| git(&e))?;
        let commit = crate::repo::commit(repo, next)?;
        // A commit another timeline or the base holds was hidden: the line breaks there.
        if commit.parent_count() != 1 || commit.parent_id(0).ok() != Some(previous) {
            return Ok(None);
        }
        line.push(next);
        previous = next;
    }
    Ok((previous == new).then_some(line))
}
