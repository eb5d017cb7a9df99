/** Random workflows for layout tests, each the same for its seed on every run. */
import type { Edge } from '../generated/Edge';
import type { Node } from '../generated/Node';
import type { SubgraphInfo } from '../generated/SubgraphInfo';
import type { Workflow } from '../generated/Workflow';
import { edge, node, subgraph, workflow } from './workflowBuilder';

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random workflow (the same for a seed on every run): a chain with branches, loops back
 * (some labelled), self-loops and boxes three deep. layered.test.ts checks the layout's
 * properties on these; layeredSnapshotCases.ts pins three of them to what main drew.
 */
export function randomWorkflow(seed: number, rankdir: string): Workflow {
  const next = random(seed);
  const count = 8 + Math.floor(next() * 25);
  const subgraphs: SubgraphInfo[] = [subgraph([], { label: 'Outer' }), subgraph([], { label: 'Inner', parent: 0 }), subgraph([], { label: 'Side' })];
  const nodes: Node[] = [];
  for (let i = 0; i < count; i++) {
    const roll = next();
    const box = roll < 0.15 ? 1 : roll < 0.35 ? 0 : roll < 0.5 ? 2 : null;
    const id = `n${i}`;
    nodes.push(node(id, { label: 'x'.repeat(1 + Math.floor(next() * 20)), subgraph: box }));
    if (box === 1) subgraphs[0]?.nodes.push(id);
    if (box !== null) subgraphs[box]?.nodes.push(id);
  }
  const edges: Edge[] = [];
  for (let i = 1; i < count; i++) {
    edges.push(edge(`n${Math.floor(next() * i)}`, `n${i}`, next() < 0.3 ? { condition: 'outcome=success' } : {}));
    if (next() < 0.2) edges.push(edge(`n${i}`, `n${Math.floor(next() * i)}`, { label: next() < 0.5 ? 'back' : null, condition: 'outcome=fail' }));
    if (next() < 0.08) edges.push(edge(`n${i}`, `n${i}`, { label: 'again' }));
  }
  return workflow({ rankdir, nodes, edges, subgraphs: subgraphs.filter((s) => s.nodes.length > 0).length === 3 ? subgraphs : [] });
}
