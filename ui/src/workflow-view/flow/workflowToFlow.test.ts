import { describe, expect, it } from 'vitest';
import {
  diagnostic,
  edge,
  node,
  pipeline,
  span,
  subgraph,
  workflow,
} from '../../test-support/workflowBuilder';
import type { HandlerFlowNode, SubgraphFlowNode, WorkflowFlowNode } from './flowTypes';
import { edgeId, subgraphId } from './elementIds';
import { workflowToFlow } from './workflowToFlow';

function handler(nodes: WorkflowFlowNode[], id: string): HandlerFlowNode {
  const found = nodes.find((n): n is HandlerFlowNode => n.type === 'handler' && n.id === id);
  if (found === undefined) throw new Error(`no handler node ${id}`);
  return found;
}

function groups(nodes: WorkflowFlowNode[]): SubgraphFlowNode[] {
  return nodes.filter((n): n is SubgraphFlowNode => n.type === 'subgraph');
}

describe('workflowToFlow: nodes', () => {
  it('makes one handler node per workflow node, keeping the ids', () => {
    const flow = workflowToFlow(pipeline(), []);
    expect(flow.nodes.map((n) => n.id)).toEqual(['start', 'plan', 'check', 'exit']);
    expect(flow.nodes.every((n) => n.type === 'handler')).toBe(true);
  });

  it('gives a diamond conditional node the conditional look', () => {
    const check = handler(workflowToFlow(pipeline(), []).nodes, 'check');
    expect(check.data.look.shape).toBe('diamond');
    expect(check.data.look.tone).toBe('tone-conditional');
    expect(check.data.subtitle).toBe('Condition');
  });

  it('gives start and exit pills and an agent its model in the subtitle', () => {
    const { nodes } = workflowToFlow(pipeline(), []);
    expect(handler(nodes, 'start').data.look.shape).toBe('pill');
    expect(handler(nodes, 'exit').data.look.icon).toBe('stop');
    expect(handler(nodes, 'plan').data.subtitle).toBe('Agent · claude-sonnet');
    expect(handler(nodes, 'exit').data.subtitle).toBe('Exit');
    expect(handler(nodes, 'start').data.subtitle).toBe('');
  });

  it('sizes nodes from their labels', () => {
    const wf = workflow({
      nodes: [node('a', { label: 'A' }), node('b', { label: 'A much longer label here' })],
    });
    const { nodes } = workflowToFlow(wf, []);
    const a = handler(nodes, 'a');
    const b = handler(nodes, 'b');
    expect(b.width).toBeGreaterThan(a.width ?? 0);
    expect(a.width).toBe(a.data.box.width);
  });

  it('takes the direction from rankdir', () => {
    expect(workflowToFlow(workflow({ rankdir: 'LR' }), []).direction).toBe('RIGHT');
    expect(workflowToFlow(workflow({ rankdir: 'bt' }), []).direction).toBe('UP');
    expect(workflowToFlow(workflow({ rankdir: 'nonsense' }), []).direction).toBe('DOWN');
  });
});

describe('workflowToFlow: edges', () => {
  it('maps chain edges to distinct ids using the occurrence', () => {
    const wf = workflow({
      nodes: [node('a'), node('b'), node('c')],
      edges: [
        edge('a', 'b'),
        edge('b', 'c'),
        edge('a', 'b', { occurrence: 1, label: 'again' }),
      ],
    });
    const ids = workflowToFlow(wf, []).edges.map((e) => e.id);
    expect(ids).toEqual(['a->b#0', 'b->c#0', 'a->b#1']);
    expect(new Set(ids).size).toBe(3);
  });

  it('carries labels and conditions and sizes a chip for them', () => {
    const { edges } = workflowToFlow(pipeline(), []);
    const yes = edges.find((e) => e.id === 'check->exit#0');
    expect(yes?.data?.edge.label).toBe('yes');
    expect(yes?.data?.labelBox?.conditionLines).toEqual(['outcome=success']);
    expect(edges.find((e) => e.id === 'start->plan#0')?.data?.labelBox).toBeNull();
  });

  it('connects the out handle of the tail to the in handle of the head', () => {
    const e = workflowToFlow(pipeline(), []).edges[0];
    expect(e).toMatchObject({ source: 'start', target: 'plan', sourceHandle: 'out', targetHandle: 'in' });
  });

  it('drops edges whose ends are not nodes', () => {
    const wf = workflow({ nodes: [node('a')], edges: [edge('a', 'ghost')] });
    expect(workflowToFlow(wf, []).edges).toEqual([]);
  });
});

describe('workflowToFlow: diagnostics', () => {
  it('attaches diagnostics to the node and the edge they name', () => {
    const onNode = diagnostic({ node: 'plan', severity: 'warning' });
    const onNodeError = diagnostic({ node: 'plan', severity: 'error' });
    const onEdge = diagnostic({ node: 'check', edge: { from: 'check', to: 'exit', occurrence: 0 } });
    const fileLevel = diagnostic({ span: span(3, 1) });
    const flow = workflowToFlow(pipeline(), [onNode, onNodeError, onEdge, fileLevel]);
    const plan = handler(flow.nodes, 'plan');
    expect(plan.data.diagnostics.list).toEqual([onNode, onNodeError]);
    expect(plan.data.diagnostics.worst).toBe('error');
    expect(handler(flow.nodes, 'check').data.diagnostics.list).toEqual([]);
    const edgeData = flow.edges.find((e) => e.id === edgeId(onEdge.edge ?? { from: '', to: '', occurrence: 0 }))?.data;
    expect(edgeData?.diagnostics.list).toEqual([onEdge]);
    expect(handler(flow.nodes, 'start').data.diagnostics.worst).toBeNull();
  });
});

describe('workflowToFlow: subgraphs', () => {
  const wf = workflow({
    nodes: [
      node('start', { kind: 'start' }),
      node('impl', { subgraph: 0 }),
      node('test', { subgraph: 1 }),
      node('loose', { subgraph: 2 }),
      node('exit', { kind: 'exit' }),
    ],
    subgraphs: [
      subgraph(['impl', 'test'], { id: 'cluster_build', label: 'Build' }),
      subgraph(['test'], { label: 'Verify', parent: 0 }),
      subgraph(['loose'], { id: null, label: null }),
    ],
  });

  it('draws labelled and cluster subgraphs as boxes, parents before children', () => {
    const boxes = groups(workflowToFlow(wf, []).nodes);
    expect(boxes.map((b) => [b.id, b.data.title, b.parentId])).toEqual([
      [subgraphId(0), 'Build', undefined],
      [subgraphId(1), 'Verify', subgraphId(0)],
    ]);
  });

  it('puts nodes in their innermost drawn box and leaves others at the top level', () => {
    const { nodes } = workflowToFlow(wf, []);
    expect(handler(nodes, 'impl').parentId).toBe(subgraphId(0));
    expect(handler(nodes, 'test').parentId).toBe(subgraphId(1));
    expect(handler(nodes, 'loose').parentId).toBeUndefined();
    expect(handler(nodes, 'start').parentId).toBeUndefined();
    const order = nodes.map((n) => n.id);
    expect(order.indexOf(subgraphId(1))).toBeLessThan(order.indexOf('test'));
  });
});
