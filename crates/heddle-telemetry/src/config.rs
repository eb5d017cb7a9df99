//! What [`crate::init`] is told: the door's choices (format, verbosity, a log folder) and
//! the environment values it read.

use std::path::PathBuf;

/// How lines on stderr look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// `2026-01-01T00:00:00Z  INFO run{run_id=…}:stage{node_id=…}: message`.
    #[default]
    Text,
    /// One JSON object a line, with the current span and the span list.
    Json,
}

/// The `-q`/`-v` count: -1 quiet (errors only), 0 the default (warnings), 1 info, 2 debug,
/// 3 and more trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Verbosity(pub i8);

/// Rotated log files: one a day, `{prefix}.YYYY-MM-DD.log` in `dir`, the oldest deleted
/// beyond `keep` files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLog {
    /// The folder (`$HEDDLE_HOME/logs`).
    pub dir: PathBuf,
    /// The file name's start (`serve`, `desktop`).
    pub prefix: String,
    /// How many daily files are kept.
    pub keep: usize,
}

impl FileLog {
    /// Daily files kept by default: two weeks.
    pub const DEFAULT_KEEP: usize = 14;

    /// `{home}/logs/{prefix}.YYYY-MM-DD.log`, two weeks kept.
    pub fn under_home(home: &std::path::Path, prefix: &str) -> FileLog {
        FileLog {
            dir: home.join("logs"),
            prefix: prefix.to_string(),
            keep: Self::DEFAULT_KEEP,
        }
    }
}

/// The environment variables telemetry reads, read by the door and passed in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TelemetryEnv {
    /// `RUST_LOG`.
    pub rust_log: Option<String>,
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` (the collector's base URL; `/v1/traces` is added).
    pub otlp_endpoint: Option<String>,
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full traces URL, used as it is).
    pub otlp_traces_endpoint: Option<String>,
    /// `OTEL_SERVICE_NAME`.
    pub service_name: Option<String>,
}

impl TelemetryEnv {
    /// Picks the variables out of `vars` (blank values count as unset).
    pub fn from_vars<K: AsRef<str>, V: AsRef<str>>(
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> TelemetryEnv {
        let mut env = TelemetryEnv::default();
        for (key, value) in vars {
            let value = value.as_ref().trim();
            if value.is_empty() {
                continue;
            }
            let slot = match key.as_ref() {
                "RUST_LOG" => &mut env.rust_log,
                "OTEL_EXPORTER_OTLP_ENDPOINT" => &mut env.otlp_endpoint,
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" => &mut env.otlp_traces_endpoint,
                "OTEL_SERVICE_NAME" => &mut env.service_name,
                _ => continue,
            };
            *slot = Some(value.to_string());
        }
        env
    }

    /// The URL spans are posted to, when export is asked for: the traces endpoint as given,
    /// else the base endpoint with `/v1/traces`.
    pub fn traces_endpoint(&self) -> Option<String> {
        if let Some(url) = &self.otlp_traces_endpoint {
            return Some(url.clone());
        }
        self.otlp_endpoint
            .as_ref()
            .map(|base| format!("{}/v1/traces", base.trim_end_matches('/')))
    }
}

/// Everything [`crate::init`] needs.
#[derive(Debug, Clone)]
pub struct TelemetryConfig {
    /// The OpenTelemetry service name when `OTEL_SERVICE_NAME` is not set.
    pub service: String,
    /// Stderr's line format.
    pub format: LogFormat,
    /// Colours on stderr (a terminal).
    pub ansi: bool,
    /// The `-q`/`-v` flags.
    pub verbosity: Verbosity,
    /// Also write rotated log files (`heddle serve`, the desktop app).
    pub file: Option<FileLog>,
    /// The environment read by the door.
    pub env: TelemetryEnv,
}

impl TelemetryConfig {
    /// Text on stderr at the default level, no files, service "heddle".
    pub fn new(env: TelemetryEnv) -> TelemetryConfig {
        TelemetryConfig {
            service: "heddle".to_string(),
            format: LogFormat::Text,
            ansi: false,
            verbosity: Verbosity::default(),
            file: None,
            env,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn the_base_endpoint_gets_the_traces_path_and_the_traces_endpoint_wins() {
        let env = TelemetryEnv::from_vars([("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4318/")]);
        assert_eq!(
            env.traces_endpoint().as_deref(),
            Some("http://h:4318/v1/traces")
        );
        let env = TelemetryEnv::from_vars([
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:4318"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t/x"),
        ]);
        assert_eq!(env.traces_endpoint().as_deref(), Some("http://t/x"));
        let env = TelemetryEnv::from_vars([("OTEL_EXPORTER_OTLP_ENDPOINT", " "), ("HOME", "/h")]);
        assert_eq!(env, TelemetryEnv::default());
    }
}
