//! Answers to the agent's requests. Heddle runs unattended, so a permission request is
//! granted with the first option that allows (once or always), and refused (the "cancelled"
//! outcome) when none does or the turn is being cancelled. Heddle offers no file system or
//! terminal to the agent, so every other request is "method not found".

use heddle_engine::llm::LlmEvent;
use serde_json::{Value as Json, json};

use super::connection::AcpConnection;
use super::wire::METHOD_NOT_FOUND;

/// Option kinds that grant a permission.
const ALLOW_KINDS: [&str; 2] = ["allow_once", "allow_always"];

/// Answers request `id` (`method` with `params`); returns a note of what was decided.
pub(super) fn answer(
    connection: &AcpConnection,
    id: &Json,
    method: &str,
    params: &Json,
    cancelling: bool,
) -> LlmEvent {
    if method == "session/request_permission" {
        let (outcome, note) = decide_permission(params, cancelling);
        connection.respond(id, json!({ "outcome": outcome }));
        return note;
    }
    connection.respond_error(
        id,
        METHOD_NOT_FOUND,
        &format!("method not found: {method} (Heddle offers agents no client methods)"),
    );
    LlmEvent::Note {
        kind: "acp.unsupported_request".to_string(),
        details: json!({ "method": method }),
    }
}

/// The outcome for a permission request, and a note saying what was allowed.
fn decide_permission(params: &Json, cancelling: bool) -> (Json, LlmEvent) {
    let tool_call = &params["toolCall"];
    let tool = tool_call["title"]
        .as_str()
        .or_else(|| tool_call["toolCallId"].as_str())
        .unwrap_or("a tool call");
    let chosen = params["options"].as_array().and_then(|options| {
        options
            .iter()
            .find(|o| ALLOW_KINDS.contains(&o["kind"].as_str().unwrap_or_default()))
    });
    match chosen.and_then(|o| Some((o, o["optionId"].as_str()?))) {
        Some((option, option_id)) if !cancelling => (
            json!({ "outcome": "selected", "optionId": option_id }),
            LlmEvent::Note {
                kind: "acp.permission".to_string(),
                details: json!({
                    "allowed": true,
                    "tool": tool,
                    "option": option["name"].as_str().unwrap_or(option_id),
                    "option_kind": option["kind"],
                    "message": format!(
                        "allowed {tool} ({}), as Heddle runs unattended",
                        option["name"].as_str().unwrap_or(option_id)
                    ),
                }),
            },
        ),
        _ => (
            json!({ "outcome": "cancelled" }),
            LlmEvent::Note {
                kind: "acp.permission".to_string(),
                details: json!({
                    "allowed": false,
                    "tool": tool,
                    "message": if cancelling {
                        format!("refused {tool}: the turn is being cancelled")
                    } else {
                        format!("refused {tool}: the agent offered no option that allows it")
                    },
                }),
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kinds: &[&str]) -> Json {
        let options: Vec<Json> = kinds
            .iter()
            .enumerate()
            .map(|(i, kind)| json!({"optionId": format!("o{i}"), "name": kind, "kind": kind}))
            .collect();
        json!({"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "Edit a.txt"}, "options": options})
    }

    #[test]
    fn the_first_allowing_option_is_chosen() {
        let (outcome, _) = decide_permission(
            &request(&["reject_once", "allow_always", "allow_once"]),
            false,
        );
        assert_eq!(outcome, json!({"outcome": "selected", "optionId": "o1"}));
    }

    #[test]
    fn without_an_allowing_option_or_while_cancelling_it_is_cancelled() {
        let (outcome, note) = decide_permission(&request(&["reject_once", "reject_always"]), false);
        assert_eq!(outcome, json!({"outcome": "cancelled"}));
        assert!(matches!(note, LlmEvent::Note { details, .. } if details["allowed"] == false));
        let (outcome, _) = decide_permission(&request(&["allow_once"]), true);
        assert_eq!(outcome, json!({"outcome": "cancelled"}));
    }
}
