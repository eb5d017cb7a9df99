//! `BlobRef`: the name of a blob, `blob://sha256/{64 lowercase hex}`, and its parse error.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// The scheme and algorithm every ref starts with.
const PREFIX: &str = "blob://";
/// The only algorithm the store speaks.
const ALGORITHM: &str = "sha256";
/// Hex characters in a SHA-256 digest.
const HEX_LEN: usize = 64;

/// A reference to a blob: `blob://sha256/{64 lowercase hex}`.
///
/// Displays, parses (`FromStr`) and serialises as that string. Checkpoints and context values
/// carry these, never host paths; [`crate::BlobStore::path`] turns one into a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlobRef {
    hex: String,
}

/// Why a string is not a [`BlobRef`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid blob ref `{input}`: {reason}")]
pub struct BlobRefError {
    /// The rejected input (shortened when long).
    pub input: String,
    /// What is wrong with it.
    pub reason: String,
}

impl BlobRefError {
    fn new(input: &str, reason: impl Into<String>) -> Self {
        const MAX: usize = 100;
        let input = if input.chars().count() > MAX {
            let head: String = input.chars().take(MAX).collect();
            format!("{head}…")
        } else {
            input.to_owned()
        };
        BlobRefError {
            input,
            reason: reason.into(),
        }
    }
}

impl BlobRef {
    /// A ref from a bare SHA-256 digest in hex: exactly 64 lowercase hex characters.
    pub fn from_hex(hex: &str) -> Result<Self, BlobRefError> {
        check_hex(hex).map_err(|reason| BlobRefError::new(hex, reason))?;
        Ok(BlobRef {
            hex: hex.to_owned(),
        })
    }

    /// The ref of a raw 32-byte SHA-256 digest.
    pub fn from_digest(digest: [u8; 32]) -> Self {
        BlobRef {
            hex: hex::encode(digest),
        }
    }

    /// The ref `bytes` would be stored under (hashes them; stores nothing).
    pub fn for_bytes(bytes: &[u8]) -> Self {
        Self::from_digest(Sha256::digest(bytes).into())
    }

    /// The hex digest (64 lowercase characters).
    pub fn hex(&self) -> &str {
        &self.hex
    }

    /// The hash algorithm; always `sha256`.
    pub fn algorithm(&self) -> &'static str {
        ALGORITHM
    }
}

/// `Ok` when `hex` is 64 lowercase hex characters, else the reason it is not.
fn check_hex(hex: &str) -> Result<(), String> {
    if hex.is_empty() {
        return Err("the digest is empty; expected 64 lowercase hex characters".to_owned());
    }
    for (position, c) in hex.chars().enumerate() {
        if c.is_ascii_digit() || ('a'..='f').contains(&c) {
            continue;
        }
        if ('A'..='F').contains(&c) {
            return Err(format!(
                "the digest must be lowercase hex; found `{c}` at position {position}"
            ));
        }
        return Err(format!(
            "the digest has a non-hex character `{}` at position {position}",
            c.escape_debug()
        ));
    }
    // Every character is ASCII here, so bytes == characters.
    if hex.len() != HEX_LEN {
        return Err(format!(
            "the digest has {} hex characters; sha256 needs {HEX_LEN}",
            hex.len()
        ));
    }
    Ok(())
}

impl FromStr for BlobRef {
    type Err = BlobRefError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some(rest) = s.strip_prefix(PREFIX) else {
            return Err(BlobRefError::new(
                s,
                format!("expected `{PREFIX}{ALGORITHM}/{{64 lowercase hex}}`"),
            ));
        };
        let Some((algorithm, hex)) = rest.split_once('/') else {
            return Err(BlobRefError::new(
                s,
                format!("missing `/` after the algorithm; expected `{PREFIX}{ALGORITHM}/{{hex}}`"),
            ));
        };
        if algorithm != ALGORITHM {
            return Err(BlobRefError::new(
                s,
                format!(
                    "unsupported hash algorithm `{algorithm}`; only `{ALGORITHM}` is supported"
                ),
            ));
        }
        check_hex(hex).map_err(|reason| BlobRefError::new(s, reason))?;
        Ok(BlobRef {
            hex: hex.to_owned(),
        })
    }
}

impl fmt::Display for BlobRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{ALGORITHM}/{}", self.hex)
    }
}

impl Serialize for BlobRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for BlobRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
