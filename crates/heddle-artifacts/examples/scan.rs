//! The capture-scan benchmark's helper (see `benches/capture_scan.sh`).
//!
//! `scan snapshot DIR` fingerprints the candidate artifact files under DIR, as the engine
//! does before every command node, and prints how many it found and how long it took.
//! `scan gen DIR FILES` writes a synthetic work tree of about FILES files: nested source
//! folders, a large `node_modules`, `.git`, `target` and tool caches, and a few
//! `test-results/`, `playwright-report/` folders and `junit*.xml` files.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["snapshot", dir] => {
            let start = Instant::now();
            let snap = heddle_artifacts::snapshot(Path::new(dir));
            let took = start.elapsed();
            println!("{} candidates in {:.2?}", snap.len(), took);
            Ok(())
        }
        ["gen", dir, files] => match files.parse::<usize>() {
            Ok(n) => generate(Path::new(dir), n),
            Err(e) => Err(io::Error::other(format!("bad file count {files}: {e}"))),
        },
        _ => Err(io::Error::other(
            "usage: scan snapshot DIR | scan gen DIR FILES",
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "scan: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `count` small files in folders of `per_dir` under `base`, nested two levels deep.
fn files_under(base: &Path, count: usize, per_dir: usize, ext: &str) -> io::Result<usize> {
    let mut made = 0;
    let mut dir_index = 0;
    while made < count {
        let dir = base
            .join(format!("d{}", dir_index / 16))
            .join(format!("e{}", dir_index % 16));
        fs::create_dir_all(&dir)?;
        for i in 0..per_dir.min(count - made) {
            fs::write(dir.join(format!("f{i}.{ext}")), b"x")?;
            made += 1;
        }
        dir_index += 1;
    }
    Ok(made)
}

fn generate(root: &Path, total: usize) -> io::Result<()> {
    fs::create_dir_all(root)?;
    let mut made = 0;
    // Excluded: about 45% of the tree.
    made += files_under(&root.join("node_modules"), total * 35 / 100, 40, "js")?;
    made += files_under(&root.join("web/node_modules"), total * 4 / 100, 40, "js")?;
    made += files_under(&root.join(".git/objects"), total * 3 / 100, 100, "obj")?;
    made += files_under(&root.join("target/debug"), total / 100, 100, "o")?;
    made += files_under(&root.join(".cache/ms-playwright"), total / 100, 50, "bin")?;
    made += files_under(&root.join(".yarn/cache"), total / 100, 50, "zip")?;
    // Artifact folders and junit files.
    for i in 0..4 {
        let tr = root.join(format!("app{i}/test-results"));
        for t in 0..25 {
            let dir = tr.join(format!("spec-{t}-chromium"));
            fs::create_dir_all(&dir)?;
            for name in ["trace.zip", "test-failed-1.png", "video.webm"] {
                fs::write(dir.join(name), b"artifact")?;
                made += 1;
            }
        }
        made += files_under(
            &root.join(format!("app{i}/playwright-report/data")),
            100,
            50,
            "png",
        )?;
        fs::write(root.join(format!("app{i}/junit-{i}.xml")), b"<testsuites/>")?;
        made += 1;
    }
    // The rest: nested sources.
    let rest = total.saturating_sub(made);
    made += files_under(&root.join("src"), rest, 25, "rs")?;
    println!("generated {made} files under {}", root.display());
    Ok(())
}
