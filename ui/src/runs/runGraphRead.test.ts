import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../api/Api';
import { prefetchRunGraph, readRunGraph, prefetchedRunGraph } from './runGraphRead';

/** An API whose `runGraph` answers with the graph of the run it was asked for. */
function fakeApi() {
  const runGraph = vi.fn((req: { run_id: string }) => Promise.resolve({ path: `/home/runs/${req.run_id}/graph.dot` }));
  const getRun = vi.fn();
  const openWorkflow = vi.fn();
  return { api: { runGraph, getRun, openWorkflow } as unknown as Api, runGraph, getRun, openWorkflow };
}

describe('readRunGraph', () => {
  it('asks the API for the run graph in one call, building no path', async () => {
    const { api, runGraph, getRun, openWorkflow } = fakeApi();
    await expect(readRunGraph(api, 'R1')).resolves.toEqual({ path: '/home/runs/R1/graph.dot' });
    expect(runGraph).toHaveBeenCalledWith({ run_id: 'R1' });
    expect(getRun).not.toHaveBeenCalled();
    expect(openWorkflow).not.toHaveBeenCalled();
  });
});

describe('prefetchRunGraph', () => {
  it('starts the read once and hands the same read to every screen that asks', async () => {
    const { api, runGraph } = fakeApi();
    prefetchRunGraph(api, 'R1');
    prefetchRunGraph(api, 'R1');
    expect(runGraph).toHaveBeenCalledTimes(1);
    const read = prefetchedRunGraph(api, 'R1');
    expect(read).not.toBeNull();
    await expect(read).resolves.toEqual({ path: '/home/runs/R1/graph.dot' });
    expect(prefetchedRunGraph(api, 'R1')).toBe(read);
  });

  it('keeps reads apart by run and by API', () => {
    const first = fakeApi();
    const second = fakeApi();
    prefetchRunGraph(first.api, 'R1');
    expect(prefetchedRunGraph(first.api, 'R2')).toBeNull();
    expect(prefetchedRunGraph(second.api, 'R1')).toBeNull();
    expect(prefetchedRunGraph(first.api, 'R1')).not.toBeNull();
  });

  it('leaves a failed read to whoever takes it', async () => {
    const { api } = fakeApi();
    vi.mocked(api.runGraph).mockRejectedValueOnce({ code: 'not_found', message: 'no run R9' });
    prefetchRunGraph(api, 'R9');
    await expect(prefetchedRunGraph(api, 'R9')).rejects.toEqual({ code: 'not_found', message: 'no run R9' });
    // Dropped once failed: the next screen reads afresh.
    await Promise.resolve();
    expect(prefetchedRunGraph(api, 'R9')).toBeNull();
  });
});
