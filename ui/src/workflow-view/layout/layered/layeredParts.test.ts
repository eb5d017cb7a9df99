import { describe, expect, it } from 'vitest';
import { placeRank } from './coordinates';
import { adjacencyOf, crossings } from './ordering';
import { assignRanks } from './ranking';
import { orthogonal } from './layeredLayout';

describe('assignRanks', () => {
  it('puts each node one step (minlen) below its lowest predecessor', () => {
    // 0 -> 1 -> 2, and 0 -> 2 directly: 2 still goes below 1.
    const edges = [
      { from: 0, to: 1, minlen: 1 },
      { from: 1, to: 2, minlen: 1 },
      { from: 0, to: 2, minlen: 1 },
    ];
    expect(assignRanks(3, edges)).toEqual([0, 1, 2]);
    expect(assignRanks(3, edges.map((e) => ({ ...e, minlen: 2 })))).toEqual([0, 2, 4]);
  });

  it('moves a second entry point down next to the node it feeds', () => {
    // 0 -> 1 -> 2 -> 3 and a separate source 4 -> 3.
    const ranks = assignRanks(5, [
      { from: 0, to: 1, minlen: 1 },
      { from: 1, to: 2, minlen: 1 },
      { from: 2, to: 3, minlen: 1 },
      { from: 4, to: 3, minlen: 1 },
    ]);
    expect(ranks).toEqual([0, 1, 2, 3, 2]);
  });
});

describe('placeRank', () => {
  it('puts items where they want to be when they fit', () => {
    expect(placeRank([0, 100, 300], [1, 1, 1], [0, 50, 50])).toEqual([0, 100, 300]);
  });

  it('splits a conflict by weight, keeping the separation exactly', () => {
    // Both want 100, 40 apart: equal weights meet halfway around it.
    expect(placeRank([100, 100], [1, 1], [0, 40])).toEqual([80, 120]);
    // A heavy item hardly moves.
    const [a, b] = placeRank([100, 100], [9, 1], [0, 40]);
    expect(a).toBeCloseTo(96);
    expect(b).toBeCloseTo(136);
  });

  it('pushes a run of crowded items apart as one block', () => {
    const placed = placeRank([0, 0, 0, 500], [1, 1, 1, 1], [0, 10, 10, 10]);
    expect(placed).toEqual([-10, 0, 10, 500]);
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

describe('orthogonal', () => {
  it('turns a slanted leg into along-across-along steps, leaving straight legs alone', () => {
    const route = [
      { x: 0, y: 0 },
      { x: 0, y: 10 },
      { x: 40, y: 30 },
    ];
    expect(orthogonal(route, true)).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 10 },
      { x: 0, y: 20 },
      { x: 40, y: 20 },
      { x: 40, y: 30 },
    ]);
    expect(orthogonal(route, false)).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 10 },
      { x: 20, y: 10 },
      { x: 20, y: 30 },
      { x: 40, y: 30 },
    ]);
  });
});
