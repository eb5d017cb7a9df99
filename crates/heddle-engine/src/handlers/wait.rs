//! Wait nodes: sleep `duration`, cancellably.

use std::time::Duration;

use heddle_workflow::format_duration;
use tokio_util::sync::CancellationToken;

use crate::clock::Clock;
use crate::outcome::{FailureClass, Outcome};

/// Sleeps `duration` on `clock`; a cancellation ends the wait as a failure.
pub async fn run_wait(
    duration: Duration,
    clock: &dyn Clock,
    cancel: &CancellationToken,
) -> Outcome {
    let millis = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
    tokio::select! {
        () = clock.sleep(duration) => {
            Outcome::success().with_notes(format!("waited {}", format_duration(millis)))
        }
        () = cancel.cancelled() => Outcome::fail(FailureClass::Cancelled, "cancelled while waiting"),
    }
}
