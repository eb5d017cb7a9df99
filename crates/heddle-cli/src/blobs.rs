//! `heddle blobs verify`: checking the blob store through heddle-api, rendered for the
//! terminal (collecting it is part of `heddle gc`).

use std::io::Write;

use heddle_api::RunLibrary;

/// `heddle blobs verify`; `Ok(false)` when something is corrupt or unreadable.
pub fn verify(library: &RunLibrary, json: bool, out: &mut dyn Write) -> Result<bool, String> {
    let report = library.verify_blobs();
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
            library.home().blobs().display(),
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
