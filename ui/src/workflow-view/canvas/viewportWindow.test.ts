import { describe, expect, it } from 'vitest';
import { edge, node, subgraph, workflow } from '../../test-support/workflowBuilder';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutLayered } from '../layout/layered/layeredLayout';
import { elementsIn, flowPlaces, holds, keepsWindow, nodePlaces, viewOf, windowAround } from './viewportWindow';

/** A top-down chain of `count` nodes, the middle third in a box. */
function chain(count: number): WorkflowFlow {
  const ids = Array.from({ length: count }, (_, i) => `n${i}`);
  const boxed = ids.filter((_, i) => i >= count / 3 && i < (2 * count) / 3);
  return layoutLayered(
    workflowToFlow(
      workflow({
        nodes: ids.map((id) => node(id, { subgraph: boxed.includes(id) ? 0 : null })),
        edges: ids.slice(1).map((id, i) => edge(ids[i] ?? '', id)),
        subgraphs: [subgraph(boxed, { label: 'Middle' })],
      }),
      [],
    ),
  );
}

function absoluteY(flow: WorkflowFlow, id: string): number {
  const n = flow.nodes.find((x) => x.id === id);
  const parent = flow.nodes.find((x) => x.id === n?.parentId);
  return (n?.position.y ?? 0) + (parent?.position.y ?? 0);
}

describe('viewOf and windowAround', () => {
  it('turn a transform and pane into the flow area shown, and that grown by its size each side', () => {
    const view = viewOf([-200, -100, 2], 800, 600);
    expect(view).toEqual({ x: 100, y: 50, width: 400, height: 300 });
    expect(windowAround(view)).toEqual({ x: -300, y: -250, width: 1200, height: 900 });
    expect(holds(windowAround(view), view)).toBe(true);
    expect(holds(view, windowAround(view))).toBe(false);
    expect(holds(windowAround(view), { ...view, x: view.x + 801 })).toBe(false);
  });
});

describe('keepsWindow', () => {
  const view = { x: 0, y: 0, width: 100, height: 50 };
  it('keeps a window round the view until the view leaves it', () => {
    expect(keepsWindow(windowAround(view), view)).toBe(true);
    expect(keepsWindow(windowAround(view), { ...view, x: 90 })).toBe(true);
    expect(keepsWindow(windowAround(view), { ...view, x: 110 })).toBe(false);
    expect(keepsWindow(windowAround(view), { ...view, y: -51 })).toBe(false);
  });

  it('makes a window anew once zoomed well in', () => {
    const zoomedIn = { x: 10, y: 10, width: 100 / 3, height: 50 / 3 };
    expect(keepsWindow(windowAround(view), { ...zoomedIn, width: 70, height: 35 })).toBe(true);
    expect(keepsWindow(windowAround(view), zoomedIn)).toBe(false);
  });
});

describe('elementsIn', () => {
  const flow = chain(60);
  const places = flowPlaces(flow);

  it('keeps only the nodes and edges reaching into the area, in the flow order', () => {
    const top = absoluteY(flow, 'n0');
    expect(elementsIn(places, { x: -1000, y: top, width: 5000, height: 10 }).nodes.map((n) => n.id)).toEqual(['n0']);
    // Across n0's bottom, where its edge to n1 leaves: n1 comes with that edge.
    const bottom = absoluteY(flow, 'n1') - 10;
    const { nodes, edges } = elementsIn(places, { x: -1000, y: bottom, width: 5000, height: 1 });
    expect(nodes.map((n) => n.id)).toEqual(['n0', 'n1']);
    expect(edges.map((e) => [e.source, e.target])).toEqual([['n0', 'n1']]);
  });

  it('keeps both ends of every edge kept, and the box of every node kept', () => {
    const y = absoluteY(flow, 'n30');
    const { nodes, edges } = elementsIn(places, { x: -1000, y: y - 2, width: 5000, height: 1 });
    const ids = nodes.map((n) => n.id);
    expect(ids[0]).toMatch(/^subgraph/);
    expect(ids.slice(1)).toEqual(['n29', 'n30']);
    expect(edges.map((e) => e.target)).toEqual(['n30']);
    // React Flow's order: a box before its children.
    expect(flow.nodes.findIndex((n) => n.id === ids[0])).toBeLessThan(flow.nodes.findIndex((n) => n.id === 'n29'));
  });

  it('keeps everything for an area round the whole drawing, and nothing far away', () => {
    const all = elementsIn(places, { x: -1e6, y: -1e6, width: 2e6, height: 2e6 });
    expect(all.nodes).toHaveLength(flow.nodes.length);
    expect(all.edges).toHaveLength(flow.edges.length);
    expect(elementsIn(places, { x: -1e6, y: -1e6, width: 10, height: 10 })).toEqual({ nodes: [], edges: [] });
  });

  it('places an edge without a route by its ends', () => {
    const unrouted: WorkflowFlow = { ...flow, edges: flow.edges.map((e) => (e.data === undefined ? e : { ...e, data: { ...e.data, route: null } })) };
    const top = absoluteY(flow, 'n0');
    const { edges } = elementsIn(flowPlaces(unrouted), { x: -1000, y: top, width: 5000, height: 1 });
    expect(edges.map((e) => e.target)).toEqual(['n1']);
  });
});

describe('nodePlaces', () => {
  it('places a boxed node within its box, once per list of nodes', () => {
    const flow = chain(9);
    const places = nodePlaces(flow.nodes);
    const at = (places.nodeIndex.get('n4') ?? -1) * 4;
    expect(places.nodeBoxes[at + 1]).toBeCloseTo(absoluteY(flow, 'n4'));
    expect(nodePlaces(flow.nodes)).toBe(places);
    expect(flowPlaces(flow).nodeBoxes).toBe(places.nodeBoxes);
    expect(nodePlaces([...flow.nodes])).not.toBe(places);
  });
});
