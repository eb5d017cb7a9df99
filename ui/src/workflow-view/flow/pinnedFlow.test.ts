import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { edge, node, subgraph, workflow } from '../../test-support/workflowBuilder';
import { layoutFlow } from '../layout/layoutEngine';
import { edgeId, subgraphId } from './elementIds';
import { withPinnedPositions } from './pinnedFlow';
import { workflowToFlow } from './workflowToFlow';

async function laidOut() {
  const flow = workflowToFlow(
    workflow({
      nodes: [node('start', { kind: 'start' }), node('a'), node('b'), node('exit', { kind: 'exit' })],
      edges: [edge('start', 'a'), edge('a', 'b'), edge('b', 'exit')],
      subgraphs: [subgraph(['b'], { id: 'cluster_late', label: 'Late' })],
    }),
    [],
  );
  return layoutFlow(flow, new ELK());
}

describe('withPinnedPositions', () => {
  it('returns the same flow when nothing is pinned, or only unknown ids', async () => {
    const flow = await laidOut();
    expect(withPinnedPositions(flow, new Map())).toBe(flow);
    expect(withPinnedPositions(flow, new Map([['gone', { x: 1, y: 2 }]]))).toBe(flow);
  });

  it('moves a pinned node and reroutes only the edges that touch it', async () => {
    const flow = await laidOut();
    const pinned = withPinnedPositions(flow, new Map([['a', { x: 900, y: 40 }]]));
    expect(pinned.nodes.find((n) => n.id === 'a')?.position).toEqual({ x: 900, y: 40 });
    const start = flow.nodes.find((n) => n.id === 'start');
    expect(pinned.nodes.find((n) => n.id === 'start')).toBe(start);
    const route = (id: string) => pinned.edges.find((e) => e.id === id)?.data?.route;
    const key = (from: string, to: string) => edgeId({ from, to, occurrence: 0 });
    expect(route(key('start', 'a'))).toBeNull();
    expect(route(key('a', 'b'))).toBeNull();
    expect(route(key('b', 'exit'))).not.toBeNull();
    expect(flow.edges.every((e) => e.data?.route !== null)).toBe(true);
  });

  it('does not pin subgraph boxes, and keeps a pin at the laid-out spot as no move', async () => {
    const flow = await laidOut();
    const group = flow.nodes.find((n) => n.id === subgraphId(0));
    expect(group).toBeDefined();
    const b = flow.nodes.find((n) => n.id === 'b');
    const same = withPinnedPositions(
      flow,
      new Map([
        [subgraphId(0), { x: 5, y: 5 }],
        ['b', { x: b?.position.x ?? 0, y: b?.position.y ?? 0 }],
      ]),
    );
    expect(same).toBe(flow);
  });
});
