import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { describe, expect, it } from 'vitest';
import { edge, node, pipeline, subgraph, workflow } from '../../../test-support/workflowBuilder';
import { subgraphId } from '../../flow/elementIds';
import type { WorkflowFlow, WorkflowFlowNode } from '../../flow/flowTypes';
import { workflowToFlow } from '../../flow/workflowToFlow';
import { layoutFlowWithGraphviz, type GraphvizLayouter } from './graphvizLayout';
import { runGraphviz } from './runGraphviz';

/** The real Graphviz wasm, run directly (the app runs the same code in a worker). */
const graphviz: GraphvizLayouter = {
  layout: async (dot) => runGraphviz(await Graphviz.load(), dot),
};

function byId(flow: WorkflowFlow, id: string): WorkflowFlowNode {
  const found = flow.nodes.find((n) => n.id === id);
  if (found === undefined) throw new Error(`no node ${id}`);
  return found;
}

/** A node's top-left corner in flow coordinates (adding its parents' positions). */
function absolute(flow: WorkflowFlow, id: string): { x: number; y: number } {
  const n = byId(flow, id);
  const parent = n.parentId === undefined ? { x: 0, y: 0 } : absolute(flow, n.parentId);
  return { x: parent.x + n.position.x, y: parent.y + n.position.y };
}

function chain(rankdir: string) {
  return workflow({
    rankdir,
    nodes: [node('a', { kind: 'start' }), node('b'), node('c', { kind: 'exit' })],
    edges: [edge('a', 'b'), edge('b', 'c')],
  });
}

async function laidOut(wf: ReturnType<typeof workflow>): Promise<WorkflowFlow> {
  return layoutFlowWithGraphviz(workflowToFlow(wf, []), graphviz);
}

describe('layout with real Graphviz', () => {
  it('lays a TB chain out top to bottom', async () => {
    const flow = await laidOut(chain('TB'));
    const [a, b, c] = ['a', 'b', 'c'].map((id) => byId(flow, id));
    expect(b?.position.y).toBeGreaterThan((a?.position.y ?? 0) + (a?.height ?? 0));
    expect(c?.position.y).toBeGreaterThan((b?.position.y ?? 0) + (b?.height ?? 0));
  });

  it('lays an LR chain out left to right', async () => {
    const flow = await laidOut(chain('LR'));
    const [a, b, c] = ['a', 'b', 'c'].map((id) => byId(flow, id));
    expect(b?.position.x).toBeGreaterThan((a?.position.x ?? 0) + (a?.width ?? 0));
    expect(c?.position.x).toBeGreaterThan((b?.position.x ?? 0) + (b?.width ?? 0));
  });

  it('lays BT and RL chains out upwards and leftwards', async () => {
    const up = await laidOut(chain('BT'));
    expect(byId(up, 'c').position.y).toBeLessThan(byId(up, 'a').position.y);
    const left = await laidOut(chain('RL'));
    expect(byId(left, 'c').position.x).toBeLessThan(byId(left, 'a').position.x);
  });

  it('keeps the measured sizes and leaves no two nodes overlapping', async () => {
    const before = workflowToFlow(pipeline(), []);
    const flow = await layoutFlowWithGraphviz(before, graphviz);
    const boxes = flow.nodes.map((n) => ({ ...n.position, w: n.width ?? 0, h: n.height ?? 0 }));
    const sizes = (f: WorkflowFlow) => f.nodes.map((n) => [n.width, n.height]);
    expect(sizes(flow)).toEqual(sizes(before));
    for (const [i, p] of boxes.entries()) {
      for (const q of boxes.slice(i + 1)) {
        const apart = p.x + p.w <= q.x || q.x + q.w <= p.x || p.y + p.h <= q.y || q.y + q.h <= p.y;
        expect(apart).toBe(true);
      }
    }
  });

  it('routes every edge from the tail outline to the head outline, labelled ones with a label centre', async () => {
    const flow = await laidOut(pipeline());
    for (const e of flow.edges) {
      const route = e.data?.route ?? [];
      expect(route.length).toBeGreaterThanOrEqual(2);
      const from = byId(flow, e.source);
      const to = byId(flow, e.target);
      const first = route[0];
      const last = route[route.length - 1];
      if (e.id === 'check->plan#0') {
        // The retry loop leaves check and enters plan on their right-hand sides.
        expect(first?.x).toBeCloseTo(from.position.x + (from.width ?? 0), 0);
        expect(first?.y).toBeCloseTo(from.position.y + (from.height ?? 0) / 2, 0);
        expect(last?.x).toBeCloseTo(to.position.x + (to.width ?? 0), 0);
        expect(last?.y).toBeCloseTo(to.position.y + (to.height ?? 0) / 2, 0);
        // ...and swings out to the right of both rather than through them.
        const right = Math.max(from.position.x + (from.width ?? 0), to.position.x + (to.width ?? 0));
        expect(Math.max(...route.map((p) => p.x))).toBeGreaterThan(right + 10);
        continue;
      }
      // rankdir TB: out at the middle of the bottom, in at the middle of the top.
      expect(first?.x).toBeCloseTo(from.position.x + (from.width ?? 0) / 2, 0);
      expect(first?.y).toBeCloseTo(from.position.y + (from.height ?? 0), 0);
      expect(last?.x).toBeCloseTo(to.position.x + (to.width ?? 0) / 2, 0);
      expect(last?.y).toBeCloseTo(to.position.y, 0);
    }
    const yes = flow.edges.find((e) => e.id === 'check->exit#0')?.data?.labelCenter;
    expect(yes).not.toBeNull();
    // The chip sits between the two ranks it labels.
    expect(yes?.y).toBeGreaterThan(byId(flow, 'check').position.y);
    expect(yes?.y).toBeLessThan(byId(flow, 'exit').position.y);
    expect(flow.edges.find((e) => e.id === 'start->plan#0')?.data?.labelCenter).toBeNull();
  });

  it('keeps the document order: the retry edge loops back instead of reordering ranks', async () => {
    const flow = await laidOut(pipeline());
    const ys = ['start', 'plan', 'check', 'exit'].map((id) => byId(flow, id).position.y);
    expect([...ys].sort((x, y) => x - y)).toEqual(ys);
  });

  it('positions cluster members relative to their box, inside it, below its title', async () => {
    const wf = workflow({
      rankdir: 'LR',
      nodes: [
        node('start', { kind: 'start' }),
        node('impl', { subgraph: 0 }),
        node('test', { subgraph: 0 }),
        node('exit', { kind: 'exit' }),
      ],
      edges: [edge('start', 'impl'), edge('impl', 'test'), edge('test', 'exit')],
      subgraphs: [subgraph(['impl', 'test'], { id: 'cluster_build', label: 'Build' })],
    });
    const flow = await laidOut(wf);
    const box = byId(flow, subgraphId(0));
    expect(box.parentId).toBeUndefined();
    for (const id of ['impl', 'test']) {
      const child = byId(flow, id);
      expect(child.parentId).toBe(subgraphId(0));
      expect(child.position.x).toBeGreaterThanOrEqual(0);
      expect(child.position.y).toBeGreaterThanOrEqual(24);
      expect(child.position.x + (child.width ?? 0)).toBeLessThanOrEqual(box.width ?? 0);
      expect(child.position.y + (child.height ?? 0)).toBeLessThanOrEqual(box.height ?? 0);
    }
    // Rank order holds across the box: start, impl, test, exit from left to right.
    const xs = ['start', 'impl', 'test', 'exit'].map((id) => absolute(flow, id).x);
    expect([...xs].sort((x, y) => x - y)).toEqual(xs);
    // Outside nodes stay outside the box.
    const start = byId(flow, 'start');
    expect(start.position.x + (start.width ?? 0)).toBeLessThanOrEqual(box.position.x);
    // The edge into the box ends at impl's absolute position (box + relative offset).
    const route = flow.edges.find((e) => e.id === 'start->impl#0')?.data?.route;
    expect(route?.[route.length - 1]?.x).toBeCloseTo(absolute(flow, 'impl').x, 0);
  });

  it('nests a box inside its parent box', async () => {
    const wf = workflow({
      nodes: [node('a'), node('b', { subgraph: 0 }), node('c', { subgraph: 1 })],
      edges: [edge('a', 'b'), edge('b', 'c')],
      subgraphs: [
        subgraph(['b', 'c'], { id: 'cluster_outer' }),
        subgraph(['c'], { id: 'cluster_inner', parent: 0 }),
      ],
    });
    const flow = await laidOut(wf);
    const outer = byId(flow, subgraphId(0));
    const inner = byId(flow, subgraphId(1));
    expect(inner.parentId).toBe(subgraphId(0));
    expect(inner.position.x).toBeGreaterThanOrEqual(0);
    expect(inner.position.y).toBeGreaterThanOrEqual(0);
    expect(inner.position.x + (inner.width ?? 0)).toBeLessThanOrEqual(outer.width ?? 0);
    expect(inner.position.y + (inner.height ?? 0)).toBeLessThanOrEqual(outer.height ?? 0);
    const c = byId(flow, 'c');
    expect(c.position.x + (c.width ?? 0)).toBeLessThanOrEqual(inner.width ?? 0);
    expect(c.position.y + (c.height ?? 0)).toBeLessThanOrEqual(inner.height ?? 0);
  });

  it('lays out nodes whose ids DOT could not take unquoted', async () => {
    const odd = ['say "hi"', 'back\\slash\\', '} digraph x {'];
    const wf = workflow({
      nodes: odd.map((id) => node(id)),
      edges: [edge(odd[0] ?? '', odd[1] ?? ''), edge(odd[1] ?? '', odd[2] ?? '')],
    });
    const flow = await laidOut(wf);
    const ys = odd.map((id) => byId(flow, id).position.y);
    expect([...ys].sort((x, y) => x - y)).toEqual(ys);
    expect(new Set(ys).size).toBe(3);
  });
});
