//! `heddle man`: manual pages generated from the command-line grammar (clap_mangen):
//! `heddle.1` on standard output, or with `--out-dir` one page per command
//! (`heddle.1`, `heddle-run.1`, ...) written to a folder, ready to install.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;

use crate::cli::Cli;

/// Writes `heddle.1` to `out`.
pub fn print(out: &mut dyn Write) -> Result<(), String> {
    clap_mangen::Man::new(Cli::command())
        .render(out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the manual page: {e}"))
}

/// Writes every page into `dir` (created when missing); prints each file written.
pub fn write_all(dir: &Path, out: &mut dyn Write) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot write manual pages to {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(failed)?;
    clap_mangen::generate_to(Cli::command(), dir).map_err(failed)?;
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .map_err(failed)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "1")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("heddle"))
        })
        .collect();
    pages.sort();
    for page in pages {
        let _ = writeln!(out, "{}", page.display());
    }
    Ok(())
}
