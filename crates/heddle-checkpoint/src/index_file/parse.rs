//! Reading an index file (versions 2, 3 and 4) into entries and its tree cache. The
//! trailing checksum is not verified, as git does not by default: the file is replaced
//! whole by a rename, and verifying it costs more than the rest of the read. Every length
//! is bounds-checked, so a damaged or hostile file is refused, never read past its end.
//! Optional extensions other than `TREE` are dropped (they are caches); a required one
//! (split index, sparse index) is reported as unsupported.

use git2::{IndexEntry, IndexTime, Oid};

use super::tree_cache::CachedTree;

/// Bytes of the SHA-1 checksum that ends the file.
pub const CHECKSUM: usize = 20;
/// Bytes of an entry before its path (without extended flags).
pub const ENTRY_FIXED: usize = 62;
/// The flag saying an entry has a second, extended flags field.
pub const EXTENDED: u16 = 0x4000;
/// The bits of the flags holding the path's length.
pub const NAME_MASK: u16 = 0x0fff;

/// An index file, read.
#[derive(Debug)]
pub struct ParsedIndex {
    /// The entries, in the file's (sorted) order.
    pub entries: Vec<IndexEntry>,
    /// The `TREE` extension, when present and well formed.
    pub tree: Option<CachedTree>,
}

/// Why an index file could not be read here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseFailure {
    /// Valid, but in a form this reader leaves to libgit2 (named).
    Unsupported(String),
    /// Not a readable index (what is wrong).
    Damaged(String),
}

/// Parses the bytes of an index file.
pub fn parse(bytes: &[u8]) -> Result<ParsedIndex, ParseFailure> {
    let damaged = |what: &str| ParseFailure::Damaged(what.to_string());
    if bytes.len() < 12 + CHECKSUM || &bytes[..4] != b"DIRC" {
        return Err(damaged("no index header"));
    }
    let body = &bytes[..bytes.len() - CHECKSUM];
    let version = be32(body, 4).ok_or_else(|| damaged("no version"))?;
    if !(2..=4).contains(&version) {
        return Err(ParseFailure::Unsupported(format!(
            "index version {version}"
        )));
    }
    let count = be32(body, 8).ok_or_else(|| damaged("no entry count"))? as usize;
    // An entry takes at least 8 bytes on disk: bounds the allocation.
    let mut entries = Vec::with_capacity(count.min(body.len() / 8));
    let mut at = 12;
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let entry = read_entry(body, &mut at, version, &previous).ok_or_else(|| {
            damaged(&format!(
                "entry {} is cut short or malformed",
                entries.len() + 1
            ))
        })?;
        previous.clone_from(&entry.path);
        entries.push(entry);
    }
    let mut tree = None;
    while at < body.len() {
        let (signature, size) = (body.get(at..at + 4), be32(body, at + 4));
        let (Some(signature), Some(size)) = (signature, size) else {
            return Err(damaged("an extension is cut short"));
        };
        let data = body
            .get(at + 8..at + 8 + size as usize)
            .ok_or_else(|| damaged("an extension is cut short"))?;
        if signature == b"TREE" {
            tree = CachedTree::parse(data);
        } else if !signature[0].is_ascii_uppercase() {
            return Err(ParseFailure::Unsupported(format!(
                "required index extension `{}`",
                String::from_utf8_lossy(signature)
            )));
        }
        at += 8 + size as usize;
    }
    Ok(ParsedIndex { entries, tree })
}

fn read_entry(body: &[u8], at: &mut usize, version: u32, previous: &[u8]) -> Option<IndexEntry> {
    let start = *at;
    let fixed = body.get(start..start + ENTRY_FIXED)?;
    let word = |i: usize| be32(fixed, i * 4);
    let time = |i: usize| Some(IndexTime::new(word(i)? as i32, word(i + 1)?));
    let flags = be16(fixed, 60)?;
    let mut cursor = start + ENTRY_FIXED;
    let flags_extended = if flags & EXTENDED != 0 {
        if version < 3 {
            return None;
        }
        let extended = be16(body, cursor)?;
        cursor += 2;
        extended
    } else {
        0
    };
    let path = if version == 4 {
        let (strip, used) = varint(body.get(cursor..)?)?;
        cursor += used;
        let keep = previous.len().checked_sub(usize::try_from(strip).ok()?)?;
        let suffix_length = body.get(cursor..)?.iter().position(|b| *b == 0)?;
        let mut path = previous[..keep].to_vec();
        path.extend_from_slice(&body[cursor..cursor + suffix_length]);
        *at = cursor + suffix_length + 1;
        path
    } else {
        let length = match flags & NAME_MASK {
            NAME_MASK => body.get(cursor..)?.iter().position(|b| *b == 0)?,
            short => usize::from(short),
        };
        let path = body.get(cursor..cursor + length)?.to_vec();
        if *body.get(cursor + length)? != 0 {
            return None;
        }
        // Padded with 1 to 8 NULs to a multiple of 8 bytes.
        *at = start + ((cursor - start + length + 8) & !7);
        if *at > body.len() {
            return None;
        }
        path
    };
    if path.is_empty() {
        return None;
    }
    Some(IndexEntry {
        ctime: time(0)?,
        mtime: time(2)?,
        dev: word(4)?,
        ino: word(5)?,
        mode: word(6)?,
        uid: word(7)?,
        gid: word(8)?,
        file_size: word(9)?,
        id: Oid::from_bytes(&fixed[40..60]).ok()?,
        flags,
        flags_extended,
        path,
    })
}

/// Git's offset varint (index v4 path prefixes): the value and the bytes it took.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut used = 0;
    let mut byte = *bytes.first()?;
    let mut value = u64::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        used += 1;
        byte = *bytes.get(used)?;
        value = value.checked_add(1)?.checked_mul(128)? | u64::from(byte & 0x7f);
    }
    Some((value, used + 1))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}
