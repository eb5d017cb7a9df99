//! Git's pack format (version 2) and its index (`.idx`, version 2), written and read
//! without libgit2's pack builder and indexer, for the two things a checkpoint session does
//! often and that need no delta search:
//!
//! - a checkpoint's few new objects become one pack of whole objects ([`PackEntry::whole`],
//!   [`encode_pack`]): small objects go in uncompressed ([`STORE_BELOW`]), so framing and
//!   hashing them is all the work;
//! - packs are merged by copying their bodies one after the other ([`concatenate`]): an
//!   entry's bytes do not depend on where it sits, and a delta that names its base by
//!   distance (`OFS_DELTA`) finds it at the same distance when its whole pack is copied as
//!   one block. The packs merged must hold no object twice (git refuses a pack that does).
//!
//! The pack is named, as git names it, by the SHA-1 that ends it.

use std::collections::HashSet;
use std::path::Path;

use flate2::{Compress, Compression, FlushCompress, Status};
use git2::{ObjectType, Oid};
use sha1::{Digest, Sha1};

use crate::error::{CheckpointError, Result};

/// A pack's header: signature, version, object count.
const PACK_HEADER: usize = 12;
/// A SHA-1 hash, as packs and indexes end with.
const HASH_BYTES: usize = 20;
/// An index's start: magic and version.
const INDEX_MAGIC: [u8; 8] = [0xff, b't', b'O', b'c', 0, 0, 0, 2];
/// Offsets from this one on go to the index's table of 8-byte offsets.
const LARGE_OFFSET: u64 = 0x8000_0000;

/// One object as a pack stores it: its type-and-size header and its zlib stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackEntry {
    /// The object's id.
    pub id: Oid,
    /// CRC-32 of `bytes`, as the index keeps it.
    pub crc32: u32,
    /// Header and compressed data.
    pub bytes: Vec<u8>,
}

impl PackEntry {
    /// The entry of a whole (not deltified) object of kind `kind` holding `data`, with a
    /// compressor of its own (a writer of many entries keeps one [`EntryCompressor`]).
    pub fn whole(id: Oid, kind: ObjectType, data: &[u8]) -> Result<PackEntry> {
        EntryCompressor::new().whole(id, kind, data)
    }
}

/// Objects smaller than this go into an entry as zlib's stored (uncompressed) blocks: a
/// compressor clears about 300 KB of tables before each stream, which costs more than a
/// checkpoint's small objects (commits, trees, status files) would save on disk, and those
/// packs are short-lived (merged, and compressed, every few checkpoints).
pub const STORE_BELOW: usize = 32 * 1024;

/// The most a stored deflate block holds.
const STORED_BLOCK: usize = 0xffff;

/// Writes objects as pack entries, one zlib stream each: small ones in stored blocks, the
/// others compressed with one compressor kept from entry to entry.
pub struct EntryCompressor {
    deflate: Compress,
}

impl Default for EntryCompressor {
    fn default() -> Self {
        Self::new()
    }
}

impl EntryCompressor {
    /// A compressor at zlib's fast level, as entries are written.
    pub fn new() -> EntryCompressor {
        EntryCompressor {
            deflate: Compress::new(Compression::fast(), true),
        }
    }

    /// The entry of a whole (not deltified) object of kind `kind` holding `data`.
    pub fn whole(&mut self, id: Oid, kind: ObjectType, data: &[u8]) -> Result<PackEntry> {
        let code: u8 = match kind {
            ObjectType::Commit => 1,
            ObjectType::Tree => 2,
            ObjectType::Blob => 3,
            ObjectType::Tag => 4,
            other => {
                return Err(storage_error(
                    Path::new("pack"),
                    format!("object {id} is a {other}, which a pack cannot hold whole"),
                ));
            }
        };
        let mut bytes = Vec::with_capacity(data.len() + data.len() / STORED_BLOCK * 5 + 32);
        // Type in bits 4-6 of the first byte, the size in 4 bits there then 7 a byte.
        let mut size = data.len() as u64;
        let mut byte = (code << 4) | (size & 0x0f) as u8;
        size >>= 4;
        while size > 0 {
            bytes.push(byte | 0x80);
            byte = (size & 0x7f) as u8;
            size >>= 7;
        }
        bytes.push(byte);
        if data.len() < STORE_BELOW {
            stored_stream(&mut bytes, data);
        } else {
            self.compress(&mut bytes, data)?;
        }
        Ok(PackEntry {
            id,
            crc32: crc32fast::hash(&bytes),
            bytes,
        })
    }

    /// Appends `data` to `bytes` as one compressed zlib stream.
    fn compress(&mut self, bytes: &mut Vec<u8>, data: &[u8]) -> Result<()> {
        self.deflate.reset();
        loop {
            let read = usize::try_from(self.deflate.total_in()).unwrap_or(usize::MAX);
            let rest = data.get(read..).unwrap_or_default();
            if bytes.capacity() - bytes.len() < 64 {
                bytes.reserve(rest.len() / 2 + 64);
            }
            let status = self
                .deflate
                .compress_vec(rest, bytes, FlushCompress::Finish)
                .map_err(|e| storage_error(Path::new("pack"), e.to_string()))?;
            if status == Status::StreamEnd {
                return Ok(());
            }
        }
    }
}

/// Appends `data` to `bytes` as a zlib stream of stored deflate blocks (RFC 1950 and
/// 1951): the header, blocks of at most 65,535 bytes each with its length and the length's
/// complement, and the Adler-32 of the data.
fn stored_stream(bytes: &mut Vec<u8>, data: &[u8]) {
    // Deflate with a 32 KiB window, no preset dictionary; the check bits make the header a
    // multiple of 31.
    bytes.extend_from_slice(&[0x78, 0x01]);
    // At least one block: an empty stream is one empty final block.
    let blocks = data.len().div_ceil(STORED_BLOCK).max(1);
    for k in 0..blocks {
        let block = &data[k * STORED_BLOCK..((k + 1) * STORED_BLOCK).min(data.len())];
        bytes.push(u8::from(k + 1 == blocks));
        let len = block.len() as u16;
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(&(!len).to_le_bytes());
        bytes.extend_from_slice(block);
    }
    let mut adler = adler2::Adler32::new();
    adler.write_slice(data);
    bytes.extend_from_slice(&adler.checksum().to_be_bytes());
}

/// A pack and its index, ready to be written.
#[derive(Debug, Clone)]
pub struct EncodedPack {
    /// The `.pack` file.
    pub pack: Vec<u8>,
    /// The `.idx` file.
    pub index: Vec<u8>,
    /// The pack's name: the hex SHA-1 ending it (`pack-{name}.pack`).
    pub name: String,
    /// How many objects it holds.
    pub objects: usize,
}

/// Where an object is in its pack, as the index says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexedObject {
    /// The object's id.
    pub id: Oid,
    /// CRC-32 of its entry.
    pub crc32: u32,
    /// Its entry's offset in the pack.
    pub offset: u64,
}

/// The pack of `entries`, in that order; an object listed twice is kept once.
pub fn encode_pack(entries: &[PackEntry]) -> EncodedPack {
    let mut seen = HashSet::with_capacity(entries.len());
    let kept: Vec<&PackEntry> = entries.iter().filter(|e| seen.insert(e.id)).collect();
    let body: usize = kept.iter().map(|e| e.bytes.len()).sum();
    let mut pack = Vec::with_capacity(PACK_HEADER + body + HASH_BYTES);
    pack_header(&mut pack, kept.len());
    let mut indexed = Vec::with_capacity(kept.len());
    for entry in kept {
        indexed.push(IndexedObject {
            id: entry.id,
            crc32: entry.crc32,
            offset: pack.len() as u64,
        });
        pack.extend_from_slice(&entry.bytes);
    }
    finish(pack, indexed)
}

/// The pack holding every object of the packs `sources` (each a `.pack` path with its
/// `.idx` beside it), their bodies copied in that order. Fails, changing nothing, when an
/// object is in two of them or a file is not a version 2 pack or index.
pub fn concatenate(sources: &[&Path]) -> Result<EncodedPack> {
    let mut pack = Vec::new();
    pack_header(&mut pack, 0);
    let mut indexed = Vec::new();
    let mut seen = HashSet::new();
    for source in sources {
        let bytes = std::fs::read(source).map_err(|e| CheckpointError::io(source, &e))?;
        if bytes.len() < PACK_HEADER + HASH_BYTES || &bytes[..8] != b"PACK\0\0\0\x02" {
            return Err(storage_error(source, "not a version 2 pack".into()));
        }
        let objects = read_index(&source.with_extension("idx"))?;
        let listed = u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
        if listed != objects.len() {
            return Err(storage_error(
                source,
                format!("holds {listed} objects, its index lists {}", objects.len()),
            ));
        }
        let moved_by = pack.len() as u64 - PACK_HEADER as u64;
        for object in objects {
            if !seen.insert(object.id) {
                return Err(storage_error(
                    source,
                    format!(
                        "object {} is also in another pack merged with it",
                        object.id
                    ),
                ));
            }
            indexed.push(IndexedObject {
                offset: object.offset + moved_by,
                ..object
            });
        }
        pack.extend_from_slice(&bytes[PACK_HEADER..bytes.len() - HASH_BYTES]);
    }
    let count = u32::try_from(indexed.len())
        .map_err(|_| storage_error(Path::new("pack"), "more objects than a pack holds".into()))?;
    pack[8..12].copy_from_slice(&count.to_be_bytes());
    Ok(finish(pack, indexed))
}

/// Every object a version 2 pack index lists, with its entry's CRC-32 and offset.
pub fn read_index(path: &Path) -> Result<Vec<IndexedObject>> {
    let bytes = std::fs::read(path).map_err(|e| CheckpointError::io(path, &e))?;
    parse_index(&bytes).ok_or_else(|| storage_error(path, "not a version 2 pack index".into()))
}

fn parse_index(bytes: &[u8]) -> Option<Vec<IndexedObject>> {
    let fanout_end = INDEX_MAGIC.len() + 256 * 4;
    if bytes.get(..INDEX_MAGIC.len())? != INDEX_MAGIC {
        return None;
    }
    let count = be32(bytes, fanout_end - 4)? as usize;
    let ids_at = fanout_end;
    let crcs_at = ids_at + count * HASH_BYTES;
    let offsets_at = crcs_at + count * 4;
    let large_at = offsets_at + count * 4;
    let mut objects = Vec::with_capacity(count);
    for i in 0..count {
        let id =
            Oid::from_bytes(bytes.get(ids_at + i * HASH_BYTES..ids_at + (i + 1) * HASH_BYTES)?)
                .ok()?;
        let small = be32(bytes, offsets_at + i * 4)?;
        let offset = if u64::from(small) & LARGE_OFFSET == 0 {
            u64::from(small)
        } else {
            let at = large_at + (small & 0x7fff_ffff) as usize * 8;
            u64::from_be_bytes(bytes.get(at..at + 8)?.try_into().ok()?)
        };
        objects.push(IndexedObject {
            id,
            crc32: be32(bytes, crcs_at + i * 4)?,
            offset,
        });
    }
    Some(objects)
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn pack_header(pack: &mut Vec<u8>, count: usize) {
    pack.extend_from_slice(b"PACK");
    pack.extend_from_slice(&2u32.to_be_bytes());
    pack.extend_from_slice(&(count as u32).to_be_bytes());
}

/// Ends `pack` with its hash and writes the index of `objects` (entries of it).
fn finish(mut pack: Vec<u8>, mut objects: Vec<IndexedObject>) -> EncodedPack {
    let checksum: [u8; HASH_BYTES] = Sha1::digest(&pack).into();
    pack.extend_from_slice(&checksum);
    objects.sort_by_key(|o| o.id);
    let large: Vec<u64> = objects
        .iter()
        .map(|o| o.offset)
        .filter(|&offset| offset >= LARGE_OFFSET)
        .collect();
    let mut index = Vec::with_capacity(
        INDEX_MAGIC.len() + 256 * 4 + objects.len() * 28 + large.len() * 8 + 2 * HASH_BYTES,
    );
    index.extend_from_slice(&INDEX_MAGIC);
    let mut below = 0u32;
    let mut next = objects.iter().peekable();
    for first_byte in 0..=255u8 {
        while next.next_if(|o| o.id.as_bytes()[0] == first_byte).is_some() {
            below += 1;
        }
        index.extend_from_slice(&below.to_be_bytes());
    }
    for object in &objects {
        index.extend_from_slice(object.id.as_bytes());
    }
    for object in &objects {
        index.extend_from_slice(&object.crc32.to_be_bytes());
    }
    let mut large_at = 0u32;
    for object in &objects {
        let small = if object.offset < LARGE_OFFSET {
            object.offset as u32
        } else {
            large_at += 1;
            (large_at - 1) | LARGE_OFFSET as u32
        };
        index.extend_from_slice(&small.to_be_bytes());
    }
    for offset in large {
        index.extend_from_slice(&offset.to_be_bytes());
    }
    index.extend_from_slice(&checksum);
    let index_checksum: [u8; HASH_BYTES] = Sha1::digest(&index).into();
    index.extend_from_slice(&index_checksum);
    EncodedPack {
        pack,
        index,
        name: hex::encode(checksum),
        objects: objects.len(),
    }
}

fn storage_error(path: &Path, message: String) -> CheckpointError {
    CheckpointError::Storage {
        path: path.to_path_buf(),
        message,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::io::Read;

    use super::*;

    #[test]
    fn offsets_past_two_gibibytes_go_to_the_large_offset_table() {
        let id = |byte: u8| Oid::from_bytes(&[byte; 20]).unwrap();
        let objects = vec![
            IndexedObject {
                id: id(3),
                crc32: 7,
                offset: 12,
            },
            IndexedObject {
                id: id(1),
                crc32: 8,
                offset: LARGE_OFFSET + 5,
            },
            IndexedObject {
                id: id(2),
                crc32: 9,
                offset: 5 * LARGE_OFFSET,
            },
        ];
        let mut pack = Vec::new();
        pack_header(&mut pack, objects.len());
        let encoded = finish(pack, objects.clone());
        let mut expected = objects;
        expected.sort_by_key(|o| o.id);
        assert_eq!(parse_index(&encoded.index).unwrap(), expected);
        // Two 8-byte offsets, after the 4-byte ones.
        let small_end = INDEX_MAGIC.len() + 256 * 4 + 3 * 28;
        assert_eq!(encoded.index.len(), small_end + 2 * 8 + 2 * HASH_BYTES);
    }

    #[test]
    fn stored_streams_inflate_to_their_data_at_every_block_boundary() {
        for len in [
            0,
            1,
            100,
            STORED_BLOCK - 1,
            STORED_BLOCK,
            STORED_BLOCK + 1,
            200_000,
        ] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let mut stream = Vec::new();
            stored_stream(&mut stream, &data);
            let mut inflated = Vec::new();
            flate2::read::ZlibDecoder::new(&stream[..])
                .read_to_end(&mut inflated)
                .unwrap();
            assert_eq!(inflated, data, "{len} bytes");
            let blocks = len.div_ceil(STORED_BLOCK).max(1);
            assert_eq!(stream.len(), 2 + blocks * 5 + len + 4, "{len} bytes");
        }
    }
}
