//! Rewriting parts of attribute values in place: only the bytes asked for change, and a
//! change outside an attribute value is refused without touching the document.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_dot::{Stmt, ValueSplice, parse};

const SOURCE: &str =
    "digraph {\n  // keep me\n  a [retry_target=\"  b \", note=\"#b, .x { }\"];\n  b;\n}\n";

fn attrs(doc: &heddle_dot::Document) -> Vec<heddle_dot::Attr> {
    match doc.graph().unwrap().stmts.first() {
        Some(Stmt::Node(n)) => n.attrs.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn whole_and_part_splices_change_only_their_values() {
    let mut doc = parse(SOURCE).document;
    let found = attrs(&doc);
    let note = &found[1].value;
    let at = SOURCE.find("#b,").unwrap() + 1;
    doc.splice_values(&[
        ValueSplice::whole(&found[0].value, "  c "),
        ValueSplice::part(note, at, at + 1, "c").unwrap(),
    ])
    .unwrap();
    assert_eq!(
        doc.text(),
        SOURCE.replace("\"  b \"", "\"  c \"").replace("#b,", "#c,")
    );
}

#[test]
fn a_splice_outside_a_value_is_refused_and_changes_nothing() {
    let mut doc = parse(SOURCE).document;
    let found = attrs(&doc);
    let key = &found[0].key;
    assert!(ValueSplice::part(key, key.span.start, key.span.end, "x\"y").is_err());
    let outside = ValueSplice::whole(key, "other");
    assert!(doc.splice_values(&[outside]).is_err());
    assert_eq!(doc.text(), SOURCE);
}
