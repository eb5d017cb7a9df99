//! `heddle blobs verify` and `heddle gc`: checking and collecting the blob store.

use std::io::Write;

use heddle_artifacts::{BlobStore, referenced_blobs};
use heddle_engine::RunStatus;
use heddle_engine::runs::list_runs;

use crate::run::Environment;

/// `heddle blobs verify`; `Ok(false)` when something is corrupt or unreadable.
pub fn verify(json: bool, env: &Environment, out: &mut dyn Write) -> Result<bool, String> {
    let store = BlobStore::new(env.home.blobs());
    let report = store.verify();
    let write = |out: &mut dyn Write, text: String| {
        writeln!(out, "{text}").map_err(|e| format!("cannot write the report: {e}"))
    };
    if json {
        write(
            out,
            serde_json::to_string_pretty(&report).unwrap_or_default(),
        )?;
        return Ok(report.is_ok());
    }
    write(
        out,
        format!(
            "{} blob(s), {} byte(s) re-hashed in {}: {} ok",
            report.blobs,
            report.bytes,
            store.root().display(),
            report.ok
        ),
    )?;
    for corrupt in &report.corrupt {
        write(
            out,
            format!(
                "corrupt: {} holds content hashing to {} ({})",
                corrupt.path.display(),
                corrupt.actual,
                corrupt.blob
            ),
        )?;
    }
    for entry in &report.unreadable {
        write(
            out,
            format!("unreadable: {}: {}", entry.path.display(), entry.message),
        )?;
    }
    for path in &report.misnamed {
        write(out, format!("not a blob (left alone): {}", path.display()))?;
    }
    for path in &report.temp_files {
        write(out, format!("temporary file: {}", path.display()))?;
    }
    Ok(report.is_ok())
}

/// `heddle gc`.
pub fn gc(dry_run: bool, json: bool, env: &Environment, out: &mut dyn Write) -> Result<(), String> {
    let running: Vec<String> = list_runs(&env.home.runs())
        .into_iter()
        .filter(|r| r.status == RunStatus::Running)
        .map(|r| r.run_id)
        .collect();
    if !running.is_empty() && !dry_run {
        return Err(format!(
            "{} run(s) are running ({}); their newest blobs may not be referenced yet. Run `heddle gc` when they end, or `heddle gc --dry-run` to see what it would remove",
            running.len(),
            running.join(", ")
        ));
    }
    let referenced = referenced_blobs(&env.home.runs());
    let store = BlobStore::new(env.home.blobs());
    let report = store.gc(&referenced, dry_run).map_err(|e| e.to_string())?;
    let write = |out: &mut dyn Write, text: String| {
        writeln!(out, "{text}").map_err(|e| format!("cannot write the report: {e}"))
    };
    if json {
        return write(
            out,
            serde_json::to_string_pretty(&report).unwrap_or_default(),
        );
    }
    let verb = if dry_run { "would remove" } else { "removed" };
    for entry in &report.removed {
        write(out, format!("{verb} {} ({} bytes)", entry.blob, entry.size))?;
    }
    write(
        out,
        format!(
            "{verb} {} blob(s), {} byte(s); kept {} referenced blob(s), {} byte(s)",
            report.removed.len(),
            report.bytes_freed,
            report.kept,
            report.kept_bytes
        ),
    )
}
