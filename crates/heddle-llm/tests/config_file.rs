#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `heddle.toml`: named providers, defaults, the environment winning for keys, and errors
//! that point at the line and column.

use heddle_llm::config::{ConfigError, LlmConfig};
use heddle_llm::provider::WireFormat;

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn home_with(toml: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("heddle.toml"), toml).unwrap();
    home
}

#[test]
fn named_providers_and_defaults_come_from_the_file() {
    let home = home_with(
        r#"
# a local model for everything by default
[defaults]
provider = "ollama"
model = "qwen2.5-coder:7b"

[providers.ollama]
format = "chat_completions"
base_url = "http://localhost:11434/v1"
api_key_env = "OLLAMA_KEY"

[providers.anthropic]
default_model = "claude-haiku-4-5"
"#,
    );
    let config = LlmConfig::load(
        home.path(),
        &env(&[("OLLAMA_KEY", "k1"), ("ANTHROPIC_API_KEY", "k2")]),
    )
    .unwrap();
    let local = config.choose(None, None).unwrap();
    assert_eq!(local.provider.endpoint.name, "ollama");
    assert_eq!(local.provider.endpoint.format, WireFormat::ChatCompletions);
    assert_eq!(local.provider.endpoint.api_key.as_deref(), Some("k1"));
    assert_eq!(local.model, "qwen2.5-coder:7b");
    let hosted = config.choose(None, Some("anthropic")).unwrap();
    assert_eq!(hosted.model, "claude-haiku-4-5");
    assert_eq!(
        hosted.provider.endpoint.base_url,
        "https://api.anthropic.com/v1"
    );
    assert_eq!(
        config.source.as_deref(),
        Some(home.path().join("heddle.toml").as_path())
    );
}

#[test]
fn the_environment_wins_over_the_file() {
    let home = home_with(
        r#"
[providers.openai]
api_key = "from-file"
base_url = "https://file.example/v1"
"#,
    );
    let config = LlmConfig::load(
        home.path(),
        &env(&[
            ("OPENAI_API_KEY", "from-env"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
        ]),
    )
    .unwrap();
    let endpoint = &config.providers["openai"].endpoint;
    assert_eq!(endpoint.api_key.as_deref(), Some("from-env"));
    assert_eq!(endpoint.base_url, "http://127.0.0.1:9/v1");
    assert_eq!(endpoint.format, WireFormat::OpenAiResponses);
    // Without the variables the file's values serve.
    let config = LlmConfig::load(home.path(), &[]).unwrap();
    assert_eq!(
        config.providers["openai"].endpoint.api_key.as_deref(),
        Some("from-file")
    );
}

#[test]
fn a_syntax_error_names_the_file_line_and_column() {
    let home = home_with("[defaults]\nprovider = \"x\"\nmodel = oops\n");
    let error = LlmConfig::load(home.path(), &[]).unwrap_err();
    let ConfigError::Syntax { line, column, .. } = &error else {
        panic!("expected a syntax error, got {error}");
    };
    assert_eq!((*line, *column), (3, 9));
    assert!(error.to_string().contains("heddle.toml:3:9"), "{error}");
}

#[test]
fn unknown_keys_and_incomplete_sections_are_refused() {
    let home = home_with("[defaults]\nprovder = \"x\"\n");
    let error = LlmConfig::load(home.path(), &[]).unwrap_err();
    assert!(error.to_string().contains("provder"), "{error}");
    let home = home_with("[providers.local]\nformat = \"chat_completions\"\n");
    let error = LlmConfig::load(home.path(), &[]).unwrap_err();
    assert!(matches!(error, ConfigError::Provider { .. }), "{error}");
    assert!(error.to_string().contains("base_url"), "{error}");
    let home = home_with("[providers.local]\nformat = \"grpc\"\nbase_url = \"http://x\"\n");
    let error = LlmConfig::load(home.path(), &[]).unwrap_err();
    assert!(error.to_string().contains("`grpc`"), "{error}");
}

#[test]
fn hosted_providers_need_a_key_to_count_as_configured() {
    let home = tempfile::tempdir().unwrap();
    let config = LlmConfig::load(home.path(), &env(&[("ANTHROPIC_BASE_URL", "http://x")])).unwrap();
    assert!(config.providers.is_empty());
    let error = config.choose(Some("claude-sonnet-4-5"), None).unwrap_err();
    assert!(error.to_string().contains("ANTHROPIC_API_KEY"), "{error}");
}

#[test]
fn network_settings_are_read() {
    let home = home_with("[network]\nmax_retries = 1\nstream_idle_timeout_ms = 250\n");
    let config = LlmConfig::load(home.path(), &[]).unwrap();
    assert_eq!(config.network.max_retries, Some(1));
    assert_eq!(config.network.stream_idle_timeout_ms, Some(250));
    assert_eq!(config.network.initial_backoff_ms, None);
}
