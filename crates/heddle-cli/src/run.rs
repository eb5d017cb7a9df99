//! `heddle run`, `heddle resume` and `heddle fork`: set up through heddle-api, executed in
//! the foreground with a live view, Ctrl-C cancelling cleanly, and a summary at the end.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use heddle_api::run_inputs::{parse_inputs, resolve_run};
use heddle_api::runs::HeddleHome;
use heddle_api::trust::{TRUST_ENV, env_trusts};
use heddle_api::{
    Executor, ForkRequest, ResumeRunRequest, RunLibrary, StartRunRequest, WorkflowTrustRequest,
};
use heddle_engine::interviewer::{AutoApprove, Interviewer, TerminalInterviewer};
use heddle_engine::{Conclusion, PreparedRun, RunStatus};

use crate::live::{LiveView, elapsed};
use crate::trust::{Consent, ensure_trusted};

/// What the caller read from the environment.
pub struct Environment {
    /// Heddle's data folder: `$HEDDLE_HOME`, else `~/.heddle`.
    pub home: HeddleHome,
    /// The process's working folder: the default work folder, and where `--from-ref` looks.
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
    /// `auto`, `worktree`, `shadow` or `none`.
    pub checkpoints: &'static str,
    /// `--trust`: run the workflow even if it has not been trusted yet, and remember it.
    pub trust: bool,
    /// `--max-cost`: the run's cost limit in US dollars, over the config's and the graph's.
    pub max_cost_usd: Option<f64>,
    /// `--max-tokens`: the run's token limit, over the config's and the graph's.
    pub max_tokens: Option<u64>,
    /// `--queue`: queue the run for a worker instead of running it here.
    pub queue: bool,
}

/// Exit codes.
pub const EXIT_FAILED: u8 = 1;
/// The run could not start.
pub const EXIT_SETUP: u8 = 2;
/// Cancelled.
pub const EXIT_CANCELLED: u8 = 130;

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
    let library = match RunLibrary::open(env.home.clone()).await {
        Ok(library) => library,
        Err(error) => return fail(err, &error.message),
    };
    // Trust is asked about the workflow a run config names, in the folder stages run in.
    let workflow = match workflow_of(&options.file) {
        Ok(path) => path,
        Err(message) => return fail(err, &message),
    };
    let work_dir = options.work_dir.unwrap_or_else(|| env.cwd.clone());
    let verdict = library.workflow_trust(&WorkflowTrustRequest {
        workflow_path: workflow.display().to_string(),
        work_dir: Some(work_dir.display().to_string()),
    });
    let verdict = match verdict {
        Ok(verdict) => verdict,
        Err(error) => return fail(err, &error.message),
    };
    if let Err(message) = consent_to(&env, &verdict, options.trust, err) {
        return fail(err, &message);
    }
    let request = StartRunRequest {
        workflow_path: options.file.display().to_string(),
        goal: options.goal,
        labels,
        inputs,
        dry_run: options.dry_run,
        work_dir: Some(work_dir.display().to_string()),
        checkpoints: Some(options.checkpoints.to_string()),
        // Consent was given for this content: a file changed since is refused.
        trust: true,
        trust_digest: Some(verdict.digest),
        max_cost_usd: options.max_cost_usd,
        max_tokens: options.max_tokens,
    };
    if options.queue {
        return match library.enqueue(request).await {
            Ok(entry) => {
                let _ = writeln!(out, "{}", entry.id);
                let _ = writeln!(err, "queued as {} for a worker (`heddle worker`)", entry.id);
                0
            }
            Err(error) => fail(err, &error.message),
        };
    }
    let executor = executor(&env, options.auto_approve);
    let prepared = match library
        .prepare_start(request, options.run_dir, &executor)
        .await
    {
        Ok(prepared) => prepared,
        Err(error) => return fail(err, &error.message),
    };
    for warning in &prepared.warnings {
        let _ = writeln!(err, "warning: {warning}");
    }
    drive(&library, prepared.run, options.json, env.terminal, out, err).await
}

/// The workflow file `file` is, or names when it is a run config.
fn workflow_of(file: &Path) -> Result<PathBuf, String> {
    resolve_run(file, None, BTreeMap::new()).map(|resolved| resolved.workflow_path)
}

/// Asks for (or takes) consent to run what `verdict` assessed, when it is not trusted yet.
fn consent_to(
    env: &Environment,
    verdict: &heddle_api::WorkflowTrust,
    flag: bool,
    err: &mut dyn Write,
) -> Result<(), String> {
    let mut stdin = std::io::stdin().lock();
    let consent = env.consent(flag, &mut stdin);
    ensure_trusted(&env.home, verdict, consent, err)
}

/// Runs execute in this process with its environment; gates are asked on the terminal (or
/// approved with `--auto-approve`), and answers from other processes are taken too.
fn executor(env: &Environment, auto_approve: bool) -> Executor {
    let interviewer: Arc<dyn Interviewer> = if auto_approve {
        Arc::new(AutoApprove)
    } else {
        Arc::new(TerminalInterviewer::stdio())
    };
    Executor {
        env: env.vars.clone(),
        interviewer,
        push_to: None,
    }
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
    /// Answer every human gate with its default (or approving) choice.
    pub auto_approve: bool,
    /// Print events as JSON lines instead of the live view.
    pub json: bool,
    /// Run the workflow without asking even if it is not trusted yet, and remember it.
    pub trust: bool,
    /// `--max-cost` (resume only): the cost limit in US dollars, over the config's and graph's.
    pub max_cost_usd: Option<f64>,
    /// `--max-tokens` (resume only): the token limit, over the config's and the graph's.
    pub max_tokens: Option<u64>,
}

/// `heddle resume`.
pub async fn resume(
    target: ResumeTarget,
    flags: ContinueFlags,
    env: Environment,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let library = match RunLibrary::open(env.home.clone()).await {
        Ok(library) => library,
        Err(error) => return fail(err, &error.message),
    };
    let executor = executor(&env, flags.auto_approve);
    let prepared = match target {
        ResumeTarget::Run(run) => {
            if let Err(message) = run_trusted(&library, &run, flags.trust, &env, err) {
                return fail(err, &message);
            }
            let request = ResumeRunRequest {
                run_id: run,
                max_cost_usd: flags.max_cost_usd,
                max_tokens: flags.max_tokens,
            };
            library.prepare_resume(&request, &executor).await
        }
        ResumeTarget::FromRef(reference) => {
            let rebuilt = library
                .prepare_from_ref(
                    &env.cwd,
                    &reference,
                    flags.max_cost_usd,
                    flags.max_tokens,
                    &executor,
                )
                .await;
            // Rebuilt but not started: it runs only once its graph is trusted.
            if let Ok(prepared) = &rebuilt {
                let run = prepared.run_dir().root().display().to_string();
                if let Err(message) = run_trusted(&library, &run, flags.trust, &env, err) {
                    return fail(err, &message);
                }
            }
            rebuilt
        }
    };
    match prepared {
        Ok(prepared) => drive(&library, prepared, flags.json, env.terminal, out, err).await,
        Err(error) => fail(err, &error.message),
    }
}

/// Checks that the workflow run `run` holds (its `graph.dot`) is trusted, as `heddle run`
/// does for a file: a run started here was, unless its graph changed since.
fn run_trusted(
    library: &RunLibrary,
    run: &str,
    trust: bool,
    env: &Environment,
    err: &mut dyn Write,
) -> Result<(), String> {
    let verdict = library.run_trust(run).map_err(|e| e.message)?;
    consent_to(env, &verdict, trust, err)
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
    let library = match RunLibrary::open(env.home.clone()).await {
        Ok(library) => library,
        Err(error) => return fail(err, &error.message),
    };
    // The fork holds the source run's graph: check it before making anything.
    if let Err(message) = run_trusted(&library, run, flags.trust, &env, err) {
        return fail(err, &message);
    }
    let request = ForkRequest {
        run_id: run.to_string(),
        from: from.to_string(),
    };
    match library
        .prepare_fork(&request, &executor(&env, flags.auto_approve))
        .await
    {
        Ok(prepared) => drive(&library, prepared, flags.json, env.terminal, out, err).await,
        Err(error) => fail(err, &error.message),
    }
}

async fn drive(
    library: &RunLibrary,
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
    let executing = library.clone();
    let mut task = tokio::spawn(async move { executing.execute(prepared).await });
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
    view.leave_on_screen();
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
    if conclusion
        .failure_reason
        .as_deref()
        .is_some_and(|r| r.starts_with("budget exceeded"))
    {
        let _ = writeln!(
            err,
            "  a higher budget continues it: heddle resume {} --max-cost USD / --max-tokens N",
            conclusion.run_id
        );
    }
    if let Some(notes) = &conclusion.notes {
        let _ = writeln!(err, "  {notes}");
    }
    let _ = writeln!(err, "  run folder: {}", run_dir.display());
}

fn fail(err: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(err, "error: {message}");
    EXIT_SETUP
}
