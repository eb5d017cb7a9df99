//! The global logging flags (`-v`, `-q`, `--log-format`) and the one call that installs
//! Heddle's subscriber for this process (heddle-api's telemetry) with them.

use std::io::Write;
use std::path::Path;

use clap::{Args, ValueEnum};
use heddle_api::telemetry::{
    FileLog, LogFormat, TelemetryConfig, TelemetryEnv, TelemetryGuard, Verbosity,
};

/// How much the process logs, and how.
#[derive(Debug, Args)]
pub struct LogFlags {
    /// Log more on stderr: `-v` info (runs, stages, requests), `-vv` debug, `-vvv` trace.
    /// Overrides `RUST_LOG` for stderr; without it and `-q`, `RUST_LOG` applies, else
    /// warnings only.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Log only errors on stderr.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// The format of log lines on stderr.
    #[arg(long, value_enum, default_value_t = LogFormatChoice::Text, global = true)]
    pub log_format: LogFormatChoice,
}

/// `--log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormatChoice {
    /// Human-readable lines.
    Text,
    /// One JSON object a line, with its spans.
    Json,
}

/// What the process's environment and terminal said.
pub struct LogEnvironment<'a> {
    /// The process's variables.
    pub vars: &'a [(String, String)],
    /// Whether stderr is a terminal (colours).
    pub stderr_is_terminal: bool,
    /// `$HEDDLE_HOME` and the file name's start, for a process that also logs to files.
    pub files: Option<(&'a Path, &'a str)>,
}

impl LogFlags {
    /// Installs the subscriber; on failure says why on stderr and goes on without logs.
    pub fn install(&self, env: LogEnvironment<'_>) -> Option<TelemetryGuard> {
        let mut config = TelemetryConfig::new(TelemetryEnv::from_vars(
            env.vars.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        ));
        config.format = match self.log_format {
            LogFormatChoice::Text => LogFormat::Text,
            LogFormatChoice::Json => LogFormat::Json,
        };
        config.ansi = env.stderr_is_terminal;
        config.verbosity = if self.quiet {
            Verbosity(-1)
        } else {
            Verbosity(i8::try_from(self.verbose).unwrap_or(i8::MAX))
        };
        config.file = env
            .files
            .map(|(home, prefix)| FileLog::under_home(home, prefix));
        match heddle_api::telemetry::init(config) {
            Ok(guard) => Some(guard),
            Err(error) => {
                let _ = writeln!(std::io::stderr(), "warning: logging is off: {error}");
                None
            }
        }
    }
}
