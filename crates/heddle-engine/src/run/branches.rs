//! Checkpointing the branches of a running parallel node, so a resume continues each
//! branch where it stopped and reuses the results of branches that had ended.

use crate::checkpoint::{BranchOutcome, BranchProgress};
use crate::context::Context;
use crate::error::EngineError;

use super::shared::RunShared;

impl RunShared {
    /// Records where a branch stands (`next` is the node it runs next and the edge into it;
    /// `None` with a `result` once it ended) and saves the checkpoint. The run resumes at
    /// the parallel node, which picks the branches up from here.
    pub async fn save_branch(
        &self,
        parallel: &str,
        branch: &str,
        next: Option<(&str, Option<usize>)>,
        context: &Context,
        result: Option<BranchOutcome>,
    ) -> Result<(), EngineError> {
        let progress = BranchProgress {
            parallel: parallel.to_string(),
            branch: branch.to_string(),
            next_node: next.map(|(node, _)| node.to_string()),
            edge: next.and_then(|(_, edge)| edge),
            context_values: context.snapshot(),
            result,
        };
        let last = {
            let mut guard = self.state();
            let state = &mut guard.progress;
            match state
                .branches
                .iter_mut()
                .find(|b| b.parallel == parallel && b.branch == branch)
            {
                Some(entry) => *entry = progress,
                None => state.branches.push(progress),
            }
            state.completed_nodes.last().cloned()
        };
        let main = self.state().main_context.clone();
        match main {
            Some(main) => {
                self.save_checkpoint(last.as_deref(), Some(parallel), &main)
                    .await
            }
            // A branch of a branch's parallel node inside a child context: nothing to save
            // beyond the state (the outer run's checkpoint carries it).
            None => Ok(()),
        }
    }

    /// The saved progress of `parallel`'s branches (after a resume).
    pub fn saved_branches(&self, parallel: &str) -> Vec<BranchProgress> {
        self.state()
            .progress
            .branches
            .iter()
            .filter(|b| b.parallel == parallel)
            .cloned()
            .collect()
    }

    /// Forgets `parallel`'s branches once it completed.
    pub fn clear_branches(&self, parallel: &str) {
        self.state()
            .progress
            .branches
            .retain(|b| b.parallel != parallel);
    }
}
