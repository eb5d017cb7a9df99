//! The packs Heddle writes itself, checked against git and libgit2 on real repositories: a
//! pack of whole objects gets, byte for byte, the index libgit2's indexer makes for it; git
//! verifies it; packs (with deltas, from libgit2's pack builder, and without) merged by
//! concatenation read back every object and pass `git fsck`; a pack is never made with an
//! object twice. And a session's packs stay few: merged geometrically, no object in two.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use git2::{ObjectType, Oid, Repository};
use heddle_checkpoint::pack::{pack_dir, pack_index_ids, write_encoded, write_synced};
use heddle_checkpoint::pack_format::{EntryCompressor, PackEntry, concatenate, encode_pack};
use heddle_checkpoint::session_packs::{GROWTH, SessionPacks};

/// A bare repository in a new temporary folder.
fn repository() -> (tempfile::TempDir, Repository) {
    let dir = tempfile::tempdir().unwrap();
    let repo = Repository::init_bare(dir.path().join("repo.git")).unwrap();
    (dir, repo)
}

/// Blobs, a tree naming them and a commit of it: `n` blobs of some size, each different
/// (seeded by `seed`), written as loose objects. Their ids (the commit last).
fn objects(repo: &Repository, seed: usize, n: usize) -> Vec<Oid> {
    let mut ids = Vec::new();
    let mut tree = repo.treebuilder(None).unwrap();
    for i in 0..n {
        // Some of it repeats, so the pack builder finds deltas between versions.
        let text = format!(
            "{}\nversion {seed}-{i}\n",
            "shared line of text\n".repeat(40)
        );
        let blob = repo.blob(text.as_bytes()).unwrap();
        tree.insert(format!("file-{i}.txt"), blob, 0o100644)
            .unwrap();
        ids.push(blob);
    }
    let tree = repo.find_tree(tree.write().unwrap()).unwrap();
    ids.push(tree.id());
    let sig =
        git2::Signature::new("t", "t@example.invalid", &git2::Time::new(1_700_000_000, 0)).unwrap();
    ids.push(
        repo.commit(None, &sig, &sig, &format!("commit {seed}"), &tree, &[])
            .unwrap(),
    );
    ids
}

fn entries(repo: &Repository, ids: &[Oid]) -> Vec<PackEntry> {
    let odb = repo.odb().unwrap();
    ids.iter()
        .map(|&id| {
            let object = odb.read(id).unwrap();
            PackEntry::whole(id, object.kind(), object.data()).unwrap()
        })
        .collect()
}

fn git(git_dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .env("GIT_DIR", git_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Removes the loose copies of every object (so reads must come from the packs).
fn remove_loose(repo: &Repository) {
    for (_, path) in heddle_checkpoint::pack::loose_objects(repo).unwrap() {
        std::fs::remove_file(path).unwrap();
    }
}

fn packs(repo: &Repository) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(pack_dir(repo))
        .map(|dir| {
            dir.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "pack"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[test]
fn a_pack_of_whole_objects_is_indexed_as_libgit2_indexes_it() {
    let (_dir, repo) = repository();
    let ids = objects(&repo, 1, 12);
    let encoded = encode_pack(&entries(&repo, &ids));
    assert_eq!(encoded.objects, ids.len());
    let scratch = tempfile::tempdir().unwrap();
    let mut indexer = git2::Indexer::new(None, scratch.path(), 0o644, true).unwrap();
    std::io::Write::write_all(&mut indexer, &encoded.pack).unwrap();
    let name = indexer.commit().unwrap();
    assert_eq!(
        name, encoded.name,
        "named by its checksum, as git names packs"
    );
    let theirs = std::fs::read(scratch.path().join(format!("pack-{name}.idx"))).unwrap();
    assert_eq!(theirs, encoded.index, "the same index, byte for byte");

    let pack = write_encoded(&repo, &encoded).unwrap();
    remove_loose(&repo);
    let reopened = Repository::open_bare(repo.path()).unwrap();
    for id in &ids {
        reopened.find_object(*id, None).unwrap();
    }
    git(
        repo.path(),
        &["verify-pack", pack.with_extension("idx").to_str().unwrap()],
    );
    git(repo.path(), &["fsck", "--no-dangling", "--strict"]);
}

/// Bytes that do not compress (a linear congruential sequence's high bytes).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

#[test]
fn one_compressor_kept_across_entries_writes_what_a_fresh_one_writes() {
    let (_dir, repo) = repository();
    let mut contents: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"x".to_vec(),
        b"status: success\n".repeat(7),
        b"a line that repeats, and compresses well\n".repeat(2_000),
        noise(300_000, 7),
        noise(65, 8),
    ];
    contents.extend(contents.clone().into_iter().rev());
    let ids: Vec<Oid> = contents.iter().map(|c| repo.blob(c).unwrap()).collect();
    let mut kept = EntryCompressor::new();
    let entries: Vec<PackEntry> = ids
        .iter()
        .zip(&contents)
        .map(|(&id, data)| {
            let entry = kept.whole(id, ObjectType::Blob, data).unwrap();
            let fresh = PackEntry::whole(id, ObjectType::Blob, data).unwrap();
            assert_eq!(entry, fresh, "entry of {} bytes", data.len());
            entry
        })
        .collect();
    let encoded = encode_pack(&entries);
    let scratch = tempfile::tempdir().unwrap();
    let mut indexer = git2::Indexer::new(None, scratch.path(), 0o644, true).unwrap();
    std::io::Write::write_all(&mut indexer, &encoded.pack).unwrap();
    assert_eq!(indexer.commit().unwrap(), encoded.name);
    let empty = tempfile::tempdir().unwrap();
    let reader = Repository::init_bare(empty.path()).unwrap();
    let pack = write_encoded(&reader, &encoded).unwrap();
    git(
        reader.path(),
        &["verify-pack", pack.with_extension("idx").to_str().unwrap()],
    );
    let reader = Repository::open_bare(empty.path()).unwrap();
    for (id, data) in ids.iter().zip(&contents) {
        assert_eq!(reader.find_blob(*id).unwrap().content(), &data[..]);
    }
}

#[test]
fn an_object_named_twice_is_packed_once() {
    let (_dir, repo) = repository();
    let ids = objects(&repo, 2, 3);
    let mut twice = entries(&repo, &ids);
    twice.extend(entries(&repo, &ids[..2]));
    let encoded = encode_pack(&twice);
    assert_eq!(encoded.objects, ids.len());
    let pack = write_encoded(&repo, &encoded).unwrap();
    git(
        repo.path(),
        &["verify-pack", pack.with_extension("idx").to_str().unwrap()],
    );
}

#[test]
fn packs_with_and_without_deltas_merge_by_concatenation() {
    let (_dir, repo) = repository();
    // One pack from libgit2's pack builder (with deltas between the similar blobs) and two
    // of whole objects.
    let first = objects(&repo, 1, 30);
    let mut builder = repo.packbuilder().unwrap();
    for id in &first {
        builder.insert_object(*id, None).unwrap();
    }
    let with_deltas = write_synced(&repo, &mut builder).unwrap();
    let verbose = git(
        repo.path(),
        &[
            "verify-pack",
            "-v",
            with_deltas.with_extension("idx").to_str().unwrap(),
        ],
    );
    assert!(
        verbose.contains("chain length = 1"),
        "the builder's pack has deltas: {verbose}"
    );
    let second = objects(&repo, 2, 5);
    let third = objects(&repo, 3, 5);
    let whole_two = write_encoded(&repo, &encode_pack(&entries(&repo, &second))).unwrap();
    let whole_three = write_encoded(&repo, &encode_pack(&entries(&repo, &third))).unwrap();

    let joined = concatenate(&[&with_deltas, &whole_two, &whole_three]).unwrap();
    assert_eq!(joined.objects, first.len() + second.len() + third.len());
    for old in [&with_deltas, &whole_two, &whole_three] {
        heddle_checkpoint::pack::remove_pack(old).unwrap();
    }
    let pack = write_encoded(&repo, &joined).unwrap();
    remove_loose(&repo);
    assert_eq!(packs(&repo), vec![pack.clone()]);
    let reopened = Repository::open_bare(repo.path()).unwrap();
    for id in first.iter().chain(&second).chain(&third) {
        let object = reopened.find_object(*id, None).unwrap();
        assert_ne!(object.kind(), Some(ObjectType::Any));
    }
    git(
        repo.path(),
        &["verify-pack", pack.with_extension("idx").to_str().unwrap()],
    );
    git(repo.path(), &["fsck", "--no-dangling", "--strict"]);
}

#[test]
fn packs_that_share_an_object_are_not_concatenated() {
    let (_dir, repo) = repository();
    let ids = objects(&repo, 1, 4);
    let one = write_encoded(&repo, &encode_pack(&entries(&repo, &ids))).unwrap();
    let two = write_encoded(&repo, &encode_pack(&entries(&repo, &ids[1..3]))).unwrap();
    let error = concatenate(&[&one, &two]).unwrap_err().to_string();
    let shared = &ids[1..3];
    assert!(
        shared.iter().any(|id| error.contains(&id.to_string())),
        "{error}"
    );
    assert!(error.contains(&two.display().to_string()), "{error}");
}

#[test]
fn a_session_keeps_few_packs_and_no_object_twice() {
    let (_dir, repo) = repository();
    let mut session = SessionPacks::default();
    let mut every = Vec::new();
    let mut most_packs = 0;
    for merge in 0..40 {
        for checkpoint in 0..4 {
            let mut ids = objects(&repo, merge * 10 + checkpoint, 3);
            // A blob a checkpoint names again (a file changed back) is in an earlier pack.
            if let Some(&again) = every.first() {
                ids.push(again);
            }
            every.extend(&ids);
            let encoded = encode_pack(&entries(&repo, &ids));
            write_encoded(&repo, &encoded).unwrap();
            session.wrote(encoded.name);
        }
        let report = session.merge(&repo).unwrap();
        assert!(report.pack.is_some());
        most_packs = most_packs.max(packs(&repo).len());
    }
    remove_loose(&repo);
    // 40 merges: about log2(40) merged packs, never one per merge.
    let bound = 1 + (40f64).log(GROWTH as f64).ceil() as usize;
    assert!(
        session.merged() <= bound,
        "{} merged packs",
        session.merged()
    );
    assert!(most_packs <= bound + 1, "{most_packs} packs at once");
    let mut seen = HashSet::new();
    for pack in packs(&repo) {
        for id in pack_index_ids(&pack.with_extension("idx")).unwrap() {
            assert!(seen.insert(id), "{id} is in two packs");
        }
    }
    let reopened = Repository::open_bare(repo.path()).unwrap();
    for id in &every {
        reopened.find_object(*id, None).unwrap();
    }
    git(repo.path(), &["fsck", "--no-dangling", "--strict"]);
}
