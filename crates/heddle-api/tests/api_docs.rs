//! docs/api.md lists exactly the operations of heddle-api's table: every name in the first
//! column of the tables under "## Operations" is an operation, and every operation is there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use heddle_api::operations::OPERATIONS;

/// The backticked names in the first column of the tables of the `## Operations` section.
fn documented_operations(doc: &str) -> BTreeSet<String> {
    let start = doc
        .find("\n## Operations\n")
        .expect("docs/api.md has ## Operations");
    let section = &doc[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    section[..end]
        .lines()
        .filter_map(|line| line.strip_prefix('|'))
        .filter_map(|row| row.split('|').next())
        .flat_map(|cell| cell.split(','))
        .filter_map(|name| name.trim().strip_prefix('`')?.strip_suffix('`'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_api_doc_lists_exactly_the_operations_of_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md");
    let documented = documented_operations(&std::fs::read_to_string(path).unwrap());
    let declared: BTreeSet<String> = OPERATIONS.iter().map(|op| op.name.to_owned()).collect();
    let missing: Vec<_> = declared.difference(&documented).collect();
    let unknown: Vec<_> = documented.difference(&declared).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "docs/api.md's Operations tables differ from heddle-api's operation table: \
         not documented {missing:?}; documented but not an operation {unknown:?}"
    );
}

#[test]
fn the_first_column_of_each_row_is_read() {
    let doc = "# T\n\n## Operations\n\n| operation | x |\n|---|---|\n| `a`, `b` | `c` |\n\n## Errors\n\n| `d` | x |\n";
    let names: Vec<_> = documented_operations(doc).into_iter().collect();
    assert_eq!(names, ["a", "b"]);
}
