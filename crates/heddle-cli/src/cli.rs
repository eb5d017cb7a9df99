//! Command-line grammar.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Heddle: author, run and inspect AI-agent workflows written as Graphviz DOT.
#[derive(Debug, Parser)]
#[command(name = "heddle", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check workflow files and report problems with file, line and column.
    ///
    /// Exit status: 0 when no file has errors (warnings allowed), 1 when any has errors,
    /// 2 on a usage error.
    Validate {
        /// Workflow files (`.dot`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print diagnostics as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Colour the text output.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Print a workflow's typed model: nodes with handler kinds, edges, subgraphs.
    Graph {
        /// Workflow file.
        file: PathBuf,
        /// Print the model as JSON (the same data the UI draws).
        #[arg(long)]
        json: bool,
    },
    /// Serve the Heddle UI and API to a browser on this machine.
    Serve {
        /// Port to listen on; 0 picks a free one.
        #[arg(long, default_value_t = 7878)]
        port: u16,
        /// Address to listen on. Anything but loopback exposes your files to the network.
        #[arg(long, default_value = "127.0.0.1")]
        bind: IpAddr,
        /// Folder whose workflows the UI lists (default: the current folder).
        #[arg(long)]
        workspace: Option<PathBuf>,
        /// Built UI to serve (default: `$HEDDLE_UI_DIR`, else the repository's `ui/dist`).
        #[arg(long)]
        ui_dir: Option<PathBuf>,
        /// A workflow file the UI opens right away.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Open the URL in the default browser.
        #[arg(long)]
        open: bool,
    },
}

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Resolves `auto` against the environment the caller observed.
    pub fn resolve(self, stdout_is_terminal: bool, no_color_set: bool) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::Auto => stdout_is_terminal && !no_color_set,
        }
    }
}
