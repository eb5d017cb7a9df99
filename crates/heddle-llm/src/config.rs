//! Which providers are configured: the well-known ones from the environment
//! (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY`, `OPENAI_BASE_URL`,
//! `OPENAI_COMPATIBLE_BASE_URL`, ...) and any named in `$HEDDLE_HOME/heddle.toml`, which
//! can also set defaults.
//!
//! ```toml
//! [defaults]
//! provider = "ollama"
//! model = "qwen2.5-coder:7b"
//!
//! [providers.ollama]
//! format = "chat_completions"        # or "anthropic_messages", "openai_responses", "gemini"
//! base_url = "http://localhost:11434/v1"
//! api_key_env = "OLLAMA_API_KEY"     # optional
//! default_model = "qwen2.5-coder:7b" # optional
//!
//! [shell]                              # the built-in agent's `shell` tool
//! pass_env = ["TOKENIZERS_PARALLELISM"] # kept although the name looks like a secret
//!
//! [network]                            # all optional
//! max_retries = 4
//! initial_backoff_ms = 1000
//! max_backoff_ms = 30000
//! connect_timeout_ms = 10000
//! request_timeout_ms = 120000          # until the response starts
//! stream_idle_timeout_ms = 90000       # longest silence inside a stream
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::provider::{Endpoint, WireFormat};

/// The configuration file's name in `$HEDDLE_HOME`.
pub const CONFIG_FILE: &str = "heddle.toml";

/// A provider Heddle can talk to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderEntry {
    /// Where and how to reach it.
    pub endpoint: Endpoint,
    /// The model it uses when nothing else names one.
    pub default_model: Option<String>,
}

/// A problem in `heddle.toml`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The file is not valid TOML or has unknown keys.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The `heddle.toml` read.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {message}")]
    Read {
        /// The `heddle.toml` that could not be read.
        path: PathBuf,
        /// The OS error's message.
        message: String,
    },
    /// A provider section is incomplete.
    #[error("{path}: [providers.{name}] {message}")]
    Provider {
        /// The `heddle.toml` read.
        path: PathBuf,
        /// `NAME` of the `[providers.NAME]` section.
        name: String,
        /// What is missing.
        message: String,
    },
}

/// `heddle.toml` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    defaults: Defaults,
    #[serde(default)]
    providers: BTreeMap<String, ProviderSection>,
    #[serde(default)]
    network: Network,
    #[serde(default)]
    shell: Shell,
}

/// `[shell]`: the built-in agent's `shell` tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shell {
    /// Variables passed to `shell` although their names look like secrets (exact names).
    #[serde(default)]
    pub pass_env: Vec<String>,
}

/// `[network]`: retry and timeout settings for every provider; unset ones keep their
/// defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// Retries after the first attempt.
    pub max_retries: Option<u32>,
    /// The first retry's delay in milliseconds; it doubles each time.
    pub initial_backoff_ms: Option<u64>,
    /// The longest delay between retries, in milliseconds.
    pub max_backoff_ms: Option<u64>,
    /// Milliseconds allowed to open the connection.
    pub connect_timeout_ms: Option<u64>,
    /// Milliseconds allowed until the response starts.
    pub request_timeout_ms: Option<u64>,
    /// The longest silence inside a stream, in milliseconds.
    pub stream_idle_timeout_ms: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Defaults {
    provider: Option<String>,
    model: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProviderSection {
    format: Option<String>,
    base_url: Option<String>,
    api_key_env: Option<String>,
    api_key: Option<String>,
    default_model: Option<String>,
}

/// The providers Heddle can use, and the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LlmConfig {
    /// Every usable provider (known from the environment, or from `heddle.toml`), by name.
    pub providers: BTreeMap<String, ProviderEntry>,
    /// `[defaults] provider` of `heddle.toml`; `None` when unset.
    pub default_provider: Option<String>,
    /// `[defaults] model` of `heddle.toml`; `None` when unset.
    pub default_model: Option<String>,
    /// The `heddle.toml` that was read, if any.
    pub source: Option<PathBuf>,
    /// `[network]` retry and timeout settings; unset ones keep the built-in defaults.
    pub network: Network,
    /// `[shell]` settings of the built-in agent's `shell` tool.
    pub shell: Shell,
}

/// A provider Heddle knows without configuration.
pub struct KnownProvider {
    /// The name nodes and `[defaults]` use, e.g. `anthropic`, `openai_compatible`.
    pub name: &'static str,
    /// Which API it speaks (Anthropic Messages, OpenAI Responses, ...).
    pub format: WireFormat,
    /// The variable holding its key.
    pub key_var: &'static str,
    /// Variables read for the key when `key_var` is unset, in order.
    pub other_key_vars: &'static [&'static str],
    /// The variable that overrides its base URL.
    pub base_url_var: &'static str,
    /// Its public base URL, when it has one (OpenAI-compatible servers do not).
    pub default_base_url: Option<&'static str>,
}

/// The providers configured through the environment alone.
pub const KNOWN_PROVIDERS: &[KnownProvider] = &[
    KnownProvider {
        name: "anthropic",
        format: WireFormat::AnthropicMessages,
        key_var: "ANTHROPIC_API_KEY",
        other_key_vars: &[],
        base_url_var: "ANTHROPIC_BASE_URL",
        default_base_url: Some("https://api.anthropic.com/v1"),
    },
    KnownProvider {
        name: "openai",
        format: WireFormat::OpenAiResponses,
        key_var: "OPENAI_API_KEY",
        other_key_vars: &[],
        base_url_var: "OPENAI_BASE_URL",
        default_base_url: Some("https://api.openai.com/v1"),
    },
    KnownProvider {
        name: "openai_compatible",
        format: WireFormat::ChatCompletions,
        key_var: "OPENAI_COMPATIBLE_API_KEY",
        other_key_vars: &[],
        base_url_var: "OPENAI_COMPATIBLE_BASE_URL",
        default_base_url: None,
    },
    KnownProvider {
        name: "gemini",
        format: WireFormat::GeminiGenerateContent,
        key_var: "GEMINI_API_KEY",
        // Google's own SDKs and the gemini CLI also read this one.
        other_key_vars: &["GOOGLE_API_KEY"],
        base_url_var: "GEMINI_BASE_URL",
        default_base_url: Some("https://generativelanguage.googleapis.com/v1beta"),
    },
];

/// The known provider called `name` (`openai-compatible` is accepted for
/// `openai_compatible`).
pub fn known_provider(name: &str) -> Option<&'static KnownProvider> {
    let name = canonical_name(name);
    KNOWN_PROVIDERS.iter().find(|p| p.name == name)
}

/// Provider names compare with `-` and `_` alike and without case.
pub fn canonical_name(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', "_")
}

impl LlmConfig {
    /// Reads `heddle.toml` in `home` (when it exists) and the environment `env`; the
    /// environment wins over the file for keys and base URLs.
    pub fn load(home: &Path, env: &[(String, String)]) -> Result<LlmConfig, ConfigError> {
        let path = home.join(CONFIG_FILE);
        let file = match std::fs::read_to_string(&path) {
            Ok(text) => Some((parse_file(&path, &text)?, path)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(ConfigError::Read {
                    path,
                    message: e.to_string(),
                });
            }
        };
        let var = |name: &str| {
            env.iter()
                .find(|(k, v)| k == name && !v.trim().is_empty())
                .map(|(_, v)| v.trim().to_owned())
        };
        let mut config = LlmConfig::default();
        let mut sections = BTreeMap::new();
        if let Some((parsed, path)) = file {
            config.default_provider = parsed.defaults.provider.map(|p| canonical_name(&p));
            config.default_model = parsed.defaults.model;
            config.source = Some(path);
            config.network = parsed.network;
            config.shell = parsed.shell;
            sections = parsed.providers;
        }
        for known in KNOWN_PROVIDERS {
            let section = sections.remove(known.name);
            let api_key = std::iter::once(&known.key_var)
                .chain(known.other_key_vars)
                .find_map(|name| var(name))
                .or_else(|| {
                    let section = section.as_ref()?;
                    section
                        .api_key_env
                        .as_deref()
                        .and_then(var)
                        .or_else(|| section.api_key.clone())
                });
            let base_url = var(known.base_url_var)
                .or_else(|| section.as_ref().and_then(|s| s.base_url.clone()))
                .or_else(|| known.default_base_url.map(str::to_owned));
            // Hosted providers need a key; OpenAI-compatible servers need a base URL.
            let usable = match known.default_base_url {
                Some(_) => api_key.is_some(),
                None => base_url.is_some(),
            };
            if let (true, Some(base_url)) = (usable, base_url) {
                config.providers.insert(
                    known.name.to_owned(),
                    ProviderEntry {
                        endpoint: Endpoint {
                            name: known.name.to_owned(),
                            format: known.format,
                            base_url,
                            api_key,
                            extra_headers: Vec::new(),
                        },
                        default_model: section.and_then(|s| s.default_model).or_else(|| {
                            var("OPENAI_COMPATIBLE_MODEL")
                                .filter(|_| known.default_base_url.is_none())
                        }),
                    },
                );
            }
        }
        let source = config.source.clone().unwrap_or_default();
        for (name, section) in sections {
            let name = canonical_name(&name);
            let entry = custom_provider(&source, &name, section, &var)?;
            config.providers.insert(name, entry);
        }
        Ok(config)
    }
}

/// A `[providers.NAME]` section for a provider Heddle does not know by name.
fn custom_provider(
    path: &Path,
    name: &str,
    section: ProviderSection,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<ProviderEntry, ConfigError> {
    let problem = |message: String| ConfigError::Provider {
        path: path.to_path_buf(),
        name: name.to_owned(),
        message,
    };
    let format = match section.format.as_deref() {
        Some("anthropic_messages") => WireFormat::AnthropicMessages,
        Some("openai_responses") => WireFormat::OpenAiResponses,
        Some("gemini") => WireFormat::GeminiGenerateContent,
        Some("chat_completions") | None => WireFormat::ChatCompletions,
        Some(other) => {
            return Err(problem(format!(
                "format `{other}` is not one of anthropic_messages, openai_responses, \
                 chat_completions, gemini"
            )));
        }
    };
    let base_url = section
        .base_url
        .ok_or_else(|| problem("needs base_url (for example http://localhost:11434/v1)".into()))?;
    let api_key = section
        .api_key_env
        .as_deref()
        .and_then(var)
        .or(section.api_key);
    Ok(ProviderEntry {
        endpoint: Endpoint {
            name: name.to_owned(),
            format,
            base_url,
            api_key,
            extra_headers: Vec::new(),
        },
        default_model: section.default_model,
    })
}

/// Parses `text`, placing any error at its line and column.
fn parse_file(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    toml::from_str(text).map_err(|e: toml::de::Error| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |span| line_column(text, span.start));
        ConfigError::Syntax {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().to_owned(),
        }
    })
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
