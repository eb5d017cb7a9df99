//! JSON-RPC 2.0 as ACP carries it over stdio: one message per line. Reading lines from the
//! agent's stdout, telling responses, requests and notifications apart, and writing the
//! client's messages.

use serde_json::{Value as Json, json};
use tokio::io::{AsyncRead, AsyncReadExt};

/// JSON-RPC "method not found".
pub(super) const METHOD_NOT_FOUND: i64 = -32601;

/// A message from the agent.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Incoming {
    /// The answer to one of the client's requests.
    Response {
        /// The id of the client request it answers.
        id: Json,
        /// Its result, or the error the agent returned.
        result: Result<Json, RpcError>,
    },
    /// A request the client must answer.
    Request {
        /// Its id, echoed in the client's response.
        id: Json,
        /// The JSON-RPC method, e.g. `session/request_permission`.
        method: String,
        /// Its parameters (`null` when absent).
        params: Json,
    },
    /// A notification.
    Notification {
        /// The JSON-RPC method, e.g. `session/update`.
        method: String,
        /// Its parameters (`null` when absent).
        params: Json,
    },
    /// A line that is not a JSON-RPC message (agents sometimes log to stdout).
    Unparsed(String),
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RpcError {
    /// JSON-RPC error code, e.g. `-32601` (method not found).
    pub code: i64,
    /// The agent's error message.
    pub message: String,
    /// Extra data, if any.
    pub data: Option<Json>,
}

impl Incoming {
    /// Classifies one line.
    pub fn parse(line: &str) -> Incoming {
        let Ok(Json::Object(message)) = serde_json::from_str::<Json>(line) else {
            return Incoming::Unparsed(line.to_string());
        };
        let params = message.get("params").cloned().unwrap_or(Json::Null);
        let method = message.get("method").and_then(Json::as_str);
        match (message.get("id").filter(|id| !id.is_null()), method) {
            (Some(id), Some(method)) => Incoming::Request {
                id: id.clone(),
                method: method.to_string(),
                params,
            },
            (None, Some(method)) => Incoming::Notification {
                method: method.to_string(),
                params,
            },
            (Some(id), None) => {
                let result = match message.get("error") {
                    Some(error) => Err(RpcError {
                        code: error.get("code").and_then(Json::as_i64).unwrap_or(0),
                        message: error
                            .get("message")
                            .and_then(Json::as_str)
                            .unwrap_or("(no message)")
                            .to_string(),
                        data: error.get("data").filter(|d| !d.is_null()).cloned(),
                    }),
                    None => Ok(message.get("result").cloned().unwrap_or(Json::Null)),
                };
                Incoming::Response {
                    id: id.clone(),
                    result,
                }
            }
            (None, None) => Incoming::Unparsed(line.to_string()),
        }
    }
}

/// A request line.
pub(super) fn request(id: u64, method: &str, params: Json) -> String {
    line(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
}

/// A notification line.
pub(super) fn notification(method: &str, params: Json) -> String {
    line(json!({"jsonrpc": "2.0", "method": method, "params": params}))
}

/// A success response line.
pub(super) fn result_response(id: &Json, result: Json) -> String {
    line(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// An error response line.
pub(super) fn error_response(id: &Json, code: i64, message: &str) -> String {
    line(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
}

fn line(message: Json) -> String {
    let mut text = message.to_string();
    text.push('\n');
    text
}

/// Reads lines from a stream; [`LineReader::next_line`] may be cancelled without losing data.
#[derive(Debug)]
pub(super) struct LineReader<R> {
    source: R,
    buffer: Vec<u8>,
    /// How much of `buffer` is known to hold no newline.
    scanned: usize,
    ended: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Reads from `source`.
    pub fn new(source: R) -> Self {
        LineReader {
            source,
            buffer: Vec::new(),
            scanned: 0,
            ended: false,
        }
    }

    /// The next line without its line ending; `None` once the stream has ended (a last
    /// line without a newline is still returned) or failed.
    pub async fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(at) = self.buffer[self.scanned..].iter().position(|b| *b == b'\n') {
                let end = self.scanned + at;
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.scanned = 0;
                return Some(String::from_utf8_lossy(&line).into_owned());
            }
            self.scanned = self.buffer.len();
            if self.ended {
                if self.buffer.is_empty() {
                    return None;
                }
                let rest = std::mem::take(&mut self.buffer);
                self.scanned = 0;
                return Some(String::from_utf8_lossy(&rest).into_owned());
            }
            let mut chunk = [0u8; 8192];
            match self.source.read(&mut chunk).await {
                Ok(n) if n > 0 => self.buffer.extend_from_slice(&chunk[..n]),
                _ => self.ended = true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_are_split_and_the_last_one_kept() {
        let data: &[u8] = b"one\r\ntwo\n\nthree";
        let mut reader = LineReader::new(data);
        let mut lines = Vec::new();
        while let Some(line) = reader.next_line().await {
            lines.push(line);
        }
        assert_eq!(lines, vec!["one", "two", "", "three"]);
    }

    #[test]
    fn messages_are_classified() {
        assert_eq!(
            Incoming::parse(r#"{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}"#),
            Incoming::Response {
                id: json!(3),
                result: Ok(json!({"stopReason": "end_turn"}))
            }
        );
        assert_eq!(
            Incoming::parse(r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"no"}}"#),
            Incoming::Response {
                id: json!("a"),
                result: Err(RpcError {
                    code: -32000,
                    message: "no".into(),
                    data: None
                })
            }
        );
        assert_eq!(
            Incoming::parse(r#"{"jsonrpc":"2.0","id":0,"method":"fs/read_text_file"}"#),
            Incoming::Request {
                id: json!(0),
                method: "fs/read_text_file".into(),
                params: Json::Null
            }
        );
        assert_eq!(
            Incoming::parse(r#"{"jsonrpc":"2.0","method":"session/update","params":{}}"#),
            Incoming::Notification {
                method: "session/update".into(),
                params: json!({})
            }
        );
        assert_eq!(
            Incoming::parse("starting up..."),
            Incoming::Unparsed("starting up...".into())
        );
    }

    #[test]
    fn outgoing_lines_are_single_json_lines() {
        let text = request(1, "session/prompt", json!({"text": "a\nb"}));
        assert!(text.ends_with('\n'));
        assert_eq!(text.matches('\n').count(), 1);
        let value: Json = serde_json::from_str(text.trim_end()).unwrap_or_default();
        assert_eq!(value["method"], "session/prompt");
        assert_eq!(value["params"]["text"], "a\nb");
    }
}
