//! Which events and spans each output takes: the console follows the `-q`/`-v` flags, else
//! `RUST_LOG`, else warnings only; the files and the span export record `RUST_LOG`, else
//! info (the run, stage, checkpoint, LLM call and HTTP request spans).

use tracing_subscriber::EnvFilter;

use crate::{TelemetryError, Verbosity};

/// The console's filter directives: explicit flags first, then `RUST_LOG`, then `warn`.
pub fn console_directives(verbosity: Verbosity, rust_log: Option<&str>) -> String {
    let level = match verbosity.0 {
        0 => return rust_log.unwrap_or("warn").to_string(),
        i8::MIN..=-1 => "error",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    level.to_string()
}

/// The log files' and the span export's directives.
pub(crate) fn recording_directives(rust_log: Option<&str>) -> String {
    rust_log.unwrap_or("info").to_string()
}

pub(crate) fn env_filter(directives: &str) -> Result<EnvFilter, TelemetryError> {
    EnvFilter::builder()
        .parse(directives)
        .map_err(|e| TelemetryError::Filter {
            directives: directives.to_string(),
            message: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn flags_beat_rust_log_which_beats_the_quiet_default() {
        assert_eq!(console_directives(Verbosity(0), None), "warn");
        assert_eq!(
            console_directives(Verbosity(0), Some("heddle_engine=debug")),
            "heddle_engine=debug"
        );
        assert_eq!(console_directives(Verbosity(1), Some("off")), "info");
        assert_eq!(console_directives(Verbosity(2), None), "debug");
        assert_eq!(console_directives(Verbosity(5), None), "trace");
        assert_eq!(console_directives(Verbosity(-1), None), "error");
    }

    #[test]
    fn a_bad_filter_is_reported_with_its_text() {
        let error = env_filter("heddle=[").unwrap_err();
        assert!(error.to_string().contains("heddle=["), "{error}");
    }
}
