import type { WorkflowFlow } from '../../flow/flowTypes';

/**
 * The edges that point back against the flow: those a depth-first search closes a cycle with,
 * visiting nodes and their out-edges in document order, as Graphviz's `dot` does when it breaks
 * cycles (so, given nodes in that order, it reverses the same edges). Self-loops count.
 * Returns canvas edge ids.
 */
export function backEdges(flow: WorkflowFlow): Set<string> {
  const out = new Map<string, { id: string; target: string }[]>();
  for (const edge of flow.edges) {
    const list = out.get(edge.source) ?? [];
    list.push({ id: edge.id, target: edge.target });
    out.set(edge.source, list);
  }
  const back = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  for (const node of flow.nodes) {
    if (node.type !== 'handler' || state.has(node.id)) continue;
    // Iterative DFS: a stack of (node, index of the next out-edge to follow).
    const stack: { id: string; next: number }[] = [{ id: node.id, next: 0 }];
    state.set(node.id, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const edge = out.get(top.id)?.[top.next];
      if (edge === undefined) {
        state.set(top.id, 'done');
        stack.pop();
        continue;
      }
      top.next += 1;
      const seen = state.get(edge.target);
      if (seen === 'open') back.add(edge.id);
      else if (seen === undefined) {
        state.set(edge.target, 'open');
        stack.push({ id: edge.target, next: 0 });
      }
    }
  }
  return back;
}
