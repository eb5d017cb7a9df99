import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { describe, expect, it } from 'vitest';
import { edge, node, pipeline, subgraph, workflow } from '../../../test-support/workflowBuilder';
import { subgraphId } from '../../flow/elementIds';
import { workflowToFlow } from '../../flow/workflowToFlow';
import { blankLabel, toGraphvizDot } from './graphvizDot';
import { runGraphviz } from './runGraphviz';

function chain(rankdir: string) {
  return workflow({
    rankdir,
    nodes: [node('a', { kind: 'start' }), node('b'), node('c', { kind: 'exit' })],
    edges: [edge('a', 'b'), edge('b', 'c')],
  });
}

/** The DOT name `input` gave the canvas element `id`. */
function nameOf(map: Map<string, string>, id: string): string {
  const found = [...map].find(([, canvasId]) => canvasId === id);
  if (found === undefined) throw new Error(`no DOT name for ${id}`);
  return found[0];
}

describe('toGraphvizDot', () => {
  it.each([
    ['TB', 'TB', 's', 'n'],
    ['LR', 'LR', 'e', 'w'],
    ['BT', 'BT', 'n', 's'],
    ['rl', 'RL', 'w', 'e'],
  ])('maps rankdir %s to rankdir=%s, edges leaving by %s and entering by %s', (rankdir, dotRankdir, tail, head) => {
    const { dot } = toGraphvizDot(workflowToFlow(chain(rankdir), []));
    expect(dot).toContain(`rankdir=${dotRankdir},`);
    expect(dot).toContain(`edge [tailport=${tail}, headport=${head}`);
  });

  it('gives every node a fixed-size box of its measured size, in inches', () => {
    const flow = workflowToFlow(chain('TB'), []);
    const input = toGraphvizDot(flow);
    const b = flow.nodes.find((n) => n.id === 'b');
    expect(b?.type).toBe('handler');
    const box = b?.type === 'handler' ? b.data.box : { width: 0, height: 0 };
    const name = nameOf(input.nodes, 'b');
    const line = input.dot.split('\n').find((l) => l.trim().startsWith(`"${name}" [`));
    const inches = (px: number) => Math.round((px / 72) * 10000) / 10000;
    expect(line).toBe(`  "${name}" [width=${inches(box.width)}, height=${inches(box.height)}];`);
    expect(input.dot).toContain('node [shape=box, fixedsize=true, label=""]');
  });

  it('never writes workflow ids into the DOT: odd ids are named by the generated names', () => {
    const odd = ['say "hi"', 'back\\slash\\', 'new\nline', '} digraph x {', 'ü ñ 漢字', '-> b'];
    const wf = workflow({
      nodes: odd.map((id) => node(id)),
      edges: odd.slice(1).map((id, i) => edge(odd[i] ?? '', id)),
    });
    const input = toGraphvizDot(workflowToFlow(wf, []));
    for (const id of odd) expect(input.dot).not.toContain(id);
    expect([...input.nodes.values()].sort()).toEqual([...odd].sort());
    expect(input.edges.size).toBe(odd.length - 1);
  });

  it('puts members of a drawn subgraph in a cluster, nested as the boxes are', async () => {
    const wf = workflow({
      nodes: [node('a'), node('b', { subgraph: 0 }), node('c', { subgraph: 1 })],
      edges: [edge('a', 'b'), edge('b', 'c')],
      subgraphs: [
        subgraph(['b', 'c'], { id: 'cluster_outer', label: 'Outer' }),
        subgraph(['c'], { id: 'cluster_inner', parent: 0 }),
      ],
    });
    const input = toGraphvizDot(workflowToFlow(wf, []));
    const a = nameOf(input.nodes, 'a');
    const b = nameOf(input.nodes, 'b');
    const c = nameOf(input.nodes, 'c');
    const outer = nameOf(input.clusters, subgraphId(0));
    const inner = nameOf(input.clusters, subgraphId(1));
    expect(outer.startsWith('cluster_')).toBe(true);
    // Nodes are declared first, in document order; the clusters then name their members.
    const lines = input.dot.split('\n').map((l) => l.trim());
    const declared = lines.filter((l) => l.includes('[width=')).map((l) => l.split(' ')[0]);
    expect(declared).toEqual([`"${a}"`, `"${b}"`, `"${c}"`]);
    // Which clusters enclose each member statement (`"n1";`), by following the braces.
    const enclosing = new Map<string, string[]>();
    const open: string[] = [];
    for (const line of lines) {
      const opened = /^subgraph "(.+)" \{$/.exec(line);
      if (opened?.[1] !== undefined) open.push(opened[1]);
      else if (line === '}') open.pop();
      else if (/^"[^"]+";$/.test(line)) enclosing.set(line.slice(1, -2), [...open]);
    }
    expect(enclosing.get(b)).toEqual([outer]);
    expect(enclosing.get(c)).toEqual([outer, inner]);
    expect(enclosing.has(a)).toBe(false);
    const graphviz = await Graphviz.load();
    const placement = runGraphviz(graphviz, input.dot);
    expect(Object.keys(placement.clusters).sort()).toEqual([outer, inner].sort());
  });

  it('keeps room for labelled edges with a blank label of the chip size', () => {
    const flow = workflowToFlow(pipeline(), []);
    const input = toGraphvizDot(flow);
    const labelled = flow.edges.find((e) => e.id === 'check->exit#0');
    const box = labelled?.data?.labelBox;
    expect(box).toBeTruthy();
    const edgeName = nameOf(input.edges, 'check->exit#0');
    const line = input.dot.split('\n').find((l) => l.includes(`id="${edgeName}"`));
    expect(line).toContain(`label=${blankLabel(box?.width ?? 0, box?.height ?? 0)}`);
    const plain = nameOf(input.edges, 'start->plan#0');
    expect(input.dot.split('\n').find((l) => l.includes(`id="${plain}"`))).not.toContain('label=');
  });

  it('sends edges that point back out and in on the flank, so they loop beside the nodes', () => {
    const input = toGraphvizDot(workflowToFlow(pipeline(), []));
    expect([...input.backEdges]).toEqual(['check->plan#0']);
    const retry = nameOf(input.edges, 'check->plan#0');
    const line = input.dot.split('\n').find((l) => l.includes(`id="${retry}"`));
    expect(line).toContain('tailport=e, headport=e');
    const lr = toGraphvizDot(workflowToFlow({ ...pipeline(), rankdir: 'LR' }, []));
    expect(lr.dot.split('\n').find((l) => l.includes(`id="${retry}"`))).toContain('tailport=s, headport=s');
  });

  it('writes a blank label as a fixed-size HTML table of whole points', () => {
    expect(blankLabel(40.2, 18)).toContain('FIXEDSIZE="TRUE" WIDTH="41" HEIGHT="18"');
  });
});
