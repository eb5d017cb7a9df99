//! The coding agent's tools: `read_file`, `write_file`, `edit_file`, `shell`, `grep` and
//! `glob`, behind one [`Toolbox`].
//!
//! Every path the model gives is confined to the run's work dir ([`ToolContext::work_dir`]):
//! `..` that climbs out, absolute paths elsewhere and symbolic links that lead out are
//! refused. `shell` runs `sh -c` in the work dir, in a process group of its own that is
//! killed whole when the command ends, times out or is cancelled; its environment is the
//! caller's [`ToolContext::env`] without secrets. Tool output longer than
//! [`ToolContext::output_limit`] characters keeps its head and tail with a note between.
//!
//! [`Toolbox::call`] never fails: every problem becomes an [`ToolOutcome::is_error`]
//! outcome whose text says what was wrong and how to fix it.

mod arguments;
mod confine;
mod edit_file;
mod file_walk;
mod glob;
mod glob_pattern;
mod grep;
mod process_group;
mod read_file;
mod shell;
mod shell_env;
mod shell_output;
mod specs;
mod text_file;
mod tool_error;
mod truncate;
mod write_file;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::chat::ToolSpec;
use arguments::Arguments;
use specs::Tool;
use tool_error::ToolError;

/// What the tools work with, given by the caller. Its `Debug` output shows the names of
/// the environment variables, never their values.
#[derive(Clone, PartialEq, Eq)]
pub struct ToolContext {
    /// The folder every path is confined to; `shell` runs here.
    pub work_dir: PathBuf,
    /// The base environment of `shell`, before secrets are filtered out.
    pub env: Vec<(String, String)>,
    /// Variables `shell` keeps although their names look like secrets
    /// (`[shell] pass_env` in `heddle.toml`).
    pub pass_env: Vec<String>,
    /// The default and the maximum time of one `shell` call.
    pub shell_timeout: Duration,
    /// The most characters of tool output returned to the model.
    pub output_limit: usize,
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("ToolContext")
            .field("work_dir", &self.work_dir)
            .field("env_names", &names)
            .field("pass_env", &self.pass_env)
            .field("shell_timeout", &self.shell_timeout)
            .field("output_limit", &self.output_limit)
            .finish()
    }
}

/// What one tool call produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    /// What the model sees (already truncated, with a note where text was left out).
    pub output: String,
    /// Whether the call failed (bad arguments, refused path, timeout, ...). A shell command
    /// that exits non-zero is not an error: its exit code is in `output`.
    pub is_error: bool,
    /// Files this call created or changed, relative to the work dir, `/`-separated.
    pub touched: Vec<String>,
}

impl ToolOutcome {
    /// A successful outcome that changed no file.
    pub(crate) fn success(output: impl Into<String>) -> Self {
        ToolOutcome {
            output: output.into(),
            is_error: false,
            touched: Vec::new(),
        }
    }

    /// A failed outcome.
    pub(crate) fn error(output: impl Into<String>) -> Self {
        ToolOutcome {
            output: output.into(),
            is_error: true,
            touched: Vec::new(),
        }
    }
}

/// The six tools of the coding agent, bound to one work dir.
#[derive(Debug, Clone)]
pub struct Toolbox {
    context: Arc<ToolContext>,
}

impl Toolbox {
    /// A toolbox working in `context.work_dir`. The work dir is resolved (symbolic links
    /// included) at each call, so it may be created after the toolbox.
    pub fn new(context: ToolContext) -> Self {
        Toolbox {
            context: Arc::new(context),
        }
    }

    /// The six tools, with their JSON Schemas and descriptions, for the model.
    pub fn specs(&self) -> Vec<ToolSpec> {
        specs::tool_specs(&self.context)
    }

    /// Runs tool `name` with `arguments` (a JSON object). Never panics and never fails:
    /// unknown tools, bad arguments, refused paths, timeouts and cancellation all become
    /// outcomes with `is_error` set and a message for the model.
    pub async fn call(
        &self,
        name: &str,
        arguments: &Value,
        cancel: &CancellationToken,
    ) -> ToolOutcome {
        let result = match Tool::from_name(name) {
            Some(Tool::Shell) => self.call_shell(arguments, cancel).await,
            Some(tool) => self.call_blocking(tool, arguments, cancel).await,
            None => Err(ToolError::UnknownTool {
                name: name.to_string(),
                available: Tool::ALL.map(Tool::name).join(", "),
            }),
        };
        let mut outcome = result.unwrap_or_else(|e| ToolOutcome::error(e.to_string()));
        outcome.output = truncate::truncate_middle(
            &outcome.output,
            self.context.output_limit,
            truncate::hint_for(Tool::from_name(name)),
        );
        outcome
    }

    async fn call_shell(
        &self,
        arguments: &Value,
        cancel: &CancellationToken,
    ) -> Result<ToolOutcome, ToolError> {
        let args = Arguments::new(Tool::Shell, arguments)?;
        let root = confine::work_root(&self.context.work_dir)?;
        shell::shell(&self.context, &root, &args, cancel).await
    }

    /// The file tools do blocking file-system work, so they run on tokio's blocking pool.
    async fn call_blocking(
        &self,
        tool: Tool,
        arguments: &Value,
        cancel: &CancellationToken,
    ) -> Result<ToolOutcome, ToolError> {
        let work_dir = self.context.work_dir.clone();
        let arguments = arguments.clone();
        let cancel = cancel.clone();
        let task = tokio::task::spawn_blocking(move || {
            let args = Arguments::new(tool, &arguments)?;
            let root = confine::work_root(&work_dir)?;
            match tool {
                Tool::ReadFile => read_file::read_file(&root, &args),
                Tool::WriteFile => write_file::write_file(&root, &args),
                Tool::EditFile => edit_file::edit_file(&root, &args),
                Tool::Grep => grep::grep(&root, &args, &cancel),
                Tool::Glob => glob::glob(&root, &args, &cancel),
                Tool::Shell => Err(ToolError::Failed("shell cannot run here".into())),
            }
        });
        task.await
            .map_err(|e| ToolError::Failed(format!("{} stopped unexpectedly: {e}", tool.name())))?
    }
}
