//! Workspace trust: before a workflow's commands and agents run for the first time, the
//! person running it sees what it will do and agrees. Trust is remembered per (content
//! digest, folder) in `$HEDDLE_HOME/trust.json`; a changed workflow, or a changed file it
//! reads as instructions (`@file` prompts and schemas, child workflows), asks again.
//! This module owns the key, the store and the decision; heddle-workflow says what a
//! workflow will do.

use std::io::Read;
use std::path::{Path, PathBuf};

use heddle_workflow::{OsFiles, WorkflowEffects, load_source, workflow_effects};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use ts_rs::TS;

use crate::error::{ApiError, ErrorCode};
use crate::runs::HeddleHome;
use crate::trust_items::{TrustItem, trust_items};

/// The environment variable that trusts every workflow a CLI run starts (`1`, `true` or
/// `yes`), for CI and scripts.
pub const TRUST_ENV: &str = "HEDDLE_TRUST_WORKFLOWS";

/// Most remembered workflows; the oldest are forgotten first.
const MAX_ENTRIES: usize = 2000;

/// Ask what running a workflow will do and whether it is trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowTrustRequest {
    /// Path of the `.dot` file.
    pub workflow_path: String,
    /// Where stages would run (default: the workflow's folder).
    #[serde(default)]
    pub work_dir: Option<String>,
}

/// What running a workflow will do, and whether it may run without asking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowTrust {
    /// The workflow file, absolute.
    pub workflow_path: String,
    /// Its folder, with symlinks resolved (half of the trust key).
    pub folder: String,
    /// SHA-256 of the workflow and every file it reads as instructions (the other half).
    pub digest: String,
    /// Where the run's commands and agents work.
    pub work_dir: String,
    /// It may run without asking: trusted before, or it does nothing that needs trust.
    pub trusted: bool,
    /// What it will do, item by item, as heddle-workflow analysed it.
    pub effects: WorkflowEffects,
    /// The same, worded for a person, in the order to list it (every door shows these).
    pub items: Vec<TrustItem>,
    /// Why remembered trust could not be read (a damaged `trust.json`), if so.
    pub warning: Option<String>,
}

/// One remembered workflow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct TrustEntry {
    digest: String,
    folder: String,
    /// The file it was read from, for the person reading `trust.json`.
    workflow: String,
    trusted_at: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    version: u32,
    workflows: Vec<TrustEntry>,
}

/// What running `source` (the content of the workflow at `workflow_path`) in `work_dir`
/// will do, keyed and checked against the trust remembered in `home`. Blocking (reads the
/// files the workflow refers to).
pub fn assess(
    home: &HeddleHome,
    workflow_path: &Path,
    source: &str,
    work_dir: &Path,
) -> Result<WorkflowTrust, ApiError> {
    let workflow_path =
        std::path::absolute(workflow_path).map_err(|e| ApiError::from_io(workflow_path, &e))?;
    let effects = load_source(source, &workflow_path, &OsFiles)
        .workflow
        .map(|workflow| workflow_effects(&workflow, &workflow_path, &OsFiles))
        .unwrap_or_default();
    let folder = workflow_path.parent().unwrap_or(Path::new("/"));
    let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    let folder = folder.display().to_string();
    let digest = digest(source, &effects.read_files);
    let (remembered, warning) = read_store(home);
    let trusted = effects.is_empty()
        || remembered
            .workflows
            .iter()
            .any(|e| e.digest == digest && e.folder == folder);
    let workflow_path = workflow_path.display().to_string();
    let work_dir = std::path::absolute(work_dir)
        .unwrap_or_else(|_| work_dir.to_path_buf())
        .display()
        .to_string();
    let items = trust_items(&effects, &workflow_path, &folder, &work_dir);
    Ok(WorkflowTrust {
        workflow_path,
        folder,
        digest,
        work_dir,
        trusted,
        effects,
        items,
        warning,
    })
}

/// One writer of `trust.json` at a time in this process (runs start concurrently).
static STORE_WRITE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Remembers `trust`'s workflow as trusted (at time `now`, RFC 3339). Blocking.
pub fn remember(home: &HeddleHome, trust: &WorkflowTrust, now: &str) -> Result<(), ApiError> {
    let _writing = STORE_WRITE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (mut file, _) = read_store(home);
    file.version = 1;
    file.workflows
        .retain(|e| !(e.digest == trust.digest && e.folder == trust.folder));
    file.workflows.push(TrustEntry {
        digest: trust.digest.clone(),
        folder: trust.folder.clone(),
        workflow: trust.workflow_path.clone(),
        trusted_at: now.to_string(),
    });
    let excess = file.workflows.len().saturating_sub(MAX_ENTRIES);
    file.workflows.drain(..excess);
    let path = store_path(home);
    let bytes = serde_json::to_vec_pretty(&file)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display())))?;
    std::fs::create_dir_all(home.root()).map_err(|e| ApiError::from_io(home.root(), &e))?;
    heddle_engine::atomic_file::replace_file(&path, &bytes, true)
        .map_err(|e| ApiError::from_io(&path, &e))
}

/// The refusal for a workflow that is not trusted; `how` says how to consent at this door.
pub fn untrusted(trust: &WorkflowTrust, how: &str) -> ApiError {
    ApiError::new(
        ErrorCode::UntrustedWorkflow,
        format!(
            "{} has not been trusted to run on this machine yet (it runs commands or agents, \
             or reads files outside its folder); review what it will do, then {how}",
            trust.workflow_path
        ),
    )
}

/// Whether the value of [`TRUST_ENV`] says yes.
pub fn env_trusts(value: Option<&str>) -> bool {
    matches!(
        value.map(|v| v.trim().to_ascii_lowercase()).as_deref(),
        Some("1" | "true" | "yes")
    )
}

/// `$HEDDLE_HOME/trust.json`.
pub fn store_path(home: &HeddleHome) -> PathBuf {
    home.root().join("trust.json")
}

/// The remembered workflows; a missing file is none, a damaged one is none with a warning.
fn read_store(home: &HeddleHome) -> (TrustFile, Option<String>) {
    let path = store_path(home);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (TrustFile::default(), None),
        Err(e) => {
            let warning = format!(
                "cannot read {}: {e}; no workflow counts as trusted",
                path.display()
            );
            return (TrustFile::default(), Some(warning));
        }
    };
    match serde_json::from_slice::<TrustFile>(&bytes) {
        Ok(file) => (file, None),
        Err(e) => {
            let warning = format!(
                "{} is damaged ({e}); no workflow counts as trusted until it is trusted again",
                path.display()
            );
            (TrustFile::default(), Some(warning))
        }
    }
}

/// SHA-256 over the workflow's text and, for each file it reads (sorted), its path and
/// content (or a marker when it cannot be read).
fn digest(source: &str, read_files: &[String]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"heddle-trust-1\0");
    hasher.update((source.len() as u64).to_le_bytes());
    hasher.update(source.as_bytes());
    for path in read_files {
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        match file_digest(Path::new(path)) {
            Some(content) => {
                hasher.update([1u8]);
                hasher.update(content);
            }
            None => hasher.update([0u8]),
        }
    }
    hex(&hasher.finalize())
}

fn file_digest(path: &Path) -> Option<[u8; 32]> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = file.read(&mut buffer).ok()?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Some(hasher.finalize().into())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
