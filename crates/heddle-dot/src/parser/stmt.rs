//! Statements: node, edge (chains, subgraph endpoints), attribute statements, `a = b`
//! assignments and subgraphs, with recovery to the next statement boundary.

use super::id::attr;
use super::{MAX_DEPTH, Parser};
use crate::token::TokenKind;
use crate::{AttrStmt, AttrTarget, EdgeOperand, EdgeStmt, Id, NodeRef, NodeStmt, Stmt, Subgraph};

// Subgraphs recurse through `parse_stmt_list` -> `parse_stmt` -> (`parse_edge_rest` ->
// `parse_operand`) -> `parse_subgraph_into`. Those functions push results into
// caller-owned vectors and leave building large values to non-recursive helpers, so each
// nesting level costs little stack even in debug builds.

impl Parser<'_> {
    /// Statements up to a `}` (not consumed) or the end of the file.
    pub(super) fn parse_stmt_list(&mut self, stmts: &mut Vec<Stmt>) {
        while let Some(i) = self.cur() {
            match self.tok(i).kind {
                TokenKind::RBrace => return,
                TokenKind::Semi => {
                    self.error_at_cur("a statement or `}`");
                    self.bump();
                }
                _ => {
                    if self.parse_stmt(i, stmts) {
                        self.eat(TokenKind::Semi);
                    }
                    if self.pos <= i {
                        self.bump();
                    }
                }
            }
        }
    }

    /// Skips to the end of a broken statement: past a `;` or `]`, or up to a `}` or a token
    /// that starts a new line.
    fn recover_stmt(&mut self) {
        while let Some(i) = self.cur() {
            let t = self.tok(i);
            match t.kind {
                TokenKind::RBrace => return,
                TokenKind::Semi | TokenKind::RBracket => {
                    self.bump();
                    return;
                }
                _ if t.nl_before => return,
                TokenKind::LBrace => {
                    self.bump();
                    self.skip_block();
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// After a consumed `{`: skips to just past its matching `}` (or the end of the file).
    fn skip_block(&mut self) {
        let mut depth = 1usize;
        while let Some(i) = self.bump() {
            match self.tok(i).kind {
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// Parses one statement starting at token `i` into `out`. Returns false when nothing
    /// was added (an error was reported and recovered from).
    fn parse_stmt(&mut self, i: usize, out: &mut Vec<Stmt>) -> bool {
        let kind = self.tok(i).kind;
        match kind {
            TokenKind::KwGraph | TokenKind::KwNode | TokenKind::KwEdge => {
                match self.kind_after(i) {
                    Some(TokenKind::LBracket) => self.parse_attr_stmt(i, kind, out),
                    Some(TokenKind::Eq) => self.parse_assign(out),
                    _ => {
                        self.bump();
                        self.error_at_cur("`[`");
                        self.recover_stmt();
                        false
                    }
                }
            }
            TokenKind::KwSubgraph | TokenKind::LBrace => {
                let mut operands = Vec::with_capacity(2);
                if !self.parse_subgraph_into(&mut operands) {
                    return false;
                }
                if self.at_edge_op() {
                    return self.parse_edge_rest(i, operands, out);
                }
                match operands.pop() {
                    Some(EdgeOperand::Subgraph(sub)) => out.push(Stmt::Subgraph(sub)),
                    _ => return false,
                }
                true
            }
            k if self.kind_after(self.id_end(i)) == Some(TokenKind::Eq)
                && (k.in_bare_run() || is_id_start(k)) =>
            {
                self.parse_assign(out)
            }
            k if is_id_start(k) || k.in_bare_run() => self.parse_node_head(i, out),
            _ => self.stmt_error(),
        }
    }

    fn stmt_error(&mut self) -> bool {
        self.error_at_cur("a statement or `}`");
        self.recover_stmt();
        false
    }

    fn at_edge_op(&mut self) -> bool {
        matches!(
            self.cur_kind(),
            Some(TokenKind::Arrow | TokenKind::DashDash)
        )
    }

    /// `graph|node|edge [..][..]`
    fn parse_attr_stmt(&mut self, start: usize, kind: TokenKind, out: &mut Vec<Stmt>) -> bool {
        self.bump();
        let target = match kind {
            TokenKind::KwGraph => AttrTarget::Graph,
            TokenKind::KwNode => AttrTarget::Node,
            _ => AttrTarget::Edge,
        };
        let attrs = self.parse_attr_lists();
        out.push(Stmt::Attr(AttrStmt {
            target,
            attrs,
            span: self.span_from(start),
        }));
        true
    }

    /// `key = value` at statement level. The key may be a bare run or even a keyword.
    fn parse_assign(&mut self, out: &mut Vec<Stmt>) -> bool {
        let Some(key) = self.parse_relaxed_id() else {
            return self.stmt_error();
        };
        if self.eat(TokenKind::Eq).is_none() {
            return self.stmt_error();
        }
        let Some(value) = self.parse_relaxed_id() else {
            self.error_at_cur("a value");
            self.recover_stmt();
            return false;
        };
        out.push(Stmt::Assign(attr(key, value)));
        true
    }

    /// A statement starting with a node: a node statement or an edge chain.
    fn parse_node_head(&mut self, start: usize, out: &mut Vec<Stmt>) -> bool {
        let Some(node) = self.parse_node_ref(true) else {
            return false;
        };
        if !self.at_edge_op() {
            return self.finish_node_stmt(start, node, out);
        }
        let mut operands = Vec::with_capacity(2);
        operands.push(EdgeOperand::Node(node));
        self.parse_edge_rest(start, operands, out)
    }

    /// A node statement: the node, then attribute lists.
    fn finish_node_stmt(&mut self, start: usize, node: NodeRef, out: &mut Vec<Stmt>) -> bool {
        let attrs = self.parse_attr_lists();
        out.push(Stmt::Node(NodeStmt {
            node,
            attrs,
            span: self.span_from(start),
        }));
        true
    }

    /// A node id and its optional port, pushed as an edge operand. On errors, recovers
    /// and returns false.
    fn parse_node_operand(&mut self, operands: &mut Vec<EdgeOperand>) -> bool {
        match self.parse_node_ref(false) {
            Some(node) => {
                operands.push(EdgeOperand::Node(node));
                true
            }
            None => false,
        }
    }

    /// A node id and its optional port (`at_start`: heading a statement). On errors,
    /// recovers and returns `None`.
    fn parse_node_ref(&mut self, at_start: bool) -> Option<NodeRef> {
        let start = self.cur();
        let id = self.parse_node_id();
        match (start, id) {
            (Some(start), Some(id)) => self.finish_node_ref(start, id),
            _ => {
                self.error_at_cur(if at_start {
                    "a statement or `}`"
                } else {
                    "a node or subgraph"
                });
                self.recover_stmt();
                None
            }
        }
    }

    /// A node id's optional port; on a broken port, recovers and returns `None`.
    fn finish_node_ref(&mut self, start: usize, id: Id) -> Option<NodeRef> {
        let mut port = None;
        if self.at(TokenKind::Colon) {
            port = self.parse_port();
            if port.is_none() {
                self.recover_stmt();
                return None;
            }
        }
        Some(NodeRef {
            id,
            port,
            span: self.span_from(start),
        })
    }

    /// The rest of an edge statement after its first operand: `-> b -> c [..]`.
    fn parse_edge_rest(
        &mut self,
        start: usize,
        mut operands: Vec<EdgeOperand>,
        out: &mut Vec<Stmt>,
    ) -> bool {
        let mut directed_ops = Vec::new();
        while self.at_edge_op() {
            self.check_edge_op(&mut directed_ops);
            let ok = match self.cur_kind() {
                Some(TokenKind::KwSubgraph | TokenKind::LBrace) => {
                    self.parse_subgraph_into(&mut operands)
                }
                _ => self.parse_node_operand(&mut operands),
            };
            if !ok {
                return false;
            }
        }
        self.finish_edge_stmt(start, operands, directed_ops, out);
        true
    }

    /// Consumes an edge operator, checking it against the graph's kind.
    fn check_edge_op(&mut self, directed_ops: &mut Vec<bool>) {
        let arrow = self.at(TokenKind::Arrow);
        if arrow != self.directed {
            let expected = if self.directed {
                "`->` (in a digraph)"
            } else {
                "`--` (in an undirected graph)"
            };
            self.error_at_cur(expected);
        }
        self.bump();
        directed_ops.push(arrow);
    }

    fn finish_edge_stmt(
        &mut self,
        start: usize,
        operands: Vec<EdgeOperand>,
        directed_ops: Vec<bool>,
        out: &mut Vec<Stmt>,
    ) {
        let attrs = self.parse_attr_lists();
        out.push(Stmt::Edge(EdgeStmt {
            operands,
            directed_ops,
            attrs,
            span: self.span_from(start),
        }));
    }

    /// `subgraph [id] { .. }` or `{ .. }`, pushed as an edge operand. Returns false after
    /// an error.
    fn parse_subgraph_into(&mut self, operands: &mut Vec<EdgeOperand>) -> bool {
        let Some(start) = self.cur() else {
            return false;
        };
        let mut id = None;
        if self.eat(TokenKind::KwSubgraph).is_some() && !self.at(TokenKind::LBrace) {
            id = self.parse_node_id();
        }
        if !self.at(TokenKind::LBrace) {
            self.error_at_cur("`{`");
            self.recover_stmt();
            return false;
        }
        let Some(brace) = self.bump() else {
            return false;
        };
        if self.depth >= MAX_DEPTH {
            self.too_deep(brace);
            return false;
        }
        self.depth += 1;
        let mut stmts = Vec::new();
        self.parse_stmt_list(&mut stmts);
        self.depth -= 1;
        if self.eat(TokenKind::RBrace).is_none() {
            self.error_at_cur("`}`");
        }
        let span = self.span_from(start);
        operands.push(EdgeOperand::Subgraph(Subgraph { id, stmts, span }));
        true
    }

    fn too_deep(&mut self, brace: usize) {
        let span = self.tok_span(brace);
        self.error(
            span,
            "at most 256 nested subgraphs",
            "a deeper `{`".to_owned(),
        );
        self.skip_block();
    }
}

/// Tokens that start a node id (besides bare-run tokens).
fn is_id_start(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Quoted
            | TokenKind::UnterminatedString
            | TokenKind::Html
            | TokenKind::UnterminatedHtml
    )
}
