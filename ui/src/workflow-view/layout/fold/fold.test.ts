import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { edge, node, workflow } from '../../../test-support/workflowBuilder';
import type { Edge } from '../../../generated/Edge';
import type { Node } from '../../../generated/Node';
import type { WorkflowFlow, WorkflowFlowNode } from '../../flow/flowTypes';
import { workflowToFlow } from '../../flow/workflowToFlow';
import type { Point } from '../../look/shapeGeometry';
import { layoutAndFold } from '../layered/layeredAnswer';
import { layoutLayered } from '../layered/layeredLayout';
import { layoutFlow } from '../layoutEngine';
import { PointList } from '../pointList';
import { appendSimplified, foldFlow } from './foldFlow';
import { bandExtents, bandOf, coveredIntervals, evenCuts, mergedExtents, planFold } from './foldPlan';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** start, `stages` agents and exit in a chain, with a check every `loopEvery` stages looping back. */
function longChain(rankdir: string, stages: number, loopEvery = 0) {
  const ids = ['start', ...Array.from({ length: stages }, (_, i) => `s${i}`), 'exit'];
  const nodes: Node[] = ids.map((id) =>
    id === 'start' ? node(id, { kind: 'start' }) : id === 'exit' ? node(id, { kind: 'exit' }) : node(id, { label: `Stage ${id}` }),
  );
  const edges: Edge[] = ids.slice(1).map((id, i) => edge(ids[i] ?? 'start', id));
  if (loopEvery > 0) {
    for (let i = loopEvery; i < stages; i += loopEvery) edges.push(edge(`s${i}`, `s${i - loopEvery + 1}`, { label: 'again' }));
  }
  return workflow({ rankdir, nodes, edges });
}

function laidOut(rankdir: string, stages: number, loopEvery = 0): WorkflowFlow {
  return layoutLayered(workflowToFlow(longChain(rankdir, stages, loopEvery), []));
}

function boxOf(n: WorkflowFlowNode): Box {
  const size = n.type === 'subgraph' ? { width: n.width ?? 0, height: n.height ?? 0 } : n.data.box;
  return { ...n.position, ...size };
}

function boxes(flow: WorkflowFlow): Map<string, Box> {
  return new Map(flow.nodes.map((n) => [n.id, boxOf(n)]));
}

function extent(flow: WorkflowFlow): { width: number; height: number } {
  const all = [...boxes(flow).values()];
  const width = Math.max(...all.map((b) => b.x + b.width)) - Math.min(...all.map((b) => b.x));
  const height = Math.max(...all.map((b) => b.y + b.height)) - Math.min(...all.map((b) => b.y));
  return { width, height };
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
}

/** Whether segment p–q (axis-aligned) runs through the inside of `box` (not just along its edge). */
function crossesInside(p: Point, q: Point, box: Box): boolean {
  const inset = 2;
  const left = Math.min(p.x, q.x);
  const right = Math.max(p.x, q.x);
  const top = Math.min(p.y, q.y);
  const bottom = Math.max(p.y, q.y);
  return left < box.x + box.width - inset && right > box.x + inset && top < box.y + box.height - inset && bottom > box.y + inset;
}

const ROOM = { width: 1000, height: 640, maxZoom: 1.1, readableZoom: 0.6 };

interface Solid {
  alongLow: number;
  alongHigh: number;
  crossLow: number;
  crossHigh: number;
}

/** The plan's flat arrays from objects, and back. */
const solidsOf = (solids: readonly Solid[]) => Float64Array.from(solids.flatMap((s) => [s.alongLow, s.alongHigh, s.crossLow, s.crossHigh]));
const pointsOf = (points: readonly { along: number; cross: number }[]) => Float64Array.from(points.flatMap((p) => [p.along, p.cross]));
const intervalsOf = (intervals: readonly { low: number; high: number }[]) => Float64Array.from(intervals.flatMap((i) => [i.low, i.high]));
const asIntervals = (flat: Float64Array) => Array.from({ length: flat.length / 2 }, (_, i) => ({ low: flat[2 * i], high: flat[2 * i + 1] }));
const asSolids = (flat: Float64Array): Solid[] =>
  Array.from({ length: flat.length / 4 }, (_, i) => ({ alongLow: flat[4 * i] ?? NaN, alongHigh: flat[4 * i + 1] ?? NaN, crossLow: flat[4 * i + 2] ?? NaN, crossHigh: flat[4 * i + 3] ?? NaN }));

describe('foldPlan', () => {
  const solid = (low: number, high: number) => ({ alongLow: low, alongHigh: high, crossLow: 0, crossHigh: 40 });

  it('merges overlapping along intervals', () => {
    expect(asIntervals(coveredIntervals(solidsOf([solid(50, 80), solid(0, 30), solid(20, 40)])))).toEqual([
      { low: 0, high: 40 },
      { low: 50, high: 80 },
    ]);
  });

  it('counts a position on a cut into the band after it', () => {
    expect([bandOf([100, 200], 99), bandOf([100, 200], 100), bandOf([100, 200], 250)]).toEqual([0, 1, 2]);
  });

  it('cuts in the middle of the gaps nearest to equal shares, never through a solid', () => {
    const intervals = [0, 1, 2, 3, 4, 5].map((i) => ({ low: i * 100, high: i * 100 + 60 }));
    expect(evenCuts(intervalsOf(intervals), 3)).toEqual([180, 380]);
    expect(evenCuts(intervalsOf(intervals), 7)).toBeNull();
  });

  it('finds bands and cuts as a scan through every cut and gap would', () => {
    // A small deterministic generator: the same "random" intervals on every run.
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const scanBand = (cuts: number[], along: number) => cuts.filter((c) => along >= c).length;
    const scanCuts = (intervals: { low: number; high: number }[], bands: number) => {
      const gaps = intervals.slice(1).map((interval, i) => ((intervals[i]?.high ?? 0) + interval.low) / 2);
      const first = intervals[0]?.low ?? 0;
      const length = (intervals[intervals.length - 1]?.high ?? 0) - first;
      const cuts: number[] = [];
      let from = 0;
      for (let j = 1; j < bands; j++) {
        const target = first + (length * j) / bands;
        let best = from;
        for (let g = from; g < gaps.length - (bands - 1 - j); g++) {
          if (Math.abs((gaps[g] ?? 0) - target) < Math.abs((gaps[best] ?? 0) - target)) best = g;
        }
        cuts.push(gaps[best] ?? NaN);
        from = best + 1;
      }
      return cuts;
    };
    for (let round = 0; round < 20; round++) {
      let at = 0;
      const intervals = Array.from({ length: 5 + Math.floor(next() * 60) }, () => {
        const low = at + 1 + Math.floor(next() * 50);
        at = low + 1 + Math.floor(next() * 200);
        return { low, high: at };
      });
      for (let bands = 2; bands <= Math.min(24, intervals.length); bands++) {
        const cuts = evenCuts(intervalsOf(intervals), bands);
        expect(cuts).toEqual(scanCuts(intervals, bands));
        for (let i = 0; i < 20; i++) {
          const along = next() * (at + 100) - 50;
          expect(bandOf(cuts ?? [], along)).toBe(scanBand(cuts ?? [], along));
        }
        for (const cut of cuts ?? []) expect(bandOf(cuts ?? [], cut)).toBe(scanBand(cuts ?? [], cut));
      }
    }
  });

  it('merges the extents of the slots between gaps into those of the bands', () => {
    let seed = 11;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let round = 0; round < 10; round++) {
      const solids = Array.from({ length: 30 + Math.floor(next() * 40) }, () => {
        const low = Math.floor(next() * 5000);
        const cross = Math.floor(next() * 300);
        return { alongLow: low, alongHigh: low + 20 + Math.floor(next() * 80), crossLow: cross, crossHigh: cross + 40 };
      });
      const points = Array.from({ length: 50 }, () => ({ along: next() * 5400 - 200, cross: next() * 500 - 100 }));
      const flatSolids = solidsOf(solids);
      const flatPoints = pointsOf(points);
      const intervals = coveredIntervals(flatSolids);
      const objects = asIntervals(intervals);
      const gaps = objects.slice(1).map((interval, i) => ((objects[i]?.high ?? 0) + (interval.low ?? 0)) / 2);
      const slots = bandExtents(flatSolids, flatPoints, gaps);
      for (let bands = 1; bands <= Math.min(8, objects.length); bands++) {
        const cuts = bands === 1 ? [] : (evenCuts(intervals, bands) ?? []);
        expect(asSolids(mergedExtents(slots, gaps, cuts))).toEqual(asSolids(bandExtents(flatSolids, flatPoints, cuts)));
      }
    }
  });

  it('folds a long thin row for a square room, and leaves alone what already fits', () => {
    const row = Array.from({ length: 40 }, (_, i) => solid(i * 200, i * 200 + 150));
    const zooms = { max: 1.1, readable: 0.8 };
    const none = new Float64Array(0);
    const cuts = planFold(solidsOf(row), none, { along: 1000, cross: 1000 }, zooms);
    expect(cuts.length).toBeGreaterThan(3);
    // Four solids fit at 1.1×, six at 0.83×: readable either way, so neither is folded.
    expect(planFold(solidsOf(row.slice(0, 4)), none, { along: 1000, cross: 1000 }, zooms)).toEqual([]);
    expect(planFold(solidsOf(row.slice(0, 6)), none, { along: 1000, cross: 1000 }, zooms)).toEqual([]);
  });
});

describe('foldFlow', () => {
  it('folds a 76-node left-to-right chain into rows that fit the room far larger', () => {
    const flow = laidOut('LR', 74);
    const folded = foldFlow(flow, ROOM);
    const before = extent(flow);
    const after = extent(folded);
    const zoom = (e: { width: number; height: number }) => Math.min(ROOM.width / e.width, ROOM.height / e.height);
    expect(before.width / before.height).toBeGreaterThan(50);
    expect(zoom(after)).toBeGreaterThan(zoom(before) * 4);
    // Shaped like the room: neither a strip nor a tower.
    const aspect = after.width / after.height;
    expect(aspect).toBeGreaterThan(0.6);
    expect(aspect).toBeLessThan(3);
  });

  it('keeps each row left to right and each next row below, nodes apart', () => {
    const folded = foldFlow(laidOut('LR', 40), ROOM);
    const at = boxes(folded);
    const ids = ['start', ...Array.from({ length: 40 }, (_, i) => `s${i}`), 'exit'];
    let rows = 1;
    for (let i = 1; i < ids.length; i++) {
      const a = at.get(ids[i - 1] ?? '') as Box;
      const b = at.get(ids[i] ?? '') as Box;
      if (b.x > a.x + a.width) {
        expect(Math.abs(b.y + b.height / 2 - (a.y + a.height / 2))).toBeLessThan(a.height);
      } else {
        // Wrapped: the next node starts the next row, below and at the left.
        expect(b.y).toBeGreaterThan(a.y + a.height);
        expect(b.x).toBeLessThan(a.x);
        rows++;
      }
    }
    expect(rows).toBeGreaterThan(2);
    const all = [...at.values()];
    for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(overlap(all[i] as Box, all[j] as Box)).toBe(false);
  });

  it('routes every edge, loops back included, between its own nodes without running through another', () => {
    const folded = foldFlow(laidOut('LR', 40, 6), ROOM);
    const at = boxes(folded);
    expect(folded).not.toBe(laidOut('LR', 40, 6));
    for (const e of folded.edges) {
      const route = e.data?.route ?? null;
      expect(route, e.id).not.toBeNull();
      const points = route as Point[];
      const near = (p: Point, box: Box) => p.x >= box.x - 1 && p.x <= box.x + box.width + 1 && p.y >= box.y - 1 && p.y <= box.y + box.height + 1;
      expect(near(points[0] as Point, at.get(e.source) as Box), `${e.id} leaves its source`).toBe(true);
      expect(near(points[points.length - 1] as Point, at.get(e.target) as Box), `${e.id} reaches its target`).toBe(true);
      for (let i = 1; i < points.length; i++) {
        const p = points[i - 1] as Point;
        const q = points[i] as Point;
        expect(Math.abs(p.x - q.x) < 0.6 || Math.abs(p.y - q.y) < 0.6, `${e.id} runs straight along or across: ${JSON.stringify(points)}`).toBe(true);
        for (const [id, box] of at) {
          if (id === e.source || id === e.target) continue;
          expect(crossesInside(p, q, box), `${e.id} leg ${i} runs through ${id}`).toBe(false);
        }
      }
    }
  });

  it('folds what ELK laid out too, every edge still joining its own nodes', async () => {
    const flow = await layoutFlow(workflowToFlow(longChain('LR', 40, 8), []), new ELK());
    const folded = foldFlow(flow, ROOM);
    expect(folded).not.toBe(flow);
    const at = boxes(folded);
    const all = [...at.values()];
    for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(overlap(all[i] as Box, all[j] as Box)).toBe(false);
    const near = (p: Point | undefined, box: Box | undefined) =>
      p !== undefined && box !== undefined && p.x >= box.x - 1 && p.x <= box.x + box.width + 1 && p.y >= box.y - 1 && p.y <= box.y + box.height + 1;
    for (const e of folded.edges) {
      const route = e.data?.route ?? [];
      expect(near(route[0], at.get(e.source)), `${e.id} leaves its source`).toBe(true);
      expect(near(route[route.length - 1], at.get(e.target)), `${e.id} reaches its target`).toBe(true);
    }
  });

  it('folds a long top-down chain into columns, left to right', () => {
    const folded = foldFlow(laidOut('TB', 60), { width: 1200, height: 600, maxZoom: 1.1, readableZoom: 0.6 });
    const after = extent(folded);
    expect(after.width).toBeGreaterThan(after.height);
    const at = boxes(folded);
    expect((at.get('exit') as Box).x).toBeGreaterThan((at.get('start') as Box).x + 600);
  });

  it('returns the flow itself when it fits the room unfolded at a readable zoom', () => {
    const flow = laidOut('LR', 4);
    expect(foldFlow(flow, ROOM)).toBe(flow);
    // Five stages with a loop back fit at more than 0.6: legible whole, so not folded either.
    const five = laidOut('LR', 5, 3);
    const size = extent(five);
    expect(Math.min(ROOM.width / size.width, ROOM.height / size.height)).toBeGreaterThan(0.6);
    expect(foldFlow(five, ROOM)).toBe(five);
  });

  it('leaves a node whose box names no node where the layout put it, in the page and in the worker', () => {
    const chain = workflowToFlow(longChain('LR', 30), []);
    const flow = { ...chain, nodes: chain.nodes.map((n) => (n.id === 's12' ? { ...n, parentId: 'nowhere' } : n)) };
    const flat = layoutLayered(flow);
    // Laid out as a top-level node: not moved by its missing box.
    expect(boxes(flat).get('s12')).toEqual(boxes(layoutLayered(chain)).get('s12'));
    const page = foldFlow(flat, ROOM);
    const worker = layoutAndFold(flow, ROOM);
    expect(worker).toEqual(page);
    // Only top-level nodes are folded, as before the fold was packed: s12 stays, s11 and s13 move.
    const [before, after] = [boxes(flat), boxes(page)];
    expect(after.get('s12')).toEqual(before.get('s12'));
    for (const id of ['s11', 's13']) expect(after.get(id)).not.toEqual(before.get(id));
  });

  it('simplifies routes: repeated points and points inside a straight run go, turns stay', () => {
    const route = new PointList();
    for (const [x, y] of [[0, 0], [0, 0], [10, 0], [20, 0], [20, 10], [15, 10]] as const) route.push(x, y);
    const out = new PointList();
    // What `out` held before stays as it was: only the appended route is simplified.
    out.push(0, 0);
    out.push(-10, 0);
    appendSimplified(route, out);
    expect(Array.from(out.toArray())).toEqual([0, 0, -10, 0, 0, 0, 20, 0, 20, 10, 15, 10]);
  });
});
