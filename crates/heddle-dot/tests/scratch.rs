//! scratch
#![allow(clippy::unwrap_used, clippy::expect_used)]
use heddle_dot::*;
fn show(src: &str, e: Edit) {
    let mut d = parse(src).document;
    let r = d.apply(&e);
    println!("=== {e:?} -> {r:?}\n{src}---\n{}", d.text());
}
fn ek(f: &str, t: &str) -> EdgeKey { EdgeKey { from: f.into(), to: t.into(), occurrence: 0 } }
#[test]
fn scratch() {
    let src = "digraph G {\n    goal=\"x\" // the goal\n    node [shape=box]\n    a [label=\"A\", prompt=hi]\n    b\n    a -> b -> c -> d [label=go];\n    c -> e\n}\n";
    show(src, Edit::SetGraphAttr { key: "rankdir".into(), value: "LR".into() });
    show(src, Edit::SetGraphAttr { key: "goal".into(), value: "y z".into() });
    show(src, Edit::RemoveGraphAttr { key: "goal".into() });
    show(src, Edit::SetNodeAttr { node: "a".into(), key: "model".into(), value: "gpt-5.2".into() });
    show(src, Edit::SetNodeAttr { node: "b".into(), key: "model".into(), value: "gpt".into() });
    show(src, Edit::SetNodeAttr { node: "e".into(), key: "x".into(), value: "1".into() });
    show(src, Edit::RemoveNodeAttr { node: "a".into(), key: "label".into() });
    show(src, Edit::RemoveNodeAttr { node: "a".into(), key: "prompt".into() });
    show(src, Edit::AddNode { id: "z".into(), attrs: vec![("shape".into(), "tab".into())] });
    show(src, Edit::RemoveNode { id: "c".into() });
    show(src, Edit::RemoveNode { id: "a".into() });
    show(src, Edit::RenameNode { from: "c".into(), to: "see".into() });
    show(src, Edit::AddEdge { from: "a".into(), to: "e".into(), attrs: vec![] });
    show(src, Edit::RemoveEdge { edge: ek("a","b") });
    show(src, Edit::RemoveEdge { edge: ek("b","c") });
    show(src, Edit::RemoveEdge { edge: ek("c","d") });
    show(src, Edit::RemoveEdge { edge: ek("c","e") });
    show(src, Edit::SetEdgeAttr { edge: ek("b","c"), key: "label".into(), value: "x".into() });
    show(src, Edit::SetEdgeAttr { edge: ek("c","e"), key: "label".into(), value: "x".into() });
    show(src, Edit::RemoveEdgeAttr { edge: ek("c","d"), key: "label".into() });
}
