//! Shared by the blob store tests: a store in a temp dir, deterministic content, and
//! listings of what the store holds on disk.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use heddle_artifacts::BlobStore;
use sha2::{Digest, Sha256};

/// SHA-256 of `abc` (FIPS 180-2 test vector).
pub const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

/// Deterministic pseudo-random bytes (xorshift64*), distinct per seed.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        out.extend_from_slice(&state.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    out.truncate(len);
    out
}

pub fn sha_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

pub fn store() -> (tempfile::TempDir, BlobStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = BlobStore::new(dir.path().join("blobs"));
    (dir, store)
}

/// Every regular file under `dir`, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

pub fn blob_files(store: &BlobStore) -> Vec<PathBuf> {
    files_under(&store.root().join("sha256"))
}

pub fn temp_files(store: &BlobStore) -> Vec<PathBuf> {
    files_under(&store.temp_dir())
}

pub fn set_age(path: &Path, age: Duration) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}
