//! `heddle run` and `heddle resume`: execute on the engine (wired by heddle-api) with a live
//! view, Ctrl-C cancelling cleanly, and a summary at the end.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use heddle_api::run_inputs::{parse_inputs, resolve_run};
use heddle_api::runs::{HeddleHome, engine};
use heddle_checkpoint::ModeChoice;
use heddle_engine::interviewer::{AutoApprove, Interviewer, TerminalInterviewer};
use heddle_engine::runs::find_run;
use heddle_engine::{Conclusion, PreparedRun, RunRequest, RunStatus};

use crate::live::{LiveView, elapsed};
use crate::trust::{Consent, ensure_trusted};
use heddle_api::trust::{TRUST_ENV, env_trusts};

/// What the caller read from the environment.
pub struct Environment {
    /// Heddle's data folder.
    pub home: HeddleHome,
    /// The current folder.
    pub cwd: PathBuf,
    /// The process environment, passed to commands.
    pub vars: Vec<(String, String)>,
    /// Whether stderr is a terminal (live redraw).
    pub terminal: bool,
    /// Whether stdin and stderr are both a terminal (a person can be asked).
    pub interactive: bool,
}

impl Environment {
    /// How the person consents to run a workflow that is not trusted yet: `--trust`,
    /// `HEDDLE_TRUST_WORKFLOWS`, or a y/N question on the terminal.
    fn consent<'a>(&self, flag: bool, stdin: &'a mut dyn std::io::BufRead) -> Consent<'a> {
        let variable = self
            .vars
            .iter()
            .find(|(k, _)| k == TRUST_ENV)
            .map(|(_, v)| v.as_str());
        Consent {
            given: flag || env_trusts(variable),
            ask: self.interactive.then_some(stdin),
        }
    }
}

/// Options of `heddle run`.
pub struct RunOptions {
    pub file: PathBuf,
    /// `-V NAME=VALUE` pairs.
    pub inputs: Vec<String>,
    pub dry_run: bool,
    pub goal: Option<String>,
    pub auto_approve: bool,
    pub run_dir: Option<PathBuf>,
    pub work_dir: Option<PathBuf>,
    pub labels: Vec<String>,
    pub json: bool,
    pub checkpoints: ModeChoice,
    /// `--trust`: run the workflow even if it has not been trusted yet, and remember it.
    pub trust: bool,
}

/// Exit codes.
pub const EXIT_FAILED: u8 = 1;
/// The run could not start.
pub const EXIT_SETUP: u8 = 2;
/// Cancelled.
pub const EXIT_CANCELLED: u8 = 130;

fn interviewer(auto_approve: bool) -> Arc<dyn Interviewer> {
    if auto_approve {
        Arc::new(AutoApprove)
    } else {
        Arc::new(TerminalInterviewer::stdio())
    }
}

fn parse_labels(labels: &[String]) -> Result<BTreeMap<String, String>, String> {
    labels
        .iter()
        .map(|l| match l.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(format!("--label `{l}`: expected KEY=VALUE")),
        })
        .collect()
}

/// `heddle run`.
pub async fn run(
    options: RunOptions,
    env: Environment,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let labels = match parse_labels(&options.labels) {
        Ok(labels) => labels,
        Err(message) => return fail(err, &message),
    };
    let inputs = match parse_inputs(&options.inputs) {
        Ok(inputs) => inputs,
        Err(message) => return fail(err, &message),
    };
    let resolved = match resolve_run(&options.file, options.goal, inputs) {
        Ok(resolved) => resolved,
        Err(message) => return fail(err, &message),
    };
    for warning in &resolved.warnings {
        let _ = writeln!(err, "warning: {warning}");
    }
    let options = RunOptions {
        file: resolved.workflow_path,
        goal: resolved.goal,
        ..options
    };
    let work_dir = options.work_dir.unwrap_or_else(|| env.cwd.clone());
    // An unreadable file is left to the engine, which says what is wrong with it.
    let source = std::fs::read_to_string(&options.file).ok();
    if let Some(source) = &source {
        let mut stdin = std::io::stdin().lock();
        let consent = env.consent(options.trust, &mut stdin);
        if let Err(message) =
            ensure_trusted(&env.home, &options.file, source, &work_dir, consent, err)
        {
            return fail(err, &message);
        }
    }
    let engine = engine(
        &env.home,
        options.dry_run,
        interviewer(options.auto_approve),
        env.vars.clone(),
        options.checkpoints,
    );
    let request = RunRequest {
        workflow_path: options.file.clone(),
        source,
        goal: options.goal,
        labels,
        inputs: resolved.inputs,
        runs_root: env.home.runs(),
        run_dir: options.run_dir,
        work_dir,
        dry_run: options.dry_run,
        parent_run_id: None,
    };
    // Setting git up is blocking work: keep it off the runtime's workers.
    let prepared =
        match off_runtime("the run could not start", move || engine.prepare(request)).await {
            Ok(prepared) => prepared,
            Err(message) => return fail(err, &message),
        };
    drive(prepared, options.json, env.terminal, out, err).await
}

/// What `heddle resume` continues.
pub enum ResumeTarget {
    /// A run of `$HEDDLE_HOME/runs` (id, prefix or folder).
    Run(String),
    /// A run rebuilt from the metadata ref in the current folder's repository.
    FromRef(String),
}

/// The flags `heddle resume` and `heddle fork` share.
pub struct ContinueFlags {
    /// `--auto-approve`.
    pub auto_approve: bool,
    /// `--json`.
    pub json: bool,
    /// `--trust`.
    pub trust: bool,
}

/// `heddle resume`.
pub async fn resume(
    target: ResumeTarget,
    flags: ContinueFlags,
    env: Environment,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let run_dir = match target {
        ResumeTarget::Run(run) => match find_run(&env.home.runs(), &run) {
            Ok(dir) => dir,
            Err(error) => return fail(err, &error.to_string()),
        },
        ResumeTarget::FromRef(reference) => {
            let (cwd, runs) = (env.cwd.clone(), env.home.runs());
            let rebuilt = off_runtime("the run could not be rebuilt", move || {
                heddle_checkpoint::from_ref::restore_from_ref(&cwd, &reference, &runs)
            });
            match rebuilt.await {
                Ok(dir) => dir,
                Err(message) => return fail(err, &message),
            }
        }
    };
    if let Err(message) = run_trusted(&run_dir, flags.trust, &env, err) {
        return fail(err, &message);
    }
    continue_run(run_dir, flags.auto_approve, flags.json, env, out, err).await
}

/// Checks that the workflow a run folder holds (its `graph.dot`) is trusted, as `heddle
/// run` does for a file: a run started here was, unless its graph changed since.
fn run_trusted(
    run_dir: &heddle_engine::RunDir,
    trust: bool,
    env: &Environment,
    err: &mut dyn Write,
) -> Result<(), String> {
    let manifest = run_dir.read_manifest().map_err(|e| e.to_string())?;
    let graph = run_dir.graph();
    let source =
        std::fs::read_to_string(&graph).map_err(|e| format!("{}: {e}", graph.display()))?;
    let work_dir = PathBuf::from(&manifest.work_dir);
    let mut stdin = std::io::stdin().lock();
    let consent = env.consent(trust, &mut stdin);
    ensure_trusted(
        &env.home,
        std::path::Path::new(&manifest.workflow_path),
        &source,
        &work_dir,
        consent,
        err,
    )
}

/// `heddle fork`: a new run from a checkpoint of another, then continued.
pub async fn fork(
    run: &str,
    from: &str,
    flags: ContinueFlags,
    env: Environment,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let source = match find_run(&env.home.runs(), run) {
        Ok(dir) => dir,
        Err(error) => return fail(err, &error.to_string()),
    };
    // The fork holds the source run's graph: check it before making anything.
    if let Err(message) = run_trusted(&source, flags.trust, &env, err) {
        return fail(err, &message);
    }
    let (home, from) = (env.home.clone(), from.to_string());
    let forked = off_runtime("the fork could not be made", move || {
        heddle_api::runs::fork_run(&home, &source, &from)
    });
    let run_dir = match forked.await {
        Ok(dir) => dir,
        Err(message) => return fail(err, &message),
    };
    continue_run(run_dir, flags.auto_approve, flags.json, env, out, err).await
}

async fn continue_run(
    run_dir: heddle_engine::RunDir,
    auto_approve: bool,
    json: bool,
    env: Environment,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let dry_run = run_dir.read_manifest().map(|m| m.dry_run).unwrap_or(false);
    let engine = engine(
        &env.home,
        dry_run,
        interviewer(auto_approve),
        env.vars.clone(),
        ModeChoice::Auto,
    );
    let prepared =
        match off_runtime("the run could not resume", move || engine.resume(&run_dir)).await {
            Ok(prepared) => prepared,
            Err(message) => return fail(err, &message),
        };
    drive(prepared, json, env.terminal, out, err).await
}

/// Runs blocking setup work (git, the run folder) off the runtime's workers; its error as
/// text, or `what` if the task itself died.
async fn off_runtime<T: Send + 'static, E: std::fmt::Display + Send + 'static>(
    what: &str,
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, String> {
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => result.map_err(|e| e.to_string()),
        Err(error) => Err(format!("{what}: {error}")),
    }
}

async fn drive(
    prepared: PreparedRun,
    json: bool,
    terminal: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let run_id = prepared.run_id().to_string();
    let run_dir = prepared.run_dir().root().to_path_buf();
    let title = format!(
        "{} · run {run_id}{}",
        prepared.workflow().name,
        if prepared.start_node() != "start" {
            format!(" (from {})", prepared.start_node())
        } else {
            String::new()
        }
    );
    let mut events = prepared.subscribe();
    let cancel = prepared.cancel_handle();
    if !json {
        let _ = writeln!(err, "run {run_id}\n  folder {}", run_dir.display());
    }
    let mut task = tokio::spawn(prepared.execute());
    let mut view = LiveView::new(title, terminal && !json);
    let mut ticker = tokio::time::interval(Duration::from_millis(120));
    let mut interrupts = 0;
    // One listener for the whole run, so a Ctrl-C arriving mid-redraw is not lost.
    let mut sigint = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
    {
        Ok(signal) => Some(signal),
        Err(error) => {
            let _ = writeln!(
                err,
                "warning: Ctrl-C will not stop the run cleanly: {error}"
            );
            None
        }
    };
    let conclusion: Conclusion = loop {
        tokio::select! {
            joined = &mut task => match joined {
                Ok(conclusion) => break conclusion,
                Err(error) => return fail(err, &format!("the run stopped unexpectedly: {error}")),
            },
            received = events.recv() => match received {
                Ok(envelope) if json => {
                    let _ = writeln!(out, "{}", serde_json::to_string(&envelope).unwrap_or_default());
                }
                Ok(envelope) => view.event(&envelope, err),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                    let _ = writeln!(err, "warning: the display fell behind and skipped {missed} event(s); progress.jsonl has them all");
                }
                Err(_) => {}
            },
            _ = ticker.tick() => view.draw(err),
            Some(()) = async { match sigint.as_mut() { Some(s) => s.recv().await, None => std::future::pending().await } } => {
                interrupts += 1;
                if interrupts > 1 {
                    let _ = writeln!(err, "\ninterrupted twice; leaving the run as it is (resume with `heddle resume {run_id}`)");
                    return EXIT_CANCELLED;
                }
                let _ = writeln!(err, "\nstopping: saving a checkpoint (Ctrl-C again to quit at once)");
                cancel.cancel("interrupted (Ctrl-C)");
            }
        }
    };
    // Drain what arrived before the conclusion (a lag is reported, not the end of it).
    loop {
        match events.try_recv() {
            Ok(envelope) if json => {
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&envelope).unwrap_or_default()
                );
            }
            Ok(envelope) => view.event(&envelope, err),
            Err(tokio::sync::broadcast::error::TryRecvError::Lagged(missed)) => {
                let _ = writeln!(
                    err,
                    "warning: the display fell behind and skipped {missed} event(s); progress.jsonl has them all"
                );
            }
            Err(_) => break,
        }
    }
    view.draw(err);
    if !json {
        summary(&conclusion, &run_dir, err);
    }
    match conclusion.status {
        RunStatus::Success => 0,
        RunStatus::Cancelled => EXIT_CANCELLED,
        _ => EXIT_FAILED,
    }
}

fn summary(conclusion: &Conclusion, run_dir: &std::path::Path, err: &mut dyn Write) {
    let took = elapsed(Duration::from_millis(conclusion.duration_ms));
    let _ = match conclusion.status {
        RunStatus::Success => writeln!(
            err,
            "\n✓ succeeded in {took} ({} stages)",
            conclusion.stages
        ),
        status => writeln!(
            err,
            "\n✗ {} after {took}: {}\n  resume with: heddle resume {}",
            status.as_str(),
            conclusion
                .failure_reason
                .as_deref()
                .unwrap_or("no reason recorded"),
            conclusion.run_id
        ),
    };
    if let Some(notes) = &conclusion.notes {
        let _ = writeln!(err, "  {notes}");
    }
    let _ = writeln!(err, "  run folder: {}", run_dir.display());
}

fn fail(err: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(err, "error: {message}");
    EXIT_SETUP
}
