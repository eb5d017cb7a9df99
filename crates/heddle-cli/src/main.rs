//! The `heddle` binary: a thin door onto heddle-api (and heddle-server for `serve`).
//! It reads the environment once here and passes what it found down.

mod artifacts;
mod blobs;
mod checkpoints;
mod cli;
mod completions;
mod control;
mod doctor;
mod embedded_ui;
mod gc;
mod graph;
mod live;
mod logging;
mod man_pages;
mod reindex;
mod run;
mod runs;
mod serve;
mod trust;
mod validate;
mod worker;

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;
use cli::{ArtifactAction, BlobsAction, Cli, Command};

/// Exit status for "ran, found errors".
const EXIT_ERRORS: u8 = 1;

/// mimalloc: the model of a large workflow is many small allocations, and glibc's malloc
/// spent over a third of load time on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _telemetry = start_logging(&cli);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr();
    match cli.command {
        Command::Validate { files, json, color } => {
            let color = color.resolve(stdout.is_terminal(), std::env::var_os("NO_COLOR").is_some());
            match validate::run(&files, json, color, &mut out) {
                Ok(false) => ExitCode::SUCCESS,
                Ok(true) => ExitCode::from(EXIT_ERRORS),
                Err(e) => report(&mut err, &format!("cannot write the report: {e}")),
            }
        }
        Command::Graph { file, json } => match graph::run(&file, json, &mut out) {
            Ok(0) => ExitCode::SUCCESS,
            Ok(n) => report(
                &mut err,
                &format!(
                    "{}: {n} error(s); run `heddle validate` for details",
                    file.display()
                ),
            ),
            Err(graph::GraphFailure::Api(e)) => report(&mut err, &e.message),
            Err(graph::GraphFailure::Unparseable(n)) => report(
                &mut err,
                &format!(
                    "{}: no graph could be read ({n} error(s)); run `heddle validate`",
                    file.display()
                ),
            ),
        },
        Command::Serve {
            port,
            bind,
            workspace,
            ui_dir,
            file,
            open,
        } => {
            let workspace = match workspace.map_or_else(std::env::current_dir, Ok) {
                Ok(w) => w,
                Err(e) => return report(&mut err, &format!("cannot read the current folder: {e}")),
            };
            let env = match environment() {
                Ok(env) => env,
                Err(message) => return report(&mut err, &message),
            };
            let ui =
                match serve::choose_ui(ui_dir, std::env::var_os("HEDDLE_UI_DIR").map(Into::into)) {
                    Ok(ui) => ui,
                    Err(message) => return report(&mut err, &message),
                };
            let opts = serve::ServeOptions {
                addr: SocketAddr::new(bind, port),
                home: env.home,
                vars: env.vars,
                workspace,
                ui,
                file,
                open,
            };
            let runtime = match tokio::runtime::Runtime::new() {
                Ok(r) => r,
                Err(e) => return report(&mut err, &format!("cannot start the async runtime: {e}")),
            };
            match runtime.block_on(serve::run(opts, &mut out, &mut err)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => report(&mut err, &e.to_string()),
            }
        }
        Command::Run {
            file,
            inputs,
            dry_run,
            goal,
            auto_approve,
            run_dir,
            work_dir,
            labels,
            json,
            checkpoints,
            max_cost,
            max_tokens,
            trust,
            queue,
        } => {
            let options = run::RunOptions {
                file,
                inputs,
                dry_run,
                goal,
                auto_approve,
                run_dir,
                work_dir,
                labels,
                json,
                checkpoints: checkpoints.name(),
                trust,
                max_cost_usd: max_cost,
                max_tokens,
                queue,
            };
            with_runtime(&mut err, |env, err| {
                Box::pin(async move { run::run(options, env, &mut std::io::stdout(), err).await })
            })
        }
        Command::Resume {
            run: id,
            from_ref,
            max_cost,
            max_tokens,
            auto_approve,
            json,
            trust,
        } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                let target = match (id, from_ref) {
                    (Some(id), _) => run::ResumeTarget::Run(id),
                    (None, Some(reference)) => run::ResumeTarget::FromRef(reference),
                    (None, None) => run::ResumeTarget::Run(String::new()),
                };
                let flags = run::ContinueFlags {
                    auto_approve,
                    json,
                    trust,
                    max_cost_usd: max_cost,
                    max_tokens,
                };
                run::resume(target, flags, env, &mut std::io::stdout(), err).await
            })
        }),
        Command::Checkpoints { run: id, json } => with_library(&mut err, |library| {
            Box::pin(
                async move { checkpoints::list(&library, &id, json, &mut std::io::stdout()).await },
            )
        }),
        Command::Rollback {
            run: id,
            to,
            force,
            json,
        } => with_library(&mut err, |library| {
            Box::pin(async move {
                let out = &mut std::io::stdout();
                checkpoints::rollback(&library, &id, &to, force, json, out).await
            })
        }),
        Command::Diff {
            run: id,
            from,
            to,
            stat,
            json,
        } => with_library(&mut err, |library| {
            Box::pin(async move {
                let request = heddle_api::DiffRequest {
                    run_id: id,
                    from,
                    to,
                };
                checkpoints::diff(&library, &request, stat, json, &mut std::io::stdout()).await
            })
        }),
        Command::Fork {
            run: id,
            from,
            auto_approve,
            json,
            trust,
        } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                let flags = run::ContinueFlags {
                    auto_approve,
                    json,
                    trust,
                    max_cost_usd: None,
                    max_tokens: None,
                };
                run::fork(&id, &from, flags, env, &mut std::io::stdout(), err).await
            })
        }),
        Command::Worker {
            remote,
            name,
            clones,
            lease,
            once,
        } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                let options = worker::WorkerOptions {
                    remote,
                    name,
                    clones,
                    lease: std::time::Duration::from_secs(lease.max(3)),
                    once,
                };
                exit_status(
                    worker::work(options, env, &mut std::io::stdout()).await,
                    err,
                )
            })
        }),
        Command::Reindex { json } => with_library_status(&mut err, |library| {
            Box::pin(async move { reindex::reindex(&library, json, &mut std::io::stdout()).await })
        }),
        Command::Ps { all, json } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                exit_status(runs::ps(all, json, &env, &mut std::io::stdout()).await, err)
            })
        }),
        Command::Events {
            run: id,
            follow,
            json,
        } => with_library(&mut err, |library| {
            Box::pin(async move {
                runs::events(&library, &id, follow, json, &mut std::io::stdout()).await
            })
        }),
        Command::Artifact { action } => with_library(&mut err, |library| {
            Box::pin(async move {
                match action {
                    ArtifactAction::List { run, node, json } => {
                        artifacts::list(
                            &library,
                            &run,
                            node.as_deref(),
                            json,
                            &mut std::io::stdout(),
                        )
                        .await
                    }
                    ArtifactAction::Cp { run, path, dest } => {
                        artifacts::copy(&library, &run, &path, &dest)
                    }
                }
            })
        }),
        Command::Blobs {
            action: BlobsAction::Verify { json },
        } => with_library_status(&mut err, |library| {
            Box::pin(async move {
                let ok = blobs::verify(&library, json, &mut std::io::stdout())?;
                Ok(if ok { 0 } else { EXIT_ERRORS })
            })
        }),
        Command::Gc {
            dry_run,
            repos,
            json,
        } => with_library(&mut err, |library| {
            Box::pin(async move {
                gc::gc(&library, dry_run, &repos, json, &mut std::io::stdout()).await
            })
        }),
        Command::Dump { run: id, out: dir } => with_library(&mut err, |library| {
            Box::pin(async move { artifacts::dump(&library, &id, &dir, &mut std::io::stdout()) })
        }),
        Command::Answer {
            run,
            question,
            choice,
            text,
            json,
        } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                let args = control::AnswerArgs {
                    run,
                    question,
                    choice,
                    text,
                    json,
                };
                exit_status(
                    control::answer(args, &env, &mut std::io::stdout()).await,
                    err,
                )
            })
        }),
        Command::Cancel { run, queued } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                exit_status(
                    control::cancel(&run, queued, &env, &mut std::io::stdout()).await,
                    err,
                )
            })
        }),
        Command::Inspect { run: id, json } => with_library(&mut err, |library| {
            Box::pin(
                async move { runs::inspect(&library, &id, json, &mut std::io::stdout()).await },
            )
        }),
        Command::Doctor { json } => with_runtime(&mut err, |env, err| {
            Box::pin(async move {
                match doctor::run(env.home, env.vars, json, &mut std::io::stdout()).await {
                    Ok(false) => 0,
                    Ok(true) => EXIT_ERRORS,
                    Err(message) => exit_status(Err(message), err),
                }
            })
        }),
        Command::Completions { shell } => {
            ExitCode::from(exit_status(completions::write(shell, &mut out), &mut err))
        }
        Command::Man { out_dir } => {
            let written = match out_dir {
                Some(dir) => man_pages::write_all(&dir, &mut out),
                None => man_pages::print(&mut out),
            };
            ExitCode::from(exit_status(written, &mut err))
        }
    }
}

type LibraryFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Result<u8, String>>>>;

/// Runs a command on the run library of `$HEDDLE_HOME` (opened once, on a fresh runtime);
/// its error, or a failure to open it, is reported.
fn with_library_status(
    err: &mut std::io::Stderr,
    command: impl FnOnce(heddle_api::RunLibrary) -> LibraryFuture,
) -> ExitCode {
    with_runtime(err, |env, err| {
        Box::pin(async move {
            let result = match heddle_api::RunLibrary::open(env.home).await {
                Ok(library) => command(library).await,
                Err(error) => Err(error.message),
            };
            match result {
                Ok(code) => code,
                Err(message) => {
                    let _ = writeln!(err, "error: {message}");
                    EXIT_ERRORS
                }
            }
        })
    })
}

/// [`with_library_status`] for a command that succeeds with status 0.
fn with_library(
    err: &mut std::io::Stderr,
    command: impl FnOnce(
        heddle_api::RunLibrary,
    )
        -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), String>>>>,
) -> ExitCode {
    with_library_status(err, |library| {
        let done = command(library);
        Box::pin(async move { done.await.map(|()| 0) })
    })
}

/// Installs the subscriber: stderr for every command, and for `serve` also the rotated files
/// under `$HEDDLE_HOME/logs/` (named `serve.YYYY-MM-DD.log`).
fn start_logging(cli: &Cli) -> Option<heddle_api::telemetry::TelemetryGuard> {
    let vars = process_vars();
    let home = matches!(cli.command, Command::Serve { .. })
        .then(|| {
            heddle_api::runs::HeddleHome::resolve(
                std::env::var_os("HEDDLE_HOME").map(Into::into),
                std::env::var_os("HOME").map(Into::into),
            )
        })
        .flatten();
    cli.logs.install(logging::LogEnvironment {
        vars: &vars,
        stderr_is_terminal: std::io::stderr().is_terminal(),
        files: home.as_ref().map(|home| (home.root(), "serve")),
    })
}

/// The process's environment variables, as text.
fn process_vars() -> Vec<(String, String)> {
    std::env::vars_os()
        .map(|(k, v)| {
            (
                k.to_string_lossy().into_owned(),
                v.to_string_lossy().into_owned(),
            )
        })
        .collect()
}

/// Reads what run commands need from the process environment, once.
fn environment() -> Result<run::Environment, String> {
    let home = heddle_api::runs::HeddleHome::resolve(
        std::env::var_os("HEDDLE_HOME").map(Into::into),
        std::env::var_os("HOME").map(Into::into),
    )
    .ok_or("neither HEDDLE_HOME nor HOME is set; set HEDDLE_HOME to where Heddle keeps runs")?
    .with_database_url(std::env::var("HEDDLE_DATABASE_URL").ok());
    let vars = process_vars();
    let home = home
        .with_run_files(std::env::var("HEDDLE_RUN_FILES_URL").ok(), &vars)
        .with_team_remote(std::env::var("HEDDLE_TEAM_REMOTE").ok());
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    Ok(run::Environment {
        home,
        cwd,
        vars,
        terminal: std::io::stderr().is_terminal(),
        interactive: std::io::stdin().is_terminal() && std::io::stderr().is_terminal(),
    })
}

type ExitFuture<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = u8> + 'a>>;

/// Runs an async command on a fresh runtime with the environment read.
fn with_runtime<'a>(
    err: &'a mut std::io::Stderr,
    command: impl FnOnce(run::Environment, &'a mut std::io::Stderr) -> ExitFuture<'a>,
) -> ExitCode {
    let env = match environment() {
        Ok(env) => env,
        Err(message) => return report(err, &message),
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => return report(err, &format!("cannot start the async runtime: {e}")),
    };
    ExitCode::from(runtime.block_on(command(env, err)))
}

/// The exit status of a command's result, its error reported.
fn exit_status(result: Result<(), String>, err: &mut dyn Write) -> u8 {
    match result {
        Ok(()) => 0,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            EXIT_ERRORS
        }
    }
}

fn report(err: &mut dyn Write, message: &str) -> ExitCode {
    let _ = writeln!(err, "error: {message}");
    ExitCode::from(EXIT_ERRORS)
}
