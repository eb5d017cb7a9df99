//! Reading what a run captured: the manifests under `artifacts/{stage}/retry_{n}/`, and
//! copying one captured file out safely.

use std::path::{Component, Path, PathBuf};

use heddle_engine::RunDir;
use heddle_engine::run_records::ArtifactListing;
pub use heddle_engine::run_records::ListedArtifact;

use crate::capture::{CaptureReport, MANIFEST_FILE};

/// Lists artifacts from the manifests a run's captures wrote (what the run index reads).
#[derive(Debug, Clone, Copy, Default)]
pub struct ArtifactManifests;

impl ArtifactListing for ArtifactManifests {
    fn list(&self, run: &RunDir) -> Vec<ListedArtifact> {
        list_artifacts(run)
    }

    fn list_stages(&self, run: &RunDir, stages: &[String]) -> Vec<ListedArtifact> {
        let mut listed = Vec::new();
        for stage in stages {
            // A stage folder is one plain name under `artifacts/`.
            let mut parts = Path::new(stage).components();
            if matches!(
                (parts.next(), parts.next()),
                (Some(Component::Normal(_)), None)
            ) {
                list_stage(run, stage, &mut listed);
            }
        }
        sort(&mut listed);
        listed.dedup();
        listed
    }
}

/// Every captured artifact of `run`, by stage folder, attempt and path.
pub fn list_artifacts(run: &RunDir) -> Vec<ListedArtifact> {
    let mut listed = Vec::new();
    let Ok(stages) = std::fs::read_dir(run.artifacts()) else {
        return listed;
    };
    for stage in stages.filter_map(Result::ok) {
        let stage_name = stage.file_name().to_string_lossy().into_owned();
        list_stage(run, &stage_name, &mut listed);
    }
    sort(&mut listed);
    listed
}

fn sort(listed: &mut [ListedArtifact]) {
    listed.sort_by(|a, b| (&a.stage, a.retry, &a.path).cmp(&(&b.stage, b.retry, &b.path)));
}

/// Adds the artifacts of the stage folder `stage_name` (every attempt) to `listed`.
fn list_stage(run: &RunDir, stage_name: &str, listed: &mut Vec<ListedArtifact>) {
    let node = node_of_stage(stage_name).to_string();
    let Ok(retries) = std::fs::read_dir(run.artifacts().join(stage_name)) else {
        return;
    };
    for retry in retries.filter_map(Result::ok) {
        let retry_name = retry.file_name().to_string_lossy().into_owned();
        let Some(n) = retry_name
            .strip_prefix("retry_")
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(retry.path().join(MANIFEST_FILE)) else {
            continue;
        };
        let Ok(report) = serde_json::from_str::<CaptureReport>(&text) else {
            continue;
        };
        for artifact in report.artifacts {
            listed.push(ListedArtifact {
                stage: stage_name.to_string(),
                node: node.clone(),
                retry: n,
                path: format!("{stage_name}/{retry_name}/{}", artifact.path),
                source: artifact.path,
                size: artifact.size,
                sha256: artifact.sha256,
                media_type: artifact.media_type,
                kind: artifact.kind,
            });
        }
    }
}

/// The node a stage folder belongs to: the folder name without its `-rerun_{k}` and
/// `-visit_{n}` suffixes (`unit-visit_2-rerun_3` is `unit`).
pub fn node_of_stage(stage: &str) -> &str {
    fn strip<'a>(name: &'a str, suffix: &str) -> &'a str {
        match name.rsplit_once(suffix) {
            Some((node, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => node,
            _ => name,
        }
    }
    strip(strip(stage, "-rerun_"), "-visit_")
}

/// The file `path` (as listed) names inside the run's artifacts, refusing anything that
/// would leave that folder.
pub fn artifact_file(run: &RunDir, path: &str) -> Result<PathBuf, String> {
    let relative = Path::new(path);
    if relative.as_os_str().is_empty()
        || relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(format!(
            "`{path}` is not a path inside the run's artifacts (see `heddle artifact list`)"
        ));
    }
    let file = run.artifacts().join(relative);
    if !file.is_file() {
        return Err(format!(
            "no artifact `{path}` in {} (see `heddle artifact list`)",
            run.artifacts().display()
        ));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::node_of_stage;

    #[test]
    fn the_node_is_the_stage_folder_without_its_visit_and_rerun() {
        assert_eq!(node_of_stage("unit"), "unit");
        assert_eq!(node_of_stage("unit-visit_2"), "unit");
        assert_eq!(node_of_stage("unit-rerun_2"), "unit");
        assert_eq!(node_of_stage("unit-visit_2-rerun_3"), "unit");
        assert_eq!(node_of_stage("unit-visit_x"), "unit-visit_x");
        assert_eq!(node_of_stage("unit-rerun_"), "unit-rerun_");
    }
}
