//! Command-line grammar.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Heddle: author, run and inspect AI-agent workflows written as Graphviz DOT.
#[derive(Debug, Parser)]
#[command(name = "heddle", version, about)]
pub struct Cli {
    /// `-v`, `-q`, `--log-format`.
    #[command(flatten)]
    pub logs: crate::logging::LogFlags,
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check workflow files and report problems with file, line and column.
    ///
    /// Exit status: 0 when no file has errors (warnings allowed), 1 when any has errors,
    /// 2 on a usage error.
    Validate {
        /// Workflow files (`.dot` or `.fabro`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print diagnostics as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Colour the text output.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Print a workflow's typed model: nodes with handler kinds, edges, subgraphs.
    Graph {
        /// Workflow file (`.dot` or `.fabro`).
        file: PathBuf,
        /// Print the model as JSON (the same data the UI draws).
        #[arg(long)]
        json: bool,
    },
    /// Serve the Heddle UI and API to a browser on this machine.
    Serve {
        /// Port to listen on; 0 picks a free one.
        #[arg(long, default_value_t = 7878)]
        port: u16,
        /// Address to listen on. Anything but loopback lets anyone on the network who gets the
        /// token run commands on this machine as you (over plain HTTP).
        #[arg(long, default_value = "127.0.0.1")]
        bind: IpAddr,
        /// Folder whose workflows the UI lists (default: the current folder).
        #[arg(long)]
        workspace: Option<PathBuf>,
        /// A built UI folder to serve instead of the one compiled in, for UI development
        /// (default: `$HEDDLE_UI_DIR`, else the compiled-in UI).
        #[arg(long)]
        ui_dir: Option<PathBuf>,
        /// A workflow file the UI opens right away.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Open the URL in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Run a workflow headless, with a live view of its stages.
    ///
    /// Exit status: 0 when the run succeeds, 1 when it fails, 2 when it cannot start,
    /// 130 when it is cancelled (Ctrl-C).
    Run {
        /// Workflow file, or a run config (`run.toml` / `workflow.toml`) naming one in
        /// `[workflow] graph`. A run config beside the workflow that names it is read too.
        file: PathBuf,
        /// An input `NAME=VALUE` for `{{ inputs.NAME }}` (repeatable; overrides the run
        /// config's `[run.inputs]`). `-I` (Fabro's spelling) works too.
        #[arg(
            short = 'V',
            short_alias = 'I',
            long = "input",
            value_name = "NAME=VALUE"
        )]
        inputs: Vec<String>,
        /// Simulate LLM stages (no model is called; replies are marked simulated).
        #[arg(long)]
        dry_run: bool,
        /// The run's goal (overrides the graph's `goal`).
        #[arg(long)]
        goal: Option<String>,
        /// Answer every human gate with its default (or approving) choice.
        #[arg(long)]
        auto_approve: bool,
        /// Run directory to use instead of `$HEDDLE_HOME/runs/YYYYMMDD-{id}`.
        #[arg(long)]
        run_dir: Option<PathBuf>,
        /// Where stages run (default: the current folder).
        #[arg(long)]
        work_dir: Option<PathBuf>,
        /// A label `KEY=VALUE` (repeatable).
        #[arg(long = "label", value_name = "KEY=VALUE")]
        labels: Vec<String>,
        /// Print events as JSON lines on stdout instead of the live view.
        #[arg(long)]
        json: bool,
        /// Git checkpoints: `auto` (a worktree in a clean repository, else a shadow
        /// repository), `worktree`, `shadow` or `none`.
        #[arg(long, value_enum, default_value_t = CheckpointChoice::Auto)]
        checkpoints: CheckpointChoice,
        /// Stop the run cleanly at the next stage boundary once its LLM calls have cost more
        /// than USD dollars (overrides the run config's and the graph's `max_cost_usd`).
        #[arg(long, value_name = "USD")]
        max_cost: Option<f64>,
        /// Stop the run cleanly at the next stage boundary once its LLM calls have used more
        /// than N input plus output tokens (overrides `max_tokens` of the config and graph).
        #[arg(long, value_name = "N")]
        max_tokens: Option<u64>,
        /// Run it even if this workflow (this content, in this folder) has not been trusted
        /// on this machine yet, and remember it as trusted. Without it, Heddle lists what the
        /// workflow will do and asks (on a terminal) or refuses. `HEDDLE_TRUST_WORKFLOWS=1`
        /// does the same for scripts and CI.
        #[arg(long, visible_alias = "yes")]
        trust: bool,
        /// Queue the run for a worker (`heddle worker`) instead of running it here: the
        /// workflow is named by its path in its git repository, which workers clone.
        #[arg(long, conflicts_with_all = ["run_dir", "work_dir", "json", "auto_approve"])]
        queue: bool,
    },
    /// Continue a run that crashed, failed or was cancelled, from its checkpoint.
    Resume {
        /// Run id, unique prefix, or run folder.
        #[arg(required_unless_present = "from_ref")]
        run: Option<String>,
        /// Rebuild the run from git alone (`refs/heddle/{id}` and its run branch in the
        /// current folder's repository), then continue it.
        #[arg(long, value_name = "REF", conflicts_with = "run")]
        from_ref: Option<String>,
        /// Stop the run cleanly at the next stage boundary once its LLM calls have cost more
        /// than USD dollars (overrides the run config's and the graph's `max_cost_usd`).
        #[arg(long, value_name = "USD")]
        max_cost: Option<f64>,
        /// Stop the run cleanly at the next stage boundary once its LLM calls have used more
        /// than N input plus output tokens (overrides `max_tokens` of the config and graph).
        #[arg(long, value_name = "N")]
        max_tokens: Option<u64>,
        /// Answer every human gate with its default (or approving) choice.
        #[arg(long)]
        auto_approve: bool,
        /// Print events as JSON lines on stdout instead of the live view.
        #[arg(long)]
        json: bool,
        /// Run it even if this workflow (this content, in this folder) has not been trusted
        /// on this machine yet, and remember it as trusted. Without it, Heddle lists what the
        /// workflow will do and asks (on a terminal) or refuses. `HEDDLE_TRUST_WORKFLOWS=1`
        /// does the same for scripts and CI.
        #[arg(long, visible_alias = "yes")]
        trust: bool,
    },
    /// Take queued runs (`heddle run --queue`) from the run index and run each in a fresh
    /// clone of the team's git remote, pushing its checkpoints there as it goes.
    Worker {
        /// The team's git remote to clone and push to (default: $HEDDLE_TEAM_REMOTE): a path,
        /// or an ssh://, user@host:path, https:// or git:// URL. Credentials come from the
        /// ssh-agent, ~/.ssh/id_* keys, git's credential helpers or the URL; never a prompt.
        #[arg(long)]
        remote: Option<String>,
        /// The worker's name in the queue (default: host and process id).
        #[arg(long)]
        name: Option<String>,
        /// Where to make the clones (default: $HEDDLE_HOME/worker).
        #[arg(long)]
        clones: Option<PathBuf>,
        /// Seconds a claim lasts without a heartbeat (renewed every third of it).
        #[arg(long, default_value_t = 30)]
        lease: u64,
        /// Stop once the queue is empty instead of waiting for more.
        #[arg(long)]
        once: bool,
    },
    /// Rebuild the run index ($HEDDLE_HOME/heddle.db) from the run folders.
    Reindex {
        /// Print the report (runs, events, failures) as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List runs (running ones; `-a` for all).
    Ps {
        /// Show every run, not only running ones.
        #[arg(short, long)]
        all: bool,
        /// Print the runs as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print a run's events (progress.jsonl).
    Events {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// Keep printing new events until the run ends.
        #[arg(short, long)]
        follow: bool,
        /// Print each event as its JSON line instead of a readable summary.
        #[arg(long)]
        json: bool,
    },
    /// Test artifacts a run captured (screenshots, videos, JUnit files, reports, traces).
    Artifact {
        /// What to do.
        #[command(subcommand)]
        action: ArtifactAction,
    },
    /// Write a run's outputs to a folder: one folder per stage visit, in order
    /// (`stages/{rank}-{node}@{visit}/`), with its files and artifacts.
    Dump {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// The folder to write (new or empty).
        #[arg(short, long)]
        out: PathBuf,
    },
    /// The blob store (`$HEDDLE_HOME/blobs`).
    Blobs {
        /// What to do.
        #[command(subcommand)]
        action: BlobsAction,
    },
    /// Remove what deleted runs left behind: their checkpoint refs and git objects, and the
    /// blobs no run references.
    ///
    /// In every checkpoint repository (the shadow repositories under `$HEDDLE_HOME/shadow`,
    /// and the repositories the remaining runs use) the refs of runs whose run folder is
    /// gone are deleted; a shadow repository is then rewritten as one pack of what is still
    /// reachable. In your own repository (worktree mode) only Heddle's refs go; its objects
    /// are left to `git gc`. Refuses, changing nothing, while a run is running.
    Gc {
        /// Only list what would be removed.
        #[arg(long)]
        dry_run: bool,
        /// Also delete deleted runs' refs from the git repository holding PATH (repeatable);
        /// for a repository no remaining run uses any more.
        #[arg(long = "repo", value_name = "PATH")]
        repos: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List a run's git checkpoints across all its timelines.
    Checkpoints {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// Print the checkpoints as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Restore a stopped run's files and state to a checkpoint; `heddle resume` then
    /// continues on a new timeline (the old ones stay). A recovery snapshot of the current
    /// files is saved first.
    Rollback {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// `last-success`, `NODE`, `NODE:start`, `NODE:end`, `NODE@VISIT`, or a full or
        /// partial commit sha from `heddle checkpoints`.
        #[arg(long)]
        to: String,
        /// Go ahead even though files changed outside the run since its last checkpoint.
        #[arg(long)]
        force: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Start a new run from any checkpoint of another, with that checkpoint's files and
    /// context.
    Fork {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// `NODE`, `NODE@VISIT`, `NODE:start`, or a full or partial commit sha.
        #[arg(long)]
        from: String,
        /// Answer every human gate with its default (or approving) choice.
        #[arg(long)]
        auto_approve: bool,
        /// Print events as JSON lines on stdout instead of the live view.
        #[arg(long)]
        json: bool,
        /// Run it even if this workflow (this content, in this folder) has not been trusted
        /// on this machine yet, and remember it as trusted. Without it, Heddle lists what the
        /// workflow will do and asks (on a terminal) or refuses. `HEDDLE_TRUST_WORKFLOWS=1`
        /// does the same for scripts and CI.
        #[arg(long, visible_alias = "yes")]
        trust: bool,
    },
    /// The difference between two checkpoints of a run.
    Diff {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// The older checkpoint, in any form `heddle rollback --to` takes.
        from: String,
        /// The newer checkpoint (default: the latest of the run's current timeline).
        to: Option<String>,
        /// Only the changed files with line counts.
        #[arg(long)]
        stat: bool,
        /// Print the changed files with their hunks as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Answer a human gate of a running run, whichever process executes it (another
    /// terminal, `heddle serve`, the desktop app). Without `--choice` or `--text`, lists the
    /// gates waiting for an answer.
    Answer {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// The gate's question id (needed only when several gates wait).
        #[arg(long)]
        question: Option<String>,
        /// A choice: its accelerator key, label, or target node.
        #[arg(long, conflicts_with = "text")]
        choice: Option<String>,
        /// A freeform answer, for a gate that takes one.
        #[arg(long)]
        text: Option<String>,
        /// Print the waiting gates as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Cancel a running run cleanly, whichever process executes it: the running stage is
    /// stopped and a checkpoint written; `heddle resume` continues it later. With
    /// `--queued`, cancel a queue entry: one still waiting never runs.
    Cancel {
        /// Run id, unique prefix, or run folder; with `--queued`, a queue entry's id.
        run: String,
        /// RUN is a queue entry (what `heddle run --queue` printed).
        #[arg(long)]
        queued: bool,
    },
    /// Show a run: manifest, stages, outcome and where its files are.
    Inspect {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// Print manifest, checkpoint and conclusion as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check this machine's set-up: git, model providers, the UI, WebKitGTK (for the desktop
    /// app), Heddle's home folder, the run index and shadow repositories, each with a fix.
    ///
    /// Exit status: 0 when nothing fails (warnings allowed), 1 when a check fails.
    Doctor {
        /// Print the checks as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the shell completion script for SHELL, e.g.
    /// `heddle completions bash > ~/.local/share/bash-completion/completions/heddle`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page `heddle.1`, or write one page per command to a folder.
    Man {
        /// Write `heddle.1`, `heddle-run.1`, ... into this folder (created when missing)
        /// instead of printing `heddle.1`.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// `heddle blobs` subcommands.
#[derive(Debug, Subcommand)]
pub enum BlobsAction {
    /// Re-hash every blob and report corrupt, misnamed and leftover temporary files.
    ///
    /// Exit status 1 when any blob is corrupt or unreadable.
    Verify {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `heddle artifact` subcommands.
#[derive(Debug, Subcommand)]
pub enum ArtifactAction {
    /// List a run's captured artifacts.
    List {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// Only the artifacts this node's stages captured.
        #[arg(long)]
        node: Option<String>,
        /// Print the artifacts as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Copy one artifact out of a run (PATH as `heddle artifact list` prints it).
    Cp {
        /// Run id, unique prefix, or run folder.
        run: String,
        /// The artifact's path as `heddle artifact list` prints it.
        path: String,
        /// Where to copy it (a file, or an existing folder).
        dest: PathBuf,
    },
}

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Even when output is not a terminal or `NO_COLOR` is set.
    Always,
    /// Plain text only.
    Never,
}

impl ColorChoice {
    /// Resolves `auto` against the environment the caller observed.
    pub fn resolve(self, stdout_is_terminal: bool, no_color_set: bool) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::Auto => stdout_is_terminal && !no_color_set,
        }
    }
}

/// `--checkpoints`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckpointChoice {
    /// A worktree in a clean git repository, else a shadow repository.
    Auto,
    /// A worktree and run branch in the workspace's repository (which must be clean).
    Worktree,
    /// A shadow repository under `$HEDDLE_HOME/shadow/`.
    Shadow,
    /// No git checkpoints (checkpoint.json only).
    None,
}

impl CheckpointChoice {
    /// The name heddle-api takes.
    pub fn name(self) -> &'static str {
        match self {
            CheckpointChoice::Auto => "auto",
            CheckpointChoice::Worktree => "worktree",
            CheckpointChoice::Shadow => "shadow",
            CheckpointChoice::None => "none",
        }
    }
}
