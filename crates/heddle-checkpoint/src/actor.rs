//! A run's session on a thread of its own. libgit2's index and pathspec handles may not
//! move between threads, and git work must stay off the async runtime's workers, so each
//! session lives on one dedicated thread and callers send it jobs. The thread owns the
//! repository, and the mempack in front of its object database that holds a checkpoint's
//! new objects until they are packed ([`crate::pending_objects`]); the [`OpenSession`]
//! borrows both. While the session holds checkpoints not yet published
//! ([`crate::grouping`]), the thread waits for its next job only until they are due, and
//! publishes them then; it publishes what it holds before it ends.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;

use heddle_engine::RunDir;

use crate::error::{CheckpointError, Result};
use crate::pending_objects::{MEMPACK_PRIORITY, PendingObjects};
use crate::session::{OpenSession, SessionOptions, SessionParts};
use crate::state::GitState;

type Job = Box<dyn FnOnce(&mut OpenSession<'_>) + Send>;

/// The sending end of a session thread; the thread ends when this is dropped.
#[derive(Clone)]
pub struct SessionHandle {
    jobs: mpsc::Sender<Job>,
}

impl SessionHandle {
    /// Opens the session of `run_dir` on a new thread.
    pub fn spawn(
        run_dir: &RunDir,
        state: GitState,
        options: SessionOptions,
    ) -> Result<SessionHandle> {
        Self::spawn_joinable(run_dir, state, options).map(|(handle, _)| handle)
    }

    /// [`SessionHandle::spawn`], with the thread to wait for once every handle is dropped.
    pub fn spawn_joinable(
        run_dir: &RunDir,
        state: GitState,
        options: SessionOptions,
    ) -> Result<(SessionHandle, JoinHandle<()>)> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (opened, result) = mpsc::sync_channel::<Result<()>>(1);
        let run_dir = run_dir.clone();
        let thread = std::thread::Builder::new()
            .name(format!("heddle-git-{}", state.run_id))
            .spawn(move || serve(&run_dir, state, options, &opened, &inbox))
            .map_err(|e| CheckpointError::io(".", &e))?;
        result.recv().map_err(|_| stopped())??;
        Ok((SessionHandle { jobs }, thread))
    }

    /// Runs `work` on the session and waits for it without blocking the async runtime.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut OpenSession<'_>) -> Result<T> + Send + 'static,
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
        work: impl FnOnce(&mut OpenSession<'_>) -> Result<T> + Send + 'static,
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

/// The session thread: opens the repository, its mempack and the session, says whether
/// that worked, then runs jobs until every handle is gone. After a job that merged the
/// session's packs it opens the repository again and carries the session over: libgit2
/// keeps every pack it ever loaded in its list, removed ones too, and searches them all
/// for each new object, so without this a long run's checkpoints would slow down with
/// every merge.
fn serve(
    run_dir: &RunDir,
    state: GitState,
    options: SessionOptions,
    opened: &mpsc::SyncSender<Result<()>>,
    inbox: &mpsc::Receiver<Job>,
) {
    let mut carried = Carried::Fresh {
        state: Box::new(state),
        opened,
    };
    loop {
        carried = match serve_on_one_repository(run_dir, options, carried, inbox) {
            Some(parts) => Carried::Parts(Box::new(parts)),
            None => return,
        };
    }
}

/// What a session thread opens its repository for: a new session, or one carried over.
enum Carried<'a> {
    Fresh {
        state: Box<GitState>,
        opened: &'a mpsc::SyncSender<Result<()>>,
    },
    Parts(Box<SessionParts>),
}

/// Opens the repository and the session `carried` names on it, then runs jobs: the
/// session's parts once a job merged its packs, `None` once every handle is gone (or the
/// repository cannot be opened again: the next call then finds the thread stopped).
fn serve_on_one_repository(
    run_dir: &RunDir,
    options: SessionOptions,
    carried: Carried<'_>,
    inbox: &mpsc::Receiver<Job>,
) -> Option<SessionParts> {
    let (state, opened) = match &carried {
        Carried::Fresh { state, opened } => (&**state, Some(*opened)),
        Carried::Parts(parts) => (parts.state(), None),
    };
    let repo = match crate::repo::open(state) {
        Ok(repo) => repo,
        Err(error) => return report_failure(opened, error),
    };
    let odb = match repo.odb() {
        Ok(odb) => odb,
        Err(e) => {
            let error = CheckpointError::git(&state.git_dir, "object database", &e);
            return report_failure(opened, error);
        }
    };
    let mempack = match odb.add_new_mempack_backend(MEMPACK_PRIORITY) {
        Ok(mempack) => mempack,
        Err(e) => {
            let error = CheckpointError::git(&state.git_dir, "mempack", &e);
            return report_failure(opened, error);
        }
    };
    let objects = PendingObjects::new(&repo, mempack);
    let session = match carried {
        Carried::Fresh { state, .. } => OpenSession::open(run_dir, *state, options, &repo, objects),
        Carried::Parts(parts) => OpenSession::from_parts(*parts, &repo, objects),
    };
    let mut session = match session {
        Ok(session) => session,
        Err(error) => return report_failure(opened, error),
    };
    if let Some(opened) = opened {
        let _ = opened.send(Ok(()));
    }
    while let Some(job) = next_job(&mut session, inbox) {
        if let Some(job) = job {
            job(&mut session);
        }
        if session.merged_packs() {
            return Some(session.into_parts());
        }
    }
    session.publish_now_from_thread();
    None
}

/// The session's next job (`Some(None)`: none came before its held checkpoints were due,
/// and they were published); `None` once every handle is gone.
fn next_job(session: &mut OpenSession<'_>, inbox: &mpsc::Receiver<Job>) -> Option<Option<Job>> {
    let Some(due_in) = session.publish_due_in() else {
        return inbox.recv().ok().map(Some);
    };
    match inbox.recv_timeout(due_in) {
        Ok(job) => Some(Some(job)),
        Err(RecvTimeoutError::Timeout) => {
            session.publish_now_from_thread();
            Some(None)
        }
        Err(RecvTimeoutError::Disconnected) => None,
    }
}

/// Tells the opener of a fresh session (`opened`) that it could not be opened; a
/// carried-over session's failure is logged, and its callers find its thread stopped.
fn report_failure(
    opened: Option<&mpsc::SyncSender<Result<()>>>,
    error: CheckpointError,
) -> Option<SessionParts> {
    match opened {
        Some(opened) => {
            let _ = opened.send(Err(error));
        }
        None => {
            tracing::warn!(%error, "the checkpoint session could not open its repository again");
        }
    }
    None
}

/// The error of a call on a session whose thread is gone.
pub(crate) fn stopped() -> CheckpointError {
    CheckpointError::Storage {
        path: ".".into(),
        message: "the checkpoint thread stopped unexpectedly".into(),
    }
}
