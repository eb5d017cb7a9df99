//! The command line: `heddle-desktop [PATH]`, turned into the [`LaunchInfo`] the UI asks for
//! at start-up. Parsing is pure: the file system is consulted only through the `kind_of`
//! probe the caller passes in ([`PathKind::probe`] in the real app).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use heddle_api::LaunchInfo;

/// One line of help, printed for `--help` and after a usage error.
pub const USAGE: &str =
    "usage: heddle-desktop [PATH]   (PATH: a workflow .dot file or a folder of them)";

/// What a path on the command line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    /// An existing file (normally a `.dot` workflow).
    File,
    /// An existing folder.
    Dir,
    /// Nothing, or nothing we may look at; the UI reports it when it tries to open it.
    Missing,
}

impl PathKind {
    /// Looks the path up on disk.
    pub fn probe(path: &Path) -> Self {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Self::Dir,
            Ok(_) => Self::File,
            Err(_) => Self::Missing,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation {
    /// Start the app showing this.
    Launch(LaunchInfo),
    /// Print [`USAGE`] and exit.
    Help,
}

/// A command line that cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    /// An option this program does not have.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    /// More than one path.
    #[error("expected at most one PATH, got another: `{0}`")]
    ExtraPath(String),
    /// A path that is not valid UTF-8 (the API carries paths as strings).
    #[error("path is not valid UTF-8: {0}")]
    NotUtf8(String),
}

/// Parses the arguments after the program name. Relative paths are resolved against `cwd`;
/// `kind_of` tells what an (absolute) path names.
///
/// A file becomes `initial_file` with its folder as `workspace_dir`, a folder becomes
/// `workspace_dir`, and a missing path is passed through as `initial_file` so the UI can say
/// it is missing.
pub fn parse_args(
    args: impl IntoIterator<Item = OsString>,
    cwd: &Path,
    kind_of: impl Fn(&Path) -> PathKind,
) -> Result<Invocation, ArgsError> {
    let mut path: Option<PathBuf> = None;
    let mut options_done = false;
    for arg in args {
        let text = arg.to_string_lossy();
        if !options_done && text.starts_with('-') && text.len() > 1 {
            match text.as_ref() {
                "-h" | "--help" => return Ok(Invocation::Help),
                "--" => options_done = true,
                other => return Err(ArgsError::UnknownOption(other.to_owned())),
            }
            continue;
        }
        if path.is_some() {
            return Err(ArgsError::ExtraPath(text.into_owned()));
        }
        path = Some(cwd.join(arg));
    }
    let Some(path) = path else {
        return Ok(Invocation::Launch(LaunchInfo::default()));
    };
    let shown = utf8(&path)?;
    let info = match kind_of(&path) {
        PathKind::Dir => LaunchInfo {
            initial_file: None,
            workspace_dir: Some(shown),
        },
        PathKind::File => LaunchInfo {
            initial_file: Some(shown),
            workspace_dir: path.parent().map(utf8).transpose()?,
        },
        PathKind::Missing => LaunchInfo {
            initial_file: Some(shown),
            workspace_dir: None,
        },
    };
    Ok(Invocation::Launch(info))
}

fn utf8(path: &Path) -> Result<String, ArgsError> {
    path.to_str()
        .map(str::to_owned)
        .ok_or_else(|| ArgsError::NotUtf8(path.to_string_lossy().into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    /// A fake disk: `/work/examples` is a folder, `*.dot` under it are files, nothing else exists.
    fn disk(path: &Path) -> PathKind {
        if path == Path::new("/work/examples") {
            PathKind::Dir
        } else if path.starts_with("/work/examples") && path.extension() == Some("dot".as_ref()) {
            PathKind::File
        } else {
            PathKind::Missing
        }
    }

    fn parse(list: &[&str]) -> Result<Invocation, ArgsError> {
        parse_args(args(list), Path::new("/work"), disk)
    }

    fn launch(initial_file: Option<&str>, workspace_dir: Option<&str>) -> Invocation {
        Invocation::Launch(LaunchInfo {
            initial_file: initial_file.map(str::to_owned),
            workspace_dir: workspace_dir.map(str::to_owned),
        })
    }

    #[test]
    fn no_path_launches_empty() {
        assert_eq!(parse(&[]), Ok(launch(None, None)));
    }

    #[test]
    fn relative_file_opens_it_in_its_folder() {
        assert_eq!(
            parse(&["examples/hello.dot"]),
            Ok(launch(
                Some("/work/examples/hello.dot"),
                Some("/work/examples")
            ))
        );
    }

    #[test]
    fn absolute_file_is_kept() {
        assert_eq!(
            parse(&["/work/examples/a.dot"]),
            Ok(launch(Some("/work/examples/a.dot"), Some("/work/examples")))
        );
    }

    #[test]
    fn folder_becomes_workspace() {
        assert_eq!(
            parse(&["examples"]),
            Ok(launch(None, Some("/work/examples")))
        );
    }

    #[test]
    fn missing_path_is_passed_through() {
        assert_eq!(
            parse(&["nope.dot"]),
            Ok(launch(Some("/work/nope.dot"), None))
        );
    }

    #[test]
    fn help_wins() {
        assert_eq!(parse(&["--help"]), Ok(Invocation::Help));
        assert_eq!(parse(&["x.dot", "-h"]), Ok(Invocation::Help));
    }

    #[test]
    fn double_dash_allows_dash_paths() {
        assert_eq!(
            parse(&["--", "-odd.dot"]),
            Ok(launch(Some("/work/-odd.dot"), None))
        );
    }

    #[test]
    fn lone_dash_is_a_path() {
        assert_eq!(parse(&["-"]), Ok(launch(Some("/work/-"), None)));
    }

    #[test]
    fn unknown_option_is_an_error() {
        assert_eq!(
            parse(&["--verbose"]),
            Err(ArgsError::UnknownOption("--verbose".to_owned()))
        );
    }

    #[test]
    fn second_path_is_an_error() {
        assert_eq!(
            parse(&["a.dot", "b.dot"]),
            Err(ArgsError::ExtraPath("b.dot".to_owned()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_path_is_an_error() {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(vec![b'x', 0xff, b'.', b'd', b'o', b't']);
        let got = parse_args(vec![bad], Path::new("/work"), disk);
        assert!(matches!(got, Err(ArgsError::NotUtf8(_))), "{got:?}");
    }

    #[test]
    fn probe_sees_real_files_and_folders() {
        let dir = std::env::temp_dir();
        assert_eq!(PathKind::probe(&dir), PathKind::Dir);
        assert_eq!(
            PathKind::probe(&dir.join("heddle-desktop-no-such-file.dot")),
            PathKind::Missing
        );
        let exe = std::env::current_exe().ok();
        assert_eq!(exe.as_deref().map(PathKind::probe), Some(PathKind::File));
    }
}
