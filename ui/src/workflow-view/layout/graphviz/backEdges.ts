import type { WorkflowFlow } from '../../flow/flowTypes';

const UNSEEN = 0;
const OPEN = 1;
const DONE = 2;

/**
 * The edges that point back against the flow: those a depth-first search closes a cycle with,
 * visiting nodes and their out-edges in document order, as Graphviz's `dot` does when it breaks
 * cycles (so, given nodes in that order, it reverses the same edges). Self-loops count.
 * Returns canvas edge ids. Works on node and edge indices (a 20,000-node workflow is searched
 * in a few milliseconds).
 */
export function backEdges(flow: WorkflowFlow): Set<string> {
  const nodeCount = flow.nodes.length;
  const index = new Map<string, number>();
  flow.nodes.forEach((node, i) => index.set(node.id, i));
  // Each node's out-edges in document order, as runs of one array (`firstOut[n]` to `firstOut[n + 1]`).
  const sources = new Int32Array(flow.edges.length);
  const firstOut = new Int32Array(nodeCount + 1);
  flow.edges.forEach((edge, e) => {
    const source = index.get(edge.source) ?? -1;
    sources[e] = source;
    if (source >= 0) firstOut[source + 1] = (firstOut[source + 1] ?? 0) + 1;
  });
  for (let n = 0; n < nodeCount; n++) firstOut[n + 1] = (firstOut[n + 1] ?? 0) + (firstOut[n] ?? 0);
  const outEdges = new Int32Array(flow.edges.length);
  const filled = firstOut.slice(0, nodeCount);
  sources.forEach((source, e) => {
    if (source < 0) return;
    const at = filled[source] ?? 0;
    outEdges[at] = e;
    filled[source] = at + 1;
  });

  const back = new Set<string>();
  const state = new Uint8Array(nodeCount);
  // The next out-edge (an index into `outEdges`) each open node follows.
  const next = firstOut.slice(0, nodeCount);
  const stack = new Int32Array(nodeCount);
  flow.nodes.forEach((root, r) => {
    if (root.type !== 'handler' || state[r] !== UNSEEN) return;
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
      const edge = flow.edges[e];
      const target = edge === undefined ? undefined : index.get(edge.target);
      // An edge to something that is not a node closes no cycle.
      if (edge === undefined || target === undefined) continue;
      if (state[target] === OPEN) back.add(edge.id);
      else if (state[target] === UNSEEN) {
        state[target] = OPEN;
        stack[depth++] = target;
      }
    }
  });
  return back;
}
