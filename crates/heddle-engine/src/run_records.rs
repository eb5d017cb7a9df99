//! What the run index reads back from a run folder that other crates wrote: the checkpoint
//! history (heddle-checkpoint keeps it in git) and the captured artifacts (heddle-artifacts
//! keeps manifests beside them). The record types and the traits that read them live here so
//! the index (heddle-store) and the writers stay unaware of each other; heddle-api hands the
//! real readers to the index.

use std::fmt::Debug;

use serde::{Deserialize, Serialize};

use crate::rundir::RunDir;

/// Why a run's checkpoint history could not be read (an unreadable repository or git.json).
pub type HistoryReadError = Box<dyn std::error::Error + Send + Sync>;

/// Reads a run's checkpoint history.
pub trait CheckpointHistory: Send + Sync + Debug {
    /// Every checkpoint of the run in `run`, timeline by timeline, oldest first within each
    /// (none when the run keeps no git checkpoints), and where that listing ended.
    fn list(&self, run: &RunDir) -> Result<ListedHistory, HistoryReadError>;

    /// The checkpoints made since a listing that ended at `known`, when the history only
    /// grew at the tip of the timeline the run continues on: what a live run's index reads
    /// after a stage, without reading every earlier checkpoint again. Anything else (a
    /// rollback made a timeline, a branch moved, git.json changed) is
    /// [`HistoryAfter::Relist`]; so is every answer of a reader that cannot tell.
    fn list_after(
        &self,
        run: &RunDir,
        known: &HistoryMark,
    ) -> Result<HistoryAfter, HistoryReadError> {
        let _ = (run, known);
        Ok(HistoryAfter::Relist)
    }
}

/// A run's checkpoint history as one listing read it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListedHistory {
    /// The checkpoints, in [`CheckpointHistory::list`]'s order.
    pub entries: Vec<CheckpointEntry>,
    /// Where the listing ended (`None` when the run keeps no git checkpoints).
    pub mark: Option<HistoryMark>,
}

/// Where a listing of a run's checkpoint history ended: each timeline branch's tip as it
/// read them and how many entries it gave, so a later listing can start from there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryMark {
    /// The commit the run started from.
    pub base: String,
    /// The timeline branch the run continued on (full ref name).
    pub branch: String,
    /// Every timeline branch, oldest first, with its tip then.
    pub tips: Vec<TimelineTip>,
    /// Entries listed in all.
    pub count: usize,
}

/// One timeline branch and the commit at its tip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineTip {
    /// Full ref name.
    pub branch: String,
    /// Its tip (`None` when the branch did not exist).
    pub sha: Option<String>,
}

/// What [`CheckpointHistory::list_after`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryAfter {
    /// The history only grew: `entries` follow the `known` ones (at positions from
    /// `known.count`), and `mark` is where this listing ended.
    Appended {
        /// The new checkpoints, oldest first.
        entries: Vec<CheckpointEntry>,
        /// Where this listing ended.
        mark: HistoryMark,
        /// The run's tip moved: the checkpoint that was current no longer is.
        tip_moved: bool,
    },
    /// Not a simple extension of what was known: list the whole history again.
    Relist,
}

/// Lists what a run captured.
pub trait ArtifactListing: Send + Sync + Debug {
    /// Every artifact captured in `run`, by stage folder, attempt and path; unreadable
    /// manifests are skipped.
    fn list(&self, run: &RunDir) -> Vec<ListedArtifact>;

    /// The artifacts captured in the stage folders `stages` of `run` (names under
    /// `artifacts/`, like [`ListedArtifact::stage`]), as [`ArtifactListing::list`] gives them:
    /// what a live run's index reads after a stage, without reading every earlier stage's.
    fn list_stages(&self, run: &RunDir, stages: &[String]) -> Vec<ListedArtifact> {
        let mut listed = self.list(run);
        listed.retain(|a| stages.contains(&a.stage));
        listed
    }
}

/// One checkpoint commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckpointEntry {
    /// Its commit.
    pub sha: String,
    /// The node it followed.
    pub node_id: String,
    /// That node's status.
    pub status: String,
    /// Nodes completed by then.
    pub completed: usize,
    /// The metadata commit holding its checkpoint.json.
    pub metadata_sha: String,
    /// When (RFC 3339, from the commit).
    pub time: String,
    /// Its parent commit.
    pub parent: Option<String>,
    /// The timeline it was first made on (1 is the first).
    pub timeline: usize,
    /// Every timeline branch that contains it (short names).
    pub branches: Vec<String>,
    /// It is the tip of the timeline the run continues on.
    pub current: bool,
}

/// One captured file of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ListedArtifact {
    /// The stage folder (`test`, `test-visit_2`).
    pub stage: String,
    /// The node (the stage folder without its visit suffix).
    pub node: String,
    /// The attempt (`retry_{n}`).
    pub retry: u32,
    /// Path to give `heddle artifact cp`, relative to the run's `artifacts/` folder.
    pub path: String,
    /// The path in the work folder it was captured from.
    pub source: String,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the content (hex).
    pub sha256: String,
    /// From the file's extension (`image/png`); `application/octet-stream` when unknown.
    pub media_type: String,
    /// What kind of artifact it is.
    pub kind: ArtifactKind,
}

/// What kind of artifact a captured file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ArtifactKind {
    /// An image (png, jpeg, gif, webp, svg, bmp), wherever it was found.
    Screenshot,
    /// A video (webm, mp4, mov, mkv, avi).
    Video,
    /// A JUnit XML report: `junit*.xml`, or an XML file whose root element is `<testsuites>`
    /// or `<testsuite>`.
    Junit,
    /// Any other file under a `playwright-report/` folder (the HTML report and its assets).
    PlaywrightReport,
    /// A Playwright trace: `*.trace.zip` or `trace.zip`.
    Trace,
    /// Anything else found in an artifact folder.
    Other,
}

impl ArtifactKind {
    /// The snake_case name used in manifests and events.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Screenshot => "screenshot",
            Self::Video => "video",
            Self::Junit => "junit",
            Self::PlaywrightReport => "playwright_report",
            Self::Trace => "trace",
            Self::Other => "other",
        }
    }
}
