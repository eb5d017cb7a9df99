//! Group commit for checkpoints of stages that are followed by a quiet one. Publishing a
//! checkpoint (its pack written and synced, the index saved, two refs moved) costs a few
//! file creations, renames and syncs whatever the stage did; a chain of routing nodes that
//! each finish in well under a millisecond spent most of its time there. A session may
//! instead hold such checkpoints in memory and publish them together:
//!
//! - only while the next node is one that leaves the work tree alone ([`is_quiet`]: start,
//!   conditional, wait). Before any other node starts (an agent, a command, a human gate,
//!   a fan-out or fan-in, the exit) everything held is published, so a stage that changes
//!   files always starts from a checkpoint that is on disk;
//! - at most [`Grouping::max_checkpoints`] at once, and for at most
//!   [`Grouping::max_delay`] after the first of them was made (the session thread's own
//!   timer publishes them then, whatever the engine is doing);
//! - and always before the session does anything else (a snapshot, the run's end) and when
//!   it closes.
//!
//! Every checkpoint still gets its own commit, on the same branch, in the same order:
//! grouping changes when they reach the disk, not what they are. A process killed while
//! some are held loses those commits (their stages ran only quiet nodes after them, so the
//! work tree still holds exactly what the last of them recorded); the resume records the
//! work tree as the checkpoint checkpoint.json names ([`crate::resume_restore`]).

use std::time::{Duration, Instant};

use git2::Oid;
use heddle_workflow::HandlerKind;

/// How long a session may hold checkpoints before publishing them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grouping {
    /// At most this many checkpoints are held at once (1: every one is published at once).
    pub max_checkpoints: u32,
    /// The first checkpoint held is published at most this long after it was made.
    pub max_delay: Duration,
}

impl Grouping {
    /// Every checkpoint is published before the engine goes on.
    pub const OFF: Grouping = Grouping {
        max_checkpoints: 1,
        max_delay: Duration::ZERO,
    };

    /// Runs' default: up to 16 checkpoints of quiet stages, none held over 50 ms.
    pub const QUIET_STAGES: Grouping = Grouping {
        max_checkpoints: 16,
        max_delay: Duration::from_millis(50),
    };

    /// Whether a checkpoint may be held, `held` being held already and `next_is_quiet`
    /// saying whether the node the engine runs next leaves the work tree alone.
    pub fn may_hold(&self, held: u32, next_is_quiet: bool) -> bool {
        next_is_quiet && !self.max_delay.is_zero() && held + 1 < self.max_checkpoints
    }
}

/// Whether a node of `kind` leaves the work tree as it found it, so that a checkpoint
/// made before it may wait for the next one.
pub fn is_quiet(kind: HandlerKind) -> bool {
    matches!(
        kind,
        HandlerKind::Start | HandlerKind::Conditional | HandlerKind::Wait
    )
}

/// How long a publication that failed on the timer waits before it is tried again (the
/// next checkpoint, or the run's end, tries it too and reports the error).
pub const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Checkpoints made but not yet published: where each ref is on disk and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpublished {
    /// The run branch on disk.
    pub branch_on_disk: Oid,
    /// The newest checkpoint commit.
    pub branch_tip: Oid,
    /// The metadata ref on disk (`None`: not created yet).
    pub metadata_on_disk: Option<Oid>,
    /// The newest metadata commit.
    pub metadata_tip: Oid,
    /// How many checkpoints are held.
    pub checkpoints: u32,
    /// When they must be published.
    pub due: Instant,
}

impl Unpublished {
    /// A first checkpoint held at `now`: the branch moves from `branch_on_disk` to
    /// `branch_tip`, the metadata ref from `metadata_on_disk` to `metadata_tip`.
    pub fn first(
        branch: (Oid, Oid),
        metadata: (Option<Oid>, Oid),
        now: Instant,
        grouping: &Grouping,
    ) -> Unpublished {
        Unpublished {
            branch_on_disk: branch.0,
            branch_tip: branch.1,
            metadata_on_disk: metadata.0,
            metadata_tip: metadata.1,
            checkpoints: 1,
            due: now + grouping.max_delay,
        }
    }

    /// One more checkpoint on top of those held: the refs' new tips.
    pub fn add(&mut self, branch_tip: Oid, metadata_tip: Oid) {
        self.branch_tip = branch_tip;
        self.metadata_tip = metadata_tip;
        self.checkpoints += 1;
    }

    /// How long from `now` until they must be published (zero once due).
    pub fn due_in(&self, now: Instant) -> Duration {
        self.due.saturating_duration_since(now)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_quiet_next_nodes_let_a_checkpoint_wait_and_never_more_than_the_group() {
        let grouping = Grouping::QUIET_STAGES;
        assert!(grouping.may_hold(0, true));
        assert!(grouping.may_hold(14, true));
        // The 16th checkpoint publishes the group.
        assert!(!grouping.may_hold(15, true));
        assert!(!grouping.may_hold(0, false));
        assert!(!Grouping::OFF.may_hold(0, true));
        let zero_delay = Grouping {
            max_checkpoints: 16,
            max_delay: Duration::ZERO,
        };
        assert!(!zero_delay.may_hold(0, true));
    }

    #[test]
    fn nodes_that_can_change_files_or_wait_for_a_person_are_not_quiet() {
        for kind in [
            HandlerKind::Agent,
            HandlerKind::Prompt,
            HandlerKind::Command,
            HandlerKind::Human,
            HandlerKind::Parallel,
            HandlerKind::FanIn,
            HandlerKind::ManagerLoop,
            HandlerKind::Exit,
        ] {
            assert!(!is_quiet(kind), "{kind:?}");
        }
        for kind in [
            HandlerKind::Start,
            HandlerKind::Conditional,
            HandlerKind::Wait,
        ] {
            assert!(is_quiet(kind), "{kind:?}");
        }
    }

    #[test]
    fn a_group_keeps_where_the_refs_are_on_disk_and_moves_only_its_tips() {
        let id = |n: u8| Oid::from_bytes(&[n; 20]).unwrap();
        let now = Instant::now();
        let grouping = Grouping::QUIET_STAGES;
        let mut group = Unpublished::first((id(1), id(2)), (None, id(3)), now, &grouping);
        group.add(id(4), id(5));
        assert_eq!(group.branch_on_disk, id(1));
        assert_eq!(group.branch_tip, id(4));
        assert_eq!(group.metadata_on_disk, None);
        assert_eq!(group.metadata_tip, id(5));
        assert_eq!(group.checkpoints, 2);
        assert_eq!(group.due_in(now), grouping.max_delay);
        assert_eq!(group.due_in(now + Duration::from_secs(1)), Duration::ZERO);
    }
}
