//! A patch file a run wrote (a stage's `diff.patch`, the run's `final.patch`) read back as
//! files and hunks by git2's patch parser, so no reader of the run parses patch text
//! itself. A patch cut at its size limit ends in [`CUT_NOTE`]; the file it was cut inside
//! is left out and the result says it was cut.

use serde::Serialize;

use crate::hunks::{FileChange, file_changes};

/// The line a stage's `diff.patch` ends with when it was cut at its size limit.
pub const CUT_NOTE: &str = "[diff cut at 4 MB; see the checkpoint commits for the rest]";

/// A patch file as files and hunks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PatchFiles {
    /// The files of the patch, with their hunks.
    pub files: Vec<FileChange>,
    /// The patch was cut at its size limit: files after (and the one at) the cut are missing.
    pub cut: bool,
}

/// Why patch text could not be read.
#[derive(Debug, thiserror::Error)]
#[error("not a patch git can read: {0}")]
pub struct PatchTextError(#[from] git2::Error);

/// Reads the files and hunks of patch text as git writes it.
///
/// # Errors
///
/// [`PatchTextError`] when git2 cannot parse the text.
pub fn read_patch(bytes: &[u8]) -> Result<PatchFiles, PatchTextError> {
    let (bytes, cut) = whole_files(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(PatchFiles {
            files: Vec::new(),
            cut,
        });
    }
    let diff = git2::Diff::from_buffer(bytes)?;
    Ok(PatchFiles {
        files: file_changes(&diff)?,
        cut,
    })
}

/// The text up to the cut note's file, and whether there was a cut.
fn whole_files(bytes: &[u8]) -> (&[u8], bool) {
    let trimmed = bytes.trim_ascii_end();
    let Some(before) = trimmed.strip_suffix(CUT_NOTE.as_bytes()) else {
        return (bytes, false);
    };
    let start_of_cut_file = before
        .windows(b"\ndiff --git ".len())
        .rposition(|w| w == b"\ndiff --git ")
        .map_or(0, |i| i + 1);
    (&before[..start_of_cut_file], true)
}
