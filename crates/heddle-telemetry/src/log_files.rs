//! The rotated log files of long-lived processes: `tracing-appender`'s daily rotation in
//! `$HEDDLE_HOME/logs/`, keeping [`crate::FileLog::keep`] files, written by a background
//! thread so a slow disk never holds up a request.

use tracing_appender::non_blocking::{NonBlocking, WorkerGuard};
use tracing_appender::rolling::{RollingFileAppender, Rotation};

use crate::{FileLog, TelemetryError};

pub(crate) fn open(files: &FileLog) -> Result<(NonBlocking, WorkerGuard), TelemetryError> {
    let failed = |message: String| TelemetryError::LogFiles {
        path: files.dir.clone(),
        message,
    };
    std::fs::create_dir_all(&files.dir).map_err(|e| failed(e.to_string()))?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(&files.prefix)
        .filename_suffix("log")
        .max_log_files(files.keep.max(1))
        .build(&files.dir)
        .map_err(|e| failed(e.to_string()))?;
    Ok(tracing_appender::non_blocking(appender))
}
