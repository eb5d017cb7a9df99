import { describe, expect, it } from 'vitest';
import { node, subgraph, workflow, edge } from '../../test-support/workflowBuilder';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutLayered } from '../layout/layered/layeredLayout';
import { fitViewport } from './fitViewport';
import { knownGeometry } from './knownGeometry';

function flow(rankdir = 'TB') {
  return layoutLayered(
    workflowToFlow(
      workflow({
        rankdir,
        nodes: [node('a', { kind: 'start' }), node('b', { subgraph: 0 }), node('c', { kind: 'exit' })],
        edges: [edge('a', 'b'), edge('b', 'c')],
        subgraphs: [subgraph(['b'], { label: 'Box' })],
      }),
      [],
    ),
  );
}

describe('knownGeometry', () => {
  it('gives a handler node its box as measured size and its handles on the outline', () => {
    const b = flow().nodes.find((n) => n.id === 'b');
    if (b === undefined || b.type !== 'handler') throw new Error('b is a handler');
    const geometry = knownGeometry(b);
    expect(geometry.measured).toEqual({ width: b.data.box.width, height: b.data.box.height });
    expect(geometry.handles).toEqual([
      { id: 'in', type: 'target', position: 'top', x: b.data.box.width / 2, y: 0, width: 0, height: 0 },
      { id: 'out', type: 'source', position: 'bottom', x: b.data.box.width / 2, y: b.data.box.height, width: 0, height: 0 },
    ]);
  });

  it('puts the handles on the sides a left-to-right flow uses', () => {
    const b = flow('LR').nodes.find((n) => n.id === 'b');
    if (b === undefined || b.type !== 'handler') throw new Error('b is a handler');
    expect(knownGeometry(b).handles?.map((h) => [h.id, h.position, h.x])).toEqual([
      ['in', 'left', 0],
      ['out', 'right', b.data.box.width],
    ]);
  });

  it('gives a laid-out subgraph box its size', () => {
    const box = flow().nodes.find((n) => n.type === 'subgraph');
    if (box === undefined) throw new Error('a box');
    expect(knownGeometry(box)).toEqual({ measured: { width: box.width, height: box.height } });
  });
});

describe('fitViewport', () => {
  it('centres the whole drawing in the pane below the summary card, at most at 1.1×', () => {
    const nodes = flow().nodes;
    const viewport = fitViewport(nodes, 1000, 800, 0.05);
    expect(viewport.zoom).toBeLessThanOrEqual(1.1);
    const top = nodes.filter((n) => n.parentId === undefined);
    const lowest = Math.min(...top.map((n) => n.position.y));
    // The top of the drawing lands at least the card's room (116 px) down the pane.
    expect(lowest * viewport.zoom + viewport.y).toBeGreaterThanOrEqual(115.9);
  });

  it('zooms out (to the minimum at most) for a drawing larger than the pane', () => {
    const viewport = fitViewport(flow().nodes, 120, 200, 0.05);
    expect(viewport.zoom).toBeLessThan(1);
    expect(viewport.zoom).toBeGreaterThanOrEqual(0.05);
  });

  it('falls back to the identity before the pane has a size', () => {
    expect(fitViewport(flow().nodes, 0, 0, 0.05)).toEqual({ x: 0, y: 0, zoom: 1 });
  });
});
