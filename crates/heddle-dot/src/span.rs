//! Source positions.

use serde::{Deserialize, Serialize};

/// A region of the source text.
///
/// `start`/`end` are byte offsets (end exclusive). `line` and `column` locate `start`:
/// both are 1-based and the column counts Unicode scalar values, not bytes, so it matches
/// what an editor shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, in characters.
    pub column: u32,
}
