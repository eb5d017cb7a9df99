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
});
