import { describe, expect, it } from 'vitest';
import { edge, node, subgraph, workflow } from '../../test-support/workflowBuilder';
import type { WorkflowFlowNode } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutLayered } from '../layout/layered/layeredLayout';
import { OVERVIEW_SIZE, overviewOutline } from './overviewOutline';

type Rect = { x: number; y: number; width: number; height: number };

/** The rectangles of an outline path (each `M x y h w v h h -w z`). */
function rects(path: string): Rect[] {
  return [...path.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h-?[\d.]+z/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    width: Number(m[3]),
    height: Number(m[4]),
  }));
}

/** Every handler node's box, at its absolute place. */
function absolute(nodes: readonly WorkflowFlowNode[]): Rect[] {
  const at = new Map<string, { x: number; y: number }>();
  const out: Rect[] = [];
  for (const n of nodes) {
    const parent = n.parentId === undefined ? undefined : at.get(n.parentId);
    const x = n.position.x + (parent?.x ?? 0);
    const y = n.position.y + (parent?.y ?? 0);
    at.set(n.id, { x, y });
    if (n.type === 'handler') out.push({ x, y, width: n.data.box.width, height: n.data.box.height });
  }
  return out;
}

const covers = (r: Rect, x: number, y: number) => x >= r.x - 0.1 && x <= r.x + r.width + 0.1 && y >= r.y - 0.1 && y <= r.y + r.height + 0.1;
const overlaps = (a: Rect, b: Rect, slack: number) =>
  a.x < b.x + b.width + slack && b.x < a.x + a.width + slack && a.y < b.y + b.height + slack && b.y < a.y + a.height + slack;

function chain(n: number) {
  const ids = Array.from({ length: n }, (_, i) => `n${i}`);
  return layoutLayered(
    workflowToFlow(
      workflow({
        nodes: [node('start', { kind: 'start' }), ...ids.map((id) => node(id, { kind: 'command' })), node('exit', { kind: 'exit' })],
        edges: ['start', ...ids].map((from, i) => edge(from, ids[i] ?? 'exit')),
      }),
      [],
    ),
  );
}

describe('overviewOutline', () => {
  const size = OVERVIEW_SIZE;

  it('covers every handler node where the layout put it, a box inside a box included', () => {
    const flow = layoutLayered(
      workflowToFlow(
        workflow({
          nodes: [node('a', { kind: 'start' }), node('b', { subgraph: 0 }), node('c', { kind: 'exit' })],
          edges: [edge('a', 'b'), edge('b', 'c')],
          subgraphs: [subgraph(['b'], { label: 'Box' })],
        }),
        [],
      ),
    );
    const b = flow.nodes.find((n) => n.id === 'b');
    expect(b?.parentId).toBeDefined();
    const { path, bounds } = overviewOutline(flow.nodes, size);
    const drawn = rects(path);
    expect(drawn.length).toBeGreaterThan(0);
    for (const box of absolute(flow.nodes)) {
      const points: [number, number][] = [
        [box.x + box.width / 2, box.y + box.height / 2],
        [box.x + 1, box.y + 1],
        [box.x + box.width - 1, box.y + box.height - 1],
      ];
      for (const [x, y] of points) {
        expect(drawn.some((r) => covers(r, x, y)), `${x},${y} of a node`).toBe(true);
      }
    }
    expect(bounds).not.toBeNull();
    for (const n of flow.nodes) {
      if (n.parentId !== undefined) continue;
      expect(n.position.x).toBeGreaterThanOrEqual(bounds?.x ?? Infinity);
      expect(n.position.y).toBeGreaterThanOrEqual(bounds?.y ?? Infinity);
    }
  });

  it('fills no more than the pixels the nodes touch', () => {
    const flow = chain(40);
    const { path, bounds } = overviewOutline(flow.nodes, size);
    if (bounds === null) throw new Error('a drawing has bounds');
    const pixel = Math.max(bounds.width / size.width, bounds.height / size.height);
    const boxes = absolute(flow.nodes);
    for (const r of rects(path)) {
      // Each filled rectangle is made of cells a node touches: none lies a pixel away from every node.
      for (let y = r.y; y < r.y + r.height - pixel / 2; y += pixel) {
        for (let x = r.x; x < r.x + r.width - pixel / 2; x += pixel) {
          const cell = { x, y, width: pixel, height: pixel };
          expect(boxes.some((b) => overlaps(cell, b, 0.2)), `cell at ${x},${y}`).toBe(true);
        }
      }
    }
  });

  it('draws a long chain in about as many rectangles as the overview has rows, not one per node', () => {
    const flow = chain(3000);
    const { path } = overviewOutline(flow.nodes, size);
    const drawn = rects(path);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThanOrEqual(size.height * 2);
    // Still every node is in it.
    for (const box of absolute(flow.nodes)) {
      expect(drawn.some((r) => covers(r, box.x + box.width / 2, box.y + box.height / 2))).toBe(true);
    }
  });

  it('has no bounds and an empty path without nodes', () => {
    expect(overviewOutline([], size)).toEqual({ path: '', bounds: null });
  });
});
