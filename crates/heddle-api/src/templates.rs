//! New workflows from templates: the bundled examples (and a blank one), each with the
//! files it refers to (`@prompts/plan.md`), written next to the new workflow without ever
//! overwriting a file that is already there.

use std::path::{Path, PathBuf};

use heddle_engine::atomic_file::{create_dirs_within, replace_file};
use heddle_workflow::{MemoryFiles, is_workflow_path, load_source, workflow_extensions_text};

use crate::editor_types::{CreateWorkflowRequest, WorkflowTemplate};
use crate::error::{ApiError, ErrorCode};
use crate::types::OpenedWorkflow;
use crate::workflows::{absolute, open_workflow};

/// A bundled template: its name, its DOT text and the other files it brings.
struct Bundled {
    name: &'static str,
    dot: &'static str,
    extra: &'static [(&'static str, &'static str)],
}

const BLANK: &str = "// A new workflow: add stages between start and exit.\n\
digraph Workflow {\n    graph [goal=\"Describe what this workflow achieves\"];\n    \
rankdir=\"LR\";\n\n    start [shape=\"Mdiamond\", label=\"Start\"];\n    \
exit  [shape=\"Msquare\", label=\"Done\"];\n\n    start -> exit;\n}\n";

const TEMPLATES: &[Bundled] = &[
    Bundled {
        name: "blank",
        dot: BLANK,
        extra: &[],
    },
    Bundled {
        name: "hello",
        dot: include_str!("../../../examples/hello.dot"),
        extra: &[],
    },
    Bundled {
        name: "plan-implement-test",
        dot: include_str!("../../../examples/plan-implement-test.dot"),
        extra: &[
            (
                "prompts/plan.md",
                include_str!("../../../examples/prompts/plan.md"),
            ),
            (
                "prompts/implement.md",
                include_str!("../../../examples/prompts/implement.md"),
            ),
            (
                "prompts/fix.md",
                include_str!("../../../examples/prompts/fix.md"),
            ),
        ],
    },
    Bundled {
        name: "review-gate",
        dot: include_str!("../../../examples/review-gate.dot"),
        extra: &[],
    },
    Bundled {
        name: "parallel-review",
        dot: include_str!("../../../examples/parallel-review.dot"),
        extra: &[(
            "schemas/verdict.schema.json",
            include_str!("../../../examples/schemas/verdict.schema.json"),
        )],
    },
    Bundled {
        name: "triage-router",
        dot: include_str!("../../../examples/triage-router.dot"),
        extra: &[],
    },
];

/// The templates a new workflow can start from, blank first.
pub fn list_templates() -> Vec<WorkflowTemplate> {
    TEMPLATES.iter().map(describe).collect()
}

fn describe(template: &Bundled) -> WorkflowTemplate {
    let files = template
        .extra
        .iter()
        .fold(MemoryFiles::new(), |files, (path, text)| {
            files.with(Path::new("/template").join(path), *text)
        });
    let loaded = load_source(template.dot, Path::new("/template/workflow.dot"), &files);
    let (summary, node_count) = loaded.workflow.as_ref().map_or_else(
        || (template.name.to_owned(), 0),
        |w| {
            let goal = w.goal.clone().filter(|g| !g.trim().is_empty());
            (goal.unwrap_or_else(|| w.name.clone()), w.nodes.len())
        },
    );
    WorkflowTemplate {
        name: template.name.to_owned(),
        summary,
        node_count,
        extra_files: template
            .extra
            .iter()
            .map(|(p, _)| (*p).to_owned())
            .collect(),
    }
}

/// Writes the template's workflow to `req.path` (which must not exist) and the files it
/// refers to beside it, then opens it. A referenced file already there with the same text
/// is left alone; with other text nothing at all is written.
pub fn create_workflow(req: &CreateWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    let path = absolute(Path::new(&req.path))?;
    let Some(template) = TEMPLATES.iter().find(|t| t.name == req.template) else {
        let known: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!(
                "no template named `{}`; the templates are {}",
                req.template,
                known.join(", ")
            ),
        ));
    };
    if !is_workflow_path(&path) {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{}: a workflow file name ends in {}",
                path.display(),
                workflow_extensions_text()
            ),
        ));
    }
    if path.exists() {
        return Err(ApiError::new(
            ErrorCode::AlreadyExists,
            format!(
                "{}: already exists; choose another name (nothing was written)",
                path.display()
            ),
        ));
    }
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let extra = extra_files_to_write(&dir, template)?;
    std::fs::create_dir_all(&dir).map_err(|e| ApiError::from_io(&dir, &e))?;
    for (file, text) in extra {
        // The template's own folders, never a link a repository planted in their place.
        let relative = file.strip_prefix(&dir).unwrap_or(&file);
        if let Some(parent) = relative.parent() {
            create_dirs_within(&dir, parent).map_err(|e| ApiError::from_io(&file, &e))?;
        }
        replace_file(&file, text.as_bytes(), true).map_err(|e| ApiError::from_io(&file, &e))?;
    }
    write_new(&path, template.dot)?;
    open_workflow(&crate::types::OpenWorkflowRequest {
        path: path.display().to_string(),
    })
}

/// The referenced files that still need writing; an error when one is there with other text.
fn extra_files_to_write(
    dir: &Path,
    template: &Bundled,
) -> Result<Vec<(PathBuf, &'static str)>, ApiError> {
    let mut missing = Vec::new();
    let mut clashes = Vec::new();
    for (relative, text) in template.extra {
        let file = dir.join(relative);
        match std::fs::read(&file) {
            Ok(existing) if existing == text.as_bytes() => {}
            Ok(_) => clashes.push(file.display().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing.push((file, *text)),
            Err(e) => return Err(ApiError::from_io(&file, &e)),
        }
    }
    if clashes.is_empty() {
        Ok(missing)
    } else {
        Err(ApiError::new(
            ErrorCode::AlreadyExists,
            format!(
                "the template `{}` needs files that already exist with other content: {}; \
                 create the workflow in another folder (nothing was written)",
                template.name,
                clashes.join(", ")
            ),
        ))
    }
}

/// Creates `path` with `text`, failing if something appeared there meanwhile.
fn write_new(path: &Path, text: &str) -> Result<(), ApiError> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => ApiError::new(
                ErrorCode::AlreadyExists,
                format!("{}: already exists; choose another name", path.display()),
            ),
            _ => ApiError::from_io(path, &e),
        })?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| ApiError::from_io(path, &e))
}
