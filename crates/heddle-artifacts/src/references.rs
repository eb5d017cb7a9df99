//! Which blobs runs still reference: every `blob://sha256/{hex}` named in a run folder's
//! state files (checkpoint, timeline, manifest, conclusion, progress, stage status), across all runs
//! and the child runs of manager loops. `heddle gc` keeps exactly these.

use std::collections::HashSet;
use std::path::Path;

use crate::blob::BlobRef;

const PREFIX: &str = "blob://sha256/";

/// The files of a run folder that may name blobs.
const STATE_FILES: [&str; 5] = [
    "checkpoint.json",
    "timeline.jsonl",
    "manifest.json",
    "conclusion.json",
    "progress.jsonl",
];

/// Every blob named by any run under `runs_root` (unreadable files are skipped; a run that
/// cannot be read keeps nothing alive, so check `heddle ps -a` before collecting).
pub fn referenced_blobs(runs_root: &Path) -> HashSet<BlobRef> {
    let mut found = HashSet::new();
    let Ok(runs) = std::fs::read_dir(runs_root) else {
        return found;
    };
    for run in runs.filter_map(Result::ok) {
        collect_run(&run.path(), &mut found);
    }
    found
}

/// Every blob named by the run in `run` (its folder) and the child runs in it.
pub fn run_blobs(run: &Path) -> HashSet<BlobRef> {
    let mut found = HashSet::new();
    collect_run(run, &mut found);
    found
}

fn collect_run(run: &Path, found: &mut HashSet<BlobRef>) {
    for name in STATE_FILES {
        if let Ok(text) = std::fs::read_to_string(run.join(name)) {
            collect_text(&text, found);
        }
    }
    let Ok(stages) = std::fs::read_dir(run.join("nodes")) else {
        return;
    };
    for stage in stages.filter_map(Result::ok) {
        if let Ok(text) = std::fs::read_to_string(stage.path().join("status.json")) {
            collect_text(&text, found);
        }
        let child = stage.path().join("child");
        if child.is_dir() {
            collect_run(&child, found);
        }
    }
}

/// Adds every well-formed blob ref in `text`.
pub fn collect_text(text: &str, found: &mut HashSet<BlobRef>) {
    let mut rest = text;
    while let Some(at) = rest.find(PREFIX) {
        let hex_start = at + PREFIX.len();
        let hex: String = rest[hex_start..].chars().take(64).collect();
        if let Ok(blob) = BlobRef::from_hex(&hex) {
            found.insert(blob);
        }
        rest = &rest[hex_start..];
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn refs_are_found_in_json_and_malformed_ones_ignored() {
        let hex = "ab".repeat(32);
        let text = format!(
            r#"{{"a": "blob://sha256/{hex}", "b": "blob://sha256/xyz", "c": "blob://sha256/{}"}}"#,
            "AB".repeat(32)
        );
        let mut found = HashSet::new();
        collect_text(&text, &mut found);
        assert_eq!(found.len(), 1);
        assert!(found.contains(&BlobRef::from_hex(&hex).unwrap()));
    }
}
