//! [`MetadataLayout`]: where a metadata tree keeps each stage's trace files and the chunks of
//! the run's timeline.jsonl. Every metadata commit rewrites the trees on the paths it
//! changes, so their sizes are what a stage costs in hashing, compression, delta search and
//! pack copies; a layout whose trees grow with the run makes every stage dearer the longer
//! the run.
//!
//! - [`MetadataLayout::Fanout16`], for histories begun from now on: a stage's files at
//!   `stages/{a}/{b}/{c}/{stage}/{file}` (`abc` being the first three hex digits of the git
//!   blob id of the stage folder's name), chunk `k` at
//!   `timeline/{k / 256:x}/{k / 16 % 16:x}/{k % 16:x}.jsonl`. The trees a stage rewrites
//!   hold at most 16 entries, but for the innermost stage shard (one stage in 4,096 of the
//!   run's) and the top of `timeline/` (one entry per 4 MiB of history).
//! - [`MetadataLayout::Fanout256`], of the histories written before: `nodes/{ab}/{stage}/{file}`
//!   and `timeline/{k / 256:03}/{k % 256:03}.jsonl`. A stage rewrote the 256-entry `nodes`
//!   tree, a shard of one stage in 256, and a chunk tree of up to 256 entries: about 10 KB
//!   of trees at 2,000 stages and 15 KB at 20,000.
//!
//! A history keeps the layout it began with (found from its tree, [`MetadataLayout::of`]),
//! so a run resumed by a newer Heddle goes on as it was written; readers read either, and
//! the flat `nodes/{stage}/{file}` of the earliest histories too.

use std::path::Path;

use git2::{ObjectType, Oid, Tree};

/// A metadata tree's layout (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataLayout {
    /// `stages/{a}/{b}/{c}/{stage}/` and `timeline/{x}/{x}/{x}.jsonl`: what new histories use.
    Fanout16,
    /// `nodes/{ab}/{stage}/` and `timeline/{000}/{000}.jsonl`: histories written before.
    Fanout256,
}

impl MetadataLayout {
    /// The layout of the history whose latest tree is `tree`: [`Fanout256`] when it holds a
    /// `nodes` folder or the older chunks, else [`Fanout16`] (also for a history's first
    /// commit, which has neither yet).
    ///
    /// [`Fanout256`]: MetadataLayout::Fanout256
    /// [`Fanout16`]: MetadataLayout::Fanout16
    pub fn of(tree: &Tree<'_>) -> MetadataLayout {
        if tree.get_name("nodes").is_some() || tree.get_path(Path::new("timeline/000")).is_ok() {
            MetadataLayout::Fanout256
        } else {
            MetadataLayout::Fanout16
        }
    }

    /// The tree path of trace file `name` of stage folder `stage` (a name under the run
    /// folder's `nodes/`).
    pub fn trace_path(self, stage: &str, name: &str) -> String {
        let id = stage_hash(stage);
        match self {
            MetadataLayout::Fanout16 => {
                let digit = |i: usize| id.get(i..=i).unwrap_or("0");
                format!(
                    "stages/{}/{}/{}/{stage}/{name}",
                    digit(0),
                    digit(1),
                    digit(2)
                )
            }
            MetadataLayout::Fanout256 => {
                let shard = id.get(..2).unwrap_or("00");
                format!("nodes/{shard}/{stage}/{name}")
            }
        }
    }

    /// The tree path of chunk `k` of timeline.jsonl.
    pub fn chunk_path(self, k: u64) -> String {
        match self {
            MetadataLayout::Fanout16 => {
                format!(
                    "timeline/{:x}/{:x}/{:x}.jsonl",
                    k / 256,
                    k / 16 % 16,
                    k % 16
                )
            }
            MetadataLayout::Fanout256 => format!("timeline/{:03}/{:03}.jsonl", k / 256, k % 256),
        }
    }
}

/// The git blob id of `stage`'s name, in hex (what both layouts shard by).
fn stage_hash(stage: &str) -> String {
    Oid::hash_object(ObjectType::Blob, stage.as_bytes())
        .map(|oid| oid.to_string())
        .unwrap_or_default()
}

/// Every path trace file `name` of `stage` may have in a metadata tree, the newest layout's
/// first: the two layouts', then the flat `nodes/{stage}/{name}` of the earliest histories.
pub fn trace_paths(stage: &str, name: &str) -> [String; 3] {
    [
        MetadataLayout::Fanout16.trace_path(stage, name),
        MetadataLayout::Fanout256.trace_path(stage, name),
        format!("nodes/{stage}/{name}"),
    ]
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn paths_follow_each_layout() {
        // printf %s n0 | git hash-object --stdin
        let id = stage_hash("n0");
        assert_eq!(id.len(), 40);
        let new = MetadataLayout::Fanout16.trace_path("n0", "status.json");
        assert_eq!(
            new,
            format!(
                "stages/{}/{}/{}/n0/status.json",
                &id[0..1],
                &id[1..2],
                &id[2..3]
            )
        );
        let old = MetadataLayout::Fanout256.trace_path("n0", "status.json");
        assert_eq!(old, format!("nodes/{}/n0/status.json", &id[..2]));
        for (layout, k, path) in [
            (MetadataLayout::Fanout16, 0, "timeline/0/0/0.jsonl"),
            (MetadataLayout::Fanout16, 4_095, "timeline/f/f/f.jsonl"),
            (MetadataLayout::Fanout16, 4_096, "timeline/10/0/0.jsonl"),
            (MetadataLayout::Fanout256, 257, "timeline/001/001.jsonl"),
        ] {
            assert_eq!(layout.chunk_path(k), path, "{layout:?} chunk {k}");
        }
    }
}
