import type { WorkflowFlow } from '../../flow/flowTypes';

const UNSEEN = 0;
const OPEN = 1;
const DONE = 2;

/**
 * Which edges point back against the flow (1) and which do not (0), for a graph given by
 * indices: node `n` may start a search when `roots[n]` is 1; edge `e` runs from node
 * `sources[e]` to node `targets[e]` (-1: not a node). An edge closes a cycle when a depth-first
 * search, visiting the roots and each node's out-edges in order, meets its target still open,
 * as Graphviz's `dot` does when it breaks cycles. Self-loops count.
 */
export function backEdgeFlags(roots: Uint8Array, sources: Int32Array, targets: Int32Array): Uint8Array {
  const nodeCount = roots.length;
  const edgeCount = sources.length;
  // Each node's out-edges in order, as runs of one array (`firstOut[n]` to `firstOut[n + 1]`).
  const firstOut = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    const source = sources[e] ?? -1;
    if (source >= 0) firstOut[source + 1] = (firstOut[source + 1] ?? 0) + 1;
  }
  for (let n = 0; n < nodeCount; n++) firstOut[n + 1] = (firstOut[n + 1] ?? 0) + (firstOut[n] ?? 0);
  const outEdges = new Int32Array(edgeCount);
  const filled = firstOut.slice(0, nodeCount);
  for (let e = 0; e < edgeCount; e++) {
    const source = sources[e] ?? -1;
    if (source < 0) continue;
    const at = filled[source] ?? 0;
    outEdges[at] = e;
    filled[source] = at + 1;
  }

  const back = new Uint8Array(edgeCount);
  const state = new Uint8Array(nodeCount);
  // The next out-edge (an index into `outEdges`) each open node follows.
  const next = firstOut.slice(0, nodeCount);
  const stack = new Int32Array(nodeCount);
  for (let r = 0; r < nodeCount; r++) {
    if (roots[r] !== 1 || state[r] !== UNSEEN) continue;
    let depth = 0;
    stack[depth++] = r;
    state[r] = OPEN;
    while (depth > 0) {
      const top = stack[depth - 1] ?? 0;
      const at = next[top] ?? 0;
      if (at >= (firstOut[top + 1] ?? 0)) {
        state[top] = DONE;
        depth--;
        continue;
      }
      next[top] = at + 1;
      const e = outEdges[at] ?? 0;
      const target = targets[e] ?? -1;
      // An edge to something that is not a node closes no cycle.
      if (target < 0) continue;
      if (state[target] === OPEN) back[e] = 1;
      else if (state[target] === UNSEEN) {
        state[target] = OPEN;
        stack[depth++] = target;
      }
    }
  }
  return back;
}

/**
 * The edges of `flow` that point back against the flow (see `backEdgeFlags`), searched from
 * its handler nodes in document order, as canvas edge ids. Works on node and edge indices (a
 * 20,000-node workflow is searched in a few milliseconds).
 */
export function backEdges(flow: WorkflowFlow): Set<string> {
  const index = new Map<string, number>();
  flow.nodes.forEach((node, i) => index.set(node.id, i));
  const roots = new Uint8Array(flow.nodes.length);
  flow.nodes.forEach((node, i) => (roots[i] = node.type === 'handler' ? 1 : 0));
  const sources = new Int32Array(flow.edges.length);
  const targets = new Int32Array(flow.edges.length);
  flow.edges.forEach((edge, e) => {
    sources[e] = index.get(edge.source) ?? -1;
    targets[e] = index.get(edge.target) ?? -1;
  });
  const flags = backEdgeFlags(roots, sources, targets);
  const back = new Set<string>();
  flow.edges.forEach((edge, e) => {
    if (flags[e] === 1) back.add(edge.id);
  });
  return back;
}
