//! Whether WebKitGTK composites the page on the GPU. With no GPU (no DRM render node, as in
//! a virtual machine or under Xvfb) Mesa's software rasteriser (llvmpipe) does that work
//! instead: on such a machine it took the web process about four times the CPU to the first
//! drawn workflow and twice its memory (measured with scripts/bench-desktop.sh), and gains
//! nothing a plain software paint does not. There the app asks WebKit not to composite,
//! through WebKit's own switch, `WEBKIT_DISABLE_COMPOSITING_MODE`; a value already set by
//! the person starting the app (`0` keeps compositing) is left alone.
//!
//! The environment, not the view's setting (`set_hardware_acceleration_policy(Never)` through
//! Tauri's `with_webview`): the setting only saves memory when set before the view's first
//! load, and Tauri starts that load before `with_webview` runs. Set after the load had started,
//! a bare WebKitGTK window still took 231 MB instead of 178 MB (`--knobs late-no-compositing`
//! against `--knobs no-compositing` in scripts/bench-desktop-floor.sh, 2026-11).

use std::ffi::OsStr;
use std::path::Path;

/// WebKitGTK's switch: any value but `0` turns compositing off for the whole process.
pub const SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Where Linux lists DRM devices; a GPU that can render has a `renderD*` node there.
pub const DRM_DIR: &str = "/dev/dri";

/// Whether to turn compositing off: only when the switch is not set (`current` is its value)
/// and `render_nodes` (names in [`DRM_DIR`]) has no `renderD*` node.
pub fn should_disable<I, S>(current: Option<&OsStr>, render_nodes: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    current.is_none()
        && !render_nodes
            .into_iter()
            .any(|name| name.as_ref().to_string_lossy().starts_with("renderD"))
}

/// The names in `dir`; none when it cannot be read (it does not exist without a GPU).
pub fn device_names(dir: &Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|entry| entry.file_name()).collect())
        .unwrap_or_default()
}

/// Turns compositing off on a machine without a GPU, unless the switch is set; whether it did.
/// Call it first thing in `main`, before any thread starts: it changes the process's
/// environment, which WebKit reads when the first web view is made and hands to its own
/// processes.
#[cfg(target_os = "linux")]
pub fn choose_for_this_machine() -> bool {
    let current = std::env::var_os(SWITCH);
    // g_setenv fails only for a name with `=` in it.
    should_disable(current.as_deref(), device_names(Path::new(DRM_DIR)))
        && glib::setenv(SWITCH, "1", false).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_only_without_a_render_node_and_without_the_switch_set() {
        let none: [&str; 0] = [];
        assert!(should_disable(None, none));
        assert!(should_disable(None, ["card0", "by-path"]));
        assert!(!should_disable(None, ["card0", "renderD128"]));
        assert!(!should_disable(Some(OsStr::new("0")), none));
        assert!(!should_disable(Some(OsStr::new("1")), none));
    }

    #[test]
    fn a_missing_device_folder_has_no_devices() {
        let dir = std::env::temp_dir().join("heddle-no-such-dri-folder");
        assert!(device_names(&dir).is_empty());
    }
}
