//! The checks of Heddle's own data and configuration: model providers (`heddle.toml` and
//! the environment), the run index (`heddle.db`) and the shadow repositories with the
//! checkpoints runs keep in them.

use std::path::{Path, PathBuf};

use heddle_checkpoint::{GitState, Mode, integrity, shadow};
use heddle_engine::RunDir;
use heddle_llm::config::{CONFIG_FILE, LlmConfig};
use heddle_store::{IndexLocation, PageRequest, RunFilter, Store};

use super::{Check, DoctorSetup};
use crate::runs::HeddleHome;

/// How many problems a summary lists before "and N more".
const LISTED: usize = 5;

/// The values a report must never show: every configured provider's key, and every
/// variable whose name says it holds a secret.
pub fn secret_values(setup: &DoctorSetup) -> Vec<String> {
    let mut secrets: Vec<String> = setup
        .vars
        .iter()
        .filter(|(k, _)| {
            let k = k.to_ascii_uppercase();
            ["KEY", "TOKEN", "SECRET", "PASSWORD"]
                .iter()
                .any(|w| k.contains(w))
        })
        .map(|(_, v)| v.trim().to_owned())
        .collect();
    if let Ok(config) = LlmConfig::load(setup.home.root(), &setup.vars) {
        secrets.extend(
            config
                .providers
                .values()
                .filter_map(|p| p.endpoint.api_key.clone()),
        );
    }
    secrets
}

/// The model providers `heddle.toml` and the environment configure (names, never keys).
pub fn providers(setup: &DoctorSetup) -> Check {
    let config = match LlmConfig::load(setup.home.root(), &setup.vars) {
        Ok(config) => config,
        Err(e) => {
            return Check::fail(
                "providers",
                e.to_string(),
                "fix heddle.toml at the place named (its sections are described in docs/llm.md)",
            );
        }
    };
    if config.providers.is_empty() {
        return Check::warn(
            "providers",
            "no model provider is configured: LLM stages cannot run (--dry-run simulates them)",
            format!(
                "set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY, or \
                 OPENAI_COMPATIBLE_BASE_URL for a local server, or add a [providers.NAME] \
                 section to {} (docs/llm.md)",
                setup.home.root().join(CONFIG_FILE).display()
            ),
        );
    }
    let names: Vec<String> = config
        .providers
        .iter()
        .map(|(name, p)| match p.endpoint.api_key {
            Some(_) => format!("{name} (key set)"),
            None => format!("{name} ({})", p.endpoint.base_url),
        })
        .collect();
    let mut summary = names.join(", ");
    if let Some(source) = &config.source {
        summary.push_str(&format!("; read {}", source.display()));
    }
    if let Some(default) = &config.default_provider {
        if !config.providers.contains_key(default) {
            return Check::warn(
                "providers",
                format!("{summary}; but the default provider `{default}` is not configured"),
                "configure it (its key variable or a [providers] section), or change [defaults] \
                 provider in heddle.toml",
            );
        }
        summary.push_str(&format!("; default {default}"));
    }
    Check::ok("providers", summary)
}

/// The run index opens (migrated to this version's schema) and answers a query. A missing
/// index is fine: the first command that needs it creates it.
pub async fn index(home: &HeddleHome) -> Check {
    let location = match home.index() {
        Ok(location) => location,
        Err(e) => {
            return Check::fail(
                "index",
                e.to_string(),
                "fix HEDDLE_DATABASE_URL, or unset it to use $HEDDLE_HOME/heddle.db",
            );
        }
    };
    let name = location.describe();
    let rebuild = match &location {
        IndexLocation::File(path) => {
            if !path.exists() {
                return Check::ok(
                    "index",
                    format!("{name} does not exist yet; the first run creates it"),
                );
            }
            format!(
                "move it aside (`mv {0} {0}.broken`) and run `heddle reindex`, which rebuilds \
                 it from the run folders",
                path.display()
            )
        }
        IndexLocation::Postgres(_) => "check that the PostgreSQL server runs and the URL's \
             user may use the database (HEDDLE_DATABASE_URL); `heddle reindex` rebuilds what \
             this machine's run folders hold"
            .to_string(),
    };
    let store = match Store::open(&location, crate::run_readers()).await {
        Ok(store) => store,
        Err(e) => {
            let newer = e.to_string().contains("previously applied but is missing");
            let fix = if newer {
                format!("it was written by a newer Heddle: upgrade heddle, or {rebuild}")
            } else {
                rebuild
            };
            return Check::fail("index", e.to_string(), fix);
        }
    };
    let page = PageRequest {
        limit: 1,
        after: None,
    };
    match store.list_runs(&RunFilter::default(), &page).await {
        Ok(_) => Check::ok("index", format!("{name}: schema current")),
        Err(e) => Check::fail("index", e.to_string(), rebuild),
    }
}

/// What was found about shadow repositories.
#[derive(Default)]
struct ShadowFindings {
    repositories: usize,
    runs: usize,
    broken: Vec<String>,
    stale: Vec<String>,
}

/// Every shadow repository opens and belongs to its workspace, and every run checkpointed in
/// one has the commits and branches it names. Blocking (reads git objects).
pub fn shadow_repositories(home: &HeddleHome) -> Check {
    let mut found = ShadowFindings::default();
    for dir in subfolders(&home.root().join("shadow")) {
        check_repository(home, &dir, &mut found);
    }
    for run in subfolders(&home.runs()) {
        let run_dir = RunDir::at(&run);
        match GitState::load(&run_dir) {
            Ok(Some(state)) if state.mode == Mode::Shadow => {
                found.runs += 1;
                if let Err(e) = integrity::open_verified(&run_dir, &state) {
                    found.broken.push(format!("run {}: {e}", state.run_id));
                }
            }
            Ok(_) => {}
            Err(e) => found.broken.push(format!("{}: {e}", run.display())),
        }
    }
    let counts = format!(
        "shadow repositories: {}; runs checkpointed in them, verified: {}",
        found.repositories, found.runs
    );
    if !found.broken.is_empty() {
        return Check::fail(
            "shadow",
            format!("{counts}; damaged: {}", listed(&found.broken)),
            "move a damaged shadow repository aside (its runs lose their checkpoints, their \
             folders stay); `heddle inspect RUN` shows a run's state",
        );
    }
    if !found.stale.is_empty() {
        return Check::warn(
            "shadow",
            format!(
                "{counts}; for folders that no longer exist: {}",
                listed(&found.stale)
            ),
            "remove those repositories if you no longer need the checkpoints of runs there",
        );
    }
    Check::ok("shadow", counts)
}

fn check_repository(home: &HeddleHome, dir: &Path, found: &mut ShadowFindings) {
    found.repositories += 1;
    let name = dir.display();
    let Ok(recorded) = std::fs::read_to_string(dir.join("heddle-workspace")) else {
        found.broken.push(format!(
            "{name}: no heddle-workspace file (not made by Heddle?)"
        ));
        return;
    };
    let workspace = PathBuf::from(recorded.trim_end_matches('\n'));
    if shadow::shadow_dir(home.root(), &workspace) != dir {
        found.broken.push(format!(
            "{name}: belongs to {} but is not where its repository belongs",
            workspace.display()
        ));
        return;
    }
    if let Err(e) = shadow::check_opens(dir) {
        found.broken.push(format!("{name}: {e}"));
        return;
    }
    if !workspace.is_dir() {
        found
            .stale
            .push(format!("{name} ({} is gone)", workspace.display()));
    }
}

/// The folders in `dir` (none when it does not exist), without hidden ones (temporary
/// folders of a repository being created), sorted.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    folders.sort();
    folders
}

fn listed(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > LISTED {
        text.push_str(&format!("; and {} more", items.len() - LISTED));
    }
    text
}
