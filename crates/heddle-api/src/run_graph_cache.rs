//! [`RunGraphCache`]: the run graphs (`run_graph`) parsed lately, so that opening a run
//! again does not parse its `graph.dot` again. A run's `graph.dot` is written once, when the
//! run starts, and a 20,000-node one takes 60 to 240 ms to read, parse and check; the run
//! screen asks for it each time the run is opened.
//!
//! An entry is keyed by the file's path and stands for the file as it was when parsed (its
//! length, modification time and inode): a file that changed since (a run folder copied over, a
//! shared run fetched again) is parsed again. The findings kept with a graph are those of
//! when it was parsed: what else they read (the run's config beside it) is written with the
//! run folder and does not change either. (A rewrite in place that kept the length and fell
//! within one mtime tick would go unseen; Heddle writes run files whole and renames them
//! into place, which changes the inode.) The cache keeps the few graphs used last, up to a
//! bound on their files' total size, so that a server left open on a team's runs does not
//! grow without end.

use std::collections::VecDeque;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use crate::run_workflow::RunWorkflow;

/// How many graphs the cache keeps at most.
pub const MAX_CACHED_GRAPHS: usize = 16;

/// The most `graph.dot` bytes the cached graphs may stand for together. A parsed graph takes
/// a few times its file's size; a graph whose file alone is over this is not kept.
pub const MAX_CACHED_GRAPH_BYTES: u64 = 32 * 1024 * 1024;

/// The file a cached graph was parsed from, as it was then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphFileStamp {
    path: PathBuf,
    len: u64,
    modified: Option<SystemTime>,
    /// The file's inode, where there are inodes: a file written whole and renamed into
    /// place is a new file even when its length and time are the old ones.
    inode: Option<u64>,
}

impl GraphFileStamp {
    /// The stamp of `path` as its metadata says it is now.
    pub fn of(path: &Path, metadata: &Metadata) -> Self {
        GraphFileStamp {
            path: path.to_path_buf(),
            len: metadata.len(),
            modified: metadata.modified().ok(),
            inode: inode_of(metadata),
        }
    }
}

#[cfg(unix)]
fn inode_of(metadata: &Metadata) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    Some(metadata.ino())
}

#[cfg(not(unix))]
fn inode_of(_metadata: &Metadata) -> Option<u64> {
    None
}

#[derive(Debug)]
struct CachedGraph {
    stamp: GraphFileStamp,
    graph: Arc<RunWorkflow>,
}

/// The run graphs parsed lately, most recently used last. Cloning shares the cache.
#[derive(Debug, Clone, Default)]
pub struct RunGraphCache {
    entries: Arc<Mutex<VecDeque<CachedGraph>>>,
}

impl RunGraphCache {
    /// The graph parsed from the file `stamp` describes, when it is cached and the file has
    /// not changed since; it becomes the most recently used.
    pub fn get(&self, stamp: &GraphFileStamp) -> Option<Arc<RunWorkflow>> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let at = entries.iter().position(|e| e.stamp.path == stamp.path)?;
        let entry = entries.remove(at)?;
        if entry.stamp != *stamp {
            // The file changed since: the stale graph goes.
            return None;
        }
        let graph = Arc::clone(&entry.graph);
        entries.push_back(entry);
        Some(graph)
    }

    /// Keeps `graph`, parsed from the file `stamp` describes, dropping the graphs used
    /// longest ago while the cache is over its bounds.
    pub fn put(&self, stamp: GraphFileStamp, graph: Arc<RunWorkflow>) {
        if stamp.len > MAX_CACHED_GRAPH_BYTES {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|e| e.stamp.path != stamp.path);
        entries.push_back(CachedGraph { stamp, graph });
        let mut bytes: u64 = entries.iter().map(|e| e.stamp.len).sum();
        while entries.len() > MAX_CACHED_GRAPHS || bytes > MAX_CACHED_GRAPH_BYTES {
            let Some(oldest) = entries.pop_front() else {
                break;
            };
            bytes -= oldest.stamp.len;
        }
    }

    /// How many graphs are cached.
    #[cfg(test)]
    fn cached_count(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use std::time::Duration;

    fn stamp(path: &str, len: u64, modified_s: u64) -> GraphFileStamp {
        GraphFileStamp {
            path: PathBuf::from(path),
            len,
            modified: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(modified_s)),
            inode: Some(7),
        }
    }

    fn graph(path: &str) -> Arc<RunWorkflow> {
        Arc::new(RunWorkflow {
            path: path.to_string(),
            workflow: None,
            diagnostics: Vec::new(),
        })
    }

    #[test]
    fn a_graph_is_found_while_its_file_is_unchanged() {
        let cache = RunGraphCache::default();
        cache.put(stamp("/r/a/graph.dot", 10, 1), graph("/r/a/graph.dot"));
        let found = cache.get(&stamp("/r/a/graph.dot", 10, 1)).unwrap();
        assert_eq!(found.path, "/r/a/graph.dot");
        assert!(cache.get(&stamp("/r/b/graph.dot", 10, 1)).is_none());
    }

    #[test]
    fn a_changed_file_is_not_answered_from_the_cache() {
        let cache = RunGraphCache::default();
        cache.put(stamp("/r/a/graph.dot", 10, 1), graph("/r/a/graph.dot"));
        assert!(cache.get(&stamp("/r/a/graph.dot", 11, 1)).is_none());
        // The stale entry is gone, so even the old stamp misses now.
        assert!(cache.get(&stamp("/r/a/graph.dot", 10, 1)).is_none());
        cache.put(stamp("/r/a/graph.dot", 10, 2), graph("/r/a/graph.dot"));
        assert!(cache.get(&stamp("/r/a/graph.dot", 10, 1)).is_none());
        assert_eq!(cache.cached_count(), 0);
    }

    #[test]
    fn the_graph_used_longest_ago_goes_first() {
        let cache = RunGraphCache::default();
        for i in 0..MAX_CACHED_GRAPHS {
            let path = format!("/r/{i}/graph.dot");
            cache.put(stamp(&path, 1, 1), graph(&path));
        }
        // Using the first makes the second the oldest.
        assert!(cache.get(&stamp("/r/0/graph.dot", 1, 1)).is_some());
        cache.put(stamp("/r/new/graph.dot", 1, 1), graph("/r/new/graph.dot"));
        assert_eq!(cache.cached_count(), MAX_CACHED_GRAPHS);
        assert!(cache.get(&stamp("/r/1/graph.dot", 1, 1)).is_none());
        assert!(cache.get(&stamp("/r/0/graph.dot", 1, 1)).is_some());
        assert!(cache.get(&stamp("/r/new/graph.dot", 1, 1)).is_some());
    }

    #[test]
    fn the_cache_keeps_no_more_than_its_bytes() {
        let cache = RunGraphCache::default();
        let third = MAX_CACHED_GRAPH_BYTES / 3;
        for i in 0..3 {
            let path = format!("/r/{i}/graph.dot");
            cache.put(stamp(&path, third, 1), graph(&path));
        }
        assert_eq!(cache.cached_count(), 3);
        cache.put(stamp("/r/3/graph.dot", third, 1), graph("/r/3/graph.dot"));
        assert_eq!(cache.cached_count(), 3);
        assert!(cache.get(&stamp("/r/0/graph.dot", third, 1)).is_none());
        // A graph bigger than the whole bound is not kept, and pushes nothing out.
        cache.put(
            stamp("/r/huge/graph.dot", MAX_CACHED_GRAPH_BYTES + 1, 1),
            graph("/r/huge/graph.dot"),
        );
        assert_eq!(cache.cached_count(), 3);
        assert!(
            cache
                .get(&stamp("/r/huge/graph.dot", MAX_CACHED_GRAPH_BYTES + 1, 1))
                .is_none()
        );
    }
}
