import { describe, expect, it } from 'vitest';
import { edge, node, pipeline, workflow } from '../../../test-support/workflowBuilder';
import { workflowToFlow } from '../../flow/workflowToFlow';
import { backEdges } from './backEdges';

describe('backEdges', () => {
  it('finds the edge that loops back to an earlier node', () => {
    expect(backEdges(workflowToFlow(pipeline(), []))).toEqual(new Set(['check->plan#0']));
  });

  it('follows document order: the edge closing the cycle from the first node is the back one', () => {
    const wf = workflow({
      nodes: [node('a'), node('b'), node('c')],
      edges: [edge('c', 'a'), edge('a', 'b'), edge('b', 'c')],
    });
    expect(backEdges(workflowToFlow(wf, []))).toEqual(new Set(['c->a#0']));
  });

  it('counts self-loops and nothing in an acyclic graph', () => {
    const loop = workflow({ nodes: [node('a'), node('b')], edges: [edge('a', 'b'), edge('b', 'b')] });
    expect(backEdges(workflowToFlow(loop, []))).toEqual(new Set(['b->b#0']));
    const diamond = workflow({
      nodes: [node('a'), node('b'), node('c'), node('d')],
      edges: [edge('a', 'b'), edge('a', 'c'), edge('b', 'd'), edge('c', 'd')],
    });
    expect(backEdges(workflowToFlow(diamond, [])).size).toBe(0);
  });

  it('leaves no cycle once the back edges are turned round, on random graphs', () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    for (let round = 0; round < 200; round++) {
      const count = 2 + random(30);
      const ids = Array.from({ length: count }, (_, i) => `n${i}`);
      const edges = Array.from({ length: random(count * 3) }, () => edge(ids[random(count)] ?? 'n0', ids[random(count)] ?? 'n0'));
      const flow = workflowToFlow(workflow({ nodes: ids.map((id) => node(id)), edges }), []);
      const back = backEdges(flow);
      // Kahn's algorithm over the edges with back edges reversed (self-loops dropped) must use every node.
      const incoming = new Map(ids.map((id) => [id, 0]));
      const out = new Map<string, string[]>(ids.map((id) => [id, []]));
      for (const e of flow.edges) {
        if (e.source === e.target) {
          expect(back.has(e.id)).toBe(true);
          continue;
        }
        const [from, to] = back.has(e.id) ? [e.target, e.source] : [e.source, e.target];
        out.get(from)?.push(to);
        incoming.set(to, (incoming.get(to) ?? 0) + 1);
      }
      const ready = ids.filter((id) => incoming.get(id) === 0);
      let placed = 0;
      while (ready.length > 0) {
        const id = ready.pop() ?? '';
        placed++;
        for (const to of out.get(id) ?? []) {
          incoming.set(to, (incoming.get(to) ?? 0) - 1);
          if (incoming.get(to) === 0) ready.push(to);
        }
      }
      expect(placed).toBe(count);
    }
  });
});
