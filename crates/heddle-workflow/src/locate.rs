//! Mapping positions inside attribute values (a condition, a stylesheet) back to the file.

use heddle_dot::{Id, IdKind, Span};

/// Line starts of a source text, to turn byte offsets into [`Span`]s.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(source: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The span of bytes `start..end` of `source`, with 1-based line and character column.
    pub(crate) fn span(&self, source: &str, start: usize, end: usize) -> Span {
        let start = floor_char_boundary(source, start.min(source.len()));
        let end = end.clamp(start, source.len());
        let line_index = self
            .starts
            .partition_point(|s| *s <= start)
            .saturating_sub(1);
        let line_start = self.starts.get(line_index).copied().unwrap_or(0);
        let column = source
            .get(line_start..start)
            .map_or(0, |s| s.chars().count());
        Span {
            start,
            end,
            line: u32::try_from(line_index + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
        }
    }
}

fn floor_char_boundary(source: &str, mut offset: usize) -> usize {
    while offset > 0 && !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// For a value `id`, the source byte offset of each byte of `id.unescaped()`, plus one
/// entry for its end. `None` when the mapping cannot be recovered from the source.
fn offsets(source: &str, id: &Id) -> Option<Vec<usize>> {
    let raw = source.get(id.span.start..id.span.end)?;
    let base = id.span.start;
    match id.kind {
        IdKind::Quoted => quoted_offsets(raw, base, &id.unescaped()),
        IdKind::Html => Some((0..=id.value.len()).map(|i| base + 1 + i).collect()),
        _ => Some((0..=id.value.len()).map(|i| base + i).collect()),
    }
}

/// Decodes a quoted id (`"a\"b" + "c"`) the way [`Id::unescaped`] does, recording where each
/// decoded byte came from. Checks the decoding matches `expected`.
fn quoted_offsets(raw: &str, base: usize, expected: &str) -> Option<Vec<usize>> {
    let mut map = Vec::with_capacity(expected.len() + 1);
    let mut decoded = String::with_capacity(expected.len());
    let mut push = |text: &str, at: usize, map: &mut Vec<usize>| {
        decoded.push_str(text);
        map.extend(std::iter::repeat_n(at, text.len()));
    };
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < raw.len() {
        let c = raw[i..].chars().next()?;
        if !in_string {
            if c == '"' {
                in_string = true;
            }
            i += c.len_utf8();
            continue;
        }
        match c {
            '"' => {
                in_string = false;
                i += 1;
            }
            '\\' => {
                let next = raw[i + 1..].chars().next();
                match next {
                    Some('\n') => i += 2,
                    Some('\r') if bytes.get(i + 2) == Some(&b'\n') => i += 3,
                    Some('n') => {
                        push("\n", base + i, &mut map);
                        i += 2;
                    }
                    Some('t') => {
                        push("\t", base + i, &mut map);
                        i += 2;
                    }
                    Some(e @ ('\\' | '"')) => {
                        push(e.encode_utf8(&mut [0; 4]), base + i, &mut map);
                        i += 2;
                    }
                    Some(other) => {
                        push("\\", base + i, &mut map);
                        push(other.encode_utf8(&mut [0; 4]), base + i + 1, &mut map);
                        i += 1 + other.len_utf8();
                    }
                    None => {
                        push("\\", base + i, &mut map);
                        i += 1;
                    }
                }
            }
            _ => {
                push(c.encode_utf8(&mut [0; 4]), base + i, &mut map);
                i += c.len_utf8();
            }
        }
    }
    map.push(base + raw.rfind('"').unwrap_or(raw.len()));
    (decoded == expected).then_some(map)
}

/// The source byte range of bytes `start..end` of `id.unescaped()`. Falls back to the whole
/// value when the mapping cannot be recovered.
pub(crate) fn value_range(source: &str, id: &Id, start: usize, end: usize) -> (usize, usize) {
    match offsets(source, id) {
        Some(map) if !map.is_empty() => {
            let last = map.len() - 1;
            let s = map[start.min(last)];
            let e = if end > start {
                // One past the source position of the last byte in range.
                let last_byte = map[(end - 1).min(last)];
                let width = source[last_byte..].chars().next().map_or(1, char::len_utf8);
                (last_byte + width).max(s)
            } else {
                s
            };
            (s, e)
        }
        _ => (id.span.start, id.span.end),
    }
}
