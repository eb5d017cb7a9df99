//! The goal and inputs a run starts with: a run config (`heddle run run.toml`, or the
//! `workflow.toml` / `run.toml` beside the workflow that names it), overridden key by key by
//! what the caller gives (`-V KEY=VALUE`, `--goal`, the Start-run form).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use heddle_engine::Budget;
use heddle_workflow::{OsFiles, find_run_config, parse_run_config};

/// What a run starts from once its run config is read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResolvedRun {
    /// The workflow file (the config's `[workflow] graph` when a config was given).
    pub workflow_path: PathBuf,
    /// The goal given (caller, else the config); `None` leaves the graph's own goal.
    pub goal: Option<String>,
    /// The config's `[run.inputs]` with the caller's values over them.
    pub inputs: BTreeMap<String, String>,
    /// The config file used, if any.
    pub config: Option<PathBuf>,
    /// Keys of the config Heddle ignores.
    pub warnings: Vec<String>,
    /// The config's `[run] max_cost_usd` / `max_tokens` (callers lay their own over it).
    pub budget: Budget,
}

/// Whether `path` is a run config rather than a workflow.
pub fn is_run_config(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
}

/// Parses `KEY=VALUE` pairs (`-V`/`--input`); a later key wins.
pub fn parse_inputs(pairs: &[String]) -> Result<BTreeMap<String, String>, String> {
    pairs
        .iter()
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) if is_input_name(k.trim()) => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(format!(
                "input `{pair}`: expected NAME=VALUE with NAME made of letters, digits and `_`"
            )),
        })
        .collect()
}

/// An input name: what `{{ inputs.NAME }}` can refer to.
pub fn is_input_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Reads the run config for `target` (the config itself, or the one beside the workflow)
/// and lays `goal` and `inputs` over it.
pub fn resolve_run(
    target: &Path,
    goal: Option<String>,
    inputs: BTreeMap<String, String>,
) -> Result<ResolvedRun, String> {
    let config = if is_run_config(target) {
        let text =
            std::fs::read_to_string(target).map_err(|e| format!("{}: {e}", target.display()))?;
        Some(parse_run_config(target, &text).map_err(|e| e.to_string())?)
    } else {
        find_run_config(target, &OsFiles)
            .transpose()
            .map_err(|e| e.to_string())?
    };
    let Some(config) = config else {
        return Ok(ResolvedRun {
            workflow_path: target.to_path_buf(),
            goal,
            inputs,
            ..ResolvedRun::default()
        });
    };
    let mut merged = config.inputs;
    merged.extend(inputs);
    Ok(ResolvedRun {
        workflow_path: if is_run_config(target) {
            config.graph
        } else {
            target.to_path_buf()
        },
        goal: goal.or(config.goal),
        inputs: merged,
        config: Some(config.path),
        warnings: config.warnings,
        budget: Budget {
            max_cost_usd: config.max_cost_usd,
            max_tokens: config.max_tokens,
        },
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_the_config_beside_the_workflow_key_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let flow = dir.path().join("ci.dot");
        std::fs::write(&flow, "digraph {}").unwrap();
        std::fs::write(
            dir.path().join("run.toml"),
            "[workflow]\ngraph = \"ci.dot\"\n[run]\ngoal = \"from file\"\n[run.inputs]\na = \"1\"\nb = \"2\"\n",
        )
        .unwrap();
        let given = parse_inputs(&["b=3".into()]).unwrap();
        let resolved = resolve_run(&flow, None, given).unwrap();
        assert_eq!(resolved.goal.as_deref(), Some("from file"));
        assert_eq!(resolved.inputs["a"], "1");
        assert_eq!(resolved.inputs["b"], "3");
        let by_config = resolve_run(
            &dir.path().join("run.toml"),
            Some("cli".into()),
            BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(by_config.workflow_path, flow);
        assert_eq!(by_config.goal.as_deref(), Some("cli"));
    }

    #[test]
    fn input_pairs_need_a_name() {
        assert!(parse_inputs(&["=x".into()]).is_err());
        assert!(parse_inputs(&["a-b=x".into()]).is_err());
        assert_eq!(parse_inputs(&["k=a=b".into()]).unwrap()["k"], "a=b");
    }
}
