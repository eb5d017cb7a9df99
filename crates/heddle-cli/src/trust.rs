//! Workspace trust at the command line: before a workflow that has not been trusted runs,
//! print what it will do (heddle-api's assessment) and ask (on a terminal), or take
//! `--trust` / `HEDDLE_TRUST_WORKFLOWS=1`, or refuse saying how to consent.

use std::io::{BufRead, Write};

use heddle_api::WorkflowTrust;
use heddle_api::runs::HeddleHome;
use heddle_api::trust::{TRUST_ENV, remember, untrusted};

/// How the person may consent.
pub struct Consent<'a> {
    /// `--trust` was given, or the environment variable says yes.
    pub given: bool,
    /// Where to ask y/N, when standard input and error are a terminal.
    pub ask: Option<&'a mut dyn BufRead>,
}

/// Checks that what `verdict` assessed is trusted, asking or recording consent as `consent`
/// allows. Blocking.
pub fn ensure_trusted(
    home: &HeddleHome,
    verdict: &WorkflowTrust,
    consent: Consent<'_>,
    err: &mut dyn Write,
) -> Result<(), String> {
    if let Some(warning) = &verdict.warning {
        let _ = writeln!(err, "warning: {warning}");
    }
    if verdict.trusted {
        return Ok(());
    }
    let agreed = if consent.given {
        true
    } else {
        print_summary(verdict, err);
        match consent.ask {
            Some(input) => {
                let _ = write!(err, "Trust this workflow and run it? [y/N] ");
                let _ = err.flush();
                let mut answer = String::new();
                let _ = input.read_line(&mut answer);
                matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
            }
            None => {
                return Err(untrusted(
                    verdict,
                    &format!("run it again with --trust (or set {TRUST_ENV}=1 for scripts and CI)"),
                )
                .message);
            }
        }
    };
    if !agreed {
        return Err("not trusted; nothing ran".to_string());
    }
    let now = heddle_engine::clock::rfc3339(std::time::SystemTime::now());
    remember(home, verdict, &now).map_err(|e| e.message)
}

/// What the workflow will do, as the person reads it before agreeing: the items heddle-api
/// words for every door, each with its script, command or path indented below it.
pub fn print_summary(trust: &WorkflowTrust, err: &mut dyn Write) {
    let _ = writeln!(
        err,
        "{} has not been trusted on this machine. Running it:",
        trust.workflow_path
    );
    for item in &trust.items {
        let _ = writeln!(err, "  - {}", item.title);
        for line in item.detail.iter().flat_map(|d| d.lines()) {
            let _ = writeln!(err, "      {line}");
        }
    }
}
