//! `heddle gc`: what deleted runs left behind, collected through heddle-api's
//! `collect_garbage` (checkpoint repositories, then the blob store) and rendered for the
//! terminal.

use std::io::Write;
use std::path::PathBuf;

use heddle_api::checkpoint::{ObjectCounts, RepositoryGc, RepositoryOwner};
use heddle_api::{GarbageReport, GarbageRequest, RunLibrary};

/// `heddle gc [--dry-run] [--repo PATH]... [--json]`.
pub async fn gc(
    library: &RunLibrary,
    dry_run: bool,
    repositories: &[PathBuf],
    json: bool,
    out: &mut dyn Write,
) -> Result<(), String> {
    let request = GarbageRequest {
        dry_run,
        repositories: repositories
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
    };
    let report = library
        .collect_garbage(request)
        .await
        .map_err(|e| e.message)?;
    let text = if json {
        serde_json::to_string_pretty(&report).unwrap_or_default()
    } else {
        render(&report)
    };
    writeln!(out, "{}", text.trim_end()).map_err(|e| format!("cannot write the report: {e}"))
}

fn render(report: &GarbageReport) -> String {
    let (would, verb) = if report.dry_run {
        ("would ", "would remove")
    } else {
        ("", "removed")
    };
    let mut lines = Vec::new();
    for repo in &report.repositories {
        lines.extend(repository(repo, would));
    }
    let blobs = &report.blobs;
    for entry in &blobs.removed {
        lines.push(format!("{verb} {} ({} bytes)", entry.blob, entry.size));
    }
    lines.push(format!(
        "blobs: {verb} {} blob(s), {} byte(s); kept {} referenced blob(s), {} byte(s)",
        blobs.removed.len(),
        blobs.bytes_freed,
        blobs.kept,
        blobs.kept_bytes
    ));
    lines.join("\n")
}

fn repository(repo: &RepositoryGc, would: &str) -> Vec<String> {
    let whose = match (&repo.owner, &repo.workspace) {
        (RepositoryOwner::Heddle, Some(workspace)) => format!("shadow repository of {workspace}"),
        (RepositoryOwner::Heddle, None) => "shadow repository".to_string(),
        (RepositoryOwner::User, _) => "your repository".to_string(),
    };
    let mut lines = vec![format!("{} ({whose})", repo.git_dir)];
    let pruned = if would.is_empty() {
        "pruned"
    } else {
        "would prune"
    };
    lines.push(format!(
        "  {pruned} {} deleted run(s): {} ref(s){}",
        repo.runs_pruned.len(),
        repo.refs_deleted.len(),
        if repo.worktrees_pruned.is_empty() {
            String::new()
        } else {
            format!(", {} worktree(s)", repo.worktrees_pruned.len())
        }
    ));
    let deleted = if would.is_empty() {
        "deleted"
    } else {
        "would delete"
    };
    for name in &repo.refs_deleted {
        lines.push(format!("  {deleted} {name}"));
    }
    for name in &repo.worktrees_pruned {
        lines.push(format!("  {pruned} worktree {name}"));
    }
    match (repo.before, repo.after, repo.kept_objects) {
        (Some(before), Some(after), _) => {
            lines.push(format!("  before: {}", counts(before)));
            lines.push(format!("  after:  {}", counts(after)));
        }
        (Some(before), None, Some(kept)) => {
            lines.push(format!("  now: {}", counts(before)));
            lines.push(format!("  would keep {kept} object(s) in one pack"));
        }
        _ => {}
    }
    for note in &repo.notes {
        lines.push(format!("  note: {note}"));
    }
    lines
}

fn counts(c: ObjectCounts) -> String {
    format!(
        "{} object(s) ({} loose, {} pack(s)), {} byte(s)",
        c.objects, c.loose, c.packs, c.bytes
    )
}
