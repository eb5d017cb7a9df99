import { describe, expect, it } from 'vitest';
import { edge, node, subgraph, workflow } from '../../test-support/workflowBuilder';
import { workflowToFlow } from '../flow/workflowToFlow';
import { layoutLayered } from '../layout/layered/layeredLayout';
import { overviewOutline } from './overviewOutline';

describe('overviewOutline', () => {
  it('draws every handler node as one rectangle at its absolute place, and bounds them all', () => {
    const flow = layoutLayered(
      workflowToFlow(
        workflow({
          nodes: [node('a', { kind: 'start' }), node('b', { subgraph: 0 }), node('c', { kind: 'exit' })],
          edges: [edge('a', 'b'), edge('b', 'c')],
          subgraphs: [subgraph(['b'], { label: 'Box' })],
        }),
        [],
      ),
    );
    const { path, bounds } = overviewOutline(flow.nodes);
    expect(path.match(/M/g)).toHaveLength(3);
    const b = flow.nodes.find((n) => n.id === 'b');
    const box = flow.nodes.find((n) => n.type === 'subgraph');
    if (b === undefined || b.type !== 'handler' || box === undefined) throw new Error('b in a box');
    expect(b.parentId).toBe(box.id);
    // b's rectangle starts at its box's place plus its own.
    const x = Math.round((box.position.x + b.position.x) * 10) / 10;
    const y = Math.round((box.position.y + b.position.y) * 10) / 10;
    expect(path).toContain(`M${x} ${y}h${Math.round(b.data.box.width * 10) / 10}`);
    expect(bounds).not.toBeNull();
    for (const n of flow.nodes) {
      if (n.parentId !== undefined) continue;
      expect(n.position.x).toBeGreaterThanOrEqual(bounds?.x ?? Infinity);
      expect(n.position.y).toBeGreaterThanOrEqual(bounds?.y ?? Infinity);
    }
  });

  it('has no bounds and an empty path without nodes', () => {
    expect(overviewOutline([])).toEqual({ path: '', bounds: null });
  });
});
