//! A run config file beside a workflow, as Fabro documents it (`workflow.toml` or
//! `run.toml`): `[workflow] graph`, `[run] goal` and `[run.inputs]`, and Heddle's own
//! `[run] max_cost_usd` / `max_tokens` (the run's budget). Keys Heddle does not use
//! are listed as warnings, never refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::FileSource;

/// The names a run config beside a workflow may have, in the order they are looked for.
pub const RUN_CONFIG_NAMES: &[&str] = &["workflow.toml", "run.toml"];

/// The graph a run config runs when it names none (Fabro's default).
pub const DEFAULT_GRAPH: &str = "workflow.fabro";

/// What a run config says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunConfig {
    /// Path of the config file read, as given to [`parse_run_config`].
    pub path: PathBuf,
    /// `[workflow] graph`, resolved against the config's folder.
    pub graph: PathBuf,
    /// `[run] goal`; `None` when the file sets none.
    pub goal: Option<String>,
    /// `[run.inputs]`, each value as text.
    pub inputs: BTreeMap<String, String>,
    /// `[run] max_cost_usd` (a Heddle extension): the run's budget in US dollars.
    pub max_cost_usd: Option<f64>,
    /// `[run] max_tokens` (a Heddle extension): the run's budget in tokens.
    pub max_tokens: Option<u64>,
    /// Keys Heddle ignores, one message each.
    pub warnings: Vec<String>,
}

/// A run config that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct RunConfigError {
    /// Path of the config file, as displayed in the message.
    pub path: String,
    /// What is wrong (TOML errors carry line and column).
    pub message: String,
}

/// Reads the run config `text` of the file at `path`.
pub fn parse_run_config(path: &Path, text: &str) -> Result<RunConfig, RunConfigError> {
    let error = |message: String| RunConfigError {
        path: path.display().to_string(),
        message,
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| error(e.to_string()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut config = RunConfig {
        path: path.to_path_buf(),
        graph: dir.join(DEFAULT_GRAPH),
        ..RunConfig::default()
    };
    let ignored = |key: &str| format!("{}: Heddle ignores `{key}`", path.display());
    for (key, value) in &table {
        match (key.as_str(), value) {
            ("_version" | "version", _) => {}
            ("workflow", toml::Value::Table(workflow)) => {
                for (k, v) in workflow {
                    match (k.as_str(), v) {
                        ("graph", toml::Value::String(graph)) => config.graph = dir.join(graph),
                        ("graph", _) => {
                            return Err(error("`workflow.graph` is not a string".into()));
                        }
                        _ => config.warnings.push(ignored(&format!("workflow.{k}"))),
                    }
                }
            }
            ("run", toml::Value::Table(run)) => {
                for (k, v) in run {
                    match (k.as_str(), v) {
                        ("goal", toml::Value::String(goal)) => config.goal = Some(goal.clone()),
                        ("goal", _) => return Err(error("`run.goal` is not a string".into())),
                        ("max_cost_usd", toml::Value::Float(n)) if *n >= 0.0 => {
                            config.max_cost_usd = Some(*n);
                        }
                        ("max_cost_usd", toml::Value::Integer(n)) if *n >= 0 => {
                            config.max_cost_usd = Some(*n as f64);
                        }
                        ("max_cost_usd", _) => {
                            return Err(error(
                                "`run.max_cost_usd` is not a number of dollars ≥ 0".into(),
                            ));
                        }
                        ("max_tokens", toml::Value::Integer(n)) if *n >= 0 => {
                            config.max_tokens = u64::try_from(*n).ok();
                        }
                        ("max_tokens", _) => {
                            return Err(error("`run.max_tokens` is not a whole number ≥ 0".into()));
                        }
                        ("inputs", toml::Value::Table(inputs)) => {
                            for (name, value) in inputs {
                                let text = match value {
                                    toml::Value::String(s) => s.clone(),
                                    toml::Value::Integer(n) => n.to_string(),
                                    toml::Value::Float(n) => n.to_string(),
                                    toml::Value::Boolean(b) => b.to_string(),
                                    other => serde_json::to_string(other).unwrap_or_default(),
                                };
                                config.inputs.insert(name.clone(), text);
                            }
                        }
                        ("inputs", _) => {
                            return Err(error("`run.inputs` is not a table".into()));
                        }
                        _ => config.warnings.push(ignored(&format!("run.{k}"))),
                    }
                }
            }
            _ => config.warnings.push(ignored(key)),
        }
    }
    Ok(config)
}

/// The run config beside `workflow` whose graph is that workflow (`workflow.toml`, then
/// `run.toml`), if there is one.
pub fn find_run_config(
    workflow: &Path,
    files: &dyn FileSource,
) -> Option<Result<RunConfig, RunConfigError>> {
    let dir = workflow.parent()?;
    let same = |a: &Path, b: &Path| {
        a == b
            || files
                .real_path(a)
                .is_some_and(|r| Some(r) == files.real_path(b))
    };
    RUN_CONFIG_NAMES.iter().find_map(|name| {
        let path = dir.join(name);
        if !files.exists(&path) {
            return None;
        }
        let text = match files.read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                return Some(Err(RunConfigError {
                    path: path.display().to_string(),
                    message: e.to_string(),
                }));
            }
        };
        match parse_run_config(&path, &text) {
            Ok(config) if same(&config.graph, workflow) => Some(Ok(config)),
            Ok(_) => None,
            Err(error) => Some(Err(error)),
        }
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::MemoryFiles;

    #[test]
    fn reads_graph_goal_and_inputs_and_warns_on_the_rest() {
        let text = r#"
_version = 1
[workflow]
graph = "ci.dot"
[run]
goal = "Ship"
working_dir = "/tmp"
[run.inputs]
repo = "heddle"
retries = 3
[run.model]
name = "opus"
"#;
        let config = parse_run_config(Path::new("flows/run.toml"), text).unwrap();
        assert_eq!(config.graph, Path::new("flows/ci.dot"));
        assert_eq!(config.goal.as_deref(), Some("Ship"));
        assert_eq!(config.inputs["repo"], "heddle");
        assert_eq!(config.inputs["retries"], "3");
        assert_eq!(
            config.warnings,
            [
                "flows/run.toml: Heddle ignores `run.model`",
                "flows/run.toml: Heddle ignores `run.working_dir`"
            ]
        );
    }

    #[test]
    fn reads_the_budget_and_refuses_a_negative_one() {
        let text = "[run]\nmax_cost_usd = 2.5\nmax_tokens = 100000\n";
        let config = parse_run_config(Path::new("run.toml"), text).unwrap();
        assert_eq!(config.max_cost_usd, Some(2.5));
        assert_eq!(config.max_tokens, Some(100_000));
        assert!(config.warnings.is_empty(), "{:?}", config.warnings);
        let whole = parse_run_config(Path::new("run.toml"), "[run]\nmax_cost_usd = 3\n").unwrap();
        assert_eq!(whole.max_cost_usd, Some(3.0));
        let error = parse_run_config(Path::new("run.toml"), "[run]\nmax_tokens = -1\n");
        assert!(error.unwrap_err().message.contains("max_tokens"));
    }

    #[test]
    fn a_bad_file_names_line_and_column() {
        let error = parse_run_config(Path::new("run.toml"), "[run\ngoal=1").unwrap_err();
        assert!(error.message.contains("line 1"), "{error}");
    }

    #[test]
    fn finds_the_config_of_its_own_graph_only() {
        let files = MemoryFiles::new()
            .with("f/workflow.fabro", "digraph {}")
            .with("f/other.dot", "digraph {}")
            .with("f/workflow.toml", "[run.inputs]\na = \"1\"\n");
        let found = find_run_config(Path::new("f/workflow.fabro"), &files);
        assert_eq!(found.unwrap().unwrap().inputs["a"], "1");
        assert!(find_run_config(Path::new("f/other.dot"), &files).is_none());
    }
}
