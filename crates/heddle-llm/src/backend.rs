//! [`ProviderBackend`]: the [`LlmBackend`] `heddle run` uses without `--dry-run`. It checks
//! before a run that every LLM node can be served, then opens the built-in agent (or a
//! prompt session) on the node's provider, or an external agent for `backend="acp"` and
//! `backend="cli"`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use heddle_engine::llm::{LlmBackend, LlmConversation, LlmError, LlmErrorKind, LlmRequest};
use heddle_engine::work_tree::WorkTreeWatch;
use heddle_workflow::{Attrs, HandlerKind, Node, Workflow};

use crate::agent::{AgentSession, AgentSettings, ToolRunner};
use crate::catalog;
use crate::config::{ConfigError, LlmConfig, Network};
use crate::external::CliAgent;
use crate::provider::{ChatProvider, HttpProvider, HttpSettings};
use crate::resolve::ResolveError;
use crate::tools::{ToolContext, Toolbox};

/// The longest a single `shell` tool call may run.
const SHELL_TIMEOUT: Duration = Duration::from_secs(600);

/// The most characters of one tool result the model sees.
const TOOL_OUTPUT_LIMIT: usize = 30_000;

/// The real backend: configured providers, the agent loop and external agents.
pub struct ProviderBackend {
    config: Result<LlmConfig, ConfigError>,
    http: HttpSettings,
    env: Vec<(String, String)>,
    clients: Mutex<BTreeMap<String, Arc<dyn ChatProvider>>>,
    /// Tells which files an external agent's turn touched.
    work_tree: Arc<dyn WorkTreeWatch>,
}

impl ProviderBackend {
    /// Reads `heddle.toml` in `home` and the environment `env`. A broken `heddle.toml` is
    /// reported when a workflow with LLM nodes starts, with its line and column.
    /// `work_tree` tells which files an external agent's turn touched.
    pub fn load(
        home: &Path,
        env: Vec<(String, String)>,
        work_tree: Arc<dyn WorkTreeWatch>,
    ) -> Self {
        let config = LlmConfig::load(home, &env);
        let mut http = HttpSettings::default();
        if let Ok(config) = &config {
            apply_network(&config.network, &mut http);
        }
        Self::new(config, env, http, work_tree)
    }

    /// A backend over `config`, calling providers with `http`.
    pub fn new(
        config: Result<LlmConfig, ConfigError>,
        env: Vec<(String, String)>,
        http: HttpSettings,
        work_tree: Arc<dyn WorkTreeWatch>,
    ) -> Self {
        ProviderBackend {
            config,
            http,
            env,
            clients: Mutex::new(BTreeMap::new()),
            work_tree,
        }
    }

    /// The client for provider `name`, made once.
    fn client(&self, config: &LlmConfig, name: &str) -> Result<Arc<dyn ChatProvider>, LlmError> {
        let mut clients = self
            .clients
            .lock()
            .map_err(|_| LlmError::new(LlmErrorKind::Fatal, "provider clients lock poisoned"))?;
        if let Some(client) = clients.get(name) {
            return Ok(client.clone());
        }
        let entry = config.providers.get(name).ok_or_else(|| {
            LlmError::new(
                LlmErrorKind::Config,
                format!("provider `{name}` is not configured"),
            )
        })?;
        let client: Arc<dyn ChatProvider> = Arc::new(HttpProvider::new(
            entry.endpoint.clone(),
            self.http.clone(),
        )?);
        clients.insert(name.to_owned(), client.clone());
        Ok(client)
    }
}

/// `[network]` over the defaults.
fn apply_network(network: &Network, http: &mut HttpSettings) {
    let ms = Duration::from_millis;
    if let Some(n) = network.max_retries {
        http.max_retries = n;
    }
    if let Some(n) = network.initial_backoff_ms {
        http.initial_backoff = ms(n);
    }
    if let Some(n) = network.max_backoff_ms {
        http.max_backoff = ms(n);
    }
    if let Some(n) = network.connect_timeout_ms {
        http.connect_timeout = ms(n);
    }
    if let Some(n) = network.request_timeout_ms {
        http.request_timeout = ms(n);
    }
    if let Some(n) = network.stream_idle_timeout_ms {
        http.stream_idle_timeout = ms(n);
    }
}

/// What a node's `backend` asks for.
enum BackendChoice<'a> {
    BuiltIn,
    External(&'a str),
    Unknown(&'a str),
}

fn backend_of(backend: Option<&str>) -> BackendChoice<'_> {
    match backend.map(str::trim) {
        None | Some("" | "api" | "builtin" | "built-in") => BackendChoice::BuiltIn,
        Some(name) if crate::external::is_external(name) => BackendChoice::External(name),
        Some(other) => BackendChoice::Unknown(other),
    }
}

/// The default provider of a readable `heddle.toml`.
fn default_provider(config: &Result<LlmConfig, ConfigError>) -> Option<&str> {
    config.as_ref().ok()?.default_provider.as_deref()
}

/// The CLI a `backend="cli"` node without `cli.command` runs.
fn chosen_cli(
    config: &Result<LlmConfig, ConfigError>,
    model: Option<&str>,
    provider: Option<&str>,
) -> CliAgent {
    CliAgent::choose(
        model.map(catalog::resolve_alias),
        provider,
        default_provider(config),
    )
}

/// Whether `program` is an executable file in one of `PATH`'s folders (`PATH` from `env`).
fn on_path(program: &str, env: &[(String, String)]) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let path = env
        .iter()
        .find(|(name, _)| name == "PATH")
        .map_or("", |(_, value)| value.as_str());
    std::env::split_paths(path).any(|dir| {
        std::fs::metadata(dir.join(program))
            .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    })
}

/// What stops `node` from running, if anything.
fn node_problem(
    config: &Result<LlmConfig, ConfigError>,
    env: &[(String, String)],
    node: &Node,
) -> Option<NodeProblem> {
    match backend_of(node.attr_str("backend")) {
        BackendChoice::External(name) => {
            let attribute = format!("{name}.command");
            let missing = node
                .attr_str(&attribute)
                .is_none_or(|c| c.trim().is_empty());
            if missing && name == "cli" {
                let cli = chosen_cli(config, node.attr_str("model"), node.attr_str("provider"));
                return (!on_path(cli.program(), env)).then(|| {
                    NodeProblem::Other(format!(
                        "node `{}` has backend=\"cli\" and no `cli.command`, so it runs `{}` \
                         (chosen by its model), which is not on PATH: install it, or set \
                         `cli.command`",
                        node.id,
                        cli.program()
                    ))
                });
            }
            missing.then(|| {
                NodeProblem::Other(format!(
                    "node `{}` has backend=\"{name}\" but no `{attribute}`: set it to the \
                     command that starts the agent",
                    node.id
                ))
            })
        }
        BackendChoice::Unknown(other) => Some(NodeProblem::Other(format!(
            "node `{}`: unknown backend `{other}` (use \"acp\" or \"cli\" for an external \
             agent, or leave it out for the built-in one)",
            node.id
        ))),
        BackendChoice::BuiltIn => {
            let config = match config {
                Ok(config) => config,
                Err(error) => return Some(NodeProblem::Other(error.to_string())),
            };
            match config.choose(node.attr_str("model"), node.attr_str("provider")) {
                Ok(_) => None,
                Err(ResolveError::NothingConfigured) => Some(NodeProblem::NoProvider),
                Err(error) => Some(NodeProblem::Other(format!("node `{}`: {error}", node.id))),
            }
        }
    }
}

enum NodeProblem {
    NoProvider,
    Other(String),
}

#[async_trait]
impl LlmBackend for ProviderBackend {
    fn preflight(&self, workflow: &Workflow) -> Result<(), LlmError> {
        let mut unserved = Vec::new();
        let mut problems = Vec::new();
        for node in &workflow.nodes {
            if !matches!(node.kind, HandlerKind::Agent | HandlerKind::Prompt) {
                continue;
            }
            match node_problem(&self.config, &self.env, node) {
                None => {}
                Some(NodeProblem::NoProvider) => unserved.push(node.id.as_str()),
                Some(NodeProblem::Other(text)) if !problems.contains(&text) => {
                    problems.push(text);
                }
                Some(NodeProblem::Other(_)) => {}
            }
        }
        if !unserved.is_empty() {
            problems.insert(
                0,
                format!(
                    "no LLM provider is configured, and these nodes need one: {}.\n  Set \
                     ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY (or \
                     OPENAI_COMPATIBLE_BASE_URL for a local server such as Ollama), or add a \
                     provider to heddle.toml in the Heddle home folder",
                    unserved.join(", ")
                ),
            );
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(LlmError::new(
            LlmErrorKind::Config,
            format!(
                "{}\n  Or run with --dry-run to simulate LLM stages.",
                problems.join("\n  ")
            ),
        ))
    }

    async fn open(&self, request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError> {
        match backend_of(request.backend.as_deref()) {
            BackendChoice::External(name) => {
                let no_command = request
                    .command
                    .as_deref()
                    .is_none_or(|c| c.trim().is_empty());
                if name == "cli" && no_command && request.provider.is_none() {
                    // The CLI falls back to heddle.toml's default provider, as the built-in
                    // agent does.
                    let cli = chosen_cli(&self.config, request.model.as_deref(), None);
                    let mut request = request.clone();
                    request.provider = Some(cli.provider().to_owned());
                    return crate::external::open_external(&request, &self.env, &self.work_tree)
                        .await;
                }
                return crate::external::open_external(request, &self.env, &self.work_tree).await;
            }
            BackendChoice::Unknown(other) => {
                return Err(LlmError::new(
                    LlmErrorKind::Config,
                    format!("node `{}`: unknown backend `{other}`", request.node_id),
                ));
            }
            BackendChoice::BuiltIn => {}
        }
        let config = self
            .config
            .as_ref()
            .map_err(|e| LlmError::new(LlmErrorKind::Config, e.to_string()))?;
        let choice = config
            .choose(request.model.as_deref(), request.provider.as_deref())
            .map_err(|e| {
                LlmError::new(
                    LlmErrorKind::Config,
                    format!("node `{}`: {e}", request.node_id),
                )
            })?;
        let client = self.client(config, &choice.provider.endpoint.name)?;
        let tools: Option<Arc<dyn ToolRunner>> = (request.kind == HandlerKind::Agent).then(|| {
            Arc::new(Toolbox::new(ToolContext {
                work_dir: request.work_dir.clone(),
                env: self.env.clone(),
                pass_env: config.shell.pass_env.clone(),
                shell_timeout: SHELL_TIMEOUT,
                output_limit: TOOL_OUTPUT_LIMIT,
            })) as Arc<dyn ToolRunner>
        });
        let settings = AgentSettings::for_model(
            &choice.model,
            request.reasoning_effort.clone(),
            request.max_turns,
        );
        Ok(Box::new(AgentSession::new(client, tools, settings)))
    }
}
