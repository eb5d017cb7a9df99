//! A run's [`Session`] on a thread of its own. libgit2's index and pathspec handles may not
//! move between threads, and git work must stay off the async runtime's workers, so each
//! session lives on one dedicated thread and callers send it jobs.

use std::sync::mpsc;

use heddle_engine::RunDir;

use crate::error::{CheckpointError, Result};
use crate::session::Session;
use crate::state::GitState;

type Job = Box<dyn FnOnce(&mut Session) + Send>;

/// The sending end of a session thread; the thread ends when this is dropped.
#[derive(Clone)]
pub struct SessionHandle {
    jobs: mpsc::Sender<Job>,
}

impl SessionHandle {
    /// Opens the session of `run_dir` on a new thread.
    pub fn spawn(run_dir: &RunDir, state: GitState, watch: bool) -> Result<SessionHandle> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (opened, result) = mpsc::sync_channel::<Result<()>>(1);
        let run_dir = run_dir.clone();
        std::thread::Builder::new()
            .name(format!("heddle-git-{}", state.run_id))
            .spawn(move || match Session::open(&run_dir, state, watch) {
                Ok(mut session) => {
                    let _ = opened.send(Ok(()));
                    while let Ok(job) = inbox.recv() {
                        job(&mut session);
                    }
                }
                Err(error) => {
                    let _ = opened.send(Err(error));
                }
            })
            .map_err(|e| CheckpointError::io(".", &e))?;
        result.recv().map_err(|_| stopped())??;
        Ok(SessionHandle { jobs })
    }

    /// Runs `work` on the session and waits for it without blocking the async runtime.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Session) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move |session| {
                let _ = reply.send(work(session));
            }))
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Runs `work` on the session and waits for it (outside the async runtime).
    pub fn run_blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Session) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.jobs
            .send(Box::new(move |session| {
                let _ = reply.send(work(session));
            }))
            .map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())?
    }
}

fn stopped() -> CheckpointError {
    CheckpointError::Storage {
        path: ".".into(),
        message: "the checkpoint thread stopped unexpectedly".into(),
    }
}
