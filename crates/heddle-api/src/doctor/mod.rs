//! `heddle doctor`: whether this machine is set up to author and run workflows. Each check
//! (git, model providers, the UI, WebKitGTK for the desktop app, Heddle's home folder, the
//! run index, shadow repositories) answers ok, warn or fail with a fix a person can follow.
//! Everything the checks look at is passed in (the environment, where libraries live, how
//! the UI was found), so the CLI only reads the process's facts and renders the report.
//! Secret values (API keys) never appear in a report.

mod data_checks;
mod system_checks;

use std::path::PathBuf;

use serde::Serialize;

use crate::runs::HeddleHome;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// Nothing to do.
    Ok,
    /// Works, but something is missing or worth a look.
    Warn,
    /// Something Heddle needs is broken.
    Fail,
}

impl CheckStatus {
    /// `ok`, `warn` or `fail`.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckStatus::Ok => "ok",
            CheckStatus::Warn => "warn",
            CheckStatus::Fail => "fail",
        }
    }
}

/// One check's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked (`git`, `providers`, `ui`, `webkitgtk`, `home`, `index`, `shadow`).
    pub name: &'static str,
    /// How it came out.
    pub status: CheckStatus,
    /// What was found.
    pub summary: String,
    /// What to do about it (for warn and fail).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn ok(name: &'static str, summary: impl Into<String>) -> Check {
        Check {
            name,
            status: CheckStatus::Ok,
            summary: summary.into(),
            fix: None,
        }
    }

    fn warn(name: &'static str, summary: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name,
            status: CheckStatus::Warn,
            summary: summary.into(),
            fix: Some(fix.into()),
        }
    }

    fn fail(name: &'static str, summary: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name,
            status: CheckStatus::Fail,
            summary: summary.into(),
            fix: Some(fix.into()),
        }
    }
}

/// Every check's outcome, in a fixed order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DoctorReport {
    /// One entry per check, in the order `heddle doctor` prints them (git first, shadow
    /// repositories last).
    pub checks: Vec<Check>,
}

impl DoctorReport {
    /// The worst outcome.
    pub fn worst(&self) -> CheckStatus {
        self.checks
            .iter()
            .map(|c| c.status)
            .max()
            .unwrap_or(CheckStatus::Ok)
    }
}

/// Where the UI `heddle serve` would show comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UiPresence {
    /// Compiled into the binary.
    Embedded,
    /// A folder given by `--ui-dir` or `HEDDLE_UI_DIR` (named by `from`).
    Folder {
        /// The folder.
        dir: PathBuf,
        /// `HEDDLE_UI_DIR`.
        from: String,
    },
    /// The binary was built without it.
    NotBuilt,
}

/// What the checks look at.
#[derive(Debug, Clone)]
pub struct DoctorSetup {
    /// Heddle's data folder.
    pub home: HeddleHome,
    /// The environment (`PATH` for git, the providers' variables).
    pub vars: Vec<(String, String)>,
    /// The UI `heddle serve` would show.
    pub ui: UiPresence,
    /// Folders the dynamic loader searches for shared libraries (for WebKitGTK); empty on
    /// systems where the desktop app does not use it.
    pub library_dirs: Vec<PathBuf>,
}

/// Runs every check. Nothing is created or changed, except that an existing run index is
/// migrated to this version's schema when it is behind (as every command does).
pub async fn diagnose(setup: &DoctorSetup) -> DoctorReport {
    let secrets = data_checks::secret_values(setup);
    let mut checks = vec![
        system_checks::git(&setup.vars),
        data_checks::providers(setup),
        system_checks::ui(&setup.ui),
        system_checks::webkitgtk(&setup.library_dirs),
        system_checks::home_writable(setup.home.root()),
        data_checks::index(&setup.home).await,
    ];
    let home = setup.home.clone();
    checks.push(
        crate::run_host::blocking(move || Ok(data_checks::shadow_repositories(&home)))
            .await
            .unwrap_or_else(|e| Check::fail("shadow", e.message, "run `heddle doctor` again")),
    );
    for check in &mut checks {
        check.summary = redact(&check.summary, &secrets);
        check.fix = check.fix.as_deref().map(|f| redact(f, &secrets));
    }
    DoctorReport { checks }
}

/// `text` with every secret value replaced.
fn redact(text: &str, secrets: &[String]) -> String {
    secrets
        .iter()
        .filter(|s| s.len() >= 4)
        .fold(text.to_owned(), |text, secret| {
            text.replace(secret.as_str(), "[redacted]")
        })
}
