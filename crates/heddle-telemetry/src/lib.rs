//! heddle-telemetry owns how Heddle's processes report what they do: the one `tracing`
//! subscriber every door (the `heddle` CLI, `heddle serve`, the desktop app) installs through
//! [`init`]. It writes log lines to stderr (text or JSON, filtered by `RUST_LOG` or the
//! verbosity flags), optionally to daily-rotated files under `$HEDDLE_HOME/logs/`, and, only
//! when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set,
//! exports spans over OTLP/HTTP (protobuf). The libraries themselves only use `tracing`'s
//! macros; nothing here reads the process environment: the doors pass it in as
//! [`TelemetryEnv`].

mod config;
pub mod console;
mod filter;
mod log_files;
mod otlp;

use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

pub use config::{FileLog, LogFormat, TelemetryConfig, TelemetryEnv, Verbosity};
pub use filter::console_directives;

/// Why the subscriber could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    /// A `RUST_LOG` (or derived) filter that does not parse.
    #[error("the log filter `{directives}` is not valid: {message}")]
    Filter {
        /// The directives given.
        directives: String,
        /// What the parser said.
        message: String,
    },
    /// The log folder could not be created or its file opened.
    #[error("cannot write logs to {path}: {message}")]
    LogFiles {
        /// The folder.
        path: std::path::PathBuf,
        /// The reason.
        message: String,
    },
    /// The OTLP exporter could not be set up (a malformed endpoint, say).
    #[error("cannot set up the OpenTelemetry export to `{endpoint}`: {message}")]
    Otlp {
        /// The traces endpoint.
        endpoint: String,
        /// The reason.
        message: String,
    },
    /// Another subscriber was installed first in this process.
    #[error("a tracing subscriber is already installed: {0}")]
    AlreadyInstalled(String),
}

/// Keeps the log file writer and the span exporter alive; dropping it flushes buffered log
/// lines and exports the spans still queued (the doors hold it until they exit).
#[must_use = "dropping the guard stops the file log and the span export"]
pub struct TelemetryGuard {
    file_writer: Option<tracing_appender::non_blocking::WorkerGuard>,
    exporter: Option<otlp::Export>,
}

impl TelemetryGuard {
    /// Where the spans go, when exported (`None` without an OTLP endpoint).
    pub fn otlp_endpoint(&self) -> Option<&str> {
        self.exporter.as_ref().map(otlp::Export::endpoint)
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(export) = self.exporter.take() {
            export.shutdown();
        }
        drop(self.file_writer.take());
    }
}

/// Installs the process-wide subscriber described by `config`. Call it once, early, and
/// keep the guard until the process exits.
pub fn init(config: TelemetryConfig) -> Result<TelemetryGuard, TelemetryError> {
    let console_filter = filter::env_filter(&filter::console_directives(
        config.verbosity,
        config.env.rust_log.as_deref(),
    ))?;
    let console = match config.format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .with_writer(console::Stderr)
            .with_ansi(config.ansi)
            .with_filter(console_filter)
            .boxed(),
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .with_writer(console::Stderr)
            .with_filter(console_filter)
            .boxed(),
    };
    let mut layers = vec![console];
    let mut file_writer = None;
    if let Some(files) = &config.file {
        let (writer, guard) = log_files::open(files)?;
        let directives = filter::recording_directives(config.env.rust_log.as_deref());
        layers.push(
            tracing_subscriber::fmt::layer()
                .json()
                .with_current_span(true)
                .with_span_list(true)
                .with_writer(writer)
                .with_filter(filter::env_filter(&directives)?)
                .boxed(),
        );
        file_writer = Some(guard);
    }
    let mut exporter = None;
    if let Some(endpoint) = config.env.traces_endpoint() {
        let service = config
            .env
            .service_name
            .clone()
            .unwrap_or_else(|| config.service.clone());
        let export = otlp::Export::start(&endpoint, &service)?;
        let directives = filter::recording_directives(config.env.rust_log.as_deref());
        layers.push(
            tracing_opentelemetry::layer()
                .with_tracer(export.tracer())
                .with_filter(filter::env_filter(&directives)?)
                .boxed(),
        );
        exporter = Some(export);
    }
    tracing_subscriber::registry()
        .with(layers)
        .try_init()
        .map_err(|e| TelemetryError::AlreadyInstalled(e.to_string()))?;
    Ok(TelemetryGuard {
        file_writer,
        exporter,
    })
}
