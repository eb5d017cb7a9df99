//! The run lock: the process executing a run holds an exclusive lock on its `run.pid` for
//! as long as it runs. Others read "running" from the lock, not from a process id that may
//! have been reused, and a second process cannot resume a run that is still going.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};

use crate::error::EngineError;
use crate::rundir::RunDir;

/// Held while a run executes; dropping it releases the lock. A `run.pid` the lock created
/// is removed again when it is dropped (a resume that stopped before running must not make
/// the run look crashed); one that was there before stays.
#[derive(Debug)]
pub struct RunLock {
    _lock: Flock<File>,
    created: Option<std::path::PathBuf>,
}

impl Drop for RunLock {
    fn drop(&mut self) {
        if let Some(path) = &self.created {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl RunLock {
    /// Takes the lock on `run_dir`'s `run.pid` and writes this process's id into it. Fails
    /// with [`EngineError::NotResumable`] when another process (or another run in this one)
    /// holds it.
    pub fn acquire(run_dir: &RunDir, run_id: &str) -> Result<RunLock, EngineError> {
        let path = run_dir.pid();
        let existed = path.exists();
        // A monitor probing the lock holds it for an instant; try a few times.
        for attempt in 0..5 {
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .read(true)
                .open(&path)
                .map_err(|e| EngineError::io(&path, &e))?;
            match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
                Ok(mut lock) => {
                    let written = lock
                        .set_len(0)
                        .and_then(|()| writeln!(lock, "{}", std::process::id()))
                        .and_then(|()| lock.flush());
                    written.map_err(|e| EngineError::io(&path, &e))?;
                    return Ok(RunLock {
                        _lock: lock,
                        created: (!existed).then(|| path.clone()),
                    });
                }
                Err((_, Errno::EWOULDBLOCK)) if attempt < 4 => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err((_, Errno::EWOULDBLOCK)) => {
                    let holder = run_dir
                        .read_pid()
                        .map_or_else(String::new, |pid| format!(" (pid {pid})"));
                    return Err(EngineError::NotResumable {
                        run_id: run_id.to_string(),
                        reason: format!("another process is running it{holder}"),
                    });
                }
                Err((_, errno)) => {
                    return Err(EngineError::Io {
                        path,
                        message: format!("cannot lock: {errno}"),
                    });
                }
            }
        }
        Err(EngineError::NotResumable {
            run_id: run_id.to_string(),
            reason: "its run.pid stayed locked".into(),
        })
    }

    /// Whether some process holds `run_dir`'s lock (the run is executing).
    pub fn is_held(run_dir: &RunDir) -> bool {
        let Ok(file) = File::open(run_dir.pid()) else {
            return false;
        };
        matches!(
            Flock::lock(file, FlockArg::LockSharedNonblock),
            Err((_, Errno::EWOULDBLOCK))
        )
    }
}
