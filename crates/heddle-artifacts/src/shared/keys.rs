//! Where things sit in the shared store, and the check that a run file's path read back
//! from it stays inside the run's folder.

use std::path::{Component, Path, PathBuf};

use object_store::path::Path as StorePath;

use crate::blob::BlobRef;

use super::{SharedFiles, SharedFilesError};

impl SharedFiles {
    /// `runs/{run_id}/` in the store.
    pub(super) fn run_prefix(&self, run_id: &str) -> StorePath {
        self.prefix.child("runs").child(run_id)
    }

    /// The key of the run file `relative` (a path inside the run's folder, `/`-separated).
    pub(super) fn run_file_key(&self, run_id: &str, relative: &str) -> StorePath {
        relative
            .split('/')
            .fold(self.run_prefix(run_id), |key, part| key.child(part))
    }

    /// `blobs/sha256/{hex}` in the store.
    pub(super) fn blob_key(&self, blob: &BlobRef) -> StorePath {
        self.prefix
            .child("blobs")
            .child(blob.algorithm())
            .child(blob.hex())
    }
}

/// The local path of `relative` (a run file's path read from the store) under `folder`;
/// refused unless every part is a plain name (no `..`, no root, nothing hidden).
pub(super) fn local_path(
    folder: &Path,
    key: &str,
    relative: &str,
) -> Result<PathBuf, SharedFilesError> {
    let refused = |why: &str| SharedFilesError::Refused {
        key: key.to_string(),
        why: why.to_string(),
    };
    if relative.is_empty() || relative.contains('\\') || relative.contains('\0') {
        return Err(refused("its path is empty or holds a backslash or NUL"));
    }
    let path = Path::new(relative);
    if !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(refused("its path leads out of the run's folder"));
    }
    if relative.split('/').any(|part| part.starts_with('.')) {
        return Err(refused("its path has a hidden part"));
    }
    Ok(folder.join(path))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::local_path;

    #[test]
    fn only_plain_paths_inside_the_folder_are_taken() {
        let folder = std::path::Path::new("/mirror/run");
        assert_eq!(
            local_path(folder, "k", "nodes/plan/response.md").unwrap(),
            folder.join("nodes/plan/response.md")
        );
        for bad in [
            "",
            "../x",
            "nodes/../../x",
            "/etc/passwd",
            "a\\b",
            ".git/config",
            "nodes/.hidden",
        ] {
            assert!(local_path(folder, "k", bad).is_err(), "{bad}");
        }
    }
}
