//! The main window, built from `tauri.conf.json` (where it has `"create": false`) with two
//! guards the config cannot express:
//! - it never navigates away to the web: a link in a rendered response would otherwise
//!   replace the whole UI, and with it unsaved edits. The webview asks the same question for
//!   frames, so a run's files (the report frame) stay loadable;
//! - a run's page asked for in a new window (a Playwright report's "Open in a new tab") opens
//!   in a window of its own; nothing else opens one.

use std::sync::atomic::{AtomicU32, Ordering};

use tauri::webview::{NewWindowFeatures, NewWindowResponse};
use tauri::{Url, WebviewUrl, WebviewWindow, WebviewWindowBuilder};

use crate::run_file_protocol::SCHEME;

/// Whether the main window, or a frame in it, may load `url`: the app's own pages
/// (`tauri://localhost`, `http(s)://tauri.localhost` where the webview serves them over
/// http, or the dev server `dev_url` in a development build), a run's files (the report
/// frame) and `about:` pages.
pub fn may_load(url: &Url, dev_url: Option<&Url>) -> bool {
    match url.scheme() {
        "tauri" => url.host_str() == Some("localhost"),
        "about" => true,
        "http" | "https" if url.host_str() == Some("tauri.localhost") => true,
        _ => is_run_file(url) || dev_url.is_some_and(|dev| dev.origin() == url.origin()),
    }
}

/// Whether `url` is a run's file (`heddle-run://localhost/…`, or
/// `http://heddle-run.localhost/…` on Windows); only those open in a window of their own.
pub fn is_run_file(url: &Url) -> bool {
    (url.scheme() == SCHEME && url.host_str() == Some("localhost"))
        || (url.scheme() == "http" && url.host_str() == Some("heddle-run.localhost"))
}

/// Builds the main window (the first window of the config) with its guards.
pub fn build<R: tauri::Runtime>(app: &tauri::App<R>) -> tauri::Result<()> {
    let Some(config) = app.config().app.windows.first() else {
        return Err(tauri::Error::WindowNotFound);
    };
    let dev_url = app.config().build.dev_url.clone();
    let handle = app.handle().clone();
    let opened = AtomicU32::new(0);
    WebviewWindowBuilder::from_config(app.handle(), config)?
        .on_navigation(move |url| may_load(url, dev_url.as_ref()))
        .on_new_window(move |url, features| {
            if !is_run_file(&url) {
                return NewWindowResponse::Deny;
            }
            let n = opened.fetch_add(1, Ordering::Relaxed) + 1;
            match page_window(&handle, n, features) {
                Ok(window) => NewWindowResponse::Create { window },
                Err(_) => NewWindowResponse::Deny,
            }
        })
        .build()?;
    Ok(())
}

/// A window of its own for a run's page (its `n`th): the size of a page, titled by it, and
/// kept to run files like the main window.
fn page_window<R: tauri::Runtime>(
    app: &tauri::AppHandle<R>,
    n: u32,
    features: NewWindowFeatures,
) -> tauri::Result<WebviewWindow<R>> {
    // It starts blank; the webview then loads the page into it.
    let blank = Url::parse("about:blank").map_err(tauri::Error::InvalidUrl)?;
    WebviewWindowBuilder::new(app, format!("run-page-{n}"), WebviewUrl::External(blank))
        .window_features(features)
        .title("Heddle: run page")
        .inner_size(1100.0, 800.0)
        .on_navigation(|url| is_run_file(url) || url.scheme() == "about")
        .on_document_title_changed(|window, title| {
            // Best effort: the page still shows under the old title.
            let _ = window.set_title(&format!("Heddle: {title}"));
        })
        .build()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn the_main_window_keeps_to_the_app_and_run_files() {
        let dev = url("http://localhost:5173");
        for own in [
            "tauri://localhost/",
            "tauri://localhost/index.html?run=01R",
            "http://tauri.localhost/",
            "https://tauri.localhost/index.html",
            "heddle-run://localhost/01R/artifacts/b/retry_0/playwright-report/index.html",
            "about:blank",
        ] {
            assert!(may_load(&url(own), None), "{own}");
        }
        assert!(may_load(
            &url("http://localhost:5173/?file=a.dot"),
            Some(&dev)
        ));
        for away in [
            "https://example.com/",
            "http://localhost:5173/",
            "tauri://evil/",
            "file:///etc/passwd",
            "heddle-run://evil/01R/artifacts/x",
        ] {
            assert!(!may_load(&url(away), None), "{away}");
        }
        assert!(!may_load(&url("http://localhost:8080/"), Some(&dev)));
    }

    #[test]
    fn only_run_files_open_in_a_window_of_their_own() {
        assert!(is_run_file(&url(
            "heddle-run://localhost/01R/artifacts/b/retry_0/playwright-report/index.html"
        )));
        assert!(is_run_file(&url(
            "http://heddle-run.localhost/01R/artifacts/report/index.html"
        )));
        assert!(!is_run_file(&url("https://playwright.dev/")));
        assert!(!is_run_file(&url("heddle-run://elsewhere/x")));
        assert!(!is_run_file(&url("tauri://localhost/")));
    }
}
