//! Logging for an app door without logging flags (the desktop app): `RUST_LOG` (else
//! warnings) on stderr, and `RUST_LOG` (else info) in daily files under `$HEDDLE_HOME/logs/`,
//! plus the OTLP export when its variables ask for it.

use std::ffi::OsString;

use crate::runs::HeddleHome;
use crate::telemetry::{FileLog, TelemetryConfig, TelemetryEnv, TelemetryError, TelemetryGuard};

/// Installs the subscriber of the app `name` (its log files are `{name}.YYYY-MM-DD.log`),
/// from the process's variables `vars` (read by the caller). Keep the guard until exit.
pub fn start_app_logs(
    name: &str,
    vars: impl IntoIterator<Item = (OsString, OsString)>,
) -> Result<TelemetryGuard, TelemetryError> {
    let vars: Vec<(String, String)> = vars
        .into_iter()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let value = |key: &str| {
        vars.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| std::path::PathBuf::from(v))
    };
    let mut config = TelemetryConfig::new(TelemetryEnv::from_vars(vars.iter().cloned()));
    config.file = HeddleHome::resolve(value("HEDDLE_HOME"), value("HOME"))
        .map(|home| FileLog::under_home(home.root(), name));
    crate::telemetry::init(config)
}
