//! A small catalog of well-known models: which provider serves them, how large their
//! context window is, and what they cost, so usage can be priced and compaction knows when
//! to start; and the short aliases workflows may write instead of a model id (`opus`,
//! `sonnet`, `gemini-flash`, ...), the same names Fabro accepts. Unknown models still work;
//! they just have no price and a default window.

use heddle_engine::Usage;

/// What Heddle knows about one model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelInfo {
    /// The model id (a prefix match also finds dated versions, `claude-sonnet-4-5-20250929`).
    pub id: &'static str,
    /// The provider that serves it.
    pub provider: &'static str,
    /// Context window in tokens.
    pub context_window: u32,
    /// Longest reply the model produces, in tokens.
    pub max_output_tokens: u32,
    /// US dollars per million input tokens.
    pub input_per_mtok: f64,
    /// US dollars per million output tokens.
    pub output_per_mtok: f64,
    /// US dollars per million input tokens read from the cache.
    pub cache_read_per_mtok: f64,
    /// US dollars per million input tokens written to the cache.
    pub cache_write_per_mtok: f64,
}

/// The context window assumed for models the catalog does not list.
pub const DEFAULT_CONTEXT_WINDOW: u32 = 128_000;

/// The reply limit asked for with models the catalog does not list.
pub const DEFAULT_MAX_OUTPUT_TOKENS: u32 = 8_192;

const fn model(
    id: &'static str,
    provider: &'static str,
    context_window: u32,
    max_output_tokens: u32,
    prices: [f64; 4],
) -> ModelInfo {
    ModelInfo {
        id,
        provider,
        context_window,
        max_output_tokens,
        input_per_mtok: prices[0],
        output_per_mtok: prices[1],
        cache_read_per_mtok: prices[2],
        cache_write_per_mtok: prices[3],
    }
}

/// The models Heddle knows, longest ids first within a family so prefixes match the most
/// specific entry.
pub const MODELS: &[ModelInfo] = &[
    model(
        "claude-fable-5",
        "anthropic",
        1_000_000,
        128_000,
        [10.0, 50.0, 1.0, 12.5],
    ),
    model(
        "claude-opus-4-8",
        "anthropic",
        1_000_000,
        128_000,
        [5.0, 25.0, 0.5, 6.25],
    ),
    model(
        "claude-opus-4-7",
        "anthropic",
        1_000_000,
        128_000,
        [5.0, 25.0, 0.5, 6.25],
    ),
    model(
        "claude-opus-4-6",
        "anthropic",
        1_000_000,
        128_000,
        [5.0, 25.0, 0.5, 6.25],
    ),
    model(
        "claude-opus-4-5",
        "anthropic",
        200_000,
        64_000,
        [5.0, 25.0, 0.5, 6.25],
    ),
    model(
        "claude-opus-4-1",
        "anthropic",
        200_000,
        32_000,
        [15.0, 75.0, 1.5, 18.75],
    ),
    model(
        "claude-opus-4",
        "anthropic",
        200_000,
        32_000,
        [15.0, 75.0, 1.5, 18.75],
    ),
    model(
        "claude-sonnet-4-6",
        "anthropic",
        200_000,
        64_000,
        [3.0, 15.0, 0.3, 3.75],
    ),
    model(
        "claude-sonnet-4-5",
        "anthropic",
        200_000,
        64_000,
        [3.0, 15.0, 0.3, 3.75],
    ),
    model(
        "claude-sonnet-4",
        "anthropic",
        200_000,
        64_000,
        [3.0, 15.0, 0.3, 3.75],
    ),
    model(
        "claude-haiku-4-5",
        "anthropic",
        200_000,
        64_000,
        [1.0, 5.0, 0.1, 1.25],
    ),
    model(
        "claude-3-5-haiku",
        "anthropic",
        200_000,
        8_192,
        [0.8, 4.0, 0.08, 1.0],
    ),
    model(
        "gpt-5.5-pro",
        "openai",
        1_050_000,
        128_000,
        [30.0, 180.0, 3.0, 0.0],
    ),
    model(
        "gpt-5.5",
        "openai",
        1_050_000,
        128_000,
        [5.0, 30.0, 0.5, 0.0],
    ),
    model(
        "gpt-5.4-pro",
        "openai",
        1_047_576,
        128_000,
        [30.0, 180.0, 3.0, 0.0],
    ),
    model(
        "gpt-5.4-mini",
        "openai",
        400_000,
        128_000,
        [0.75, 4.5, 0.075, 0.0],
    ),
    model(
        "gpt-5.4",
        "openai",
        1_047_576,
        128_000,
        [2.5, 15.0, 0.25, 0.0],
    ),
    model(
        "gpt-5.3-codex",
        "openai",
        1_047_576,
        128_000,
        [1.75, 14.0, 0.175, 0.0],
    ),
    model(
        "gpt-5.2-codex",
        "openai",
        1_047_576,
        128_000,
        [1.75, 14.0, 0.175, 0.0],
    ),
    model(
        "gpt-5.2",
        "openai",
        1_047_576,
        128_000,
        [1.75, 14.0, 0.175, 0.0],
    ),
    model(
        "gpt-5-mini",
        "openai",
        400_000,
        128_000,
        [0.25, 2.0, 0.025, 0.0],
    ),
    model(
        "gpt-5-nano",
        "openai",
        400_000,
        128_000,
        [0.05, 0.4, 0.005, 0.0],
    ),
    model(
        "gpt-5-codex",
        "openai",
        400_000,
        128_000,
        [1.25, 10.0, 0.125, 0.0],
    ),
    model(
        "gpt-5",
        "openai",
        400_000,
        128_000,
        [1.25, 10.0, 0.125, 0.0],
    ),
    model(
        "gpt-4.1-mini",
        "openai",
        1_047_576,
        32_768,
        [0.4, 1.6, 0.1, 0.0],
    ),
    model("gpt-4.1", "openai", 1_047_576, 32_768, [2.0, 8.0, 0.5, 0.0]),
    model(
        "gpt-4o-mini",
        "openai",
        128_000,
        16_384,
        [0.15, 0.6, 0.075, 0.0],
    ),
    model("gpt-4o", "openai", 128_000, 16_384, [2.5, 10.0, 1.25, 0.0]),
    model(
        "o4-mini",
        "openai",
        200_000,
        100_000,
        [1.1, 4.4, 0.275, 0.0],
    ),
    model("o3", "openai", 200_000, 100_000, [2.0, 8.0, 0.5, 0.0]),
    model(
        "gemini-3.1-pro-preview",
        "gemini",
        1_048_576,
        65_536,
        [2.0, 12.0, 0.5, 0.0],
    ),
    model(
        "gemini-3.1-flash-lite-preview",
        "gemini",
        1_048_576,
        65_536,
        [0.25, 1.5, 0.0625, 0.0],
    ),
    model(
        "gemini-3-flash-preview",
        "gemini",
        1_048_576,
        65_536,
        [0.5, 3.0, 0.125, 0.0],
    ),
    model(
        "gemini-2.5-pro",
        "gemini",
        1_048_576,
        65_536,
        [1.25, 10.0, 0.3125, 0.0],
    ),
    model(
        "gemini-2.5-flash-lite",
        "gemini",
        1_048_576,
        65_536,
        [0.1, 0.4, 0.025, 0.0],
    ),
    model(
        "gemini-2.5-flash",
        "gemini",
        1_048_576,
        65_536,
        [0.3, 2.5, 0.075, 0.0],
    ),
];

/// Short names for models, as `(alias, model id)`: the aliases Fabro's catalog gives (so
/// its workflows run unchanged), each naming the model it names there. An alias is matched
/// without case; a model id that is not an alias is used as written.
pub const ALIASES: &[(&str, &str)] = &[
    ("opus", "claude-opus-4-8"),
    ("claude-opus", "claude-opus-4-8"),
    ("sonnet", "claude-sonnet-4-6"),
    ("claude-sonnet", "claude-sonnet-4-6"),
    ("haiku", "claude-haiku-4-5"),
    ("claude-haiku", "claude-haiku-4-5"),
    ("fable", "claude-fable-5"),
    ("claude-fable", "claude-fable-5"),
    ("gpt5", "gpt-5.2"),
    ("gpt5-mini", "gpt-5-mini"),
    ("gpt54", "gpt-5.4"),
    ("gpt-54", "gpt-5.4"),
    ("gpt54-mini", "gpt-5.4-mini"),
    ("gpt-54-mini", "gpt-5.4-mini"),
    ("gpt54-pro", "gpt-5.4-pro"),
    ("gpt-54-pro", "gpt-5.4-pro"),
    ("gpt55", "gpt-5.5"),
    ("gpt-55", "gpt-5.5"),
    ("gpt55-pro", "gpt-5.5-pro"),
    ("gpt-55-pro", "gpt-5.5-pro"),
    ("codex", "gpt-5.3-codex"),
    ("codex-spark", "gpt-5.3-codex-spark"),
    ("gemini-pro", "gemini-3.1-pro-preview"),
    ("gemini-customtools", "gemini-3.1-pro-preview-customtools"),
    ("gemini-flash", "gemini-3-flash-preview"),
    ("gemini-flash-lite", "gemini-3.1-flash-lite-preview"),
];

/// The model id `model` stands for: the id an alias names, else `model` itself (trimmed).
pub fn resolve_alias(model: &str) -> &str {
    let model = model.trim();
    ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(model))
        .map_or(model, |(_, id)| id)
}

/// The model a provider uses when neither the node, the stylesheet nor `heddle.toml` names
/// one.
pub fn default_model(provider: &str) -> Option<&'static str> {
    match provider {
        "anthropic" => Some("claude-sonnet-4-5"),
        "openai" => Some("gpt-5"),
        "gemini" => Some("gemini-3.1-pro-preview"),
        _ => None,
    }
}

/// The catalog entry for `model` (or the model an alias names): an exact id, else the
/// longest id that starts it (dated versions such as `claude-sonnet-4-5-20250929`).
pub fn lookup(model: &str) -> Option<&'static ModelInfo> {
    let model = resolve_alias(model);
    MODELS.iter().find(|m| m.id == model).or_else(|| {
        MODELS
            .iter()
            .filter(|m| {
                model
                    .strip_prefix(m.id)
                    .is_some_and(|rest| rest.starts_with('-'))
            })
            .max_by_key(|m| m.id.len())
    })
}

/// The provider a model name implies, when it is a well-known family.
pub fn provider_for_model(model: &str) -> Option<&'static str> {
    if let Some(info) = lookup(model) {
        return Some(info.provider);
    }
    let model = resolve_alias(model);
    if model.starts_with("claude-") {
        Some("anthropic")
    } else if model.starts_with("gemini-") {
        Some("gemini")
    } else if model.starts_with("gpt-")
        || model.starts_with("o1")
        || model.starts_with("o3")
        || model.starts_with("o4")
        || model.starts_with("codex-")
    {
        Some("openai")
    } else {
        None
    }
}

/// The context window of `model`.
pub fn context_window(model: &str) -> u32 {
    lookup(model).map_or(DEFAULT_CONTEXT_WINDOW, |m| m.context_window)
}

/// The reply limit to ask `model` for.
pub fn max_output_tokens(model: &str) -> u32 {
    lookup(model).map_or(DEFAULT_MAX_OUTPUT_TOKENS, |m| m.max_output_tokens)
}

/// What `usage` cost on `model`, in US dollars; `None` for models without a known price.
/// Input tokens are counted without the cached ones, which have their own prices.
pub fn cost_usd(model: &str, usage: &Usage) -> Option<f64> {
    let info = lookup(model)?;
    let per_token = |tokens: u64, per_mtok: f64| tokens as f64 * per_mtok / 1_000_000.0;
    Some(
        per_token(usage.input_tokens, info.input_per_mtok)
            + per_token(usage.output_tokens, info.output_per_mtok)
            + per_token(usage.cache_read_tokens, info.cache_read_per_mtok)
            + per_token(usage.cache_write_tokens, info.cache_write_per_mtok),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn dated_versions_find_their_family() {
        assert_eq!(
            lookup("claude-sonnet-4-5-20250929").unwrap().id,
            "claude-sonnet-4-5"
        );
        assert_eq!(lookup("gpt-5-mini").unwrap().id, "gpt-5-mini");
        assert_eq!(lookup("gpt-5").unwrap().id, "gpt-5");
        assert!(lookup("gpt-5x").is_none());
        assert!(lookup("llama3.1").is_none());
    }

    #[test]
    fn providers_follow_model_families() {
        assert_eq!(provider_for_model("claude-future-9"), Some("anthropic"));
        assert_eq!(provider_for_model("o4-mini"), Some("openai"));
        assert_eq!(provider_for_model("gpt-6"), Some("openai"));
        assert_eq!(provider_for_model("qwen2.5-coder:7b"), None);
        assert_eq!(provider_for_model("gemini-2.0-flash"), Some("gemini"));
        assert_eq!(provider_for_model("gemini-9-ultra"), Some("gemini"));
    }

    #[test]
    fn aliases_name_current_models_and_their_provider() {
        let cases = [
            ("opus", "claude-opus-4-8", "anthropic"),
            ("Sonnet", "claude-sonnet-4-6", "anthropic"),
            ("haiku", "claude-haiku-4-5", "anthropic"),
            ("gpt54", "gpt-5.4", "openai"),
            ("codex", "gpt-5.3-codex", "openai"),
            ("gemini-pro", "gemini-3.1-pro-preview", "gemini"),
            ("gemini-flash", "gemini-3-flash-preview", "gemini"),
            (
                " gemini-flash-lite ",
                "gemini-3.1-flash-lite-preview",
                "gemini",
            ),
        ];
        for (alias, id, provider) in cases {
            assert_eq!(resolve_alias(alias), id, "{alias}");
            assert_eq!(provider_for_model(alias), Some(provider), "{alias}");
        }
        // A model id is not an alias: it stays as written.
        assert_eq!(resolve_alias("gpt-5"), "gpt-5");
        assert_eq!(resolve_alias("my-local-model"), "my-local-model");
        assert_eq!(lookup("sonnet").unwrap().id, "claude-sonnet-4-6");
        assert_eq!(
            lookup("gemini-customtools").unwrap().id,
            "gemini-3.1-pro-preview"
        );
        assert_eq!(context_window("gemini-flash"), 1_048_576);
    }

    #[test]
    fn every_alias_names_a_model_of_a_known_family() {
        for (alias, id) in ALIASES {
            assert!(
                provider_for_model(id).is_some(),
                "alias {alias} names {id}, which no provider serves"
            );
            assert!(
                MODELS.iter().all(|m| !m.id.eq_ignore_ascii_case(alias)),
                "alias {alias} hides a model id"
            );
        }
    }

    #[test]
    fn cost_prices_each_kind_of_token() {
        let usage = Usage {
            input_tokens: 1_000_000,
            output_tokens: 100_000,
            cache_read_tokens: 1_000_000,
            cache_write_tokens: 0,
        };
        let cost = cost_usd("claude-sonnet-4-5", &usage).unwrap();
        assert!((cost - (3.0 + 1.5 + 0.3)).abs() < 1e-9, "{cost}");
        assert_eq!(cost_usd("my-local-model", &usage), None);
    }

    #[test]
    fn unknown_models_get_defaults() {
        assert_eq!(context_window("my-local-model"), DEFAULT_CONTEXT_WINDOW);
        assert_eq!(max_output_tokens("claude-sonnet-4-5"), 64_000);
    }
}
