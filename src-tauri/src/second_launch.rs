//! A second `heddle-desktop` while one runs: the single-instance plugin stops the new
//! process and hands its command line and working folder to the running one, where
//! [`decide`] reads them the way the first launch's are read ([`crate::launch::parse_args`])
//! and [`handle`] brings the window forward and asks the UI to open the workflow.

use std::ffi::OsString;
use std::path::Path;

use tauri::{Emitter, Manager};

use crate::launch::{Invocation, PathKind, parse_args};

/// The event the window receives with the path of a workflow to open (a string).
pub const OPEN_WORKFLOW_EVENT: &str = "open-workflow";

/// What a second launch asks of the running window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecondLaunch {
    /// Come to the front; nothing to open (no path, a folder, `--help`, or a command line
    /// that cannot be read, which the second process never got to report).
    Focus,
    /// Come to the front and open this workflow (an absolute path; a missing file is passed
    /// on so the window says it is missing).
    Open(String),
}

/// Reads a second launch: `argv` is its whole command line (program name first) and `cwd`
/// its working folder, against which a relative path is resolved. `kind_of` tells what a
/// path names ([`PathKind::probe`] in the app).
pub fn decide(argv: &[String], cwd: &Path, kind_of: impl Fn(&Path) -> PathKind) -> SecondLaunch {
    let args = argv.iter().skip(1).map(OsString::from);
    match parse_args(args, cwd, kind_of) {
        Ok(Invocation::Launch(info)) => info
            .initial_file
            .map_or(SecondLaunch::Focus, SecondLaunch::Open),
        Ok(Invocation::Help) | Err(_) => SecondLaunch::Focus,
    }
}

/// The single-instance plugin's callback: brings the main window forward (shown,
/// unminimized, focused) and, when the second launch named a workflow, sends its path to the
/// window as [`OPEN_WORKFLOW_EVENT`].
pub fn handle<R: tauri::Runtime>(app: &tauri::AppHandle<R>, argv: Vec<String>, cwd: String) {
    let decision = decide(&argv, Path::new(&cwd), PathKind::probe);
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    // Each is best effort: a window manager may refuse focus, the file still opens.
    let _ = window.unminimize();
    let _ = window.show();
    let _ = window.set_focus();
    if let SecondLaunch::Open(path) = decision {
        let _ = window.emit_to("main", OPEN_WORKFLOW_EVENT, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake disk: `/home/a/flows` is a folder holding `*.dot` and `*.fabro` files.
    fn disk(path: &Path) -> PathKind {
        if path == Path::new("/home/a/flows") {
            PathKind::Dir
        } else if path.parent() == Some(Path::new("/home/a/flows")) {
            PathKind::File
        } else {
            PathKind::Missing
        }
    }

    fn second(argv: &[&str], cwd: &str) -> SecondLaunch {
        let argv: Vec<String> = argv.iter().map(|a| (*a).to_owned()).collect();
        decide(&argv, Path::new(cwd), disk)
    }

    fn open(path: &str) -> SecondLaunch {
        SecondLaunch::Open(path.to_owned())
    }

    #[test]
    fn a_relative_file_is_resolved_against_the_second_process_folder() {
        assert_eq!(
            second(&["heddle-desktop", "review.dot"], "/home/a/flows"),
            open("/home/a/flows/review.dot")
        );
        assert_eq!(
            second(&["heddle-desktop", "flows/plan.fabro"], "/home/a"),
            open("/home/a/flows/plan.fabro")
        );
    }

    #[test]
    fn an_absolute_file_is_opened_wherever_the_second_process_ran() {
        assert_eq!(
            second(&["/usr/bin/heddle-desktop", "/home/a/flows/x.dot"], "/"),
            open("/home/a/flows/x.dot")
        );
    }

    #[test]
    fn a_missing_file_is_still_opened_so_the_window_reports_it() {
        assert_eq!(
            second(&["heddle-desktop", "gone.dot"], "/tmp"),
            open("/tmp/gone.dot")
        );
    }

    #[test]
    fn no_path_a_folder_help_or_a_bad_command_line_only_focus() {
        for argv in [
            &["heddle-desktop"][..],
            &["heddle-desktop", "flows"],
            &["heddle-desktop", "--help"],
            &["heddle-desktop", "--verbose"],
            &["heddle-desktop", "a.dot", "b.dot"],
            &[],
        ] {
            assert_eq!(second(argv, "/home/a"), SecondLaunch::Focus, "{argv:?}");
        }
    }

    #[test]
    fn the_program_name_is_never_taken_for_a_workflow() {
        assert_eq!(
            second(&["/home/a/flows/heddle-desktop"], "/home/a/flows"),
            SecondLaunch::Focus
        );
    }
}
