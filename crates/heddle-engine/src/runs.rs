//! Finding runs on disk: resolving an id or unique prefix to a run folder, and linking a run
//! kept elsewhere into the runs folder. (Listing runs is the run index's job.)

use std::path::{Path, PathBuf};

use crate::error::EngineError;
use crate::rundir::RunDir;

/// Links the run folder `run_dir`, kept outside `runs_root` (`heddle run --run-dir`), from
/// `runs_root/{folder_name}`, so lookups by id, listings and the run index find it like any
/// other run. A folder directly in `runs_root` needs no link. The error says why the run is
/// not linked (the run goes on; it is found by its folder only).
pub fn link_outside_run(runs_root: &Path, run_dir: &Path, folder_name: &str) -> Result<(), String> {
    if run_dir.parent() == Some(runs_root) {
        return Ok(());
    }
    let link = runs_root.join(folder_name);
    let not_linked = |why: String| {
        format!(
            "the run in {} is not listed in {} ({why}); open it by its folder",
            run_dir.display(),
            runs_root.display()
        )
    };
    std::fs::create_dir_all(runs_root).map_err(|e| not_linked(crate::describe_io(&e)))?;
    if std::fs::symlink_metadata(&link).is_ok() {
        return Err(not_linked(format!("{} already exists", link.display())));
    }
    symlink_folder(run_dir, &link).map_err(|e| not_linked(crate::describe_io(&e)))
}

#[cfg(unix)]
fn symlink_folder(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink_folder(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

/// The run `id` names: a path to a run folder, a full run id, a folder name, or any unique
/// prefix of a run id or folder name (without case).
pub fn find_run(runs_root: &Path, id: &str) -> Result<RunDir, EngineError> {
    let as_path = Path::new(id);
    if as_path.join("manifest.json").is_file() {
        return Ok(RunDir::at(as_path));
    }
    let wanted = id.trim().to_ascii_uppercase();
    if wanted.is_empty() {
        return Err(EngineError::RunLookup(
            "give a run id or a prefix of one".into(),
        ));
    }
    let entries = std::fs::read_dir(runs_root).map_err(|e| {
        EngineError::RunLookup(format!(
            "no runs folder at {} ({e}); is HEDDLE_HOME right?",
            runs_root.display()
        ))
    })?;
    let mut matches: Vec<PathBuf> = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().to_ascii_uppercase();
        let ulid = name.split_once('-').map_or(name.as_str(), |(_, u)| u);
        if ulid == wanted || name == wanted {
            return Ok(RunDir::at(entry.path()));
        }
        if ulid.starts_with(&wanted) || name.starts_with(&wanted) {
            matches.push(entry.path());
        }
    }
    match matches.len() {
        1 => Ok(RunDir::at(matches.remove(0))),
        0 => Err(EngineError::RunLookup(format!(
            "no run matches `{id}` in {}; `heddle ps -a` lists them",
            runs_root.display()
        ))),
        n => {
            matches.sort();
            let names: Vec<String> = matches
                .iter()
                .take(5)
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect();
            Err(EngineError::RunAmbiguous(format!(
                "`{id}` matches {n} runs ({}{}); give more characters",
                names.join(", "),
                if n > 5 { ", ..." } else { "" }
            )))
        }
    }
}
