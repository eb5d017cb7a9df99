//! The index's `TREE` extension: for each folder the index has cached, the tree object its
//! entries make and how many entries and cached subfolders it holds. A folder whose
//! entries changed is marked invalid (entry count -1, no tree), with every folder above
//! it, as git and libgit2 do, so the next tree build re-hashes only those folders; the
//! other folders' trees are reused.

use git2::Oid;

/// One cached folder (the root has an empty name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedTree {
    /// The folder's name inside its parent.
    pub name: Vec<u8>,
    /// How many index entries the folder holds, or -1 when invalid.
    pub entry_count: i64,
    /// The folder's tree, when valid.
    pub id: Option<Oid>,
    /// Its cached subfolders, in the order they were read.
    pub children: Vec<CachedTree>,
}

impl CachedTree {
    /// Parses the extension's data; `None` when it is malformed (the cache is then
    /// dropped, which only costs a rebuild).
    pub fn parse(data: &[u8]) -> Option<CachedTree> {
        let mut at = 0;
        let root = parse_node(data, &mut at, 0)?;
        (at == data.len()).then_some(root)
    }

    /// The root tree, when the cache says it is valid.
    pub fn root_id(&self) -> Option<Oid> {
        if self.entry_count >= 0 { self.id } else { None }
    }

    /// Marks the folders holding `path` (from the root down) invalid.
    pub fn invalidate(&mut self, path: &[u8]) {
        self.entry_count = -1;
        self.id = None;
        let mut node = self;
        let mut rest = path;
        while let Some(slash) = rest.iter().position(|b| *b == b'/') {
            let (folder, after) = (&rest[..slash], &rest[slash + 1..]);
            let Some(child) = node.children.iter_mut().find(|c| c.name == folder) else {
                return;
            };
            child.entry_count = -1;
            child.id = None;
            node = child;
            rest = after;
        }
    }

    /// Appends the extension's data (without its signature and size) to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.name);
        out.push(0);
        out.extend_from_slice(format!("{} {}\n", self.entry_count, self.children.len()).as_bytes());
        if let (Some(id), true) = (self.id, self.entry_count >= 0) {
            out.extend_from_slice(id.as_bytes());
        }
        for child in &self.children {
            child.write(out);
        }
    }
}

/// Deeper than any real work tree; bounds the recursion on hostile input.
const MAX_DEPTH: usize = 4096;

fn parse_node(data: &[u8], at: &mut usize, depth: usize) -> Option<CachedTree> {
    if depth > MAX_DEPTH {
        return None;
    }
    let name = take_until(data, at, 0)?.to_vec();
    let entry_count: i64 = std::str::from_utf8(take_until(data, at, b' ')?)
        .ok()?
        .parse()
        .ok()?;
    let subtrees: usize = std::str::from_utf8(take_until(data, at, b'\n')?)
        .ok()?
        .parse()
        .ok()?;
    let id = if entry_count >= 0 {
        let bytes = data.get(*at..*at + 20)?;
        *at += 20;
        Some(Oid::from_bytes(bytes).ok()?)
    } else {
        None
    };
    // Each subtree takes at least four bytes: a bounded allocation whatever the count says.
    let mut children = Vec::with_capacity(subtrees.min((data.len() - *at) / 4));
    for _ in 0..subtrees {
        children.push(parse_node(data, at, depth + 1)?);
    }
    Some(CachedTree {
        name,
        entry_count,
        id,
        children,
    })
}

fn take_until<'a>(data: &'a [u8], at: &mut usize, end: u8) -> Option<&'a [u8]> {
    let rest = data.get(*at..)?;
    let length = rest.iter().position(|b| *b == end)?;
    *at += length + 1;
    Some(&rest[..length])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn oid(n: u8) -> Oid {
        Oid::from_bytes(&[n; 20]).unwrap()
    }

    fn node(name: &str, count: i64, id: u8, children: Vec<CachedTree>) -> CachedTree {
        CachedTree {
            name: name.as_bytes().to_vec(),
            entry_count: count,
            id: (count >= 0).then(|| oid(id)),
            children,
        }
    }

    fn sample() -> CachedTree {
        node(
            "",
            4,
            1,
            vec![
                node("a", 2, 2, vec![node("deep", 1, 3, vec![])]),
                node("b", 1, 4, vec![]),
            ],
        )
    }

    #[test]
    fn written_data_parses_back_to_the_same_cache() {
        let mut data = Vec::new();
        sample().write(&mut data);
        assert_eq!(CachedTree::parse(&data), Some(sample()));
        assert_eq!(CachedTree::parse(&data).unwrap().root_id(), Some(oid(1)));
    }

    #[test]
    fn invalidating_a_path_marks_its_folders_and_keeps_the_others() {
        let mut cache = sample();
        cache.invalidate(b"a/deep/file.txt");
        assert_eq!(cache.root_id(), None);
        assert_eq!(cache.children[0].entry_count, -1);
        assert_eq!(cache.children[0].children[0].entry_count, -1);
        assert_eq!(cache.children[1], node("b", 1, 4, vec![]));
        // Invalid folders are written without a tree, and read back the same.
        let mut data = Vec::new();
        cache.write(&mut data);
        assert_eq!(CachedTree::parse(&data), Some(cache));
    }

    #[test]
    fn a_file_at_the_top_invalidates_only_the_root() {
        let mut cache = sample();
        cache.invalidate(b"top.txt");
        assert_eq!(cache.entry_count, -1);
        assert_eq!(cache.children[0].id, Some(oid(2)));
    }

    #[test]
    fn malformed_data_is_refused_not_trusted() {
        let mut data = Vec::new();
        sample().write(&mut data);
        for cut in [1, 5, data.len() - 1] {
            assert_eq!(CachedTree::parse(&data[..cut]), None, "cut at {cut}");
        }
        assert_eq!(CachedTree::parse(b"\0x 1\n"), None);
        assert_eq!(CachedTree::parse(b"\0-1 999999999999\n"), None);
        let mut trailing = data.clone();
        trailing.push(b'x');
        assert_eq!(CachedTree::parse(&trailing), None);
    }
}
