//! Routing directives in LLM replies. (stub; being written)

use std::collections::BTreeMap;

use serde_json::Value as Json;

/// What a reply asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoutingDirective {
    /// `outcome`.
    pub outcome: Option<String>,
    /// `failure_reason`.
    pub failure_reason: Option<String>,
    /// `preferred_next_label`.
    pub preferred_next_label: Option<String>,
    /// `suggested_next_ids`.
    pub suggested_next_ids: Vec<String>,
    /// `context_updates`.
    pub context_updates: BTreeMap<String, Json>,
}

/// The last balanced JSON object in `text` holding a recognised routing field.
pub fn extract_directive(text: &str) -> Option<RoutingDirective> {
    let _ = text;
    None
}

/// The last balanced `{...}` in `text` that parses as a JSON object.
pub fn last_json_object(text: &str) -> Option<serde_json::Map<String, Json>> {
    let _ = text;
    None
}
