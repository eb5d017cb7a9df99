//! The built UI (`ui/dist`) compiled into the `heddle` binary, so `heddle serve` shows the
//! full UI wherever the binary is (`build.rs` rebuilds it when the UI changes and warns when
//! there was none to embed).

use heddle_server::{INDEX, UiFile, UiSource};

#[derive(rust_embed::Embed)]
#[folder = "../../ui/dist"]
#[allow_missing = true]
struct BuiltUi;

/// A file of the embedded UI.
fn lookup(path: &str) -> Option<UiFile> {
    let file = BuiltUi::get(path)?;
    Some(UiFile {
        sha256: file.metadata.sha256_hash(),
        bytes: file.data,
    })
}

/// Whether the UI was built when this binary was.
pub fn present() -> bool {
    BuiltUi::get(INDEX).is_some()
}

/// The embedded UI, or [`UiSource::NotBuilt`] when the binary has none.
pub fn source() -> UiSource {
    if present() {
        UiSource::Embedded(lookup)
    } else {
        UiSource::NotBuilt
    }
}
