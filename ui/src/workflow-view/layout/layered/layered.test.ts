import { describe, expect, it } from 'vitest';
import { randomWorkflow } from '../../../test-support/randomWorkflow';
import { edge, node, pipeline, subgraph, workflow } from '../../../test-support/workflowBuilder';
import type { WorkflowFlow, WorkflowFlowNode } from '../../flow/flowTypes';
import { workflowToFlow } from '../../flow/workflowToFlow';
import { layoutLayered } from './layeredLayout';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function byId(flow: WorkflowFlow, id: string): WorkflowFlowNode {
  const found = flow.nodes.find((n) => n.id === id);
  if (found === undefined) throw new Error(`no node ${id}`);
  return found;
}

/** A node's box in flow coordinates (adding its parents' positions). */
function boxOf(flow: WorkflowFlow, id: string): Box {
  const n = byId(flow, id);
  const parent = n.parentId === undefined ? { x: 0, y: 0 } : boxOf(flow, n.parentId);
  const size = n.type === 'subgraph' ? { width: n.width ?? 0, height: n.height ?? 0 } : n.data.box;
  return { x: parent.x + n.position.x, y: parent.y + n.position.y, ...size };
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
}

function contains(outer: Box, inner: Box): boolean {
  return inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
}

function onOutline(box: Box, point: { x: number; y: number }): boolean {
  const inside = point.x >= box.x - 0.5 && point.x <= box.x + box.width + 0.5 && point.y >= box.y - 0.5 && point.y <= box.y + box.height + 0.5;
  return inside;
}

function chain(rankdir: string) {
  return workflow({
    rankdir,
    nodes: [node('a', { kind: 'start' }), node('b'), node('c', { kind: 'exit' })],
    edges: [edge('a', 'b'), edge('b', 'c')],
  });
}

function laidOut(wf: ReturnType<typeof workflow>): WorkflowFlow {
  return layoutLayered(workflowToFlow(wf, []));
}

describe('layered layout', () => {
  it('lays a TB chain out top to bottom and an LR chain left to right', () => {
    const tb = laidOut(chain('TB'));
    expect(boxOf(tb, 'a').y).toBeLessThan(boxOf(tb, 'b').y);
    expect(boxOf(tb, 'b').y).toBeLessThan(boxOf(tb, 'c').y);
    expect(boxOf(tb, 'a').x + boxOf(tb, 'a').width / 2).toBeCloseTo(boxOf(tb, 'b').x + boxOf(tb, 'b').width / 2, 0);
    const lr = laidOut(chain('LR'));
    expect(boxOf(lr, 'a').x).toBeLessThan(boxOf(lr, 'b').x);
    expect(boxOf(lr, 'b').x).toBeLessThan(boxOf(lr, 'c').x);
  });

  it('lays BT and RL chains out upwards and leftwards, starting at the origin', () => {
    const bt = laidOut(chain('BT'));
    expect(boxOf(bt, 'a').y).toBeGreaterThan(boxOf(bt, 'c').y);
    expect(Math.min(...bt.nodes.map((n) => boxOf(bt, n.id).y))).toBe(0);
    const rl = laidOut(chain('RL'));
    expect(boxOf(rl, 'a').x).toBeGreaterThan(boxOf(rl, 'c').x);
    expect(Math.min(...rl.nodes.map((n) => boxOf(rl, n.id).x))).toBe(0);
  });

  it('lays a chain of thousands of nodes out as one straight line, an equal step apart', () => {
    const ids = ['start', ...Array.from({ length: 3000 }, (_, i) => `n${i}`), 'exit'];
    const nodes = ids.map((id, i) => node(id, { kind: i === 0 ? 'start' : i === ids.length - 1 ? 'exit' : 'command' }));
    const flow = laidOut(workflow({ nodes, edges: ids.slice(1).map((id, i) => edge(ids[i] ?? 'start', id)) }));
    const centres = ids.map((id) => boxOf(flow, id)).map((b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 }));
    for (const c of centres) expect(c.x).toBeCloseTo(centres[0]?.x ?? NaN, 6);
    const step = (centres[2]?.y ?? 0) - (centres[1]?.y ?? 0);
    expect(step).toBeGreaterThan(0);
    for (let i = 2; i < centres.length - 1; i++) expect((centres[i]?.y ?? 0) - (centres[i - 1]?.y ?? 0)).toBeCloseTo(step, 6);
    for (const e of flow.edges) {
      const route = e.data?.route ?? [];
      expect(route).toHaveLength(2);
      expect(route[0]?.x).toBeCloseTo(route[1]?.x ?? NaN, 6);
      expect(route[0]?.y).toBe(boxOf(flow, e.source).y + boxOf(flow, e.source).height);
      expect(route[1]?.y).toBe(boxOf(flow, e.target).y);
    }
  });

  it('lays out the edges between nodes only: one to a box or to no node is left as it was', () => {
    const flow = workflowToFlow(chain('TB'), []);
    const box: WorkflowFlowNode = { id: 'box', type: 'subgraph', position: { x: 0, y: 0 }, data: { index: 0, subgraph: subgraph([], { label: 'X' }), title: 'X' } };
    const [first] = flow.edges;
    if (first === undefined) throw new Error('an edge');
    const strays = [
      { ...first, id: 'to-box', target: 'box' },
      { ...first, id: 'to-nothing', source: 'nowhere' },
    ];
    const withStrays = layoutLayered({ ...flow, nodes: [box, ...flow.nodes], edges: [...flow.edges, ...strays] });
    const plain = layoutLayered(flow);
    for (const id of ['a', 'b', 'c']) expect(boxOf(withStrays, id)).toEqual(boxOf(plain, id));
    expect(withStrays.edges.slice(0, flow.edges.length)).toEqual(plain.edges);
    expect(withStrays.edges.slice(flow.edges.length).map((e) => e.data?.route)).toEqual([null, null]);
  });

  it('routes each edge from the tail to the head, labelled ones with a label centre', () => {
    const flow = laidOut(pipeline());
    for (const e of flow.edges) {
      const route = e.data?.route ?? [];
      expect(route.length).toBeGreaterThanOrEqual(2);
      expect(onOutline(boxOf(flow, e.source), route[0] ?? { x: NaN, y: NaN })).toBe(true);
      expect(onOutline(boxOf(flow, e.target), route[route.length - 1] ?? { x: NaN, y: NaN })).toBe(true);
      expect(e.data?.labelCenter === null).toBe(e.data?.labelBox === null);
    }
  });

  it('keeps document order: a retry edge loops back beside the nodes instead of reordering them', () => {
    const wf = workflow({
      nodes: [node('start', { kind: 'start' }), node('work'), node('check', { kind: 'conditional' }), node('exit', { kind: 'exit' })],
      edges: [edge('start', 'work'), edge('work', 'check'), edge('check', 'work', { condition: 'outcome=fail' }), edge('check', 'exit', { condition: 'outcome=success' })],
    });
    const flow = laidOut(wf);
    expect(boxOf(flow, 'work').y).toBeLessThan(boxOf(flow, 'check').y);
    const back = flow.edges.find((e) => e.source === 'check' && e.target === 'work');
    const route = back?.data?.route ?? [];
    // Between its ends the loop stays out of every node.
    for (const point of route.slice(1, -1)) {
      for (const n of flow.nodes) expect(onOutline(boxOf(flow, n.id), point)).toBe(false);
    }
  });

  it('puts box members inside their box below its title, nested boxes inside their parent', () => {
    const wf = workflow({
      nodes: [node('a'), node('b', { subgraph: 1 }), node('c', { subgraph: 0 }), node('d')],
      edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'd')],
      subgraphs: [subgraph(['b', 'c'], { label: 'Outer' }), subgraph(['b'], { label: 'Inner', parent: 0 })],
    });
    const flow = laidOut(wf);
    const [outer, inner] = flow.nodes.filter((n) => n.type === 'subgraph').map((n) => boxOf(flow, n.id));
    if (outer === undefined || inner === undefined) throw new Error('two boxes');
    expect(contains(outer, inner)).toBe(true);
    expect(contains(inner, boxOf(flow, 'b'))).toBe(true);
    expect(contains(outer, boxOf(flow, 'c'))).toBe(true);
    expect(boxOf(flow, 'b').y - inner.y).toBeGreaterThanOrEqual(40);
    expect(overlap(outer, boxOf(flow, 'a'))).toBe(false);
    expect(overlap(outer, boxOf(flow, 'd'))).toBe(false);
  });

  // 40 random graphs laid out per direction: about 3 s on an idle machine, so Vitest's 5 s
  // default fails it on a loaded one without anything being wrong.
  const RANDOM_GRAPHS_TIMEOUT_MS = 30_000;
  for (const rankdir of ['TB', 'LR', 'BT', 'RL']) {
    it(`never overlaps nodes, labels or foreign boxes on random graphs (${rankdir})`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const wf = randomWorkflow(seed, rankdir);
        const flow = laidOut(wf);
        const handlers = flow.nodes.filter((n) => n.type === 'handler');
        const boxes = handlers.map((n) => ({ id: n.id, box: boxOf(flow, n.id) }));
        for (const [i, a] of boxes.entries()) {
          const drawn = byId(flow, a.id);
          if (drawn.type === 'handler') expect(a.box.width, `${a.id} keeps its size`).toBe(drawn.data.box.width);
          for (const b of boxes.slice(i + 1)) expect(overlap(a.box, b.box), `seed ${seed}: ${a.id} and ${b.id}`).toBe(false);
        }
        for (const e of flow.edges) {
          const center = e.data?.labelCenter;
          const size = e.data?.labelBox;
          if (center == null || size == null || e.source === e.target) continue;
          const chip = { x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height };
          for (const b of boxes) expect(overlap(chip, b.box), `seed ${seed}: label of ${e.id} and ${b.id}`).toBe(false);
        }
        for (const box of flow.nodes.filter((n) => n.type === 'subgraph')) {
          const area = boxOf(flow, box.id);
          const members = new Set(wf.subgraphs[box.data.index]?.nodes ?? []);
          for (const b of boxes) {
            if (members.has(b.id)) expect(contains(area, b.box), `seed ${seed}: ${b.id} in ${box.id}`).toBe(true);
            else expect(overlap(area, b.box), `seed ${seed}: ${b.id} outside ${box.id}`).toBe(false);
          }
        }
      }
    }, RANDOM_GRAPHS_TIMEOUT_MS);
  }
});
