//! Publishing a session's checkpoints: holding those a quiet node follows, and writing
//! what is held to disk (objects, then the index, then the refs) when it is due
//! ([`crate::grouping`]).

use std::time::{Duration, Instant};

use git2::Oid;

use super::OpenSession;
use crate::error::{CheckpointError, Result};
use crate::grouping::{RETRY_AFTER, Unpublished};
use crate::metadata::{MetadataCommit, move_metadata_ref};
use crate::pack::{MIN_LOOSE, PACK_EVERY};
use crate::repo::{compare_and_swap, tip};

impl OpenSession<'_> {
    /// The run branch's newest checkpoint, published or not.
    pub(super) fn branch_tip(&self) -> Result<Oid> {
        if let Some(held) = &self.kept.unpublished {
            return Ok(held.branch_tip);
        }
        let branch = &self.kept.state.branch;
        tip(self.repo, branch)?.ok_or_else(|| CheckpointError::NotFound {
            what: format!("run branch {branch}"),
            repo: self.kept.state.git_dir.clone(),
        })
    }

    /// The metadata history's newest commit, published or not.
    pub(super) fn metadata_tip(&self) -> Result<Option<Oid>> {
        match &self.kept.unpublished {
            Some(held) => Ok(Some(held.metadata_tip)),
            None => tip(self.repo, &self.kept.state.metadata_ref),
        }
    }

    /// Holds checkpoint commit `new` (on `parent`) and `metadata` until they are
    /// published; how many were held before.
    pub(super) fn hold(&mut self, parent: Oid, new: Oid, metadata: &MetadataCommit) -> u32 {
        match &mut self.kept.unpublished {
            Some(held) => {
                let before = held.checkpoints;
                held.add(new, metadata.commit);
                before
            }
            None => {
                self.kept.unpublished = Some(Unpublished::first(
                    (parent, new),
                    (metadata.parent, metadata.commit),
                    Instant::now(),
                    &self.kept.grouping,
                ));
                0
            }
        }
    }

    /// Publishes the checkpoints held: their objects go to disk as one pack, then the
    /// index is saved and the metadata ref and the run branch move to the newest ones
    /// (everything the refs and the index name is on disk before they are written). On a
    /// failure they stay held, and the steps already done are not done again. Warnings
    /// (merging the packs, which this does every [`PACK_EVERY`] checkpoints, failed).
    pub fn publish(&mut self) -> Result<Vec<String>> {
        let Some(mut held) = self.kept.unpublished.take() else {
            return Ok(Vec::new());
        };
        match self.write_out(&mut held) {
            Ok(warnings) => Ok(warnings),
            Err(error) => {
                self.kept.unpublished = Some(held);
                Err(error)
            }
        }
    }

    fn write_out(&mut self, held: &mut Unpublished) -> Result<Vec<String>> {
        self.flush_objects()?;
        self.save_index()?;
        if held.metadata_on_disk != Some(held.metadata_tip) {
            move_metadata_ref(
                self.repo,
                &self.kept.state.metadata_ref,
                held.metadata_on_disk,
                held.metadata_tip,
            )?;
            held.metadata_on_disk = Some(held.metadata_tip);
        }
        if held.branch_on_disk != held.branch_tip {
            compare_and_swap(
                self.repo,
                &self.kept.state.branch,
                Some(held.branch_on_disk),
                held.branch_tip,
                "heddle: checkpoint",
            )?;
            held.branch_on_disk = held.branch_tip;
        }
        self.kept.since_merge += u64::from(held.checkpoints);
        let mut warnings = Vec::new();
        if self.kept.since_merge >= PACK_EVERY {
            self.kept.since_merge = 0;
            // A packing failure leaves the objects where they are: worth a warning, not
            // the run.
            if let Err(e) = self.pack(MIN_LOOSE) {
                warnings.push(format!("packing the repository's objects failed: {e}"));
            }
        }
        Ok(warnings)
    }

    /// How long until the checkpoints held must be published; `None` when none are held.
    pub fn publish_due_in(&self) -> Option<Duration> {
        let held = self.kept.unpublished.as_ref()?;
        Some(held.due_in(Instant::now()))
    }

    /// Publishes the checkpoints held from the session's own thread (their time is up, or
    /// the session is closing): what goes wrong is logged, and tried again
    /// [`RETRY_AFTER`] later or by the next call that publishes.
    pub fn publish_now_from_thread(&mut self) {
        match self.publish() {
            Ok(warnings) => {
                for warning in warnings {
                    tracing::warn!(run = %self.kept.state.run_id, "{warning}");
                }
            }
            Err(error) => {
                tracing::warn!(
                    run = %self.kept.state.run_id,
                    %error,
                    "publishing the run's latest checkpoints failed; trying again"
                );
                if let Some(held) = &mut self.kept.unpublished {
                    held.due = Instant::now() + RETRY_AFTER;
                }
            }
        }
    }
}
