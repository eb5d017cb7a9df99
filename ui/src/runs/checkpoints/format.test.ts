import { describe, expect, it } from 'vitest';
import { checkpointLabel, formatSize, formatTime, nodesCompleted, shortSha } from './format';

describe('format', () => {
  it('shortens commits', () => {
    expect(shortSha('3f2a9c1d5e6b7a8c9d0e')).toBe('3f2a9c1d');
  });

  it('writes sizes for people', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(20 * 1024 * 1024)).toBe('20 MB');
  });

  it('keeps a time it cannot read as it is', () => {
    expect(formatTime('not a time')).toBe('not a time');
    expect(formatTime('2025-03-04T05:06:07Z')).not.toBe('2025-03-04T05:06:07Z');
  });

  it('counts completed nodes', () => {
    expect(nodesCompleted(1)).toBe('1 node completed');
    expect(nodesCompleted(3)).toBe('3 nodes completed');
  });

  it('labels a checkpoint', () => {
    expect(
      checkpointLabel({
        sha: 'abcdef0123456789',
        node_id: 'build',
        status: 'success',
        completed: 2,
        metadata_sha: 'm',
        time: '2025-01-01T00:00:00Z',
        parent: null,
        timeline: 2,
        branches: [],
        current: false,
      }),
    ).toBe('build (success) · abcdef01 · timeline 2');
  });
});
