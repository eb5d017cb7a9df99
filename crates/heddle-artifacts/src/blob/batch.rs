//! `put_files`: storing many files at once, with the fsyncs overlapped.
//!
//! Each blob still gets the full treatment (streamed through SHA-256 into a temp file, fsynced,
//! renamed into place), but helper threads do the fsyncs and renames of earlier files while the
//! calling thread reads and hashes the next one, and each touched fan-out folder is synced once
//! at the end instead of after every rename. Every blob is durable when `put_files` returns.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};
use std::thread;

use super::{BlobError, BlobRef, BlobStore, Staged, sync_dir};

/// Staged files waiting for the syncing threads; bounds open temp files and unsynced data.
const QUEUE: usize = 16;
/// Syncing threads: several fsyncs in flight at once overlap their waits for the disk (and
/// share journal commits), so this is worth more than one even on a single disk.
const SYNCERS: usize = 4;

impl BlobStore {
    /// Stores every file in `sources`, like [`BlobStore::put_file`] on each, and returns one
    /// result per source in the same order (one unreadable source does not stop the rest).
    ///
    /// Faster than a loop of `put_file` for many files: fsyncs and renames run on helper threads
    /// while the next file is hashed, and folders are synced once per batch. Sources are read
    /// one at a time on the calling thread.
    pub fn put_files<I, P>(&self, sources: I) -> Vec<Result<BlobRef, BlobError>>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let (tx, rx) = mpsc::sync_channel::<(usize, Staged)>(QUEUE);
        let rx = Mutex::new(rx);
        let (mut results, finished) = thread::scope(|scope| {
            let syncers: Vec<_> = (0..SYNCERS)
                .map(|_| scope.spawn(|| self.finish_queued(&rx)))
                .collect();
            let mut results: Vec<Option<Result<BlobRef, BlobError>>> = Vec::new();
            for (index, source) in sources.into_iter().enumerate() {
                match self.stage_file(source.as_ref()) {
                    Ok(staged) => {
                        results.push(None);
                        if let Err(mpsc::SendError((_, staged))) = tx.send((index, staged)) {
                            // Every syncing thread is gone (they panicked); join re-raises that.
                            drop(staged);
                            break;
                        }
                    }
                    Err(err) => results.push(Some(Err(err))),
                }
            }
            drop(tx);
            let mut finished = Vec::new();
            let mut dirs: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
            for syncer in syncers {
                match syncer.join() {
                    Ok(done) => {
                        for (dir, mut indices) in done.dirs {
                            dirs.entry(dir).or_default().append(&mut indices);
                        }
                        finished.extend(done.results);
                    }
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            // Each touched folder is synced once; one that fails fails every blob renamed
            // into it.
            for (dir, indices) in dirs {
                if let Err(err) = sync_dir(&dir) {
                    for index in indices {
                        finished.push((index, Err(err.clone())));
                    }
                }
            }
            (results, finished)
        });
        for (index, result) in finished {
            if let Some(slot) = results.get_mut(index) {
                *slot = Some(result);
            }
        }
        results
            .into_iter()
            .map(|result| {
                result.unwrap_or_else(|| {
                    Err(BlobError::Io {
                        path: self.root.clone(),
                        message: "put_files: the syncing thread stopped early".to_owned(),
                    })
                })
            })
            .collect()
    }

    /// A syncing thread: fsync + rename staged files until the queue closes. Returns the
    /// results by source index, and the folders to sync with the indices renamed into each.
    fn finish_queued(&self, rx: &Mutex<mpsc::Receiver<(usize, Staged)>>) -> Finished {
        let mut finished = Vec::new();
        let mut dirs: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
        loop {
            let next = match rx.lock() {
                Ok(rx) => rx.recv(),
                Err(poisoned) => poisoned.into_inner().recv(),
            };
            let Ok((index, staged)) = next else {
                break;
            };
            let blob = staged.blob.clone();
            match self.finish(staged) {
                Ok(touched) => {
                    for dir in touched {
                        dirs.entry(dir).or_default().push(index);
                    }
                    finished.push((index, Ok(blob)));
                }
                Err(err) => finished.push((index, Err(err))),
            }
        }
        Finished {
            results: finished,
            dirs,
        }
    }
}

/// What one syncing thread did.
struct Finished {
    /// Results by source index.
    results: Vec<(usize, Result<BlobRef, BlobError>)>,
    /// Folders to sync, with the source indices renamed into each.
    dirs: BTreeMap<PathBuf, Vec<usize>>,
}
