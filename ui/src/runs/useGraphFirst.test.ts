import { describe, expect, it } from 'vitest';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { graphStillToDraw } from './useGraphFirst';
import type { RunGraph } from './useRunGraph';

const read = (workflow: unknown): RunGraph => ({ state: 'ready', value: { workflow } as unknown as OpenedWorkflow });

describe('graphStillToDraw', () => {
  it('waits while the graph is read, and once read until it is drawn', () => {
    expect(graphStillToDraw(true, { state: 'loading', previous: null }, false)).toBe(true);
    expect(graphStillToDraw(true, read({ name: 'W' }), false)).toBe(true);
    expect(graphStillToDraw(true, read({ name: 'W' }), true)).toBe(false);
  });

  it('does not wait for a graph that cannot be drawn or is not shown', () => {
    expect(graphStillToDraw(true, { state: 'failed', error: { code: 'not_found', message: 'no graph.dot' } }, false)).toBe(false);
    expect(graphStillToDraw(true, read(null), false)).toBe(false);
    expect(graphStillToDraw(false, { state: 'loading', previous: null }, false)).toBe(false);
  });
});
