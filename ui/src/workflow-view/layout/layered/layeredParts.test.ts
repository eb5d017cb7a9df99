import { describe, expect, it } from 'vitest';
import { PointList } from '../pointList';
import { placeRankInto, Pool } from './coordinates';
import { appendOrthogonal } from './layeredRoutes';
import { keyRuns } from './keyRuns';
import { adjacencyOf, crossings } from './ordering';
import { rankNodes } from './ranking';

/** `rankNodes` for edges given one by one, as plain numbers. */
function ranksOf(count: number, edges: readonly { from: number; to: number; minlen: number }[]): number[] {
  const ranks = rankNodes(count, Int32Array.from(edges, (e) => e.from), Int32Array.from(edges, (e) => e.to), Int32Array.from(edges, (e) => e.minlen));
  return Array.from(ranks);
}

/** `placeRankInto` for one rank, its items' numbers given as plain arrays. */
function placed(wanted: readonly number[], weights: readonly number[], gaps: readonly number[]): number[] {
  const out = new Float64Array(wanted.length);
  placeRankInto(wanted.length, Float64Array.from(wanted), Float64Array.from(weights), Float64Array.from(gaps), 0, out, new Pool());
  return Array.from(out);
}

describe('rankNodes', () => {
  it('puts each node one step (minlen) below its lowest predecessor', () => {
    // 0 -> 1 -> 2, and 0 -> 2 directly: 2 still goes below 1.
    const edges = [
      { from: 0, to: 1, minlen: 1 },
      { from: 1, to: 2, minlen: 1 },
      { from: 0, to: 2, minlen: 1 },
    ];
    expect(ranksOf(3, edges)).toEqual([0, 1, 2]);
    expect(ranksOf(3, edges.map((e) => ({ ...e, minlen: 2 })))).toEqual([0, 2, 4]);
  });

  it('moves a second entry point down next to the node it feeds', () => {
    // 0 -> 1 -> 2 -> 3 and a separate source 4 -> 3.
    const ranks = ranksOf(5, [
      { from: 0, to: 1, minlen: 1 },
      { from: 1, to: 2, minlen: 1 },
      { from: 2, to: 3, minlen: 1 },
      { from: 4, to: 3, minlen: 1 },
    ]);
    expect(ranks).toEqual([0, 1, 2, 3, 2]);
  });
});

describe('placeRankInto', () => {
  it('puts items where they want to be when they fit', () => {
    expect(placed([0, 100, 300], [1, 1, 1], [0, 50, 50])).toEqual([0, 100, 300]);
  });

  it('splits a conflict by weight, keeping the separation exactly', () => {
    // Both want 100, 40 apart: equal weights meet halfway around it.
    expect(placed([100, 100], [1, 1], [0, 40])).toEqual([80, 120]);
    // A heavy item hardly moves.
    const [a, b] = placed([100, 100], [9, 1], [0, 40]);
    expect(a).toBeCloseTo(96);
    expect(b).toBeCloseTo(136);
  });

  it('pushes a run of crowded items apart as one block', () => {
    expect(placed([0, 0, 0, 500], [1, 1, 1, 1], [0, 10, 10, 10])).toEqual([-10, 0, 10, 500]);
  });
});

describe('crossings', () => {
  it('counts links that cross between two ranks', () => {
    // Rank 0: items 0, 1; rank 1: items 2, 3. 0->3 and 1->2 cross once.
    const adj = adjacencyOf(4, Int32Array.of(0, 1), Int32Array.of(3, 2), Float64Array.of(1, 1));
    const ranks = (...items: number[]) => ({ depth: 2, layerStart: Int32Array.of(0, 2, 4), layerItems: Int32Array.from(items) });
    const position = new Float64Array([0, 1, 0, 1]);
    expect(crossings(ranks(0, 1, 2, 3), adj, position)).toBe(1);
    const uncrossed = new Float64Array([0, 1, 1, 0]);
    expect(crossings(ranks(0, 1, 3, 2), adj, uncrossed)).toBe(0);
  });

  it('counts every pair of a rank with many links, as a comparison of each pair would', () => {
    // Rank 0: items 0..5; rank 1: items 6..11; links from a deterministic shuffle.
    const upper = Int32Array.of(0, 0, 1, 2, 2, 3, 4, 5, 5);
    const lower = Int32Array.of(9, 6, 11, 7, 10, 6, 8, 7, 11);
    const adj = adjacencyOf(12, upper, lower, new Float64Array(upper.length).fill(1));
    const position = Float64Array.from({ length: 12 }, (_, i) => i % 6);
    let expected = 0;
    for (let a = 0; a < upper.length; a++) {
      for (let b = a + 1; b < upper.length; b++) {
        const du = (position[upper[a] ?? 0] ?? 0) - (position[upper[b] ?? 0] ?? 0);
        const dl = (position[lower[a] ?? 0] ?? 0) - (position[lower[b] ?? 0] ?? 0);
        if (du * dl < 0) expected++;
      }
    }
    const ranks = { depth: 2, layerStart: Int32Array.of(0, 6, 12), layerItems: Int32Array.from({ length: 12 }, (_, i) => i) };
    expect(crossings(ranks, adj, position)).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });
});

describe('appendOrthogonal', () => {
  it('turns a slanted leg into along-across-along steps, leaving straight legs alone', () => {
    const route = new PointList();
    route.push(0, 0);
    route.push(0, 10);
    route.push(40, 30);
    const stepped = (vertical: boolean) => {
      const out = new PointList();
      out.push(-5, -5);
      appendOrthogonal(route, out, vertical);
      return Array.from(out.toArray());
    };
    // Appended after what `out` held.
    expect(stepped(true)).toEqual([-5, -5, 0, 0, 0, 10, 0, 20, 40, 20, 40, 30]);
    expect(stepped(false)).toEqual([-5, -5, 0, 0, 0, 10, 20, 10, 20, 30, 40, 30]);
  });
});

describe('keyRuns', () => {
  it('groups indices by key, in index order within a key, keys without indices empty', () => {
    const { start, order } = keyRuns([2, 0, 2, 4, 0], 5);
    expect(Array.from(start)).toEqual([0, 2, 2, 4, 4, 5]);
    expect(Array.from(order)).toEqual([1, 4, 0, 2, 3]);
  });

  it('has one empty run per key without any keys', () => {
    const { start, order } = keyRuns([], 3);
    expect(Array.from(start)).toEqual([0, 0, 0, 0]);
    expect(order).toHaveLength(0);
  });
});
