import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../generated/CheckpointEntry';
import { currentTip, layoutCommitGraph } from './graphLayout';

const BASE = 'base0000';

function entry(sha: string, parent: string, timeline: number, current = false): CheckpointEntry {
  return {
    sha,
    node_id: `node-${sha}`,
    status: 'success',
    completed: 1,
    metadata_sha: `meta-${sha}`,
    time: '2025-01-01T00:00:00Z',
    parent,
    timeline,
    branches: [`heddle/run/x${timeline > 1 ? `-t${timeline}` : ''}`],
    current,
  };
}

describe('layoutCommitGraph', () => {
  it('draws one timeline as a straight line, newest first', () => {
    const entries = [entry('a', BASE, 1), entry('b', 'a', 1), entry('c', 'b', 1, true)];
    const graph = layoutCommitGraph(entries);
    expect(graph.laneCount).toBe(1);
    expect(graph.rows.map((r) => [r.entry.sha, r.lane, r.parentRow])).toEqual([
      ['c', 0, 1],
      ['b', 0, 2],
      ['a', 0, null],
    ]);
    const down = { fromLane: 0, from: 'mid', toLane: 0, to: 'bottom' };
    const arrive = { fromLane: 0, from: 'top', toLane: 0, to: 'mid' };
    expect(graph.rows.map((r) => r.segments)).toEqual([[down], [arrive, down], [arrive]]);
  });

  it('branches a rollback timeline off the older commit it started from', () => {
    // Timeline 1: a-b-c-d; rolled back to b, timeline 2 continues with e-f.
    const entries = [
      entry('a', BASE, 1),
      entry('b', 'a', 1),
      entry('c', 'b', 1),
      entry('d', 'c', 1),
      entry('e', 'b', 2),
      entry('f', 'e', 2, true),
    ];
    const graph = layoutCommitGraph(entries);
    expect(graph.laneCount).toBe(2);
    expect(graph.rows.map((r) => [r.entry.sha, r.lane, r.parentRow])).toEqual([
      ['f', 1, 1],
      ['e', 1, 4],
      ['d', 0, 3],
      ['c', 0, 4],
      ['b', 0, 5],
      ['a', 0, null],
    ]);
    // e's line passes d and c in lane 1, then bends into b's lane.
    expect(graph.rows[2]!.segments).toContainEqual({ fromLane: 1, from: 'top', toLane: 1, to: 'bottom' });
    expect(graph.rows[3]!.segments).toContainEqual({ fromLane: 1, from: 'top', toLane: 1, to: 'bottom' });
    expect(graph.rows[4]!.segments).toContainEqual({ fromLane: 1, from: 'top', toLane: 0, to: 'mid' });
    expect(graph.rows[4]!.segments).toContainEqual({ fromLane: 0, from: 'top', toLane: 0, to: 'mid' });
  });

  it('reuses a lane once the line in it has joined', () => {
    // t1: a-b-c; t2 from a: d-e; t3 from d (rolled back again): f.
    const entries = [
      entry('a', BASE, 1),
      entry('b', 'a', 1),
      entry('c', 'b', 1),
      entry('d', 'a', 2),
      entry('e', 'd', 2),
      entry('f', 'd', 3, true),
    ];
    const graph = layoutCommitGraph(entries);
    // Rows: f, e, d, c, b, a. t3 (f→d) covers rows 0-2; t1 covers rows 3-5, so t3 takes lane 0.
    expect(graph.rows.map((r) => [r.entry.sha, r.lane])).toEqual([
      ['f', 0],
      ['e', 1],
      ['d', 1],
      ['c', 0],
      ['b', 0],
      ['a', 0],
    ]);
    expect(graph.laneCount).toBe(2);
  });

  it('runs a timeline that restarted from the base down to the bottom', () => {
    const entries = [entry('a', BASE, 1), entry('b', 'a', 1), entry('c', BASE, 2, true)];
    const graph = layoutCommitGraph(entries);
    expect(graph.rows.map((r) => [r.entry.sha, r.lane, r.parentRow])).toEqual([
      ['c', 1, null],
      ['b', 0, 2],
      ['a', 0, null],
    ]);
    expect(graph.rows[2]!.segments).toContainEqual({ fromLane: 1, from: 'top', toLane: 1, to: 'bottom' });
  });

  it('marks the current tip', () => {
    const entries = [entry('a', BASE, 1), entry('b', 'a', 1), entry('c', 'a', 2, true)];
    const graph = layoutCommitGraph(entries);
    expect(graph.rows.filter((r) => r.entry.current).map((r) => r.entry.sha)).toEqual(['c']);
    expect(currentTip(entries)?.sha).toBe('c');
    expect(currentTip([])).toBeNull();
  });

  it('lays out nothing for no checkpoints', () => {
    expect(layoutCommitGraph([])).toEqual({ rows: [], laneCount: 0 });
  });
});
