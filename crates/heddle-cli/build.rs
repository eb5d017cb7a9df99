//! Embedding the built UI: `src/embedded_ui.rs` compiles `ui/dist` into the binary, so this
//! script makes cargo build again whenever the UI is rebuilt, and says loudly when there is
//! no built UI to embed (the binary then serves a page that says how to build it).

use std::path::Path;

fn main() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist");
    // A folder is watched whole (any file in it changing); a missing one reruns every build,
    // so the UI is picked up as soon as it is built.
    println!("cargo:rerun-if-changed={}", dist.display());
    if !dist.join("index.html").is_file() {
        println!(
            "cargo:warning=ui/dist is not built, so this heddle has no UI to serve (`heddle serve` \
             shows a page saying how to build it). Build the UI first: \
             `npm --prefix ui ci && npm --prefix ui run build`, then build heddle again."
        );
    }
}
