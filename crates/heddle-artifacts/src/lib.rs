//! heddle-artifacts owns what runs produce besides their state: the content-addressed blob
//! store (`blobs/sha256/ab/cdef…`, `blob://sha256/{hex}` refs), the capture of test
//! artifacts a command leaves in the work tree (screenshots, videos, reports, traces,
//! JUnit files), JUnit parsing into a summary a person and a model can read, and the copy
//! of run folders and their blobs in a store a team shares ([`shared`]).
//!
//! It knows nothing of the engine's run loop; heddle-api wires it in through the engine's
//! artifact hook.

pub mod blob;
pub mod capture;
pub mod dump;
pub mod hook;
pub mod junit;
pub mod listing;
pub mod references;
pub mod shared;

pub use blob::{
    BlobError, BlobRef, BlobRefError, BlobStore, CorruptBlob, GcEntry, GcReport, UnreadableEntry,
    VerifyReport,
};
pub use capture::{
    Artifact, ArtifactKind, CaptureError, CaptureLimits, CaptureReport, Skipped, Snapshot, capture,
    media_type, snapshot,
};
pub use dump::{DumpError, DumpReport, dump_run};
pub use hook::CaptureHook;
pub use junit::{CaseStatus, JUnitCase, JUnitError, JUnitReport, JUnitSuite};
pub use listing::{
    ArtifactManifests, ListedArtifact, artifact_file, list_artifacts, node_of_stage,
};
pub use references::referenced_blobs;
pub use shared::{SharedFiles, SharedFilesError};
