//! Which provider and model serve one node: the node's own `provider` and `model` (already
//! merged with the model stylesheet and graph defaults by the workflow), the model's family,
//! `heddle.toml`'s defaults, and the only configured provider, in that order. A model alias
//! (`opus`, `gemini-flash`, ...) becomes the model id it names.

use crate::catalog;
use crate::config::{LlmConfig, ProviderEntry, canonical_name, known_provider};

/// The provider and model chosen for a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice<'a> {
    /// The configured provider (endpoint and key) that serves `model`.
    pub provider: &'a ProviderEntry,
    /// The model id to send (an alias already replaced by the id it names).
    pub model: String,
}

/// Why no provider or model could be chosen. Each message says what to set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Nothing is configured at all.
    #[error("no LLM provider is configured")]
    NothingConfigured,
    /// The named provider is not configured.
    #[error("{0}")]
    NotConfigured(String),
    /// Several providers could serve the node.
    #[error(
        "several providers are configured ({0}) and the node names none: set `provider` on the \
         node (or in the model stylesheet), or `[defaults] provider` in heddle.toml"
    )]
    Ambiguous(String),
    /// The provider has no default model and the node names none.
    #[error(
        "provider `{0}` has no default model: set `model` on the node (or in the model \
         stylesheet), or `default_model` in its heddle.toml section"
    )]
    NoModel(String),
}

impl LlmConfig {
    /// Chooses the provider and model for a node whose (effective) attributes are `model`
    /// and `provider`.
    pub fn choose(
        &self,
        model: Option<&str>,
        provider: Option<&str>,
    ) -> Result<Choice<'_>, ResolveError> {
        let model = model.map(catalog::resolve_alias);
        let name = match provider {
            Some(name) => canonical_name(name),
            None => match model.and_then(catalog::provider_for_model) {
                Some(family) => family.to_owned(),
                None => self.default_or_only()?,
            },
        };
        let entry = self
            .providers
            .get(&name)
            .ok_or_else(|| ResolveError::NotConfigured(self.not_configured(&name)))?;
        let model = model
            .map(str::to_owned)
            .or_else(|| entry.default_model.clone())
            .or_else(|| {
                self.default_model
                    .clone()
                    .filter(|m| catalog::provider_for_model(m).is_none_or(|family| family == name))
            })
            .or_else(|| catalog::default_model(&name).map(str::to_owned))
            .ok_or_else(|| ResolveError::NoModel(name.clone()))?;
        Ok(Choice {
            provider: entry,
            model,
        })
    }

    /// `[defaults] provider`, else the one configured provider.
    fn default_or_only(&self) -> Result<String, ResolveError> {
        if let Some(name) = &self.default_provider {
            return Ok(name.clone());
        }
        let mut names = self.providers.keys();
        match (names.next(), names.next()) {
            (None, _) => Err(ResolveError::NothingConfigured),
            (Some(only), None) => Ok(only.clone()),
            (Some(_), Some(_)) => Err(ResolveError::Ambiguous(
                self.providers
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }

    /// What to set so provider `name` is configured.
    fn not_configured(&self, name: &str) -> String {
        match known_provider(name) {
            Some(known) if known.default_base_url.is_some() => {
                let mut vars = known.key_var.to_owned();
                for other in known.other_key_vars {
                    vars.push_str(&format!(" (or {other})"));
                }
                format!("provider `{name}` is not configured: set {vars}")
            }
            Some(known) => format!(
                "provider `{name}` is not configured: set {} (and {} if the server needs a key)",
                known.base_url_var, known.key_var
            ),
            None => format!(
                "provider `{name}` is not configured: add a [providers.{name}] section with \
                 base_url to heddle.toml"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::path::Path;

    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn load(pairs: &[(&str, &str)]) -> LlmConfig {
        LlmConfig::load(Path::new("/nonexistent-heddle-home"), &env(pairs)).unwrap()
    }

    #[test]
    fn the_model_family_picks_the_provider() {
        let config = load(&[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")]);
        let choice = config.choose(Some("gpt-5-mini"), None).unwrap();
        assert_eq!(choice.provider.endpoint.name, "openai");
        assert_eq!(choice.model, "gpt-5-mini");
        let choice = config.choose(None, Some("Anthropic")).unwrap();
        assert_eq!(choice.model, "claude-sonnet-4-5");
        let choice = config.choose(Some("opus"), None).unwrap();
        assert_eq!(choice.provider.endpoint.name, "anthropic");
        assert_eq!(choice.model, "claude-opus-4-8");
        assert!(matches!(
            config.choose(None, None),
            Err(ResolveError::Ambiguous(_))
        ));
    }

    #[test]
    fn the_only_provider_serves_unnamed_nodes() {
        let config = load(&[("OPENAI_API_KEY", "o")]);
        assert_eq!(config.choose(None, None).unwrap().model, "gpt-5");
        let error = config.choose(Some("claude-sonnet-4-5"), None).unwrap_err();
        assert!(error.to_string().contains("ANTHROPIC_API_KEY"), "{error}");
    }

    #[test]
    fn compatible_servers_need_a_base_url_and_a_model() {
        let config = load(&[("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:1/v1")]);
        let error = config.choose(None, None).unwrap_err();
        assert!(matches!(error, ResolveError::NoModel(_)), "{error}");
        let choice = config.choose(Some("llama3.1"), None).unwrap();
        assert_eq!(choice.provider.endpoint.api_key, None);
        let config = load(&[
            ("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:1/v1"),
            ("OPENAI_COMPATIBLE_MODEL", "qwen"),
        ]);
        assert_eq!(config.choose(None, None).unwrap().model, "qwen");
    }

    #[test]
    fn gemini_is_configured_by_either_google_variable() {
        for var in ["GEMINI_API_KEY", "GOOGLE_API_KEY"] {
            let config = load(&[(var, "g"), ("OPENAI_API_KEY", "o")]);
            let choice = config.choose(Some("gemini-flash"), None).unwrap();
            assert_eq!(choice.provider.endpoint.name, "gemini", "{var}");
            assert_eq!(choice.provider.endpoint.api_key.as_deref(), Some("g"));
            assert_eq!(
                choice.provider.endpoint.base_url,
                "https://generativelanguage.googleapis.com/v1beta"
            );
            assert_eq!(choice.model, "gemini-3-flash-preview");
        }
        let config = load(&[
            ("GEMINI_API_KEY", "first"),
            ("GOOGLE_API_KEY", "second"),
            ("GEMINI_BASE_URL", "http://127.0.0.1:9/v1beta"),
        ]);
        let choice = config.choose(None, Some("gemini")).unwrap();
        assert_eq!(choice.provider.endpoint.api_key.as_deref(), Some("first"));
        assert_eq!(
            choice.provider.endpoint.base_url,
            "http://127.0.0.1:9/v1beta"
        );
        assert_eq!(choice.model, "gemini-3.1-pro-preview");
        let error = load(&[("OPENAI_API_KEY", "o")])
            .choose(Some("gemini-pro"), None)
            .unwrap_err();
        assert!(error.to_string().contains("GEMINI_API_KEY"), "{error}");
    }

    #[test]
    fn nothing_configured_is_its_own_error() {
        let config = load(&[("HOME", "/home/x")]);
        assert_eq!(
            config.choose(None, None).unwrap_err(),
            ResolveError::NothingConfigured
        );
    }
}
