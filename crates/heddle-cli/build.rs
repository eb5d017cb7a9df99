//! Embedding the built UI: `src/embedded_ui.rs` compiles `ui/dist` into the binary, so this
//! script makes cargo build again whenever the UI is rebuilt, and says loudly when there is
//! no built UI to embed (the binary then serves a page that says how to build it).

use std::path::Path;

fn main() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist");
    if dist.join("index.html").is_file() {
        // A folder is watched whole: any file in it changing (a new UI build) embeds anew.
        println!("cargo:rerun-if-changed={}", dist.display());
    } else {
        // Until the UI is there, every build looks again (a path that never exists is always
        // stale): a UI that arrives with old timestamps (`cp -a`, a tar) is picked up too.
        let never = dist.join(".heddle-ui-not-built");
        println!("cargo:rerun-if-changed={}", never.display());
        println!(
            "cargo:warning=ui/dist is not built, so this heddle has no UI to serve (`heddle serve` \
             shows a page saying how to build it). Build the UI first: \
             `npm --prefix ui ci && npm --prefix ui run build`, then build heddle again."
        );
    }
}
