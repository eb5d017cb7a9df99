/**
 * Builders for generated model values in unit tests: only the fields a test cares about
 * need to be given.
 */
import type { AttrEntry } from '../generated/AttrEntry';
import type { Diagnostic } from '../generated/Diagnostic';
import type { Edge } from '../generated/Edge';
import type { Node } from '../generated/Node';
import type { Span } from '../generated/Span';
import type { SubgraphInfo } from '../generated/SubgraphInfo';
import type { Workflow } from '../generated/Workflow';

export function span(line = 1, column = 1): Span {
  return { start: 0, end: 1, line, column };
}

export function stringAttr(key: string, value: string): AttrEntry {
  return {
    key,
    canonical: key,
    value: { type: 'string', value },
    raw: value,
    origin: 'explicit',
    span: span(),
  };
}

export function node(id: string, fields: Partial<Node> = {}): Node {
  return {
    id,
    kind: 'agent',
    label: id,
    shape: 'box',
    classes: [],
    attrs: [],
    subgraph: null,
    span: span(),
    ...fields,
  };
}

export function edge(from: string, to: string, fields: Partial<Edge> = {}): Edge {
  return {
    from,
    to,
    occurrence: 0,
    label: null,
    condition: null,
    weight: 0,
    attrs: [],
    span: span(),
    ...fields,
  };
}

export function subgraph(nodes: string[], fields: Partial<SubgraphInfo> = {}): SubgraphInfo {
  return { id: null, label: null, class: null, parent: null, nodes, span: span(), ...fields };
}

export function workflow(fields: Partial<Workflow> = {}): Workflow {
  return {
    name: 'Test',
    goal: null,
    label: null,
    rankdir: 'TB',
    attrs: [],
    nodes: [],
    edges: [],
    subgraphs: [],
    ...fields,
  };
}

export function diagnostic(fields: Partial<Diagnostic> = {}): Diagnostic {
  return {
    rule: 'test_rule',
    severity: 'warning',
    message: 'Something to look at.',
    hint: null,
    span: null,
    file: null,
    node: null,
    edge: null,
    ...fields,
  };
}

/** start -> plan -> check (diamond) -> exit, with a retry edge back to plan. */
export function pipeline(): Workflow {
  return workflow({
    nodes: [
      node('start', { kind: 'start', shape: 'Mdiamond', label: 'Start' }),
      node('plan', { label: 'Plan the change', attrs: [stringAttr('model', 'claude-sonnet')] }),
      node('check', { kind: 'conditional', shape: 'diamond', label: 'Tests pass?' }),
      node('exit', { kind: 'exit', shape: 'Msquare', label: 'Done' }),
    ],
    edges: [
      edge('start', 'plan'),
      edge('plan', 'check'),
      edge('check', 'exit', { label: 'yes', condition: 'outcome=success' }),
      edge('check', 'plan', { label: 'retry', condition: 'outcome!=success' }),
    ],
  });
}
