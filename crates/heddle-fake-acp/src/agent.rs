//! The protocol side of the fake agent: `initialize`, `session/new`, `session/prompt` and
//! `session/cancel`, checking that the client sends what ACP asks for; the prompt itself is
//! acted out by the scenario.

use std::io::{BufRead, Write};
use std::path::Path;

use serde_json::{Value as Json, json};

use crate::rpc::Channel;
use crate::scenario::{Scenario, TurnEnd};

/// JSON-RPC "invalid params".
const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC "method not found".
const METHOD_NOT_FOUND: i64 = -32601;
/// Written when a hanging turn is cancelled.
const CANCEL_MARKER: &str = "FAKE_ACP_CANCEL_MARKER";

/// The fake agent's state.
pub struct Agent {
    scenario: Scenario,
    session_id: Option<String>,
    /// Prompts received on the session.
    prompts: u32,
    /// The id of a prompt left unanswered (hanging scenarios).
    pending: Option<Json>,
}

impl Agent {
    /// An agent acting out `scenario`.
    pub fn new(scenario: Scenario) -> Self {
        Agent {
            scenario,
            session_id: None,
            prompts: 0,
            pending: None,
        }
    }

    /// Handles one message; returns an exit code when the agent should exit now.
    pub fn handle<R: BufRead, W: Write>(
        &mut self,
        channel: &mut Channel<R, W>,
        message: &Json,
    ) -> Option<u8> {
        let method = message["method"].as_str().unwrap_or_default();
        let params = &message["params"];
        let Some(id) = message.get("id").filter(|id| !id.is_null()) else {
            if method == "session/cancel" {
                self.cancel(channel);
            }
            return None;
        };
        match method {
            "initialize" if self.scenario == Scenario::ExitOnInit => {
                eprintln!("fake acp: no configuration found, giving up");
                return Some(2);
            }
            "initialize" => self.initialize(channel, id, params),
            "session/new" => self.new_session(channel, id, params),
            "session/prompt" => return self.prompt(channel, id, params),
            _ => channel.respond_error(id, METHOD_NOT_FOUND, &format!("unknown method {method}")),
        }
        None
    }

    fn initialize<R: BufRead, W: Write>(
        &self,
        channel: &mut Channel<R, W>,
        id: &Json,
        params: &Json,
    ) {
        let capabilities = &params["clientCapabilities"];
        let offered_fs = capabilities["fs"]["readTextFile"] == true
            || capabilities["fs"]["writeTextFile"] == true;
        if params["protocolVersion"] != 1 || offered_fs || capabilities["terminal"] == true {
            channel.respond_error(
                id,
                INVALID_PARAMS,
                &format!("expected protocol version 1 without fs or terminal, got {params}"),
            );
            return;
        }
        channel.respond(
            id,
            json!({
                "protocolVersion": 1,
                "agentCapabilities": {"loadSession": false, "promptCapabilities": {}},
                "agentInfo": {"name": "heddle-fake-acp", "version": env!("CARGO_PKG_VERSION")},
                "authMethods": []
            }),
        );
    }

    fn new_session<R: BufRead, W: Write>(
        &mut self,
        channel: &mut Channel<R, W>,
        id: &Json,
        params: &Json,
    ) {
        let cwd = params["cwd"].as_str().map(Path::new);
        let here = std::env::current_dir().and_then(|d| d.canonicalize()).ok();
        let same = cwd.and_then(|c| c.canonicalize().ok()) == here;
        if !cwd.is_some_and(Path::is_absolute) || !same || !params["mcpServers"].is_array() {
            channel.respond_error(
                id,
                INVALID_PARAMS,
                &format!("expected the absolute cwd {here:?} and mcpServers, got {params}"),
            );
            return;
        }
        let session_id = "fake-session-1".to_string();
        self.session_id = Some(session_id.clone());
        channel.respond(id, json!({"sessionId": session_id}));
    }

    fn prompt<R: BufRead, W: Write>(
        &mut self,
        channel: &mut Channel<R, W>,
        id: &Json,
        params: &Json,
    ) -> Option<u8> {
        let Some(session_id) = self
            .session_id
            .clone()
            .filter(|s| params["sessionId"] == s.as_str())
        else {
            channel.respond_error(id, INVALID_PARAMS, "unknown session");
            return None;
        };
        let text: String = params["prompt"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|block| block["type"] == "text")
            .filter_map(|block| block["text"].as_str())
            .collect();
        self.prompts += 1;
        match self.scenario.act(channel, &session_id, self.prompts, &text) {
            TurnEnd::Stop(reason) => channel.respond(id, json!({"stopReason": reason})),
            TurnEnd::Error(message) => channel.respond_error(id, -32603, &message),
            TurnEnd::Pending => self.pending = Some(id.clone()),
            TurnEnd::Exit(code) => return Some(code),
        }
        None
    }

    fn cancel<R: BufRead, W: Write>(&mut self, channel: &mut Channel<R, W>) {
        if let Some(path) = std::env::var_os(CANCEL_MARKER) {
            let _ = std::fs::write(path, "session/cancel received\n");
        }
        if self.scenario == Scenario::Stubborn {
            return;
        }
        if let Some(id) = self.pending.take() {
            channel.respond(&id, json!({"stopReason": "cancelled"}));
        }
    }
}
