//! The six tools by name ([`Tool`]) and what the model is told about them: descriptions
//! and JSON Schemas of their arguments.

use serde_json::{Value, json};

use super::ToolContext;
use crate::chat::ToolSpec;

/// One of the six tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    /// `read_file`.
    ReadFile,
    /// `write_file`.
    WriteFile,
    /// `edit_file`.
    EditFile,
    /// `shell`.
    Shell,
    /// `grep`.
    Grep,
    /// `glob`.
    Glob,
}

impl Tool {
    /// Every tool, in the order the model is shown them.
    pub(crate) const ALL: [Tool; 6] = [
        Tool::ReadFile,
        Tool::WriteFile,
        Tool::EditFile,
        Tool::Shell,
        Tool::Grep,
        Tool::Glob,
    ];

    /// The name the model calls it by.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tool::ReadFile => "read_file",
            Tool::WriteFile => "write_file",
            Tool::EditFile => "edit_file",
            Tool::Shell => "shell",
            Tool::Grep => "grep",
            Tool::Glob => "glob",
        }
    }

    /// The tool called `name`, if there is one.
    pub(crate) fn from_name(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|tool| tool.name() == name)
    }
}

/// The specs of all six tools; `context` fills in the limits the descriptions mention.
pub(crate) fn tool_specs(context: &ToolContext) -> Vec<ToolSpec> {
    Tool::ALL
        .into_iter()
        .map(|tool| ToolSpec {
            name: tool.name().to_string(),
            description: description(tool, context),
            parameters: parameters(tool),
        })
        .collect()
}

fn description(tool: Tool, context: &ToolContext) -> String {
    let limit = context.output_limit;
    match tool {
        Tool::ReadFile => format!(
            "Read a text file in the work dir. Each line is shown prefixed by its line number \
             and a tab (the prefix is not part of the file). By default up to 2000 lines from \
             the start; use `offset` (first line, 1-based) and `limit` (number of lines) to \
             read other parts of long files. Directories and binary files are refused. Output \
             longer than {limit} characters is shortened in the middle."
        ),
        Tool::WriteFile => "Create or overwrite a file in the work dir with `content`, creating \
             missing parent folders. Replaces the whole file: to change part of an existing \
             file prefer edit_file."
            .to_string(),
        Tool::EditFile => "Replace exact text in an existing file of the work dir: `old_string` \
             must match the file exactly (whitespace and indentation included; read the file \
             first) and, unless `replace_all` is true, occur exactly once: include enough \
             surrounding lines to make it unique. `new_string` replaces it."
            .to_string(),
        Tool::Shell => format!(
            "Run a command with `sh -c` in the work dir and return its exit code, stdout and \
             stderr. A non-zero exit code is reported, not treated as a failure of the tool. \
             No input is available (stdin is empty), so use non-interactive flags. The \
             command is killed after `timeout_ms` milliseconds (default and maximum {} ms); \
             processes it leaves running in the background are killed when it ends. Output \
             longer than {limit} characters is shortened in the middle.",
            context.shell_timeout.as_millis()
        ),
        Tool::Grep => "Search file contents in the work dir with a regular expression (Rust \
             regex syntax), line by line. Returns matching lines as `path:line: text`, sorted \
             by path and line. Searches `path` (a file or folder, default the whole work dir), \
             skipping `.git`, files ignored by `.gitignore`/`.ignore`, binary files and links \
             that lead outside the work dir (a `path` inside an ignored folder is still \
             searched). `glob` \
             limits the files searched: without `/` it matches file names (`*.rs`), with `/` \
             paths relative to `path` (`src/**/*.rs`)."
            .to_string(),
        Tool::Glob => "List the files of the work dir whose path relative to `path` (default \
             the work dir) matches a glob pattern: `*` and `?` match within one path \
             component, `**` matches any number of folders, `[abc]` and `{a,b}` alternatives. \
             `*.rs` matches only files directly in `path`; `**/*.rs` matches at any depth. \
             Returns paths relative to the work dir, sorted; `.git` and files ignored by \
             `.gitignore`/`.ignore` are skipped."
            .to_string(),
    }
}

fn parameters(tool: Tool) -> Value {
    let path = |what: &str| json!({"type": "string", "description": what});
    match tool {
        Tool::ReadFile => object(
            json!({
                "path": path("The file, relative to the work dir."),
                "offset": {"type": "integer", "minimum": 1,
                           "description": "The first line to show (1-based). Default 1."},
                "limit": {"type": "integer", "minimum": 1,
                          "description": "How many lines to show. Default 2000."},
            }),
            &["path"],
        ),
        Tool::WriteFile => object(
            json!({
                "path": path("The file to write, relative to the work dir."),
                "content": {"type": "string", "description": "The whole new content of the file."},
            }),
            &["path", "content"],
        ),
        Tool::EditFile => object(
            json!({
                "path": path("The file to edit, relative to the work dir."),
                "old_string": {"type": "string",
                               "description": "The exact text to replace, as it is in the file."},
                "new_string": {"type": "string", "description": "The text to put in its place."},
                "replace_all": {"type": "boolean",
                                "description": "Replace every occurrence instead of exactly one. Default false."},
            }),
            &["path", "old_string", "new_string"],
        ),
        Tool::Shell => object(
            json!({
                "command": {"type": "string", "description": "The shell command (run with `sh -c`)."},
                "timeout_ms": {"type": "integer", "minimum": 1,
                               "description": "Time limit in milliseconds (capped at the maximum)."},
            }),
            &["command"],
        ),
        Tool::Grep => object(
            json!({
                "pattern": {"type": "string", "description": "The regular expression to search for."},
                "path": path("The file or folder to search, relative to the work dir. Default: the whole work dir."),
                "glob": {"type": "string",
                         "description": "Only search files matching this glob, such as `*.rs` or `src/**/*.ts`."},
                "case_insensitive": {"type": "boolean", "description": "Ignore case. Default false."},
                "max_results": {"type": "integer", "minimum": 1,
                                "description": "The most matching lines to return. Default 100."},
            }),
            &["pattern"],
        ),
        Tool::Glob => object(
            json!({
                "pattern": {"type": "string", "description": "The glob pattern, such as `**/*.rs` or `src/*.toml`."},
                "path": path("The folder to search in, relative to the work dir. Default: the work dir."),
            }),
            &["pattern"],
        ),
    }
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}
