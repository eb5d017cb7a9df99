//! The executing process's side of the control channel: takes the requests other processes
//! leave in the run folder and applies them.

use crate::rundir::{RunDir, read_json};

use super::{ControlRequest, GateBoard, POLL, json_files, requests_dir};

/// Takes requests for `run` every [`POLL`] until dropped (the run ended): answers go to
/// `board`, a cancel to `cancel`. Requests written before it started are dropped first:
/// nothing waits for them now. `refused` hears of requests that could not be applied.
pub(crate) async fn listen(
    run: RunDir,
    board: GateBoard,
    cancel: impl Fn(&str),
    refused: impl Fn(String),
) {
    for stale in json_files(&requests_dir(&run)) {
        let _ = std::fs::remove_file(stale);
    }
    loop {
        tokio::time::sleep(POLL).await;
        for path in json_files(&requests_dir(&run)) {
            let request: Result<ControlRequest, _> = read_json(&path);
            // Taken, applied or not: a request is acted on once.
            let _ = std::fs::remove_file(&path);
            match request {
                Ok(ControlRequest::Answer {
                    question_id,
                    answer,
                }) => {
                    if let Err(why) = board.answer(&question_id, answer) {
                        refused(format!("an answer from another process was refused: {why}"));
                    }
                }
                Ok(ControlRequest::Cancel { reason }) => cancel(&reason),
                Err(error) => refused(format!("a control request was unreadable: {error}")),
            }
        }
    }
}
