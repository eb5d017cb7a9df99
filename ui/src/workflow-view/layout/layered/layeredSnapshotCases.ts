/**
 * Workflows and rooms whose layered layout (and fold) is pinned to what `main` drew before the
 * engine moved to typed arrays (`layeredSnapshot.main.json`, compared by layeredSnapshot.test.ts),
 * and the rounded numbers compared. Only the flow builders and the flow's own fields are used,
 * so this module runs unchanged on the old code. The JSON was made on main (f5274f0) by copying
 * this module beside its layeredLayout.ts and running, in a Vitest test there:
 *
 *   const lines = Object.entries(takeSnapshots(layoutAndFold)).map(([key, s]) => `  ${JSON.stringify(key)}: ${JSON.stringify(s)}`);
 *   writeFileSync(out, `{\n${lines.join(',\n')}\n}\n`);
 *
 * main's `layoutAndFold` is `foldTo(layoutLayered(flow), room)`, its page path. Its worker path
 * gave the same numbers except on `odd`: the flow it unpacked had lost the parent id naming no
 * node, so its fold moved that node with the bands; the page path left it, as both paths now do.
 */
import { randomWorkflow } from '../../../test-support/randomWorkflow';
import { edge, node, pipeline, subgraph, workflow } from '../../../test-support/workflowBuilder';
import type { SubgraphInfo } from '../../../generated/SubgraphInfo';
import type { Workflow } from '../../../generated/Workflow';
import type { WorkflowFlow, WorkflowFlowEdge, WorkflowFlowNode } from '../../flow/flowTypes';
import { workflowToFlow } from '../../flow/workflowToFlow';
import type { FoldRoom } from '../fold/foldFlow';

export const RANKDIRS = ['TB', 'LR', 'BT', 'RL'] as const;

/** No fold, a wide canvas, and a small one that folds even the smaller graphs. */
export const ROOMS: Record<string, FoldRoom | null> = {
  none: null,
  wide: { width: 1200, height: 700, maxZoom: 1, readableZoom: 0.6 },
  small: { width: 500, height: 380, maxZoom: 1.2, readableZoom: 0.9 },
};

/** Boxes three deep, edges into, out of and between them, a label on one. */
function nested(rankdir: string): Workflow {
  return workflow({
    rankdir,
    nodes: [
      node('start', { kind: 'start' }),
      node('a', { subgraph: 0 }),
      node('b', { subgraph: 1, label: 'a longer label' }),
      node('c', { subgraph: 2 }),
      node('d', { subgraph: 2 }),
      node('e', { subgraph: 1 }),
      node('f', { subgraph: 3 }),
      node('exit', { kind: 'exit' }),
    ],
    edges: [
      edge('start', 'a'),
      edge('a', 'b', { label: 'next' }),
      edge('b', 'c'),
      edge('b', 'd'),
      edge('c', 'e'),
      edge('d', 'e'),
      edge('e', 'f'),
      edge('a', 'f', { condition: 'outcome=skip' }),
      edge('f', 'exit'),
    ],
    subgraphs: [
      subgraph(['a', 'b', 'c', 'd', 'e'], { id: 'cluster_outer', label: 'Outer' }),
      subgraph(['b', 'c', 'd', 'e'], { id: 'cluster_middle', label: 'Middle', parent: 0 }),
      subgraph(['c', 'd'], { id: 'cluster_inner', label: 'Inner', parent: 1 }),
      subgraph(['f'], { id: 'cluster_side', label: 'Side' }),
    ],
  });
}

/** A retry loop back over two stages, labelled, and a plain one further on. */
function backLoop(rankdir: string): Workflow {
  return workflow({
    rankdir,
    nodes: [node('start', { kind: 'start' }), node('plan'), node('work'), node('check', { kind: 'conditional', shape: 'diamond' }), node('report'), node('exit', { kind: 'exit' })],
    edges: [
      edge('start', 'plan'),
      edge('plan', 'work'),
      edge('work', 'check'),
      edge('check', 'plan', { label: 'retry', condition: 'outcome=fail' }),
      edge('check', 'report', { condition: 'outcome=success' }),
      edge('report', 'work'),
      edge('report', 'exit'),
    ],
  });
}

/** A labelled self-loop on a node in a box, and an unlabelled one at the top level. */
function selfLoops(rankdir: string): Workflow {
  return workflow({
    rankdir,
    nodes: [node('start', { kind: 'start' }), node('poll', { subgraph: 0 }), node('wait'), node('exit', { kind: 'exit' })],
    edges: [edge('start', 'poll'), edge('poll', 'poll', { label: 'again' }), edge('poll', 'wait'), edge('wait', 'wait'), edge('wait', 'exit')],
    subgraphs: [subgraph(['poll'], { label: 'Polling' })],
  });
}

/** Two edges between the same pair each way (occurrences 0 and 1: their own ids), one labelled. */
function parallel(rankdir: string): Workflow {
  return workflow({
    rankdir,
    nodes: [node('start', { kind: 'start' }), node('a'), node('b'), node('exit', { kind: 'exit' })],
    edges: [
      edge('start', 'a'),
      edge('a', 'b'),
      edge('a', 'b', { occurrence: 1, label: 'fast' }),
      edge('b', 'a', { condition: 'outcome=fail' }),
      edge('b', 'a', { occurrence: 1, condition: 'outcome=retry', label: 'retry' }),
      edge('b', 'exit'),
    ],
  });
}

/** start, `stages` commands and exit in a chain, a labelled loop back every 7 stages. */
function chain(rankdir: string, stages: number): Workflow {
  const ids = ['start', ...Array.from({ length: stages }, (_, i) => `n${i}`), 'exit'];
  const nodes = ids.map((id, i) => node(id, { kind: i === 0 ? 'start' : i === stages + 1 ? 'exit' : 'command' }));
  const edges = ids.slice(1).map((id, i) => edge(ids[i] ?? 'start', id));
  for (let i = 7; i < stages; i += 7) edges.push(edge(`n${i}`, `n${i - 6}`, { label: 'retry' }));
  return workflow({ rankdir, nodes, edges });
}

/** A chain whose stages sit in boxes of 4, one box nested in another, so the fold moves boxes. */
function boxedChain(rankdir: string): Workflow {
  const stages = 24;
  const ids = Array.from({ length: stages }, (_, i) => `s${i}`);
  const subgraphs: SubgraphInfo[] = [];
  for (let b = 0; b < stages / 4; b++) subgraphs.push(subgraph(ids.slice(4 * b, 4 * b + 4), { label: `Part ${b}` }));
  subgraphs.push(subgraph(['s9', 's10'], { label: 'Core', parent: 2 }));
  const nodes = ids.map((id, i) => node(id, { subgraph: i === 9 || i === 10 ? subgraphs.length - 1 : Math.floor(i / 4) }));
  const edges = ids.slice(1).map((id, i) => edge(ids[i] ?? 's0', id, i % 5 === 0 ? { label: `step ${i}` } : {}));
  edges.push(edge('s13', 's5', { label: 'redo', condition: 'outcome=fail' }));
  return workflow({ rankdir, nodes, edges, subgraphs });
}

/**
 * A laid-out chain plus what only a hand-made flow has: a node whose parent names no node, an
 * edge to a box, an edge to no node, and an edge without data.
 */
function oddFlow(rankdir: string): WorkflowFlow {
  const flow = workflowToFlow(chain(rankdir, 16), []);
  const [first] = flow.edges;
  if (first === undefined) throw new Error('a chain has edges');
  const box: WorkflowFlowNode = { id: 'box', type: 'subgraph', position: { x: 0, y: 0 }, data: { index: 0, subgraph: subgraph([], { label: 'Empty' }), title: 'Empty' } };
  const nodes = flow.nodes.map((n) => (n.id === 'n4' ? { ...n, parentId: 'nowhere' } : n));
  const strays: WorkflowFlowEdge[] = [
    { ...first, id: 'to-nothing', source: 'nowhere' },
    { ...first, id: 'to-box', target: 'box' },
    { ...first, id: 'no-data', source: 'n2', target: 'n5', data: undefined },
  ];
  return { ...flow, nodes: [box, ...nodes], edges: [...flow.edges, ...strays] };
}

/** Every fixture, by name, for one rank direction. */
export function snapshotFlows(rankdir: string): Record<string, WorkflowFlow> {
  const flows: Record<string, WorkflowFlow> = {
    nested: workflowToFlow(nested(rankdir), []),
    backLoop: workflowToFlow(backLoop(rankdir), []),
    selfLoops: workflowToFlow(selfLoops(rankdir), []),
    parallel: workflowToFlow(parallel(rankdir), []),
    pipeline: workflowToFlow({ ...pipeline(), rankdir }, []),
    chain40: workflowToFlow(chain(rankdir, 40), []),
    boxedChain: workflowToFlow(boxedChain(rankdir), []),
    odd: oddFlow(rankdir),
  };
  for (const seed of [1, 4, 5]) flows[`random${seed}`] = workflowToFlow(randomWorkflow(seed, rankdir), []);
  return flows;
}

/** Rounded to 3 decimals (and -0 to 0), so the JSON stays small and readable. */
function round(value: number): number {
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? 0 : rounded;
}

/** What a laid-out flow draws: each node's position (and size if set), each edge's route and label centre. */
export interface FlowSnapshot {
  nodes: Record<string, number[]>;
  edges: Record<string, { route: number[] | null; label: number[] | null } | null>;
}

export function snapshotOf(flow: WorkflowFlow): FlowSnapshot {
  const nodes: Record<string, number[]> = {};
  for (const n of flow.nodes) {
    if (n.id in nodes) throw new Error(`two nodes ${n.id}`);
    const at = [round(n.position.x), round(n.position.y)];
    nodes[n.id] = n.width === undefined || n.height === undefined ? at : [...at, round(n.width), round(n.height)];
  }
  const edges: FlowSnapshot['edges'] = {};
  for (const e of flow.edges) {
    if (e.id in edges) throw new Error(`two edges ${e.id}: not comparable by id`);
    const data = e.data;
    edges[e.id] =
      data === undefined
        ? null
        : {
            route: data.route === null ? null : data.route.flatMap((p) => [round(p.x), round(p.y)]),
            label: data.labelCenter === null ? null : [round(data.labelCenter.x), round(data.labelCenter.y)],
          };
  }
  return { nodes, edges };
}

/** Each fixture in each direction and room, by `name rankdir room`, laid out (and folded) by `layout`. */
export function takeSnapshots(layout: (flow: WorkflowFlow, room: FoldRoom | null) => WorkflowFlow): Record<string, FlowSnapshot> {
  const snapshots: Record<string, FlowSnapshot> = {};
  for (const rankdir of RANKDIRS) {
    for (const [name, flow] of Object.entries(snapshotFlows(rankdir))) {
      // The random graphs are large and fold only in the small room.
      const rooms = Object.entries(ROOMS).filter(([roomName]) => !name.startsWith('random') || roomName !== 'wide');
      for (const [roomName, room] of rooms) snapshots[`${name} ${rankdir} ${roomName}`] = snapshotOf(layout(flow, room));
    }
  }
  return snapshots;
}
