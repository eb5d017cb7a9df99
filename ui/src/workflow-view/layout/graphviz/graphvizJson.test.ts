import { describe, expect, it } from 'vitest';
import { readGraphvizJson, splineToPolyline } from './graphvizJson';

/**
 * Real `-Tjson0` output of Graphviz 16.1 (trimmed to the fields read) for: n0 (2 × 0.5 in)
 * above cluster_0 holding n1 (1 × 0.5 in), rankdir=TB, n0 -> n1 with a 30 × 10 pt label, and a
 * self-loop on n1.
 */
const CAPTURED = {
  bb: '0,0,154,156',
  objects: [
    { name: 'cluster_0', bb: '16,8,146,84' },
    { name: 'n1', pos: '72,46', width: '1', height: '0.5' },
    { name: 'n0', pos: '72,138', width: '2', height: '0.5' },
  ],
  edges: [
    { id: 'e0', pos: 'e,72,65 72,120 72,120 72,92.506 72,76.396', lp: '87,97' },
    {
      id: 'e1',
      pos: 'e,72,64 72,28 90,15.25 126,15.25 126,46 126,71.705 100.84,75.922 82.074,69.166',
    },
  ],
};

describe('readGraphvizJson', () => {
  const placement = readGraphvizJson(CAPTURED);

  it('turns node centres (y up) into top-left corners (y down) of boxes sized in points', () => {
    expect(placement.nodes.n0).toEqual({ x: 0, y: 0, width: 144, height: 36 });
    expect(placement.nodes.n1).toEqual({ x: 36, y: 92, width: 72, height: 36 });
    // n0 -> n1 with rankdir=TB: the head is drawn below the tail.
    expect(placement.nodes.n1?.y ?? 0).toBeGreaterThan(placement.nodes.n0?.y ?? 0);
  });

  it('reads a cluster box from its bounding box, containing its member', () => {
    const box = placement.clusters.cluster_0;
    expect(box).toEqual({ x: 16, y: 72, width: 130, height: 76 });
    const n1 = placement.nodes.n1;
    expect(n1?.x ?? 0).toBeGreaterThanOrEqual(box?.x ?? Infinity);
    expect((n1?.y ?? 0) + (n1?.height ?? 0)).toBeLessThanOrEqual((box?.y ?? 0) + (box?.height ?? 0));
  });

  it('routes an edge from the start of its spline to the arrow tip, with the label centre', () => {
    const e0 = placement.edges.e0;
    expect(e0?.route).toEqual([
      { x: 72, y: 36 },
      { x: 72, y: 156 - 76.396 },
      { x: 72, y: 91 },
    ]);
    expect(e0?.labelCenter).toEqual({ x: 87, y: 59 });
  });

  it('samples a curved spline (a self-loop) and has no label centre without a label', () => {
    const e1 = placement.edges.e1;
    expect(e1?.labelCenter).toBeNull();
    expect(e1?.route.length).toBeGreaterThan(8);
    expect(e1?.route[0]).toEqual({ x: 72, y: 128 });
    expect(e1?.route[e1.route.length - 1]).toEqual({ x: 72, y: 92 });
    // The loop swings out to the right of the node.
    expect(Math.max(...(e1?.route ?? []).map((p) => p.x))).toBeGreaterThan(110);
  });

  it('skips what it cannot read rather than failing', () => {
    const odd = readGraphvizJson({
      bb: '0,0,10,10',
      objects: [{ name: 'x', pos: 'nonsense' }, { pos: '1,1' }],
      edges: [{ id: 'e', pos: '' }, { pos: '1,1 2,2 3,3 4,4' }],
    });
    expect(odd).toEqual({ nodes: {}, clusters: {}, edges: {} });
    expect(readGraphvizJson(null)).toEqual({ nodes: {}, clusters: {}, edges: {} });
  });
});

describe('splineToPolyline', () => {
  it('keeps only the ends of straight segments', () => {
    const points = [
      { x: 0, y: 0 },
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 5 },
      { x: 10, y: 10 },
    ];
    expect(splineToPolyline(points)).toEqual([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
    ]);
  });
});
