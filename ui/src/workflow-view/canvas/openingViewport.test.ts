import { describe, expect, it } from 'vitest';
import { edge, node, workflow } from '../../test-support/workflowBuilder';
import type { WorkflowFlowNode } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutLayered } from '../layout/layered/layeredLayout';
import { drawingBounds, fitPadding, fitViewport, isWholeInView, nodeBounds } from './fitViewport';
import { openingFocus, openingViewport, READABLE_ZOOM, WHOLE_READABLE_ZOOM } from './openingViewport';

/** A left-to-right chain of `stages` agents between start and exit, laid out (unfolded). */
function chainNodes(stages: number): WorkflowFlowNode[] {
  const ids = ['start', ...Array.from({ length: stages }, (_, i) => `s${i}`), 'exit'];
  const nodes = ids.map((id) => node(id, { kind: id === 'start' ? 'start' : id === 'exit' ? 'exit' : 'agent' }));
  const edges = ids.slice(1).map((id, i) => edge(ids[i] ?? 'start', id));
  return layoutLayered(workflowToFlow(workflow({ rankdir: 'LR', nodes, edges }), [])).nodes;
}

/** Where node `id` lands on the screen under `viewport`. */
function onScreen(nodes: WorkflowFlowNode[], id: string, viewport: { x: number; y: number; zoom: number }) {
  const box = nodeBounds(nodes, id);
  if (box === null) throw new Error(`no node ${id}`);
  return {
    left: box.x * viewport.zoom + viewport.x,
    right: (box.x + box.width) * viewport.zoom + viewport.x,
    top: box.y * viewport.zoom + viewport.y,
    bottom: (box.y + box.height) * viewport.zoom + viewport.y,
  };
}

describe('openingViewport', () => {
  it('fits a graph that is readable whole', () => {
    const nodes = chainNodes(3);
    expect(openingViewport(nodes, 1000, 800, 'start', 0.05)).toEqual(fitViewport(nodes, 1000, 800, 0.05));
  });

  it('fits a graph legible whole though smaller than the readable zoom', () => {
    const nodes = chainNodes(5);
    const fitted = fitViewport(nodes, 1000, 800, 0.05);
    expect(fitted.zoom).toBeGreaterThanOrEqual(WHOLE_READABLE_ZOOM);
    expect(fitted.zoom).toBeLessThan(READABLE_ZOOM);
    expect(openingViewport(nodes, 1000, 800, 'start', 0.05)).toEqual(fitted);
  });

  it('opens a graph too long to read whole at the readable zoom, its start in view at the left', () => {
    const nodes = chainNodes(60);
    expect(fitViewport(nodes, 1000, 800, 0.05).zoom).toBeLessThan(READABLE_ZOOM);
    const viewport = openingViewport(nodes, 1000, 800, 'start', 0.05);
    expect(viewport.zoom).toBe(READABLE_ZOOM);
    const start = onScreen(nodes, 'start', viewport);
    // Pushed back to the drawing's left end (the padding's width in), not centred on the start.
    expect(start.left).toBeCloseTo(40, 0);
    expect(start.right).toBeLessThan(1000);
    expect(start.top).toBeGreaterThanOrEqual(116);
    expect(start.bottom).toBeLessThan(800);
  });

  it('centres on the focus node in the middle of a long graph', () => {
    const nodes = chainNodes(60);
    const viewport = openingViewport(nodes, 1000, 800, 's30', 0.05);
    const focus = onScreen(nodes, 's30', viewport);
    expect((focus.left + focus.right) / 2).toBeCloseTo(500, 0);
  });

  it('keeps below cards reaching further down the canvas', () => {
    const nodes = chainNodes(60);
    const viewport = openingViewport(nodes, 1000, 800, 'start', 0.05, fitPadding(250));
    expect(onScreen(nodes, 'start', viewport).top).toBeGreaterThanOrEqual(266);
  });
});

describe('openingFocus', () => {
  it('is the selected node, else the start node', () => {
    const nodes = chainNodes(4);
    expect(openingFocus(nodes, 's2')).toBe('s2');
    expect(openingFocus(nodes, null)).toBe('start');
    expect(openingFocus(nodes, 'gone')).toBe('start');
  });
});

describe('drawingBounds', () => {
  it('is the box round every top-level node', () => {
    const nodes = chainNodes(2);
    const bounds = drawingBounds(nodes);
    const exit = nodeBounds(nodes, 'exit');
    expect(bounds?.x).toBe(0);
    expect(exit).not.toBeNull();
    expect((bounds?.x ?? 0) + (bounds?.width ?? 0)).toBeCloseTo((exit?.x ?? 0) + (exit?.width ?? 0));
  });
});

describe('isWholeInView', () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 200 };
  it('holds when the drawing lies inside the pane, and not when a part is cut off', () => {
    expect(isWholeInView(bounds, [10, 10, 0.5], 600, 300)).toBe(true);
    expect(isWholeInView(bounds, [10, 10, 0.8], 600, 300)).toBe(false);
    expect(isWholeInView(bounds, [-20, 10, 0.5], 600, 300)).toBe(false);
    expect(isWholeInView(null, [0, 0, 1], 600, 300)).toBe(true);
  });
});
