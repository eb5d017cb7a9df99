//! Blob store ingest driver for `benches/blob_ingest.sh`.
//!
//! ```text
//! ingest generate DIR MB   write ~MB megabytes of mixed files (many small, some large) of
//!                          pseudo-random content under DIR
//! ingest put STORE DIR     put every file under DIR into the blob store at STORE with
//!                          BlobStore::put_files (the batch API) and print files, bytes, seconds
//!                          and MB/s
//! ingest put-each STORE DIR  the same with one BlobStore::put_file call per file
//! ```

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use heddle_artifacts::BlobStore;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", dir, mb] => match mb.parse::<u64>() {
            Ok(mb) => generate(Path::new(dir), mb * MIB),
            Err(err) => Err(format!("bad size {mb:?}: {err}")),
        },
        ["put", store, dir] => put(Path::new(store), Path::new(dir), true),
        ["put-each", store, dir] => put(Path::new(store), Path::new(dir), false),
        _ => Err(
            "usage: ingest generate DIR MB | ingest put STORE DIR | ingest put-each STORE DIR"
                .to_owned(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ingest: {message}");
            ExitCode::FAILURE
        }
    }
}

/// xoshiro256**: fast, good-enough incompressible bytes.
struct Rng([u64; 4]);

impl Rng {
    fn new(seed: u64) -> Self {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform-ish in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(bytes.get(..chunk.len()).unwrap_or_default());
        }
    }
}

/// Half the bytes in 8 large files, a quarter in 256 KiB–4 MiB files, a quarter in 1–64 KiB
/// files; 500 files per folder.
fn generate(dir: &Path, total: u64) -> Result<(), String> {
    let mut rng = Rng::new(0x4845_4444_4c45);
    let mut sizes = Vec::new();
    let large = (total / 16).max(MIB);
    let mut budget = total / 2;
    while budget >= large {
        sizes.push(large);
        budget -= large;
    }
    for (share, lo, hi) in [(total / 4, 256 * KIB, 4 * MIB), (total / 4, KIB, 64 * KIB)] {
        let mut left = share;
        while left > 0 {
            let size = rng.range(lo, hi).min(left);
            sizes.push(size);
            left -= size;
        }
    }
    let mut buf = vec![0u8; MIB as usize];
    let mut bytes = 0;
    for (i, size) in sizes.iter().enumerate() {
        let folder = dir.join(format!("d{:04}", i / 500));
        if i % 500 == 0 {
            fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        }
        let path = folder.join(format!("f{i:06}.bin"));
        let mut file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut left = *size;
        while left > 0 {
            let n = left.min(MIB) as usize;
            let chunk = buf.get_mut(..n).unwrap_or_default();
            rng.fill(chunk);
            file.write_all(chunk)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            left -= n as u64;
        }
        bytes += size;
    }
    println!("generated {} files, {} bytes", sizes.len(), bytes);
    Ok(())
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            files_under(&entry.path(), out)?;
        } else {
            out.push(entry.path());
        }
    }
    Ok(())
}

fn put(store: &Path, dir: &Path, batch: bool) -> Result<(), String> {
    let mut files = Vec::new();
    files_under(dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
    files.sort();
    let mut bytes = 0;
    for file in &files {
        bytes += fs::metadata(file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .len();
    }
    let store = BlobStore::new(store);
    let start = Instant::now();
    if batch {
        for result in store.put_files(&files) {
            result.map_err(|e| e.to_string())?;
        }
    } else {
        for file in &files {
            store.put_file(file).map_err(|e| e.to_string())?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "put {} files, {} bytes in {secs:.3}s ({:.1} MB/s)",
        files.len(),
        bytes,
        bytes as f64 / secs / 1e6
    );
    Ok(())
}
