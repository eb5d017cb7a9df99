//! Deterministic generators shared by benchmarks and tests (here and in heddle-workflow).
//! Not a stable API.

use std::fmt::Write as _;

mod check;

pub use check::check_source;

/// A tiny xorshift64* generator: deterministic, no dependencies.
#[derive(Debug, Clone)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        XorShift((seed ^ 0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        usize::try_from(self.next_u64() % n as u64).unwrap_or(0)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

const SHAPES: [&str; 6] = [
    "box",
    "tab",
    "parallelogram",
    "hexagon",
    "diamond",
    "component",
];
const MODELS: [&str; 3] = ["gpt-5.2", "claude-sonnet-4-5", "gemini-2.5-pro"];
const OUTCOMES: [&str; 4] = ["success", "fail", "partial_success", "retry"];

/// A workflow-like digraph with `nodes` nodes (a `start`, an `exit` and steps `n1..`)
/// and `edges` edges, all written as Graphviz accepts them (values quoted as needed),
/// with graph attributes, node defaults, a subgraph and a comment. Same seed, same text.
pub fn generate_workflow(nodes: usize, edges: usize, seed: u64) -> String {
    let mut rng = XorShift::new(seed);
    let steps = nodes.saturating_sub(2);
    let mut out = String::with_capacity(nodes * 160 + edges * 60 + 256);
    out.push_str("digraph workflow {\n");
    let _ = writeln!(
        out,
        "    graph [goal=\"Generated workflow with {nodes} nodes\", rankdir=LR, default_max_retries=2]"
    );
    out.push_str(
        "    model_stylesheet=\"* { model: gpt-5.2; } .review { reasoning_effort: high; }\"\n",
    );
    out.push_str("    node [shape=box, timeout=\"30s\"]\n\n");
    out.push_str("    start [shape=Mdiamond, label=\"Start\"]\n");
    out.push_str("    exit [shape=Msquare, label=\"Exit\"]\n");
    let name = |i: usize| match i {
        0 => "start".to_owned(),
        i if i > steps => "exit".to_owned(),
        i => format!("n{i}"),
    };
    for i in 1..=steps {
        let shape = rng.pick(&SHAPES).copied().unwrap_or("box");
        let model = rng.pick(&MODELS).copied().unwrap_or("gpt-5.2");
        let _ = write!(
            out,
            "    n{i} [label=\"Step {i}\", shape={shape}, prompt=\"Implement part {i} of the plan.\\nRun the tests and report.\", model=\"{model}\""
        );
        if rng.chance(30) {
            let _ = write!(out, ", max_retries={}", rng.below(4));
        }
        if rng.chance(20) {
            out.push_str(", class=\"review\", goal_gate=true");
        }
        out.push_str("]\n");
    }
    out.push('\n');
    if steps >= 4 {
        out.push_str("    subgraph cluster_review {\n        label=\"Review\"\n");
        for i in 1..=3 {
            let _ = writeln!(out, "        n{i}");
        }
        out.push_str("    }\n\n");
    }
    out.push_str("    // the main path, then cross links\n");
    let backbone = (steps + 1).min(edges);
    for i in 0..backbone {
        let _ = writeln!(out, "    {} -> {}", name(i), name(i + 1));
    }
    for _ in backbone..edges {
        let from = name(rng.below(steps + 1));
        let to = name(1 + rng.below(steps + 1));
        let outcome = rng.pick(&OUTCOMES).copied().unwrap_or("success");
        let _ = write!(out, "    {from} -> {to} [condition=\"outcome={outcome}\"");
        if rng.chance(50) {
            let _ = write!(out, ", label=\"on {outcome}\", weight={}", rng.below(10));
        }
        out.push_str("]\n");
    }
    out.push_str("}\n");
    out
}
