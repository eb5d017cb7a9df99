//! Shared test support: a seeded generator of random valid DOT.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod resolve;

use heddle_dot::testing::XorShift;
use heddle_dot::{Document, EdgeKey, Edit, parse};

/// Parses `src` (which must be valid), applies `edit` and returns the new text, after
/// checking that it parses cleanly, that the document's graph reflects the re-parse, and
/// that only the 1-based lines `changed` of `src` were touched (the lines before and after
/// the changed region are byte-identical).
pub fn apply(src: &str, edit: &Edit, changed: &[usize]) -> String {
    let parsed = parse(src);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let mut doc = parsed.document;
    doc.apply(edit)
        .unwrap_or_else(|e| panic!("{edit:?} failed: {e}"));
    let out = doc.text();
    let reparsed = parse(&out);
    assert!(
        reparsed.errors.is_empty(),
        "{edit:?} broke the file:\n{out}\n{:?}",
        reparsed.errors
    );
    assert_eq!(reparsed.document.graph(), doc.graph(), "graph() is stale");
    assert_only_lines_changed(src, &out, changed);
    out
}

/// The before/after text of an edit, for snapshots.
pub fn before_after(src: &str, edit: &Edit, changed: &[usize]) -> String {
    let out = apply(src, edit, changed);
    format!("{edit:?}\n---- before ----\n{src}\n---- after ----\n{out}")
}

/// Applies an edit that must fail, and checks the document is unchanged.
pub fn apply_err(src: &str, edit: &Edit) -> heddle_dot::EditError {
    let mut doc: Document = parse(src).document;
    let err = doc.apply(edit).expect_err("the edit should fail");
    assert_eq!(doc.text(), src, "a failed edit changed the document");
    err
}

/// Every line of `before` (1-based) that is not kept, unchanged and in order, in `after`
/// (by a longest-common-subsequence line diff) must be listed in `changed`.
pub fn assert_only_lines_changed(before: &str, after: &str, changed: &[usize]) {
    let b: Vec<&str> = before.split_inclusive('\n').collect();
    let a: Vec<&str> = after.split_inclusive('\n').collect();
    // lcs[i][j]: LCS length of b[i..] and a[j..].
    let mut lcs = vec![vec![0usize; a.len() + 1]; b.len() + 1];
    for i in (0..b.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if b[i] == a[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < b.len() {
        if j < a.len() && b[i] == a[j] {
            i += 1;
            j += 1;
        } else if j < a.len() && lcs[i][j + 1] >= lcs[i + 1][j] {
            j += 1;
        } else {
            assert!(
                changed.contains(&(i + 1)),
                "line {} changed but only {changed:?} may:\n{before}\n=>\n{after}",
                i + 1
            );
            i += 1;
        }
    }
}

pub fn key(from: &str, to: &str, occurrence: usize) -> EdgeKey {
    EdgeKey {
        from: from.into(),
        to: to.into(),
        occurrence,
    }
}

/// What the generator may use.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Only what Graphviz itself accepts and what the oracle can compare: no `strict`, no
    /// HTML node names, no dialect relaxations, unique subgraph names.
    pub graphviz: bool,
}

/// Random DOT text from a seed.
pub struct DotGen {
    rng: XorShift,
    out: String,
    opts: Options,
    directed: bool,
    depth: usize,
    subgraphs: usize,
    budget: usize,
}

const IDENTS: [&str; 8] = ["a", "b", "c", "node_1", "_x", "été", "名前", "Start"];
const NUMERALS: [&str; 5] = ["1", "-2", ".5", "3.", "-0.25"];
const QUOTED: [&str; 7] = [
    r#""q x""#,
    r#""esc \" q""#,
    r#""back\\slash""#,
    "\"cont\\\ninued\"",
    r#""tab\tlit""#,
    r#""node""#,
    "\"raw\nline\"",
];
const VALUES: [&str; 9] = [
    "v",
    "42",
    "-.5",
    r#""""#,
    r#""with space""#,
    r#""a\"b\\c\n""#,
    "<b<i>x</i>>",
    "<>",
    r#""ünï""#,
];
const BARE_VALUES: [&str; 7] = [
    "gpt-5.2",
    "30s",
    "claude:latest",
    "a.b.c",
    "/tmp/x",
    "@prompts/plan.md",
    "1.2.3",
];
const KEYS: [&str; 6] = ["k0", "k1", "k2", "k3", "k4", r#""k5""#];
const BARE_KEYS: [&str; 2] = ["human.default_choice", "stack.child_workflow"];
const COMPASS: [&str; 5] = ["n", "se", "w", "c", "_"];
const SPACES: [&str; 17] = [
    " ",
    " ",
    " ",
    " ",
    "\n    ",
    "\n    ",
    "\n  ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\n    ",
    "/* c */",
    "/* multi\nline */",
    "// line comment\n",
    "\n# preprocessor line\n",
    " \t\n\n  ",
];

impl DotGen {
    /// A whole file with one graph (sometimes two, outside Graphviz mode).
    pub fn generate(seed: u64, opts: Options) -> String {
        let mut g = DotGen {
            rng: XorShift::new(seed),
            out: String::new(),
            opts,
            directed: true,
            depth: 0,
            subgraphs: 0,
            budget: 40,
        };
        g.ws_opt();
        g.graph();
        if !opts.graphviz && g.rng.chance(10) {
            g.ws_req();
            g.budget = 10;
            g.graph();
        }
        g.ws_opt();
        g.out
    }

    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn pick(&mut self, items: &[&str]) {
        let s = self.rng.pick(items).copied().unwrap_or("x");
        self.push(s);
    }

    fn ws_req(&mut self) {
        self.pick(&SPACES);
        if self.rng.chance(15) {
            self.pick(&SPACES);
        }
    }

    fn ws_opt(&mut self) {
        if self.rng.chance(35) {
            self.ws_req();
        }
    }

    fn keyword(&mut self, kw: &str) {
        match self.rng.below(6) {
            0 => self.push(&kw.to_uppercase()),
            1 => {
                let mut chars = kw.chars();
                let first: String = chars
                    .next()
                    .map(|c| c.to_ascii_uppercase())
                    .into_iter()
                    .collect();
                self.push(&first);
                self.push(chars.as_str());
            }
            _ => self.push(kw),
        }
    }

    fn quoted_concat(&mut self) {
        self.push("\"con\"");
        self.ws_opt();
        self.push("+");
        self.ws_opt();
        self.push("\"cat\"");
    }

    fn node_id(&mut self) {
        match self.rng.below(10) {
            0..=4 => self.pick(&IDENTS),
            5 | 6 => self.pick(&NUMERALS),
            7 | 8 => self.pick(&QUOTED),
            _ if self.opts.graphviz || self.rng.chance(50) => self.quoted_concat(),
            _ => self.push("<h<b>1</b>>"),
        }
    }

    fn value(&mut self) {
        match self.rng.below(10) {
            0..=6 => self.pick(&VALUES),
            7 => self.pick(&IDENTS),
            8 if !self.opts.graphviz => self.pick(&BARE_VALUES),
            _ => self.quoted_concat(),
        }
    }

    fn key(&mut self) {
        if !self.opts.graphviz && self.rng.chance(15) {
            self.pick(&BARE_KEYS);
        } else {
            self.pick(&KEYS);
        }
    }

    fn attr(&mut self) {
        self.key();
        self.ws_opt();
        self.push("=");
        self.ws_opt();
        self.value();
    }

    fn attr_lists(&mut self) {
        for _ in 0..1 + self.rng.below(2) {
            self.ws_opt();
            self.push("[");
            self.ws_opt();
            let n = self.rng.below(4);
            for i in 0..n {
                self.attr();
                match self.rng.below(3) {
                    0 => self.push(","),
                    1 => self.push(";"),
                    _ if i + 1 < n => self.ws_req(),
                    _ => {}
                }
                self.ws_opt();
            }
            self.push("]");
        }
    }

    fn node_ref(&mut self) {
        self.node_id();
        match self.rng.below(6) {
            0 => {
                self.push(":");
                self.pick(&["p", "port_2", "\"q p\""]);
                if self.rng.chance(50) {
                    self.push(":");
                    self.pick(&COMPASS);
                }
            }
            1 => {
                self.push(":");
                self.pick(&COMPASS);
            }
            _ => {}
        }
    }

    fn subgraph(&mut self) {
        self.depth += 1;
        self.subgraphs += 1;
        match self.rng.below(3) {
            0 => {
                self.keyword("subgraph");
                self.ws_req();
                let name = if self.rng.chance(50) { "cluster_" } else { "s" };
                let n = self.subgraphs;
                self.push(&format!("{name}{n}"));
                self.ws_opt();
            }
            1 => {
                self.keyword("subgraph");
                self.ws_opt();
            }
            _ => {}
        }
        self.push("{");
        let n = self.rng.below(4);
        self.stmt_list(n);
        self.push("}");
        self.depth -= 1;
    }

    fn operand(&mut self) {
        if self.depth < 3 && self.rng.chance(15) {
            self.subgraph();
        } else {
            self.node_ref();
        }
    }

    fn stmt(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        match self.rng.below(10) {
            0..=2 => {
                self.node_ref();
                if self.rng.chance(60) {
                    self.attr_lists();
                }
            }
            3..=5 => {
                self.operand();
                for _ in 0..1 + self.rng.below(3) {
                    self.ws_opt();
                    self.push(if self.directed { "->" } else { "--" });
                    self.ws_opt();
                    self.operand();
                }
                if self.rng.chance(50) {
                    self.attr_lists();
                }
            }
            6 | 7 => {
                let kw = ["graph", "node", "edge"][self.rng.below(3)];
                self.keyword(kw);
                self.attr_lists();
            }
            8 => self.attr(),
            _ if self.depth < 3 => self.subgraph(),
            _ => self.node_ref(),
        }
    }

    fn stmt_list(&mut self, n: usize) {
        self.ws_opt();
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.stmt();
            if self.rng.chance(40) {
                self.ws_opt();
                self.push(";");
                self.ws_opt();
            } else {
                self.ws_req();
            }
        }
    }

    fn graph(&mut self) {
        if !self.opts.graphviz && self.rng.chance(20) {
            self.keyword("strict");
            self.ws_req();
        }
        self.directed = self.rng.chance(70);
        self.keyword(if self.directed { "digraph" } else { "graph" });
        if self.rng.chance(60) {
            self.ws_req();
            self.node_id();
        }
        self.ws_opt();
        self.push("{");
        let n = 2 + self.rng.below(12);
        self.stmt_list(n);
        self.push("}");
    }
}

/// The repository's bundled example workflows, `(path, text)`, sorted by path.
pub fn examples() -> Vec<(std::path::PathBuf, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dot"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 6,
        "expected the examples in {}",
        dir.display()
    );
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}
