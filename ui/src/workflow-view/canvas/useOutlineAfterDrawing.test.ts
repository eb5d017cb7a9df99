// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { edge, node, workflow } from '../../test-support/workflowBuilder';
import type { WorkflowFlow } from '../flow/flowTypes';
import { workflowToFlow } from '../flow/workflowToFlow';
import type { OverviewOutline } from './overviewOutline';
import { useOutlineAfterDrawing } from './useOutlineAfterDrawing';

// React checks this flag before letting `act` flush updates outside a test renderer.
Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

/** The nodes each outline was made for, in order. */
const made = vi.hoisted(() => ({ for: [] as unknown[] }));
vi.mock('./overviewOutline', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./overviewOutline')>();
  return {
    ...actual,
    overviewOutline: (nodes: Parameters<typeof actual.overviewOutline>[0]) => {
      made.for.push(nodes);
      return actual.overviewOutline(nodes);
    },
  };
});

function nodesOf(ids: string[]): WorkflowFlow['nodes'] {
  const wf = workflow({ nodes: ids.map((id) => node(id)), edges: ids.slice(1).map((id, i) => edge(ids[i] ?? id, id)) });
  return workflowToFlow(wf, []).nodes;
}

let root: Root;
let shown: (OverviewOutline | null)[];

function Probe({ nodes }: { nodes: WorkflowFlow['nodes'] }) {
  shown.push(useOutlineAfterDrawing(nodes));
  return null;
}

async function render(nodes: WorkflowFlow['nodes']) {
  await act(async () => root.render(createElement(Probe, { nodes })));
}

const latest = () => shown[shown.length - 1];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
  made.for = [];
  shown = [];
  root = createRoot(document.createElement('div'));
});

afterEach(async () => {
  await act(async () => root.unmount());
  vi.useRealTimers();
});

describe('useOutlineAfterDrawing', () => {
  it('makes the outline in a task after the next frame, null until then', async () => {
    const nodes = nodesOf(['a', 'b', 'c']);
    await render(nodes);
    expect(latest()).toBeNull();
    await act(async () => vi.advanceTimersToNextFrame());
    // The frame is drawn without it: the outline waits for the task after it.
    expect(made.for).toEqual([]);
    expect(latest()).toBeNull();
    await act(async () => vi.runOnlyPendingTimers());
    expect(made.for).toEqual([nodes]);
    expect(latest()?.path).toMatch(/^M/);
    expect(latest()?.bounds).not.toBeNull();
  });

  it('drops a pending outline for new nodes, and shows none of the old nodes meanwhile', async () => {
    const [first, second, third] = [nodesOf(['a', 'b']), nodesOf(['a', 'b', 'c']), nodesOf(['a', 'b', 'c', 'd'])];
    // New nodes before the frame: only theirs is made.
    await render(first);
    await render(second);
    await act(async () => vi.runAllTimers());
    expect(made.for).toEqual([second]);
    expect(latest()).toEqual(expect.objectContaining({ path: expect.stringMatching(/^M/) }));
    // New nodes show no outline, not the old one, until theirs is made...
    await render(third);
    expect(latest()).toBeNull();
    // ...and nodes replaced between the frame and the task have none made.
    await act(async () => vi.advanceTimersToNextFrame());
    await render(first);
    expect(latest()).toBeNull();
    await act(async () => vi.runAllTimers());
    expect(made.for).toEqual([second, first]);
    expect(latest()).not.toBeNull();
  });

  it('makes nothing once unmounted, before the frame or between the frame and the task', async () => {
    await render(nodesOf(['a', 'b']));
    await act(async () => root.unmount());
    expect(vi.getTimerCount()).toBe(0);
    root = createRoot(document.createElement('div'));
    await render(nodesOf(['a', 'b']));
    await act(async () => vi.advanceTimersToNextFrame());
    expect(vi.getTimerCount()).toBe(1);
    await act(async () => root.unmount());
    expect(vi.getTimerCount()).toBe(0);
    await act(async () => vi.runAllTimers());
    expect(made.for).toEqual([]);
    root = createRoot(document.createElement('div'));
  });
});
