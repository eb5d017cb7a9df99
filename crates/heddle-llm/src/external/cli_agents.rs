//! The coding-agent CLIs `backend="cli"` runs when a node sets no `cli.command`, chosen by
//! the model's family as Fabro chooses them: Anthropic models run `claude`, Gemini models
//! run `gemini`, every other provider runs `codex`. Each gets the prompt on stdin, runs
//! without asking for permission, and prints JSON that is read here for the reply text and
//! the token usage.

use heddle_engine::Usage;
use serde_json::Value as Json;

use crate::catalog;
use crate::config::canonical_name;

/// A coding-agent CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CliAgent {
    /// Anthropic's Claude Code (`claude`).
    Claude,
    /// OpenAI's Codex CLI (`codex`).
    Codex,
    /// Google's Gemini CLI (`gemini`).
    Gemini,
}

/// What a CLI agent printed, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliAgentReply {
    /// The agent's final answer.
    pub text: String,
    /// The tokens the agent reported in its output; zero where it reported none.
    pub usage: Usage,
}

impl CliAgent {
    /// The CLI for a provider (`anthropic`, `gemini`, anything else).
    pub fn for_provider(provider: &str) -> CliAgent {
        match canonical_name(provider).as_str() {
            "anthropic" => CliAgent::Claude,
            "gemini" => CliAgent::Gemini,
            _ => CliAgent::Codex,
        }
    }

    /// The CLI for a node: its `provider`, else the family of its `model` (aliases
    /// included), else `fallback_provider` (`[defaults] provider`), else Claude.
    pub fn choose(
        model: Option<&str>,
        provider: Option<&str>,
        fallback_provider: Option<&str>,
    ) -> CliAgent {
        let family = model.and_then(catalog::provider_for_model);
        provider
            .filter(|p| !p.trim().is_empty())
            .or(family)
            .or(fallback_provider)
            .map_or(CliAgent::Claude, CliAgent::for_provider)
    }

    /// The provider whose models it runs (`anthropic`, `openai`, `gemini`).
    pub fn provider(self) -> &'static str {
        match self {
            CliAgent::Claude => "anthropic",
            CliAgent::Codex => "openai",
            CliAgent::Gemini => "gemini",
        }
    }

    /// The program's name.
    pub fn program(self) -> &'static str {
        match self {
            CliAgent::Claude => "claude",
            CliAgent::Codex => "codex",
            CliAgent::Gemini => "gemini",
        }
    }

    /// The command line (for `sh -c`) that runs the agent on the prompt from stdin with
    /// `model` (an alias already resolved; `None` keeps the CLI's own default).
    pub fn command_line(self, model: Option<&str>) -> String {
        let model = model.map(str::trim).filter(|m| !m.is_empty());
        match self {
            // Clearing CLAUDECODE lets it run from inside a Claude Code session too.
            CliAgent::Claude => {
                let mut line = "CLAUDECODE= claude -p --verbose --output-format stream-json \
                                --dangerously-skip-permissions"
                    .to_owned();
                if let Some(model) = model {
                    line.push_str(&format!(" --model {}", shell_quote(model)));
                }
                line
            }
            CliAgent::Codex => {
                let mut line = "codex exec --json --full-auto".to_owned();
                if let Some(model) = model {
                    line.push_str(&format!(" -m {}", shell_quote(model)));
                }
                line
            }
            CliAgent::Gemini => {
                let mut line = "gemini -o json --yolo".to_owned();
                if let Some(model) = model {
                    line.push_str(&format!(" -m {}", shell_quote(model)));
                }
                line
            }
        }
    }

    /// Reads what the agent printed: Claude's last `result` line, Codex's last
    /// `agent_message` item and `turn.completed` usage, Gemini's `response` and the token
    /// counts of its first model. `None` when the output is not in that shape.
    pub fn read_output(self, stdout: &str) -> Option<CliAgentReply> {
        match self {
            CliAgent::Claude => read_claude(stdout),
            CliAgent::Codex => read_codex(stdout),
            CliAgent::Gemini => read_gemini(stdout),
        }
    }
}

/// `text` in single quotes for `sh`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn json_lines(stdout: &str) -> impl Iterator<Item = Json> + '_ {
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Json>(line.trim()).ok())
}

fn number(json: &Json, pointer: &str) -> u64 {
    json.pointer(pointer).and_then(Json::as_u64).unwrap_or(0)
}

/// `claude -p --output-format stream-json`: one JSON object per line, the last of type
/// `result` holding the answer and the usage.
fn read_claude(stdout: &str) -> Option<CliAgentReply> {
    let result = json_lines(stdout)
        .filter(|line| line["type"] == "result")
        .last()?;
    Some(CliAgentReply {
        text: result["result"].as_str().unwrap_or_default().to_owned(),
        usage: Usage {
            input_tokens: number(&result, "/usage/input_tokens"),
            output_tokens: number(&result, "/usage/output_tokens"),
            cache_read_tokens: number(&result, "/usage/cache_read_input_tokens"),
            cache_write_tokens: number(&result, "/usage/cache_creation_input_tokens"),
        },
    })
}

/// `codex exec --json`: events one per line; the answer is the last `item.completed` whose
/// item is an `agent_message`, the usage comes with `turn.completed`.
fn read_codex(stdout: &str) -> Option<CliAgentReply> {
    let mut text = None;
    let mut usage = None;
    for line in json_lines(stdout) {
        match line["type"].as_str() {
            Some("item.completed") if line["item"]["type"] == "agent_message" => {
                text = line["item"]["text"].as_str().map(str::to_owned);
            }
            Some("turn.completed") => {
                usage = Some(Usage {
                    input_tokens: number(&line, "/usage/input_tokens"),
                    output_tokens: number(&line, "/usage/output_tokens"),
                    cache_read_tokens: number(&line, "/usage/cached_input_tokens"),
                    cache_write_tokens: 0,
                });
            }
            _ => {}
        }
    }
    if text.is_none() && usage.is_none() {
        return None;
    }
    Some(CliAgentReply {
        text: text.unwrap_or_default(),
        usage: usage.unwrap_or_default(),
    })
}

/// `gemini -o json`: one JSON object with `response` and `stats.models.NAME.tokens`
/// (`prompt`, which includes `cached`, `candidates`, `thoughts`).
fn read_gemini(stdout: &str) -> Option<CliAgentReply> {
    let json: Json = serde_json::from_str(stdout.trim()).ok()?;
    let text = json
        .get("response")?
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let tokens = json["stats"]["models"]
        .as_object()
        .and_then(|models| models.values().next())
        .map(|model| &model["tokens"]);
    let usage = tokens.map_or_else(Usage::default, |tokens| {
        let cached = number(tokens, "/cached");
        // `prompt` in the CLI's documented output; some versions say `input`.
        let prompt = number(tokens, "/prompt").max(number(tokens, "/input"));
        Usage {
            input_tokens: prompt.saturating_sub(cached),
            output_tokens: number(tokens, "/candidates") + number(tokens, "/thoughts"),
            cache_read_tokens: cached,
            cache_write_tokens: 0,
        }
    });
    Some(CliAgentReply { text, usage })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_model_family_picks_the_cli() {
        let cases = [
            (Some("claude-sonnet-4-6"), None, CliAgent::Claude),
            (Some("opus"), None, CliAgent::Claude),
            (Some("gpt-5.4"), None, CliAgent::Codex),
            (Some("codex"), None, CliAgent::Codex),
            (Some("gemini-flash"), None, CliAgent::Gemini),
            (Some("gemini-2.5-pro"), None, CliAgent::Gemini),
            (Some("qwen3-coder"), Some("ollama"), CliAgent::Codex),
            (Some("claude-sonnet-4-6"), Some("gemini"), CliAgent::Gemini),
            (None, None, CliAgent::Claude),
        ];
        for (model, provider, cli) in cases {
            assert_eq!(CliAgent::choose(model, provider, None), cli, "{model:?}");
        }
        assert_eq!(
            CliAgent::choose(Some("local-model"), None, Some("gemini")),
            CliAgent::Gemini
        );
    }

    #[test]
    fn command_lines_read_the_prompt_from_stdin_without_permission_prompts() {
        assert_eq!(
            CliAgent::Claude.command_line(Some("claude-opus-4-8")),
            "CLAUDECODE= claude -p --verbose --output-format stream-json \
             --dangerously-skip-permissions --model 'claude-opus-4-8'"
        );
        assert_eq!(
            CliAgent::Codex.command_line(Some("gpt-5.4")),
            "codex exec --json --full-auto -m 'gpt-5.4'"
        );
        assert_eq!(CliAgent::Gemini.command_line(None), "gemini -o json --yolo");
        assert_eq!(
            CliAgent::Gemini.command_line(Some("it's")),
            r"gemini -o json --yolo -m 'it'\''s'"
        );
    }

    #[test]
    fn reads_each_clis_output() {
        let claude = concat!(
            r#"{"type":"system","subtype":"init"}"#,
            "\n",
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Working"}]}}"#,
            "\n",
            r#"{"type":"result","subtype":"success","result":"Done: 2 files.","usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":100,"cache_creation_input_tokens":7}}"#,
            "\n"
        );
        let reply = CliAgent::Claude.read_output(claude).unwrap();
        assert_eq!(reply.text, "Done: 2 files.");
        assert_eq!(
            reply.usage,
            Usage {
                input_tokens: 10,
                output_tokens: 5,
                cache_read_tokens: 100,
                cache_write_tokens: 7
            }
        );

        let codex = concat!(
            r#"{"type":"thread.started","thread_id":"t"}"#,
            "\n",
            r#"{"type":"item.completed","item":{"id":"i0","type":"reasoning","text":"hm"}}"#,
            "\n",
            r#"{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"Fixed it."}}"#,
            "\n",
            r#"{"type":"turn.completed","usage":{"input_tokens":30,"cached_input_tokens":20,"output_tokens":4}}"#,
        );
        let reply = CliAgent::Codex.read_output(codex).unwrap();
        assert_eq!(reply.text, "Fixed it.");
        assert_eq!(reply.usage.input_tokens, 30);
        assert_eq!(reply.usage.cache_read_tokens, 20);

        let gemini = r#"{"response": "All green.", "stats": {"models": {"gemini-2.5-pro":
            {"tokens": {"prompt": 120, "candidates": 8, "cached": 20, "thoughts": 2}}}}}"#;
        let reply = CliAgent::Gemini.read_output(gemini).unwrap();
        assert_eq!(reply.text, "All green.");
        assert_eq!(reply.usage.input_tokens, 100);
        assert_eq!(reply.usage.output_tokens, 10);

        assert_eq!(CliAgent::Gemini.read_output("not json"), None);
        assert_eq!(CliAgent::Claude.read_output("plain text\n"), None);
        assert_eq!(CliAgent::Codex.read_output(""), None);
    }
}
