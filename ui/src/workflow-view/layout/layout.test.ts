import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { edge, node, pipeline, subgraph, workflow } from '../../test-support/workflowBuilder';
import { subgraphId } from '../flow/elementIds';
import type { WorkflowFlow, WorkflowFlowNode } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { applyLayout, edgeRoute } from './applyLayout';
import { layoutFlow } from './layoutEngine';
import { ELK_ROOT, portId, toElkGraph } from './toElkGraph';

const elk = new ELK();

function byId(flow: WorkflowFlow, id: string): WorkflowFlowNode {
  const found = flow.nodes.find((n) => n.id === id);
  if (found === undefined) throw new Error(`no node ${id}`);
  return found;
}

function chain(rankdir: string) {
  return workflow({
    rankdir,
    nodes: [node('a', { kind: 'start' }), node('b'), node('c', { kind: 'exit' })],
    edges: [edge('a', 'b'), edge('b', 'c')],
  });
}

describe('toElkGraph', () => {
  it('maps rankdir to the ELK direction and routes edges between ports', () => {
    const graph = toElkGraph(workflowToFlow(chain('LR'), []));
    expect(graph.id).toBe(ELK_ROOT);
    expect(graph.layoutOptions?.['elk.direction']).toBe('RIGHT');
    expect(graph.edges?.[0]).toMatchObject({
      id: 'a->b#0',
      sources: [portId('a', 'out')],
      targets: [portId('b', 'in')],
    });
  });

  it('fixes the ports on the sides the direction implies', () => {
    const graph = toElkGraph(workflowToFlow(chain('TB'), []));
    const b = graph.children?.find((c) => c.id === 'b');
    const sides = b?.ports?.map((p) => p.layoutOptions?.['elk.port.side']);
    expect(sides).toEqual(['NORTH', 'SOUTH']);
    expect(b?.ports?.[0]?.x).toBe((b?.width ?? 0) / 2);
  });

  it('nests subgraph members inside compound nodes', () => {
    const wf = workflow({
      nodes: [node('a'), node('b', { subgraph: 0 })],
      edges: [edge('a', 'b')],
      subgraphs: [subgraph(['b'], { label: 'Group' })],
    });
    const graph = toElkGraph(workflowToFlow(wf, []));
    const box = graph.children?.find((c) => c.id === subgraphId(0));
    expect(box?.children?.map((c) => c.id)).toEqual(['b']);
    expect(graph.children?.map((c) => c.id)).toEqual([subgraphId(0), 'a']);
  });

  it('gives labelled edges a label of the chip size', () => {
    const graph = toElkGraph(workflowToFlow(pipeline(), []));
    const yes = graph.edges?.find((e) => e.id === 'check->exit#0');
    expect(yes?.labels?.[0]?.width).toBeGreaterThan(0);
    expect(graph.edges?.find((e) => e.id === 'start->plan#0')?.labels).toEqual([]);
  });
});

describe('layout with real ELK', () => {
  it('lays a TB chain out top to bottom', async () => {
    const flow = await layoutFlow(workflowToFlow(chain('TB'), []), elk);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => byId(flow, id).position);
    expect(b?.y).toBeGreaterThan(a?.y ?? Infinity);
    expect(c?.y).toBeGreaterThan(b?.y ?? Infinity);
  });

  it('lays an LR chain out left to right', async () => {
    const flow = await layoutFlow(workflowToFlow(chain('LR'), []), elk);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => byId(flow, id).position);
    expect(b?.x).toBeGreaterThan(a?.x ?? Infinity);
    expect(c?.x).toBeGreaterThan(b?.x ?? Infinity);
  });

  it('lays an RL chain out right to left', async () => {
    const flow = await layoutFlow(workflowToFlow(chain('RL'), []), elk);
    expect(byId(flow, 'c').position.x).toBeLessThan(byId(flow, 'a').position.x);
  });

  it('routes every edge from the tail to the head with a label centre for labelled edges', async () => {
    const flow = await layoutFlow(workflowToFlow(pipeline(), []), elk);
    for (const e of flow.edges) {
      const route = e.data?.route;
      expect(route?.length ?? 0).toBeGreaterThanOrEqual(2);
    }
    const plan = byId(flow, 'plan');
    const startToPlan = flow.edges.find((e) => e.id === 'start->plan#0')?.data?.route;
    const end = startToPlan?.[startToPlan.length - 1];
    expect(end?.y).toBeCloseTo(plan.position.y, 0);
    expect(end?.x).toBeCloseTo(plan.position.x + (plan.width ?? 0) / 2, 0);
    expect(flow.edges.find((e) => e.id === 'check->exit#0')?.data?.labelCenter).not.toBeNull();
    expect(flow.edges.find((e) => e.id === 'start->plan#0')?.data?.labelCenter).toBeNull();
  });

  it('keeps the document order: the retry edge loops back instead of reordering ranks', async () => {
    const flow = await layoutFlow(workflowToFlow(pipeline(), []), elk);
    const ys = ['start', 'plan', 'check', 'exit'].map((id) => byId(flow, id).position.y);
    expect([...ys].sort((x, y) => x - y)).toEqual(ys);
  });

  it('puts an exit declared early in the file after the nodes that lead to it', async () => {
    const wf = workflow({
      rankdir: 'LR',
      nodes: [
        node('start', { kind: 'start' }),
        node('exit', { kind: 'exit' }),
        node('work'),
        node('check', { kind: 'conditional' }),
      ],
      edges: [
        edge('start', 'work'),
        edge('work', 'check'),
        edge('check', 'exit', { label: 'yes' }),
        edge('check', 'work', { label: 'retry' }),
      ],
    });
    const flow = await layoutFlow(workflowToFlow(wf, []), elk);
    const x = (id: string) => byId(flow, id).position.x;
    expect(x('work')).toBeGreaterThan(x('start'));
    expect(x('check')).toBeGreaterThan(x('work'));
    expect(x('exit')).toBeGreaterThan(x('check'));
  });

  it('positions subgraph children relative to their box, inside it', async () => {
    const wf = workflow({
      nodes: [node('start', { kind: 'start' }), node('impl', { subgraph: 0 }), node('test', { subgraph: 0 })],
      edges: [edge('start', 'impl'), edge('impl', 'test')],
      subgraphs: [subgraph(['impl', 'test'], { label: 'Build' })],
    });
    const flow = await layoutFlow(workflowToFlow(wf, []), elk);
    const box = byId(flow, subgraphId(0));
    const impl = byId(flow, 'impl');
    const test = byId(flow, 'test');
    expect(impl.parentId).toBe(subgraphId(0));
    expect(box.width).toBeGreaterThan(impl.width ?? 0);
    for (const child of [impl, test]) {
      expect(child.position.x).toBeGreaterThanOrEqual(0);
      expect(child.position.y).toBeGreaterThanOrEqual(40);
      expect(child.position.x + (child.width ?? 0)).toBeLessThanOrEqual(box.width ?? 0);
      expect(child.position.y + (child.height ?? 0)).toBeLessThanOrEqual(box.height ?? 0);
    }
    // The edge into the box ends at impl's absolute position (box + relative offset).
    const route = flow.edges.find((e) => e.id === 'start->impl#0')?.data?.route;
    const end = route?.[route.length - 1];
    expect(end?.y).toBeCloseTo(box.position.y + impl.position.y, 0);
  });
});

describe('applyLayout', () => {
  it('leaves elements ELK did not return as they were', () => {
    const flow = workflowToFlow(chain('TB'), []);
    const placed = applyLayout(flow, { id: ELK_ROOT, children: [{ id: 'a', x: 5, y: 7 }] });
    expect(byId(placed, 'a').position).toEqual({ x: 5, y: 7 });
    expect(byId(placed, 'b').position).toEqual({ x: 0, y: 0 });
    expect(placed.edges[0]?.data?.route).toBeNull();
  });

  it('joins edge sections into one polyline without repeated points', () => {
    const route = edgeRoute({
      id: 'e',
      sources: ['a'],
      targets: ['b'],
      sections: [
        { id: 's1', startPoint: { x: 0, y: 0 }, bendPoints: [{ x: 0, y: 10 }], endPoint: { x: 10, y: 10 } },
        { id: 's2', startPoint: { x: 10, y: 10 }, endPoint: { x: 10, y: 20 } },
      ],
    });
    expect(route).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 10 },
      { x: 10, y: 10 },
      { x: 10, y: 20 },
    ]);
  });
});
