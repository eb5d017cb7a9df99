import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import type { FileChange } from '../../generated/FileChange';
import type { FileStatus } from '../../generated/FileStatus';
import { changedOutsideFiles, nodeRunAfter, rollbackPlan } from './rollbackPlan';

const change = (path: string, status: FileStatus, old_path: string | null = null): FileChange => ({
  path,
  old_path,
  status,
  mode_change: null,
  binary: false,
  too_large: false,
  additions: 1,
  deletions: 1,
  hunks: [],
});

describe('rollbackPlan', () => {
  it('turns what the run changed since the target into what a rollback undoes', () => {
    expect(
      rollbackPlan([
        change('src/new.rs', 'added'),
        change('src/gone.rs', 'deleted'),
        change('src/main.rs', 'modified'),
        change('bin/tool', 'typechange'),
        change('docs/after.md', 'renamed', 'docs/before.md'),
      ]),
    ).toEqual({
      rewritten: ['bin/tool', 'src/main.rs'],
      restored: ['docs/before.md', 'src/gone.rs'],
      deleted: ['docs/after.md', 'src/new.rs'],
    });
  });

  it('changes nothing when the target is the tip', () => {
    expect(rollbackPlan([])).toEqual({ rewritten: [], restored: [], deleted: [] });
  });
});

describe('nodeRunAfter', () => {
  const entry = (sha: string, parent: string, node_id: string): CheckpointEntry => ({
    sha,
    node_id,
    status: 'success',
    completed: 1,
    metadata_sha: 'm',
    time: '2025-01-01T00:00:00Z',
    parent,
    timeline: 1,
    branches: [],
    current: false,
  });

  it('names the node whose checkpoint followed', () => {
    const entries = [entry('a', 'base', 'plan'), entry('b', 'a', 'build')];
    expect(nodeRunAfter(entries, 'a')).toBe('build');
    expect(nodeRunAfter(entries, 'b')).toBeNull();
  });
});

describe('changedOutsideFiles', () => {
  it('reads the files out of the refusal', () => {
    expect(
      changedOutsideFiles(
        'files changed outside the run since its last checkpoint: notes.txt, src/a.rs; commit or move them, or pass --force (a recovery snapshot is still taken first)',
      ),
    ).toEqual(['notes.txt', 'src/a.rs']);
    expect(changedOutsideFiles('something else')).toBeNull();
  });
});
