//! Run files for everyone: a run's folder, and the blobs it names, copied to a shared object
//! store (a folder every machine mounts, or any S3-compatible bucket) by the machine that runs
//! it ([`SharedFiles::upload_run`]), and copied back by any machine that shows it
//! ([`SharedFiles::download_run`]). In the store a run's files sit under `runs/{run_id}/`
//! with their paths in the folder, and blobs under `blobs/sha256/{hex}` as in the local blob
//! store (content-addressed: written once, shared by every run).
//!
//! What is read back is untrusted: a file's path must stay inside the run's folder, and a
//! blob must hash to its name, or it is refused.

mod download;
mod keys;
mod upload;

use std::path::PathBuf;
use std::sync::Arc;

use object_store::ObjectStore;
use object_store::path::Path as StorePath;

pub use download::{DownloadMarks, DownloadReport};
pub use upload::{UploadMarks, UploadReport};

/// A failure to reach or use the shared run files.
#[derive(Debug, thiserror::Error)]
pub enum SharedFilesError {
    /// The URL names no store Heddle can use.
    #[error(
        "run files URL `{url}`: {message} (give `file:///shared/folder` or \
         `s3://bucket/prefix`)"
    )]
    Url {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        message: String,
    },
    /// The store refused or failed a request.
    #[error("shared run files at {store}: {message}")]
    Store {
        /// The store, as configured.
        store: String,
        /// What failed.
        message: String,
    },
    /// A local file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The store holds something that cannot be taken in (a path leading out of the run's
    /// folder, a blob that does not hash to its name).
    #[error("shared run files: `{key}` is refused: {why}")]
    Refused {
        /// Its key in the store.
        key: String,
        /// Why.
        why: String,
    },
}

/// Result of the shared run files.
pub type Result<T> = std::result::Result<T, SharedFilesError>;

/// A shared object store holding run files. Cheap to clone.
#[derive(Debug, Clone)]
pub struct SharedFiles {
    store: Arc<dyn ObjectStore>,
    /// Where in the store Heddle's files start.
    prefix: StorePath,
    /// The URL as given, for messages.
    shown: String,
}

impl SharedFiles {
    /// The store `url` names: `file:///path/to/folder`, or `s3://bucket[/prefix]` with the
    /// S3 settings found in `env` (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_ALLOW_HTTP`, ...).
    pub fn open(url: &str, env: &[(String, String)]) -> Result<SharedFiles> {
        let refused = |message: String| SharedFilesError::Url {
            url: url.to_string(),
            message,
        };
        let parsed = url::Url::parse(url).map_err(|e| refused(e.to_string()))?;
        if !matches!(parsed.scheme(), "file" | "s3") {
            return Err(refused(format!(
                "`{}:` is not a store Heddle uses",
                parsed.scheme()
            )));
        }
        let options = env
            .iter()
            .filter(|(key, _)| key.starts_with("AWS_"))
            .map(|(key, value)| (key.to_ascii_lowercase(), value.clone()));
        let (store, prefix) =
            object_store::parse_url_opts(&parsed, options).map_err(|e| refused(e.to_string()))?;
        Ok(SharedFiles {
            store: Arc::from(store),
            prefix,
            shown: url.to_string(),
        })
    }

    /// The URL the store was opened with.
    pub fn url(&self) -> &str {
        &self.shown
    }

    fn store_error(&self, error: impl std::fmt::Display) -> SharedFilesError {
        SharedFilesError::Store {
            store: self.shown.clone(),
            message: error.to_string(),
        }
    }
}
