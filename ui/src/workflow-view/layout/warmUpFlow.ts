import type { Edge } from '../../generated/Edge';
import type { HandlerKind } from '../../generated/HandlerKind';
import type { Node } from '../../generated/Node';
import type { Workflow } from '../../generated/Workflow';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';

const SPAN = { start: 0, end: 0, line: 1, column: 1 };

function node(id: string, kind: HandlerKind, subgraph: number | null = null): Node {
  return { id, kind, label: id, shape: 'box', classes: [], attrs: [], subgraph, span: SPAN };
}

function edge(from: string, to: string, condition: string | null = null): Edge {
  return { from, to, occurrence: 0, label: null, condition, weight: 0, attrs: [], span: SPAN };
}

/**
 * A small made-up workflow using what real ones use (ports, a box, labelled edges, a loop
 * back), laid out once when the app starts so the engine's worker has loaded and compiled
 * its code before the first real workflow arrives.
 */
export function warmUpFlow(): WorkflowFlow {
  const workflow: Workflow = {
    name: 'warm-up',
    goal: null,
    label: null,
    rankdir: 'TB',
    attrs: [],
    nodes: [
      node('start', 'start'),
      node('plan', 'agent'),
      node('build', 'command', 0),
      node('test', 'command', 0),
      node('check', 'conditional'),
      node('review', 'human'),
      node('exit', 'exit'),
    ],
    edges: [
      edge('start', 'plan'),
      edge('plan', 'build'),
      edge('build', 'test'),
      edge('test', 'check'),
      edge('check', 'review', 'outcome=success'),
      edge('check', 'plan', 'outcome=fail'),
      edge('review', 'exit'),
    ],
    subgraphs: [
      { id: 'cluster_work', label: 'Work', class: null, parent: null, nodes: ['build', 'test'], span: SPAN },
    ],
  };
  return workflowToFlow(workflow, []);
}
