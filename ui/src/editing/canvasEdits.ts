/**
 * Canvas operations as the workflow edits the API applies. What an operation means (fresh
 * ids, shapes and labels of new nodes, references a rename rewrites, the spelling of an
 * aliased attribute, which operations the dialect refuses) is decided once, in Rust
 * (`crates/heddle-workflow/src/edit`); these functions only name the operation. A refusal
 * comes back from `edit_workflow` as an error that names the node.
 */
import type { EdgeKey } from '../generated/EdgeKey';
import type { HandlerKind } from '../generated/HandlerKind';
import type { Workflow } from '../generated/Workflow';
import type { WorkflowEdit } from '../generated/WorkflowEdit';

/** What an attribute is set on. */
export type AttributeTarget =
  { type: 'graph' } | { type: 'node'; id: string } | { type: 'edge'; edge: EdgeKey };

/** What is selected for deletion. */
export type DeleteSelection = { nodes: readonly string[]; edges: readonly EdgeKey[] };

/** Adds a node of `kind`; the API picks its id, shape and label. */
export function addNodeEdit(kind: HandlerKind): WorkflowEdit {
  return { op: 'add_node', kind, attrs: [] };
}

/** Adds an edge `from -> to`. */
export function connectEdit(from: string, to: string): WorkflowEdit {
  return { op: 'add_edge', from, to, attrs: [] };
}

/** Deletes the selected nodes (with their edges) and edges. */
export function deleteEdit(selection: DeleteSelection): WorkflowEdit {
  return {
    op: 'delete',
    nodes: [...selection.nodes],
    edges: selection.edges.map((e) => ({ from: e.from, to: e.to, occurrence: e.occurrence })),
  };
}

/** Renames node `from` to `to`, with every reference to it. */
export function renameEdit(from: string, to: string): WorkflowEdit {
  return { op: 'rename_node', from, to };
}

/** Sets `key` on the graph, a node or an edge, or removes it when `value` is null. */
export function setAttributeEdit(target: AttributeTarget, key: string, value: string | null): WorkflowEdit {
  switch (target.type) {
    case 'graph':
      return value === null ? { op: 'remove_graph_attr', key } : { op: 'set_graph_attr', key, value };
    case 'node':
      return value === null
        ? { op: 'remove_node_attr', node: target.id, key }
        : { op: 'set_node_attr', node: target.id, key, value };
    case 'edge': {
      const edge = { ...target.edge };
      return value === null ? { op: 'remove_edge_attr', edge, key } : { op: 'set_edge_attr', edge, key, value };
    }
  }
}

/** The node `after` has and `before` had not (the one an `add_node` made), if any. */
export function addedNodeId(before: Workflow, after: Workflow | null): string | null {
  const known = new Set(before.nodes.map((n) => n.id));
  return after?.nodes.find((n) => !known.has(n.id))?.id ?? null;
}
