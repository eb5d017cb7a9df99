//! Which file names hold a workflow: Graphviz `.dot` files and Fabro's `.fabro` files, which
//! are the same dialect under another name. Every door (the workspace list, New, Open's file
//! picker, the CLI) reads this one list; the UI gets it through a generated binding.

use std::path::Path;

/// File extensions (without the dot) of workflow files; the first is what a new workflow gets
/// when its name has none.
pub const WORKFLOW_EXTENSIONS: &[&str] = &["dot", "fabro"];

/// Folders that hold workflows although their names start with a dot: Fabro keeps a
/// repository's workflows in `.fabro/workflows/{name}/workflow.fabro`.
pub const WORKFLOW_DOT_FOLDERS: &[&str] = &[".fabro"];

/// Whether `path` names a workflow file by its extension (any case: `Flow.DOT` counts).
pub fn is_workflow_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|ext| {
            WORKFLOW_EXTENSIONS
                .iter()
                .any(|known| known.eq_ignore_ascii_case(ext))
        })
}

/// The extensions as the user reads them in a message: `.dot or .fabro`.
pub fn workflow_extensions_text() -> String {
    let dotted: Vec<String> = WORKFLOW_EXTENSIONS
        .iter()
        .map(|e| format!(".{e}"))
        .collect();
    match dotted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_and_fabro_files_are_workflows_in_any_case() {
        for name in ["a.dot", "flows/b.fabro", "C.DOT", "workflow.Fabro"] {
            assert!(is_workflow_path(Path::new(name)), "{name}");
        }
        for name in ["a.gv.txt", "b.toml", "dot", "fabro", ".dot.bak", "x.dotx"] {
            assert!(!is_workflow_path(Path::new(name)), "{name}");
        }
    }

    #[test]
    fn the_message_lists_every_extension() {
        assert_eq!(workflow_extensions_text(), ".dot or .fabro");
    }
}
