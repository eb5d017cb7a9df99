//! `Range: bytes=…` requests for the `heddle-run://` scheme, so a video in the window can
//! seek without the whole file being sent again. One range per request (what media
//! elements ask for); anything else gets the whole file.

/// What to send for a request's `Range` header, given the file's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeAnswer {
    /// No usable range asked for: the whole file, `200`.
    Whole,
    /// Bytes `start..=end`, `206` with `Content-Range`.
    Part { start: u64, end: u64 },
    /// The range lies outside the file: `416`.
    Unsatisfiable,
}

/// Reads a `Range` header value (`bytes=0-`, `bytes=100-199`, `bytes=-500`).
pub fn answer(header: Option<&str>, size: u64) -> RangeAnswer {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return RangeAnswer::Whole;
    };
    if spec.contains(',') {
        return RangeAnswer::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeAnswer::Whole;
    };
    let (first, last) = (first.trim(), last.trim());
    let parse = |text: &str| text.parse::<u64>().ok();
    let (start, end) = match (first.is_empty(), last.is_empty()) {
        // The last N bytes.
        (true, false) => match parse(last) {
            Some(0) | None => return RangeAnswer::Unsatisfiable,
            Some(n) => (size.saturating_sub(n), size.saturating_sub(1)),
        },
        (false, true) => match parse(first) {
            Some(start) => (start, size.saturating_sub(1)),
            None => return RangeAnswer::Whole,
        },
        (false, false) => match (parse(first), parse(last)) {
            (Some(start), Some(end)) if start <= end => (start, end.min(size.saturating_sub(1))),
            (Some(_), Some(_)) => return RangeAnswer::Unsatisfiable,
            _ => return RangeAnswer::Whole,
        },
        (true, true) => return RangeAnswer::Whole,
    };
    if size == 0 || start >= size {
        return RangeAnswer::Unsatisfiable;
    }
    RangeAnswer::Part { start, end }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn the_usual_media_ranges() {
        assert_eq!(
            answer(Some("bytes=0-"), 1000),
            RangeAnswer::Part { start: 0, end: 999 }
        );
        assert_eq!(
            answer(Some("bytes=100-199"), 1000),
            RangeAnswer::Part {
                start: 100,
                end: 199
            }
        );
        assert_eq!(
            answer(Some("bytes=900-5000"), 1000),
            RangeAnswer::Part {
                start: 900,
                end: 999
            }
        );
        assert_eq!(
            answer(Some("bytes=-100"), 1000),
            RangeAnswer::Part {
                start: 900,
                end: 999
            }
        );
        assert_eq!(
            answer(Some("bytes=-5000"), 1000),
            RangeAnswer::Part { start: 0, end: 999 }
        );
    }

    #[test]
    fn no_range_or_one_we_do_not_serve_gives_the_whole_file() {
        assert_eq!(answer(None, 10), RangeAnswer::Whole);
        assert_eq!(answer(Some("items=0-1"), 10), RangeAnswer::Whole);
        assert_eq!(answer(Some("bytes=0-1,4-5"), 10), RangeAnswer::Whole);
        assert_eq!(answer(Some("bytes=x-y"), 10), RangeAnswer::Whole);
    }

    #[test]
    fn ranges_outside_the_file_are_unsatisfiable() {
        assert_eq!(answer(Some("bytes=10-"), 10), RangeAnswer::Unsatisfiable);
        assert_eq!(answer(Some("bytes=5-2"), 10), RangeAnswer::Unsatisfiable);
        assert_eq!(answer(Some("bytes=-0"), 10), RangeAnswer::Unsatisfiable);
        assert_eq!(answer(Some("bytes=0-"), 0), RangeAnswer::Unsatisfiable);
    }
}
