//! Turns a byte stream into text pieces without splitting a UTF-8 character across two
//! pieces; invalid bytes become U+FFFD.

/// Incremental UTF-8 decoding of a stream read in arbitrary chunks.
#[derive(Debug, Default)]
pub(crate) struct TextDecoder {
    /// Bytes of an incomplete character at the end of the last chunk.
    pending: Vec<u8>,
}

impl TextDecoder {
    /// The text of `chunk` (with what was left over before it), keeping back an incomplete
    /// character at its end.
    pub fn push(&mut self, chunk: &[u8]) -> String {
        self.pending.extend_from_slice(chunk);
        let mut text = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(valid) => {
                    text.push_str(valid);
                    self.pending.clear();
                    return text;
                }
                Err(error) => {
                    let valid_up_to = error.valid_up_to();
                    text.push_str(&String::from_utf8_lossy(&self.pending[..valid_up_to]));
                    match error.error_len() {
                        // An incomplete character at the end: wait for the rest.
                        None => {
                            self.pending.drain(..valid_up_to);
                            return text;
                        }
                        Some(bad) => {
                            text.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid_up_to + bad);
                        }
                    }
                }
            }
        }
    }

    /// What is left at the end of the stream (an incomplete character becomes U+FFFD).
    pub fn finish(&mut self) -> String {
        let rest = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_split_across_chunks_are_kept_whole() {
        let bytes = "héllo wörld €".as_bytes();
        let mut decoder = TextDecoder::default();
        let mut pieces = Vec::new();
        for chunk in bytes.chunks(1) {
            pieces.push(decoder.push(chunk));
        }
        pieces.push(decoder.finish());
        assert_eq!(pieces.concat(), "héllo wörld €");
        assert!(pieces.iter().all(|p| p.chars().count() <= 1));
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        let mut decoder = TextDecoder::default();
        assert_eq!(decoder.push(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(decoder.push(b"\xe2\x82"), "");
        assert_eq!(decoder.finish(), "\u{fffd}");
    }
}
