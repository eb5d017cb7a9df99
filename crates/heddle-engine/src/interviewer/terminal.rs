//! Terminal prompt. (stub; being written)

/// Asks on a terminal.
#[derive(Debug, Default, Clone)]
pub struct TerminalInterviewer;
