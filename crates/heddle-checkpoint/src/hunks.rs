//! A diff as data the UI renders without parsing text: per changed file its paths,
//! status, mode change, binary and too-large flags, line counts, and its hunks with
//! numbered lines, read from a git2 [`Diff`] (two trees, or patch text git2 parsed).

use std::fmt;

use git2::{Delta, Diff, DiffLineType, Patch};
use serde::Serialize;

/// A file whose hunks have more lines than this is sent without them ([`FileChange::too_large`]).
pub const MAX_FILE_LINES: usize = 20_000;
/// A file whose patch text is larger than this is sent without its hunks.
pub const MAX_FILE_PATCH_BYTES: usize = 2 * 1024 * 1024;

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// New in the later tree.
    Added,
    /// Gone from the later tree.
    Deleted,
    /// Same path, content or mode changed.
    Modified,
    /// Moved (perhaps also changed); [`FileChange::old_path`] says from where.
    Renamed,
    /// Copied from [`FileChange::old_path`].
    Copied,
    /// A file became a symlink or the reverse.
    Typechange,
}

impl FileStatus {
    /// The status as the API writes it (`added`, `renamed`, …).
    pub fn name(self) -> &'static str {
        match self {
            FileStatus::Added => "added",
            FileStatus::Deleted => "deleted",
            FileStatus::Modified => "modified",
            FileStatus::Renamed => "renamed",
            FileStatus::Copied => "copied",
            FileStatus::Typechange => "typechange",
        }
    }

    fn of(delta: Delta) -> FileStatus {
        match delta {
            Delta::Added => FileStatus::Added,
            Delta::Deleted => FileStatus::Deleted,
            Delta::Renamed => FileStatus::Renamed,
            Delta::Copied => FileStatus::Copied,
            Delta::Typechange => FileStatus::Typechange,
            _ => FileStatus::Modified,
        }
    }
}

impl fmt::Display for FileStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FileChange {
    /// Its path (the new one for renames and copies, the old one for deletions).
    pub path: String,
    /// Its path before, when it was renamed or copied.
    pub old_path: Option<String>,
    /// Added, deleted, modified, renamed, copied or changed type.
    pub status: FileStatus,
    /// Its file mode before and after (`100644` → `100755`), when both sides exist and
    /// their modes differ.
    pub mode_change: Option<ModeChange>,
    /// Binary content: no line counts, no hunks.
    pub binary: bool,
    /// Its diff is over [`MAX_FILE_LINES`] lines or [`MAX_FILE_PATCH_BYTES`] bytes, so
    /// `hunks` is empty; the counts are still right.
    pub too_large: bool,
    /// Lines added.
    pub additions: usize,
    /// Lines removed.
    pub deletions: usize,
    /// The changed regions with their context, in file order.
    pub hunks: Vec<DiffHunk>,
}

/// A file mode change, as octal text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModeChange {
    /// Mode before (`100644`).
    pub from: String,
    /// Mode after (`100755`).
    pub to: String,
}

/// One `@@ -a,b +c,d @@` region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DiffHunk {
    /// The header line as git writes it, including the enclosing function git found after
    /// the second `@@`.
    pub header: String,
    /// First line of the region in the old file (0 when the old file is empty).
    pub old_start: u32,
    /// Lines of the old file the region spans.
    pub old_count: u32,
    /// First line of the region in the new file (0 when the new file is empty).
    pub new_start: u32,
    /// Lines of the new file the region spans.
    pub new_count: u32,
    /// The region's lines in order.
    pub lines: Vec<DiffLine>,
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DiffLine {
    /// Unchanged, added, removed, or git's note that the line before has no newline.
    pub kind: LineKind,
    /// The line without its `+`/`-`/` ` sign and line ending (invalid UTF-8 replaced).
    pub text: String,
    /// Its number in the old file (none for added lines and notes).
    pub old_line: Option<u32>,
    /// Its number in the new file (none for removed lines and notes).
    pub new_line: Option<u32>,
}

/// What a line of a hunk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// In both files.
    Context,
    /// Only in the new file.
    Added,
    /// Only in the old file.
    Removed,
    /// `\ No newline at end of file`: the line before ends the file without a newline.
    NoNewline,
}

/// The text git prints for a [`LineKind::NoNewline`] line.
pub const NO_NEWLINE_TEXT: &str = "\\ No newline at end of file";

/// Every file of `diff`, with its hunks (renames must already be found, if wanted).
pub fn file_changes(diff: &Diff<'_>) -> Result<Vec<FileChange>, git2::Error> {
    (0..diff.deltas().len())
        .filter_map(|i| file_change(diff, i).transpose())
        .collect()
}

fn file_change(diff: &Diff<'_>, index: usize) -> Result<Option<FileChange>, git2::Error> {
    let Some(delta) = diff.get_delta(index) else {
        return Ok(None);
    };
    let mut patch = Patch::from_diff(diff, index)?;
    let binary = delta.flags().is_binary() || patch.is_none();
    let status = FileStatus::of(delta.status());
    let path = |f: git2::DiffFile<'_>| f.path().map(|p| p.to_string_lossy().into_owned());
    let new_path = path(delta.new_file());
    let old_path = path(delta.old_file());
    let (old_mode, new_mode) = (
        u32::from(delta.old_file().mode()),
        u32::from(delta.new_file().mode()),
    );
    let mode_change =
        (old_mode != 0 && new_mode != 0 && old_mode != new_mode).then(|| ModeChange {
            from: format!("{old_mode:o}"),
            to: format!("{new_mode:o}"),
        });
    let mut change = FileChange {
        path: match status {
            FileStatus::Deleted => old_path.clone().or(new_path),
            _ => new_path.or_else(|| old_path.clone()),
        }
        .unwrap_or_default(),
        old_path: matches!(status, FileStatus::Renamed | FileStatus::Copied)
            .then_some(old_path)
            .flatten(),
        status,
        mode_change,
        binary,
        too_large: false,
        additions: 0,
        deletions: 0,
        hunks: Vec::new(),
    };
    let Some(patch) = patch.as_mut().filter(|_| !binary) else {
        return Ok(Some(change));
    };
    let (context, additions, deletions) = patch.line_stats()?;
    change.additions = additions;
    change.deletions = deletions;
    if context + additions + deletions > MAX_FILE_LINES
        || patch.size(true, true, false) > MAX_FILE_PATCH_BYTES
    {
        change.too_large = true;
        return Ok(Some(change));
    }
    change.hunks = (0..patch.num_hunks())
        .map(|h| hunk(patch, h))
        .collect::<Result<_, _>>()?;
    Ok(Some(change))
}

fn hunk(patch: &Patch<'_>, index: usize) -> Result<DiffHunk, git2::Error> {
    let (header, count) = patch.hunk(index)?;
    let mut lines = Vec::with_capacity(count);
    for l in 0..count {
        let line = patch.line_in_hunk(index, l)?;
        let kind = match line.origin_value() {
            DiffLineType::Addition => LineKind::Added,
            DiffLineType::Deletion => LineKind::Removed,
            DiffLineType::Context => LineKind::Context,
            DiffLineType::ContextEOFNL | DiffLineType::AddEOFNL | DiffLineType::DeleteEOFNL => {
                lines.push(DiffLine {
                    kind: LineKind::NoNewline,
                    text: NO_NEWLINE_TEXT.to_string(),
                    old_line: None,
                    new_line: None,
                });
                continue;
            }
            _ => continue,
        };
        lines.push(DiffLine {
            kind,
            text: line_text(line.content()),
            old_line: line.old_lineno(),
            new_line: line.new_lineno(),
        });
    }
    Ok(DiffHunk {
        header: line_text(header.header()),
        old_start: header.old_start(),
        old_count: header.old_lines(),
        new_start: header.new_start(),
        new_count: header.new_lines(),
        lines,
    })
}

/// Bytes of one line without its line ending, invalid UTF-8 replaced.
fn line_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}
