//! `heddle completions SHELL`: the shell completion script for `heddle`, generated from the
//! command-line grammar itself (clap_complete), so it always knows every subcommand and flag.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// Writes the completion script for `shell` to `out`.
pub fn write(shell: Shell, out: &mut dyn Write) -> Result<(), String> {
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "heddle", out);
    out.flush()
        .map_err(|e| format!("cannot write the completions: {e}"))
}
