//! The checks of the machine: git on `PATH`, the UI `heddle serve` would show, WebKitGTK for
//! the desktop app, and whether Heddle's home folder can be written.

use std::path::{Path, PathBuf};

use super::{Check, UiPresence};

/// The shared library the desktop app's window (Tauri 2 on Linux) needs.
const WEBKITGTK: &str = "libwebkit2gtk-4.1.so";

/// `git` on the `PATH` in `vars`, and its version.
pub fn git(vars: &[(String, String)]) -> Check {
    let path = vars
        .iter()
        .find(|(k, _)| k == "PATH")
        .map_or("", |(_, v)| v.as_str());
    let found = std::env::split_paths(path)
        .map(|dir| dir.join("git"))
        .find(|candidate| is_executable(candidate));
    let Some(git) = found else {
        return Check::warn(
            "git",
            "git is not on PATH",
            "install git (`sudo apt install git`): checkpoints work without it (Heddle has git \
             built in), but you look at them with plain git, and workflows' commands and agents \
             usually need it",
        );
    };
    match std::process::Command::new(&git).arg("--version").output() {
        Ok(out) if out.status.success() => Check::ok(
            "git",
            format!(
                "{} ({})",
                String::from_utf8_lossy(&out.stdout).trim(),
                git.display()
            ),
        ),
        Ok(out) => Check::fail(
            "git",
            format!(
                "{} --version failed: {}",
                git.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            "reinstall git (`sudo apt install --reinstall git`)",
        ),
        Err(e) => Check::fail(
            "git",
            format!("cannot run {}: {e}", git.display()),
            "reinstall git (`sudo apt install --reinstall git`)",
        ),
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The UI `heddle serve` would show.
pub fn ui(presence: &UiPresence) -> Check {
    match presence {
        UiPresence::Embedded => Check::ok("ui", "built into this heddle"),
        UiPresence::Folder { dir, from } if dir.join("index.html").is_file() => {
            Check::ok("ui", format!("{} (from {from})", dir.display()))
        }
        UiPresence::Folder { dir, from } => Check::fail(
            "ui",
            format!("{from} names {}, which has no index.html", dir.display()),
            format!(
                "point {from} at a built UI (`npm --prefix ui run build` writes ui/dist), or \
                 unset it to use the UI built into heddle"
            ),
        ),
        UiPresence::NotBuilt => Check::fail(
            "ui",
            "this heddle was built without its UI: `heddle serve` shows only a page saying so",
            "in a Heddle checkout, `npm --prefix ui ci && npm --prefix ui run build`, then build \
             heddle again (`cargo build -p heddle-cli`); or serve a built UI with \
             `heddle serve --ui-dir ui/dist`",
        ),
    }
}

/// WebKitGTK among the folders the dynamic loader searches.
pub fn webkitgtk(library_dirs: &[PathBuf]) -> Check {
    if library_dirs.is_empty() {
        return Check::ok("webkitgtk", "not used by the desktop app on this system");
    }
    let found = library_dirs.iter().find_map(|dir| {
        let entries = std::fs::read_dir(dir).ok()?;
        entries
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_string_lossy().starts_with(WEBKITGTK))
            .map(|e| e.path())
    });
    match found {
        Some(library) => Check::ok("webkitgtk", library.display().to_string()),
        None => Check::warn(
            "webkitgtk",
            format!(
                "{WEBKITGTK} not found: the desktop app (heddle-desktop) cannot open its window"
            ),
            "to use the desktop app, `sudo apt install libwebkit2gtk-4.1-0`; the `heddle` \
             command and `heddle serve` work without it (fine on a server)",
        ),
    }
}

/// Whether Heddle can write in its home folder (or create it, when it does not exist yet).
pub fn home_writable(root: &Path) -> Check {
    let fix = "make it writable by you, or set HEDDLE_HOME to a folder you can write";
    if root.exists() && !root.is_dir() {
        return Check::fail(
            "home",
            format!("{} is not a folder", root.display()),
            "set HEDDLE_HOME to a folder (or move the file aside)",
        );
    }
    if root.is_dir() {
        return match probe(root) {
            Ok(()) => Check::ok("home", format!("{} is writable", root.display())),
            Err(e) => Check::fail(
                "home",
                format!("cannot write in {}: {e}", root.display()),
                fix,
            ),
        };
    }
    let Some(existing) = root.ancestors().skip(1).find(|a| a.exists()) else {
        return Check::fail("home", format!("{} cannot be created", root.display()), fix);
    };
    if !existing.is_dir() {
        return Check::fail(
            "home",
            format!(
                "{} cannot be created: {} is not a folder",
                root.display(),
                existing.display()
            ),
            "set HEDDLE_HOME to a folder you can write",
        );
    }
    match probe(existing) {
        Ok(()) => Check::ok(
            "home",
            format!(
                "{} does not exist yet; the first run creates it",
                root.display()
            ),
        ),
        Err(e) => Check::fail(
            "home",
            format!(
                "{} cannot be created: cannot write in {}: {e}",
                root.display(),
                existing.display()
            ),
            fix,
        ),
    }
}

/// Creates and removes a file in `dir`.
fn probe(dir: &Path) -> std::io::Result<()> {
    let file = dir.join(format!(".heddle-doctor-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)?;
    std::fs::remove_file(&file)
}
