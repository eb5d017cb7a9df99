//! Human gates: ask the question, wait (with the node's timeout), turn the answer into an
//! outcome. (stub; being written)

use std::path::Path;

use tokio_util::sync::CancellationToken;

use crate::clock::Clock;
use crate::emitter::NodeEvents;
use crate::interviewer::{Interviewer, Question};
use crate::outcome::Outcome;

/// Asks `question` through `interviewer` and returns the gate's outcome.
pub async fn run_human(
    question: &Question,
    interviewer: &dyn Interviewer,
    stage_dir: &Path,
    events: &NodeEvents,
    cancel: &CancellationToken,
    clock: &dyn Clock,
) -> Outcome {
    let _ = (question, interviewer, stage_dir, events, cancel, clock);
    Outcome::success()
}
