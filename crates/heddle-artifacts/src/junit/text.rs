//! Text helpers of the parser: decoding a file's bytes, placing an error in the
//! document, capping texts, and reading times and attachment markers.

use std::borrow::Cow;

use super::JUnitError;

/// Decodes a file's bytes: UTF-16 with a byte-order mark, otherwise UTF-8 (lossy).
pub(super) fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let utf16 = |rest: &[u8], from: fn([u8; 2]) -> u16| {
        let units = rest.chunks_exact(2).map(|pair| from([pair[0], pair[1]]));
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect::<String>()
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => Cow::Owned(utf16(rest, u16::from_le_bytes)),
        [0xFE, 0xFF, rest @ ..] => Cow::Owned(utf16(rest, u16::from_be_bytes)),
        _ => String::from_utf8_lossy(bytes),
    }
}

/// A [`JUnitError::Xml`] at a byte offset of `xml`.
pub(super) fn xml_error(xml: &str, offset: u64, message: &str) -> JUnitError {
    let offset = usize::try_from(offset).unwrap_or(usize::MAX).min(xml.len());
    let before = &xml.as_bytes()[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // Count characters, not bytes: skip UTF-8 continuation bytes.
    let column = before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
        + 1;
    JUnitError::Xml {
        line: before.iter().filter(|&&b| b == b'\n').count() + 1,
        column,
        message: message.to_string(),
    }
}

/// The paths of `[[ATTACHMENT|path]]` markers.
pub(super) fn attachments(output: &str) -> impl Iterator<Item = String> + '_ {
    output
        .split("[[ATTACHMENT|")
        .skip(1)
        .filter_map(|rest| rest.split_once("]]"))
        .map(|(path, _)| path.trim().to_string())
        .filter(|path| !path.is_empty())
}

/// Trimmed, at most `max` characters (the last one `…` when cut); `None` when empty.
pub(super) fn capped(text: &str, max: usize) -> Option<String> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.char_indices().nth(max.saturating_sub(1)) {
        Some((end, _)) if text[end..].chars().nth(1).is_some() => {
            Some(format!("{}…", text[..end].trim_end()))
        }
        _ => Some(text.to_string()),
    }
}

/// Seconds from a `time` attribute: `1.5`, `0,25` (decimal comma) or `1,234.5`
/// (thousands separator). Negative or non-finite values are `None`.
pub(super) fn seconds(text: &str) -> Option<f64> {
    let text = text.trim();
    let parsed = text.parse::<f64>().ok().or_else(|| {
        if text.contains('.') {
            text.replace(',', "").parse().ok()
        } else {
            text.replace(',', ".").parse().ok()
        }
    })?;
    (parsed.is_finite() && parsed >= 0.0).then_some(parsed)
}
