//! The last event number in a run's progress.jsonl, found from the end of the file: an
//! event is appended with the next number, so the largest one is among the last lines,
//! and a run of 20,000 stages (tens of megabytes of events) is not read whole each time
//! something appends to it (a resume, a rollback, an answer from another process).
//!
//! A block at the end is read and its whole lines parsed; a torn last line, or lines that
//! are not events, are skipped. When the block holds no numbered event, a block four times
//! larger is read, up to the whole file.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Bytes read from the end at first.
const FIRST_BLOCK: u64 = 64 * 1024;

/// The largest `seq` among the last events of the progress.jsonl at `path` (0 when the
/// file is absent or holds no numbered event).
pub fn last_seq(path: &Path) -> u64 {
    let Ok(mut file) = File::open(path) else {
        return 0;
    };
    let Ok(len) = file.metadata().map(|meta| meta.len()) else {
        return 0;
    };
    let mut block = FIRST_BLOCK;
    loop {
        let start = len.saturating_sub(block);
        let mut text = Vec::new();
        let read = file
            .seek(SeekFrom::Start(start))
            .and_then(|_| file.by_ref().take(len - start).read_to_end(&mut text));
        if read.is_err() {
            return 0;
        }
        // A block that starts mid-file starts mid-line: its first line is not whole.
        let whole = if start == 0 {
            &text[..]
        } else {
            match text.iter().position(|b| *b == b'\n') {
                Some(newline) => &text[newline + 1..],
                None => &[],
            }
        };
        if let Some(seq) = largest_seq(whole) {
            return seq;
        }
        if start == 0 {
            return 0;
        }
        block = block.saturating_mul(4);
    }
}

/// The largest `seq` of the lines in `text` that parse as JSON objects with one.
fn largest_seq(text: &[u8]) -> Option<u64> {
    text.split(|b| *b == b'\n')
        .filter_map(|line| serde_json::from_slice::<serde_json::Value>(line).ok())
        .filter_map(|value| value.get("seq").and_then(serde_json::Value::as_u64))
        .max()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn event(seq: u64, pad: usize) -> String {
        format!("{{\"seq\":{seq},\"text\":\"{}\"}}\n", "x".repeat(pad))
    }

    #[test]
    fn an_absent_or_empty_file_has_no_events() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("progress.jsonl");
        assert_eq!(last_seq(&path), 0);
        std::fs::write(&path, "").unwrap();
        assert_eq!(last_seq(&path), 0);
    }

    #[test]
    fn a_long_file_gives_its_last_number_and_a_torn_line_is_skipped() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("progress.jsonl");
        let mut text: String = (1..=5000).map(|seq| event(seq, 100)).collect();
        text.push_str("{\"seq\":5001,\"te");
        std::fs::write(&path, &text).unwrap();
        assert!(text.len() as u64 > FIRST_BLOCK * 4);
        assert_eq!(last_seq(&path), 5000);
    }

    #[test]
    fn lines_larger_than_the_first_block_are_read_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("progress.jsonl");
        let big = usize::try_from(FIRST_BLOCK).unwrap() * 2;
        let text = format!("{}{}{}", event(1, 10), event(2, big), event(3, big));
        std::fs::write(&path, &text).unwrap();
        assert_eq!(last_seq(&path), 3);
        // Nothing numbered at the end: the search goes back to the start.
        let text = format!("{}{}", event(7, 10), "not json\n".repeat(20_000));
        std::fs::write(&path, &text).unwrap();
        assert_eq!(last_seq(&path), 7);
    }
}
