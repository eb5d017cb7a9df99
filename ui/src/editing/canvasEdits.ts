/**
 * Canvas operations (add, connect, delete, rename, set an attribute) turned into the
 * structured edits the Rust side applies as minimal text changes. Each function checks the
 * operation against the workflow first and refuses, with a reason, what the edit API would
 * reject or what the dialect makes an error; it never throws.
 *
 * Semantics of `crates/heddle-dot/src/edit` these functions rely on: edits apply in order
 * and all-or-nothing; `remove_node` also removes every edge touching the node; `rename_node`
 * renames every mention (node statements and edge endpoints) but no attribute values;
 * `EdgeKey.occurrence` counts `from -> to` edges in document order, so removing one shifts
 * the occurrences of the later ones; `set_node_attr`/`remove_node_attr` match keys as
 * written, so an alias the file uses (`llm_model`) must be written back as such.
 */
import type { AttrEntry } from '../generated/AttrEntry';
import type { Edge } from '../generated/Edge';
import type { EdgeKey } from '../generated/EdgeKey';
import type { Edit } from '../generated/Edit';
import type { HandlerKind } from '../generated/HandlerKind';
import type { Node } from '../generated/Node';
import type { Workflow } from '../generated/Workflow';
import { lookOf } from '../workflow-view/look/handlerLooks';
import { canonicalKey, type AttrScope } from './attributeCatalog';
import { accept, refuse, type Checked } from './editRefusal';
import { resolveKind, shapeOfKind } from './handlerKinds';
import { checkNodeId, freshNodeId } from './nodeIds';

export type AddNodeOptions = {
  /** The node's label; by default the kind's title, numbered like the id (`Agent 2`). */
  label?: string;
  /** Add an exit even if there is one (the dialect accepts several); refused by default. */
  allowAnotherExit?: boolean;
};

/** A new node's id and the edits that add it. */
export type AddedNode = { id: string; edits: Edit[] };

/** What an attribute is set on. */
export type AttributeTarget =
  { type: 'graph' } | { type: 'node'; id: string } | { type: 'edge'; edge: EdgeKey };

/** What is selected for deletion. */
export type DeleteSelection = { nodes: readonly string[]; edges: readonly EdgeKey[] };

function findNode(workflow: Workflow, id: string): Node | undefined {
  return workflow.nodes.find((n) => n.id === id);
}

function findEdge(workflow: Workflow, key: EdgeKey): Edge | undefined {
  return workflow.edges.find(
    (e) => e.from === key.from && e.to === key.to && e.occurrence === key.occurrence,
  );
}

function noNode<T>(id: string): Checked<T> {
  return refuse('node_not_found', `There is no node \`${id}\` in the workflow.`);
}

function noEdge<T>(key: EdgeKey): Checked<T> {
  return refuse(
    'edge_not_found',
    `There is no edge \`${key.from} -> ${key.to}\` (#${key.occurrence}) in the workflow.`,
  );
}

/**
 * Adds a node of `kind`: a fresh id named after the kind (`agent`, `agent_2`, ...), the
 * kind's shape and a label. A second start is refused (the dialect wants exactly one), and
 * so is a second exit unless `allowAnotherExit`.
 */
export function addNodeEdits(
  kind: HandlerKind,
  workflow: Workflow,
  options: AddNodeOptions = {},
): Checked<AddedNode> {
  const existing = workflow.nodes.find((n) => n.kind === kind);
  if (kind === 'start' && existing !== undefined) {
    return refuse(
      'start_exists',
      `The workflow already starts at \`${existing.id}\`; it can have only one start.`,
    );
  }
  if (kind === 'exit' && existing !== undefined && options.allowAnotherExit !== true) {
    return refuse('exit_exists', `The workflow already has an exit, \`${existing.id}\`.`);
  }
  const ids = workflow.nodes.map((n) => n.id);
  const id = freshNodeId(kind, ids);
  const number = id.slice(kind.length).replace(/^_/, ' ');
  const label = options.label ?? `${lookOf(kind).title}${number}`;
  const edits: Edit[] = [
    {
      op: 'add_node',
      id,
      attrs: [
        ['label', label],
        ['shape', shapeOfKind(kind)],
      ],
    },
  ];
  return accept({ id, edits });
}

/**
 * Adds an edge `from -> to`. Refused: unknown nodes, edges into the start or out of an exit
 * (lint errors `start_no_incoming`, `exit_no_outgoing`), and an edge exactly like an
 * existing one, i.e. a second `from -> to` when one without attributes of its own exists.
 * (Parallel edges that differ, such as labelled choices, are fine: Heddle keeps them all.)
 */
export function connectEdits(from: string, to: string, workflow: Workflow): Checked<Edit[]> {
  const tail = findNode(workflow, from);
  if (tail === undefined) return noNode(from);
  const head = findNode(workflow, to);
  if (head === undefined) return noNode(to);
  if (head.kind === 'start') {
    return refuse('into_start', `\`${to}\` is the start node; no edge may lead into it.`);
  }
  if (tail.kind === 'exit') {
    return refuse('out_of_exit', `\`${from}\` is an exit; a run ends there, so no edge may leave it.`);
  }
  const bare = workflow.edges.some(
    (e) => e.from === from && e.to === to && !e.attrs.some((a) => a.origin === 'explicit'),
  );
  if (bare) {
    return refuse('duplicate_edge', `There is already an edge \`${from} -> ${to}\`.`);
  }
  return accept([{ op: 'add_edge', from, to, attrs: [] }]);
}

/**
 * Deletes the selected edges, then the selected nodes. Edges touching a deleted node are
 * left to `remove_node`, which removes them. Parallel edges go from the last occurrence
 * down, so removing one does not renumber the ones still to remove.
 */
export function deleteEdits(selection: DeleteSelection, workflow: Workflow): Checked<Edit[]> {
  const nodes = [...new Set(selection.nodes)];
  const missingNode = nodes.find((id) => findNode(workflow, id) === undefined);
  if (missingNode !== undefined) return noNode(missingNode);
  const edges: EdgeKey[] = [];
  for (const key of selection.edges) {
    if (findEdge(workflow, key) === undefined) return noEdge(key);
    const seen = edges.some((e) => e.from === key.from && e.to === key.to && e.occurrence === key.occurrence);
    if (!seen && !nodes.includes(key.from) && !nodes.includes(key.to)) edges.push(key);
  }
  edges.sort((a, b) => b.occurrence - a.occurrence);
  return accept([
    ...edges.map((edge): Edit => ({ op: 'remove_edge', edge: { ...edge } })),
    ...nodes.map((id): Edit => ({ op: 'remove_node', id })),
  ]);
}

const TARGET_KEYS = ['retry_target', 'fallback_retry_target'];

/** Explicit `retry_target`/`fallback_retry_target` entries naming `id`. */
function targetsNaming(attrs: readonly AttrEntry[], id: string): AttrEntry[] {
  return attrs.filter(
    (a) => a.origin === 'explicit' && TARGET_KEYS.includes(a.canonical) && a.raw.trim() === id,
  );
}

/**
 * Renames node `from` to `to`, and points the retry targets that named `from` (on nodes and
 * on the graph) at `to`, so they keep naming an existing node. Refused: an unknown node, an
 * id the edit API cannot write, an id in use (also when it differs only in case: ids become
 * file names), and a rename that would change the node's kind (`start`, `exit` and `end`
 * imply kinds for nodes without a kind-giving shape or type). Renaming to the same id is no
 * edit at all. Retry targets set through `node [..]` defaults are not rewritten.
 */
export function renameEdits(from: string, to: string, workflow: Workflow): Checked<Edit[]> {
  const node = findNode(workflow, from);
  if (node === undefined) return noNode(from);
  if (to === from) return accept([]);
  const valid = checkNodeId(to);
  if (!valid.ok) return valid;
  const clash = workflow.nodes.find((n) => n.id !== from && n.id.toLowerCase() === to.toLowerCase());
  if (clash !== undefined) {
    const how = clash.id === to ? '' : ` (ids that differ only in case would share files)`;
    return refuse('id_taken', `A node \`${clash.id}\` already exists${how}.`);
  }
  const type = node.attrs.find((a) => a.canonical === 'type')?.raw ?? null;
  const before = resolveKind(type, node.shape, from);
  const after = resolveKind(type, node.shape, to);
  if (after !== before) {
    return refuse(
      'kind_change',
      `Renaming \`${from}\` to \`${to}\` would make it a ${after} node; give it an explicit shape or type first.`,
    );
  }
  const edits: Edit[] = [{ op: 'rename_node', from, to }];
  for (const attr of targetsNaming(workflow.attrs, from)) {
    edits.push({ op: 'set_graph_attr', key: attr.key, value: to });
  }
  for (const n of workflow.nodes) {
    for (const attr of targetsNaming(n.attrs, from)) {
      edits.push({ op: 'set_node_attr', node: n.id === from ? to : n.id, key: attr.key, value: to });
    }
  }
  return accept(edits);
}

/** The target's attributes and scope, or why there is no such target. */
function targetAttrs(
  target: AttributeTarget,
  workflow: Workflow,
): Checked<{ attrs: AttrEntry[]; scope: AttrScope }> {
  switch (target.type) {
    case 'graph':
      return accept({ attrs: workflow.attrs, scope: 'graph' });
    case 'node': {
      const node = findNode(workflow, target.id);
      return node === undefined ? noNode(target.id) : accept({ attrs: node.attrs, scope: 'node' });
    }
    case 'edge': {
      const edge = findEdge(workflow, target.edge);
      return edge === undefined ? noEdge(target.edge) : accept({ attrs: edge.attrs, scope: 'edge' });
    }
  }
}

function setEdit(target: AttributeTarget, key: string, value: string): Edit {
  switch (target.type) {
    case 'graph':
      return { op: 'set_graph_attr', key, value };
    case 'node':
      return { op: 'set_node_attr', node: target.id, key, value };
    case 'edge':
      return { op: 'set_edge_attr', edge: { ...target.edge }, key, value };
  }
}

function removeEdit(target: AttributeTarget, key: string): Edit {
  switch (target.type) {
    case 'graph':
      return { op: 'remove_graph_attr', key };
    case 'node':
      return { op: 'remove_node_attr', node: target.id, key };
    case 'edge':
      return { op: 'remove_edge_attr', edge: { ...target.edge }, key };
  }
}

/**
 * Sets `key` to `value` on the graph, a node or an edge, or removes it when `value` is null.
 * `key` may be Heddle's name or an alias: the edit uses the spelling the target already has
 * (so `model` updates an existing `llm_model`), and a removal removes every spelling.
 */
export function setAttributeEdits(
  target: AttributeTarget,
  key: string,
  value: string | null,
  workflow: Workflow,
): Checked<Edit[]> {
  if (key === '') return refuse('empty_key', 'An attribute key cannot be empty.');
  const checked = targetAttrs(target, workflow);
  if (!checked.ok) return checked;
  const found = checked.value;
  const canonical = canonicalKey(found.scope, key);
  const written = [
    ...new Set(
      found.attrs
        .filter((a) => a.origin === 'explicit' && canonicalKey(found.scope, a.key) === canonical)
        .map((a) => a.key),
    ),
  ];
  if (value === null) {
    return accept((written.length > 0 ? written : [key]).map((k) => removeEdit(target, k)));
  }
  return accept([setEdit(target, written.at(-1) ?? key, value)]);
}
