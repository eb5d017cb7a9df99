import { describe, expect, it } from 'vitest';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { graphStillToDraw } from './useGraphFirst';
import type { RunGraph } from './useRunGraph';

const read = (workflow: unknown): RunGraph => ({ status: 'read', opened: { workflow } as unknown as OpenedWorkflow });

describe('graphStillToDraw', () => {
  it('waits while the graph is read, and once read until it is drawn', () => {
    expect(graphStillToDraw(true, { status: 'loading' }, false)).toBe(true);
    expect(graphStillToDraw(true, read({ name: 'W' }), false)).toBe(true);
    expect(graphStillToDraw(true, read({ name: 'W' }), true)).toBe(false);
  });

  it('does not wait for a graph that cannot be drawn or is not shown', () => {
    expect(graphStillToDraw(true, { status: 'failed', message: 'no graph.dot' }, false)).toBe(false);
    expect(graphStillToDraw(true, read(null), false)).toBe(false);
    expect(graphStillToDraw(false, { status: 'loading' }, false)).toBe(false);
  });
});
