//! Statements: node, edge (chains, subgraph endpoints), attribute statements, `a = b`
//! assignments and subgraphs, with recovery to the next statement boundary.

use super::id::attr;
use super::{MAX_DEPTH, Parser};
use crate::token::TokenKind;
use crate::{
    AttrStmt, AttrTarget, EdgeOperand, EdgeStmt, Id, NodeRef, NodeStmt, Stmt, Subgraph,
};

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
                    if let Some(stmt) = self.parse_stmt(i) {
                        stmts.push(stmt);
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

    fn parse_stmt(&mut self, i: usize) -> Option<Stmt> {
        let kind = self.tok(i).kind;
        match kind {
            TokenKind::KwGraph | TokenKind::KwNode | TokenKind::KwEdge => {
                match self.kind_after(i) {
                    Some(TokenKind::LBracket) => Some(self.parse_attr_stmt(i, kind)),
                    Some(TokenKind::Eq) => self.parse_assign(),
                    _ => {
                        self.bump();
                        self.error_at_cur("`[`");
                        self.recover_stmt();
                        None
                    }
                }
            }
            TokenKind::KwSubgraph | TokenKind::LBrace => {
                let sub = self.parse_subgraph()?;
                if self.at_edge_op() {
                    self.parse_edge_rest(i, EdgeOperand::Subgraph(sub))
                } else {
                    Some(Stmt::Subgraph(sub))
                }
            }
            TokenKind::Quoted
            | TokenKind::UnterminatedString
            | TokenKind::Html
            | TokenKind::UnterminatedHtml => {
                if self.kind_after(self.id_end(i)) == Some(TokenKind::Eq) {
                    return self.parse_assign();
                }
                let id = self.parse_node_id()?;
                self.finish_node_or_edge(i, id)
            }
            k if k.in_bare_run() => {
                if self.kind_after(self.id_end(i)) == Some(TokenKind::Eq) {
                    return self.parse_assign();
                }
                match self.parse_node_id() {
                    Some(id) => self.finish_node_or_edge(i, id),
                    None => self.stmt_error(),
                }
            }
            _ => self.stmt_error(),
        }
    }

    fn stmt_error(&mut self) -> Option<Stmt> {
        self.error_at_cur("a statement or `}`");
        self.recover_stmt();
        None
    }

    fn at_edge_op(&mut self) -> bool {
        matches!(
            self.cur_kind(),
            Some(TokenKind::Arrow | TokenKind::DashDash)
        )
    }

    /// `graph|node|edge [..][..]`
    fn parse_attr_stmt(&mut self, start: usize, kind: TokenKind) -> Stmt {
        self.bump();
        let target = match kind {
            TokenKind::KwGraph => AttrTarget::Graph,
            TokenKind::KwNode => AttrTarget::Node,
            _ => AttrTarget::Edge,
        };
        let mut attrs = Vec::new();
        self.parse_attr_lists(&mut attrs);
        Stmt::Attr(AttrStmt {
            target,
            attrs,
            span: self.span_from(start),
        })
    }

    /// `key = value` at statement level. The key may be a bare run or even a keyword.
    fn parse_assign(&mut self) -> Option<Stmt> {
        let key = self.parse_relaxed_id()?;
        self.eat(TokenKind::Eq)?;
        let Some(value) = self.parse_relaxed_id() else {
            self.error_at_cur("a value");
            self.recover_stmt();
            return None;
        };
        Some(Stmt::Assign(attr(key, value)))
    }

    /// After a node id at `start`: its port, then either an edge chain or attribute lists.
    fn finish_node_or_edge(&mut self, start: usize, id: Id) -> Option<Stmt> {
        let node = self.finish_node_ref(start, id)?;
        if self.at_edge_op() {
            return self.parse_edge_rest(start, EdgeOperand::Node(node));
        }
        let mut attrs = Vec::new();
        self.parse_attr_lists(&mut attrs);
        Some(Stmt::Node(NodeStmt {
            node,
            attrs,
            span: self.span_from(start),
        }))
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
    fn parse_edge_rest(&mut self, start: usize, first: EdgeOperand) -> Option<Stmt> {
        let mut operands = vec![first];
        let mut directed_ops = Vec::new();
        while let Some(op) = self.cur().filter(|_| self.at_edge_op()) {
            let arrow = self.tok(op).kind == TokenKind::Arrow;
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
            let operand = match self.cur_kind() {
                Some(TokenKind::KwSubgraph | TokenKind::LBrace) => {
                    EdgeOperand::Subgraph(self.parse_subgraph()?)
                }
                _ => {
                    let Some(op_start) = self.cur() else {
                        self.error_at_cur("a node or subgraph");
                        return None;
                    };
                    let Some(id) = self.parse_node_id() else {
                        self.error_at_cur("a node or subgraph");
                        self.recover_stmt();
                        return None;
                    };
                    EdgeOperand::Node(self.finish_node_ref(op_start, id)?)
                }
            };
            operands.push(operand);
        }
        let mut attrs = Vec::new();
        self.parse_attr_lists(&mut attrs);
        Some(Stmt::Edge(EdgeStmt {
            operands,
            directed_ops,
            attrs,
            span: self.span_from(start),
        }))
    }

    /// `subgraph [id] { .. }` or `{ .. }`.
    pub(super) fn parse_subgraph(&mut self) -> Option<Subgraph> {
        let start = self.cur()?;
        let mut id = None;
        if self.eat(TokenKind::KwSubgraph).is_some() && !self.at(TokenKind::LBrace) {
            id = self.parse_node_id();
        }
        if !self.at(TokenKind::LBrace) {
            self.error_at_cur("`{`");
            self.recover_stmt();
            return None;
        }
        let brace = self.bump()?;
        if self.depth >= MAX_DEPTH {
            let span = self.tok_span(brace);
            self.error(
                span,
                "at most 256 nested subgraphs",
                "a deeper `{`".to_owned(),
            );
            self.skip_block();
            return None;
        }
        self.depth += 1;
        let mut stmts = Vec::new();
        self.parse_stmt_list(&mut stmts);
        self.depth -= 1;
        if self.eat(TokenKind::RBrace).is_none() {
            self.error_at_cur("`}`");
        }
        Some(Subgraph {
            id,
            stmts,
            span: self.span_from(start),
        })
    }
}
