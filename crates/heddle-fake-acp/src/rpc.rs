//! The fake agent's side of JSON-RPC over stdio: reading the client's lines, writing
//! responses, notifications and its own requests (waiting for their answers).

use std::io::{BufRead, Write};

use serde_json::{Value as Json, json};

/// The client's messages in and the agent's messages out.
pub struct Channel<R, W> {
    input: R,
    output: W,
    next_id: u64,
}

impl<R: BufRead, W: Write> Channel<R, W> {
    /// A channel over `input` and `output`.
    pub fn new(input: R, output: W) -> Self {
        Channel {
            input,
            output,
            next_id: 100,
        }
    }

    /// The next message from the client; `None` at the end of input.
    pub fn read(&mut self) -> Option<Json> {
        loop {
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str(&line) {
                Ok(message) => return Some(message),
                Err(e) => eprintln!("fake acp: ignoring a line that is not JSON ({e}): {line}"),
            }
        }
    }

    /// Writes one message.
    pub fn write(&mut self, message: &Json) {
        // The client went away if this fails; the next read ends the agent.
        let _ = writeln!(self.output, "{message}");
        let _ = self.output.flush();
    }

    /// Answers request `id` with `result`.
    pub fn respond(&mut self, id: &Json, result: Json) {
        self.write(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    /// Answers request `id` with an error.
    pub fn respond_error(&mut self, id: &Json, code: i64, message: &str) {
        self.write(
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        );
    }

    /// Sends a `session/update` notification.
    pub fn update(&mut self, session_id: &str, update: Json) {
        self.write(&json!({
            "jsonrpc": "2.0",
            "method": "session/update",
            "params": {"sessionId": session_id, "update": update}
        }));
    }

    /// Sends a text chunk of the agent's message.
    pub fn chunk(&mut self, session_id: &str, text: &str) {
        self.update(
            session_id,
            json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}),
        );
    }

    /// Sends a request to the client and waits for its answer (the whole response object);
    /// `None` if the input ends first. Other messages meanwhile are dropped.
    pub fn call(&mut self, method: &str, params: Json) -> Option<Json> {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.read()?;
            if message.get("method").is_none() && message["id"] == json!(id) {
                return Some(message);
            }
            eprintln!("fake acp: dropped while waiting for an answer: {message}");
        }
    }
}
