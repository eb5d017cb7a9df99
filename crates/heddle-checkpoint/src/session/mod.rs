//! One run's open checkpoint session: its repository, private index, watcher and filters,
//! and the checkpoint cycle run after every node (DESIGN.md's order: the engine saved
//! checkpoint.json; then the metadata commit, then the run-branch commit with trailers
//! naming it; the engine re-saves checkpoint.json with the sha returned).
//!
//! A checkpoint's new objects are held in memory and written as one pack before any ref
//! or the index names them ([`PendingObjects`]); the small packs are merged every
//! [`PACK_EVERY`](crate::pack::PACK_EVERY) checkpoints and at the end ([`SessionPacks`]),
//! with any loose objects other writers left.
//!
//! A session may hold the checkpoints of stages followed by a quiet node and publish them
//! together ([`crate::grouping`]); everything else it does publishes what it holds first.
//!
//! The session lives on a thread of its own ([`crate::actor`]), which owns the repository
//! the session borrows; [`Session`] is that thread seen as a plain value.

use std::path::Path;

use git2::{Index, Oid, Repository};
use heddle_engine::hooks::GitCheckpoint;
use heddle_engine::{Checkpoint, RunDir};
use heddle_workflow::HandlerKind;

use crate::actor::SessionHandle;
use crate::error::{CheckpointError, Result};
use crate::filters::Filters;
use crate::grouping::{Grouping, Unpublished};
use crate::message::{CheckpointType, CommitFacts, MessageParts, shadow_message, worktree_message};
use crate::metadata::{CheckpointHead, MetadataParts, RootBlobs, metadata_commit};
use crate::pack::pack_loose;
use crate::pending_objects::PendingObjects;
use crate::repo::{commit, open_index, signature, tip};
use crate::run_nodes::RunNodes;
use crate::session_packs::SessionPacks;
use crate::snapshot::{refresh, tree_of};
use crate::state::{GitState, Mode};
use crate::tracker::{Changes, Tracker};

mod publish;
mod stage_files;

/// diff.patch files larger than this are cut, with a note.
const PATCH_LIMIT: usize = 4 * 1024 * 1024;

/// How a session follows its work tree and publishes its checkpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionOptions {
    /// Watch the work tree (otherwise every checkpoint rescans it).
    pub watch: bool,
    /// Which checkpoints may wait to be published together.
    pub grouping: Grouping,
}

/// An open session owned by its caller (a one-off checkpoint, tests): the session runs on
/// its own thread, and each call waits for it; every checkpoint is published before the
/// call returns. Dropping it closes the session.
pub struct Session {
    handle: Option<SessionHandle>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    /// Opens the session of the run in `run_dir`, watching its work tree when `watch`.
    pub fn open(run_dir: &RunDir, state: GitState, watch: bool) -> Result<Session> {
        let options = SessionOptions {
            watch,
            grouping: Grouping::OFF,
        };
        let (handle, thread) = SessionHandle::spawn_joinable(run_dir, state, options)?;
        Ok(Session {
            handle: Some(handle),
            thread: Some(thread),
        })
    }

    fn handle(&self) -> Result<&SessionHandle> {
        self.handle.as_ref().ok_or_else(crate::actor::stopped)
    }

    /// Records the checkpoint the engine just saved.
    pub fn checkpoint(&mut self, checkpoint: &Checkpoint) -> Result<GitCheckpoint> {
        let checkpoint = checkpoint.clone();
        self.handle()?
            .run_blocking(move |session| session.checkpoint(&checkpoint))
    }

    /// Brings the index up to date with the work tree; the tree it names, and warnings.
    pub fn snapshot(&mut self, changes: &Changes) -> Result<(Oid, Vec<String>)> {
        let changes = changes.clone();
        self.handle()?
            .run_blocking(move |session| session.snapshot(&changes))
    }

    /// Writes final.patch and packs what the run left.
    pub fn finish(&mut self) -> Result<()> {
        self.handle()?.run_blocking(|session| session.finish())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The thread ends once its last handle is gone; wait for it to let go of the
        // repository.
        self.handle = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A session open on its thread, borrowing the repository the thread owns.
pub struct OpenSession<'r> {
    /// Everything but the repository, kept when the repository is opened again.
    kept: SessionParts,
    repo: &'r Repository,
    objects: PendingObjects<'r>,
    /// The packs were merged: the session's object database still lists the packs that
    /// merging removed (libgit2 never forgets a pack it loaded), so its thread opens the
    /// repository again before the next job ([`OpenSession::into_parts`]).
    merged: bool,
}

/// An [`OpenSession`] without its repository, while its thread opens the repository again
/// (a fresh object database that lists only the packs on disk).
pub struct SessionParts {
    /// The run's git state.
    state: GitState,
    run_dir: RunDir,
    index: Index,
    filters: Filters,
    tracker: Tracker,
    nodes: RunNodes,
    grouping: Grouping,
    /// Checkpoints made and not yet published.
    unpublished: Option<Unpublished>,
    /// Checkpoints published since the packs were last merged (they are merged every
    /// [`PACK_EVERY`](crate::pack::PACK_EVERY)).
    since_merge: u64,
    /// The run's root files as last stored in the metadata history.
    root_blobs: RootBlobs,
    /// The index in memory may differ from its file.
    index_changed: bool,
    /// The packs the session wrote.
    packs: SessionPacks,
}

impl SessionParts {
    /// The run's git state.
    pub fn state(&self) -> &GitState {
        &self.state
    }
}

impl<'r> OpenSession<'r> {
    /// Opens the session of the run in `run_dir` on `repo` (opened with
    /// [`crate::repo::open`]), its new objects going to `objects`, with `options`.
    pub fn open(
        run_dir: &RunDir,
        state: GitState,
        options: SessionOptions,
        repo: &'r Repository,
        objects: PendingObjects<'r>,
    ) -> Result<OpenSession<'r>> {
        let index = open_index(repo, &state)?;
        let filters = Filters::for_state(&state);
        let tracker = if options.watch {
            Tracker::start(&state.work_tree, &run_dir.root().join(".watch-sync"))
        } else {
            Tracker::disabled()
        };
        let kept = SessionParts {
            nodes: RunNodes::read(run_dir),
            grouping: options.grouping,
            unpublished: None,
            state,
            run_dir: run_dir.clone(),
            index,
            filters,
            tracker,
            since_merge: 0,
            root_blobs: RootBlobs::default(),
            index_changed: false,
            packs: SessionPacks::default(),
        };
        Ok(OpenSession {
            kept,
            repo,
            objects,
            merged: false,
        })
    }

    /// Whether the session merged its packs since it was opened on its repository.
    pub fn merged_packs(&self) -> bool {
        self.merged
    }

    /// The session without its repository (its new objects all on disk).
    pub fn into_parts(self) -> SessionParts {
        self.kept
    }

    /// The session `parts` were taken from, on `repo` (opened again, with
    /// [`crate::repo::open`]) and its new objects going to `objects`.
    pub fn from_parts(
        mut parts: SessionParts,
        repo: &'r Repository,
        objects: PendingObjects<'r>,
    ) -> Result<OpenSession<'r>> {
        repo.set_index(&mut parts.index)
            .map_err(|e| CheckpointError::git(&parts.state.git_dir, "attach index", &e))?;
        Ok(OpenSession {
            kept: parts,
            repo,
            objects,
            merged: false,
        })
    }

    /// The repository.
    pub fn repo(&self) -> &Repository {
        self.repo
    }

    /// Brings the index up to date with the work tree and saves it; the tree it names, and
    /// warnings.
    pub fn snapshot(&mut self, changes: &Changes) -> Result<(Oid, Vec<String>)> {
        let published = self.publish()?;
        let (tree, mut warnings) = self.tree_of(changes)?;
        warnings.extend(published);
        let committed = match tip(self.repo, &self.kept.state.branch)? {
            Some(tip) => Some(commit(self.repo, tip)?.tree_id()),
            None => None,
        };
        self.objects.add_tree(committed, tree)?;
        self.flush_objects()?;
        self.save_index()?;
        Ok((tree, warnings))
    }

    /// Brings the index up to date with the work tree (in memory); the tree it names (its
    /// new objects pending), and warnings.
    fn tree_of(&mut self, changes: &Changes) -> Result<(Oid, Vec<String>)> {
        let nothing = matches!(changes, Changes::Paths { paths, dirs } if paths.is_empty() && dirs.is_empty());
        self.kept.index_changed |= !nothing;
        let warnings = refresh(
            self.repo,
            &mut self.kept.index,
            &mut self.kept.filters,
            changes,
        )?;
        let tree = tree_of(self.repo, &mut self.kept.index)?;
        Ok((tree, warnings))
    }

    /// Writes the index file (after the objects it names are on disk), unless nothing in
    /// the work tree changed since it was last read or written.
    fn save_index(&mut self) -> Result<()> {
        if !self.kept.index_changed {
            return Ok(());
        }
        self.kept
            .index
            .write()
            .map_err(|e| CheckpointError::git(self.repo.path(), "save the run's index", &e))?;
        self.kept.index_changed = false;
        Ok(())
    }

    /// The tree of the work tree now, as far as the watcher knows (its new objects
    /// pending).
    fn snapshot_changes(&mut self) -> Result<(Oid, Vec<String>)> {
        let mut changes = self.kept.tracker.take();
        if let Changes::Paths { paths, .. } = &changes {
            // A changed ignore or attribute file changes which other files count: rescan.
            let rules = paths.iter().any(|p| {
                p.file_name()
                    .is_some_and(|n| n == ".gitignore" || n == ".gitattributes")
            });
            if rules {
                changes = Changes::Everything;
            }
        }
        self.tree_of(&changes)
    }

    /// Records the checkpoint the engine just saved.
    pub fn checkpoint(&mut self, checkpoint: &Checkpoint) -> Result<GitCheckpoint> {
        let (tree_id, warnings) = self.snapshot_changes()?;
        let parent_id = self.branch_tip()?;
        let parent = commit(self.repo, parent_id)?;
        let node = checkpoint
            .current_node
            .clone()
            .unwrap_or_else(|| "run".into());
        if self.kept.nodes.is_empty() {
            // graph.dot is written after a new run's session opened.
            self.kept.nodes = RunNodes::read(&self.kept.run_dir);
        }
        let record = checkpoint.timeline.iter().rev().find(|r| r.node_id == node);
        let stage_dir = record.map(|r| {
            Path::new(&r.stage_dir)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        let git =
            |what: &str, e: &git2::Error| CheckpointError::git(&self.kept.state.git_dir, what, e);
        let tree = self.repo.find_tree(tree_id).map_err(|e| git("tree", &e))?;
        let old_tree = parent.tree().map_err(|e| git("parent tree", &e))?;
        let files_touched = self.write_stage_diff(&old_tree, &tree, stage_dir.as_deref())?;
        let status = checkpoint
            .node_outcomes
            .get(&node)
            .map_or("success", |o| o.status.as_str());
        let sig = signature(&checkpoint.timestamp)?;
        let metadata_message = format!(
            "heddle({}) checkpoint: {node} ({status})\n",
            self.kept.state.run_id
        );
        let stage_dirs: Vec<String> = stage_dir.into_iter().collect();
        // checkpoint.json as the engine has it now (on disk it is rewritten only now and
        // then; head lines of timeline.jsonl stand for it).
        let checkpoint_json = checkpoint.head_bytes(&self.kept.run_dir.checkpoint())?;
        let parts = MetadataParts {
            parent: self.metadata_tip()?,
            stage_dirs: &stage_dirs,
            message: &metadata_message,
            signature: &sig,
            head: Some(CheckpointHead {
                json: &checkpoint_json,
                history_bytes: checkpoint.history_bytes,
            }),
        };
        let metadata = metadata_commit(
            self.repo,
            &self.kept.run_dir,
            parts,
            &mut self.kept.root_blobs,
        )?;
        let facts = CommitFacts {
            run_id: self.kept.state.run_id.clone(),
            node_id: node.clone(),
            status: status.to_string(),
            completed: checkpoint.stages.max(checkpoint.completed_nodes.len()),
            metadata_sha: metadata.commit.to_string(),
        };
        let message = match self.kept.state.mode {
            Mode::Worktree => worktree_message(&facts),
            Mode::Shadow => shadow_message(&MessageParts {
                facts: &facts,
                kind: CheckpointType::of(
                    status,
                    record.is_some_and(|r| r.kind == HandlerKind::Exit),
                ),
                label: self.kept.nodes.label(&node).unwrap_or(node.as_str()),
                timestamp: &checkpoint.timestamp,
                duration_ms: record.map_or(0, |r| r.duration_ms),
            }),
        };
        let new = self
            .repo
            .commit(None, &sig, &sig, &message, &tree, &[&parent])
            .map_err(|e| git("checkpoint commit", &e))?;
        self.objects.add_commit(new, Some(old_tree.id()), tree_id)?;
        self.objects
            .add_commit(metadata.commit, Some(metadata.parent_tree), metadata.tree)?;
        let held = self.hold(parent_id, new, &metadata);
        let next_is_quiet = checkpoint
            .next_node_id
            .as_deref()
            .is_some_and(|next| self.kept.nodes.is_quiet(next));
        let mut warnings = warnings;
        if !self.kept.grouping.may_hold(held, next_is_quiet) {
            warnings.extend(self.publish()?);
        }
        Ok(GitCheckpoint {
            sha: new.to_string(),
            files_touched,
            warnings,
        })
    }

    /// Writes the objects named since the last flush as one pack, flushed to disk.
    fn flush_objects(&mut self) -> Result<()> {
        if let Some(name) = self.objects.flush()? {
            self.kept.packs.wrote(name);
        }
        Ok(())
    }

    /// Merges the packs the session wrote, and packs loose objects others left (at least
    /// `min_loose` of them).
    fn pack(&mut self, min_loose: usize) -> Result<()> {
        self.merged |= self.kept.packs.merge(self.repo)?.pack.is_some();
        pack_loose(self.repo, min_loose).map(|_| ())
    }
}
