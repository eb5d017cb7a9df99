//! A small catalog of well-known models: which provider serves them, how large their
//! context window is, and what they cost, so usage can be priced and compaction knows when
//! to start. Unknown models still work; they just have no price and a default window.

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
];

/// The model a provider uses when neither the node, the stylesheet nor `heddle.toml` names
/// one.
pub fn default_model(provider: &str) -> Option<&'static str> {
    match provider {
        "anthropic" => Some("claude-sonnet-4-5"),
        "openai" => Some("gpt-5"),
        _ => None,
    }
}

/// The catalog entry for `model`: an exact id, else the longest id that starts it
/// (dated versions such as `claude-sonnet-4-5-20250929`).
pub fn lookup(model: &str) -> Option<&'static ModelInfo> {
    let model = model.trim();
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
    let model = model.trim();
    if model.starts_with("claude-") {
        Some("anthropic")
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
