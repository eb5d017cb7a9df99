//! The syntax tree's semantic view: what a DOT file says, with the span of every element.
//!
//! This view is derived from the lossless concrete tree held by [`crate::Document`]; it is
//! what consumers (heddle-workflow) read. Edits go through [`crate::Edit`], never through
//! these structs.

use crate::Span;

/// A whole `[strict] (graph|digraph) [id] { ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// Whether the header starts with `strict` (Graphviz then merges duplicate edges).
    pub strict: bool,
    /// `digraph` (true) or `graph` (false).
    pub directed: bool,
    /// The graph's name, if any.
    pub id: Option<Id>,
    /// Top-level statements in source order.
    pub stmts: Vec<Stmt>,
    /// From the first keyword to the closing brace.
    pub span: Span,
}

/// One statement of a graph or subgraph body.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `a [x=1]`
    Node(NodeStmt),
    /// `a -> b -> c [x=1]`
    Edge(EdgeStmt),
    /// `graph [..]`, `node [..]`, `edge [..]`
    Attr(AttrStmt),
    /// `key = value` at statement level (a graph attribute).
    Assign(Attr),
    /// `subgraph name { .. }` or `{ .. }`
    Subgraph(Subgraph),
}

/// A node statement.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeStmt {
    /// The node (and optional port).
    pub node: NodeRef,
    /// Attributes from every `[...]` list, flattened in order.
    pub attrs: Vec<Attr>,
    /// The whole statement, without a trailing `;`.
    pub span: Span,
}

/// A node id with an optional port: `n`, `n:p`, `n:p:sw`, `n:sw`.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRef {
    /// The node's name (`n` in `n:p:sw`).
    pub id: Id,
    /// `:port[:compass]`, if present. Boxed: ports are rare in workflows, and inline they
    /// would triple the size of every node reference.
    pub port: Option<Box<Port>>,
    /// From the node id to the end of the port, if any.
    pub span: Span,
}

/// A port suffix.
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// The port name (`p` in `n:p:sw`); `None` for `n:sw` only when it is a compass point.
    pub name: Option<Id>,
    /// The compass point (`sw` in `n:p:sw`).
    pub compass: Option<Id>,
    /// From the first `:` to the end.
    pub span: Span,
}

/// An edge statement, possibly a chain `a -> b -> c`.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeStmt {
    /// Two or more endpoints, in order.
    pub operands: Vec<EdgeOperand>,
    /// `true` for each `->`, `false` for each `--`; `operands.len() - 1` entries.
    pub directed_ops: Vec<bool>,
    /// Attributes from every `[...]` list, flattened in order; they apply to every edge of the chain.
    pub attrs: Vec<Attr>,
    /// The whole statement, without a trailing `;`.
    pub span: Span,
}

/// One endpoint of an edge statement.
#[derive(Debug, Clone, PartialEq)]
pub enum EdgeOperand {
    /// A node id, optionally with a port.
    Node(NodeRef),
    /// A subgraph: the edge connects to every node in it.
    Subgraph(Subgraph),
}

/// Which defaults an attribute statement sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrTarget {
    /// `graph [..]`
    Graph,
    /// `node [..]`
    Node,
    /// `edge [..]`
    Edge,
}

/// `graph|node|edge [ ... ]`.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrStmt {
    /// Whether this sets graph, node or edge defaults.
    pub target: AttrTarget,
    /// Attributes from every `[...]` list, flattened.
    pub attrs: Vec<Attr>,
    /// From the `graph`/`node`/`edge` keyword to the last `]`.
    pub span: Span,
}

/// `key = value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// The left of `=`, e.g. `label`; compare keys by [`Id::value`].
    pub key: Id,
    /// The right of `=`; [`Id::value`] holds it unquoted and unescaped.
    pub value: Id,
    /// From the first byte of the key to the last byte of the value.
    pub span: Span,
}

/// A subgraph, named or anonymous.
#[derive(Debug, Clone, PartialEq)]
pub struct Subgraph {
    /// `subgraph name`; `None` for `subgraph { }` and `{ }`.
    pub id: Option<Id>,
    /// Statements between the braces, in source order.
    pub stmts: Vec<Stmt>,
    /// From `subgraph` (or `{`) to `}`.
    pub span: Span,
}

/// How an identifier was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    /// `[A-Za-z_\u{80}-][A-Za-z0-9_\u{80}-]*` (Unicode allowed, as in Graphviz).
    Identifier,
    /// `-?(\.[0-9]+|[0-9]+(\.[0-9]*)?)`
    Numeral,
    /// `"..."`, possibly `"a" + "b"` concatenated.
    Quoted,
    /// `<...>` with balanced angle brackets.
    Html,
    /// The workflow dialect's relaxation that Graphviz rejects: adjacent tokens with no
    /// space between them read as one value or key, e.g. `gpt-5.2`, `30s`,
    /// `human.default_choice`, `claude:latest`. Also a lone `.`, `-`, `/`, `:` or `@`,
    /// or a DOT keyword, written as a key or value.
    Bare,
}

/// An identifier (DOT's `ID`): a key, a value, a node or graph name.
#[derive(Debug, Clone, PartialEq)]
pub struct Id {
    /// Identifier, numeral, quoted string, HTML string or bare run of tokens.
    pub kind: IdKind,
    /// The value with Graphviz semantics: for `Quoted`, the quotes removed, parts
    /// concatenated, `\"` unescaped and backslash-newline removed (every other escape kept
    /// verbatim); for `Html`, the text between the outer `<` `>`; otherwise the text itself.
    pub value: String,
    /// The raw text in the source (quotes, `+` and all).
    pub span: Span,
}

impl Id {
    /// The value with the workflow dialect's escapes decoded: `\n` newline, `\t` tab,
    /// `\\` backslash, `\"` quote. Other backslash sequences are kept as written.
    pub fn unescaped(&self) -> String {
        if self.kind != IdKind::Quoted {
            return self.value.clone();
        }
        let mut out = String::with_capacity(self.value.len());
        let mut chars = self.value.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        }
        out
    }
}

impl Stmt {
    /// The statement's span (without a trailing `;`).
    pub fn span(&self) -> Span {
        match self {
            Stmt::Node(s) => s.span,
            Stmt::Edge(s) => s.span,
            Stmt::Attr(s) => s.span,
            Stmt::Assign(a) => a.span,
            Stmt::Subgraph(s) => s.span,
        }
    }
}

impl EdgeOperand {
    /// The operand's span.
    pub fn span(&self) -> Span {
        match self {
            EdgeOperand::Node(n) => n.span,
            EdgeOperand::Subgraph(s) => s.span,
        }
    }
}
