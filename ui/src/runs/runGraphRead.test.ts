import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../api/Api';
import { prefetchRunGraph, readRunGraph, prefetchedRunGraph } from './runGraphRead';

/** An API that knows one run folder and answers `openWorkflow` with the path it was given. */
function fakeApi() {
  const getRun = vi.fn((req: { run_id: string }) => Promise.resolve({ folder: `/home/runs/${req.run_id}` }));
  const openWorkflow = vi.fn((req: { path: string }) => Promise.resolve({ path: req.path }));
  return { api: { getRun, openWorkflow } as unknown as Api, getRun, openWorkflow };
}

describe('readRunGraph', () => {
  it("opens the graph.dot in the run's folder", async () => {
    const { api, openWorkflow } = fakeApi();
    await expect(readRunGraph(api, 'R1')).resolves.toEqual({ path: '/home/runs/R1/graph.dot' });
    expect(openWorkflow).toHaveBeenCalledWith({ path: '/home/runs/R1/graph.dot' });
  });
});

describe('prefetchRunGraph', () => {
  it('starts the read once and hands the same read to every screen that asks', async () => {
    const { api, getRun } = fakeApi();
    prefetchRunGraph(api, 'R1');
    prefetchRunGraph(api, 'R1');
    expect(getRun).toHaveBeenCalledTimes(1);
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
    vi.mocked(api.getRun).mockRejectedValueOnce({ code: 'not_found', message: 'no run R9' });
    prefetchRunGraph(api, 'R9');
    await expect(prefetchedRunGraph(api, 'R9')).rejects.toEqual({ code: 'not_found', message: 'no run R9' });
    // Dropped once failed: the next screen reads afresh.
    await Promise.resolve();
    expect(prefetchedRunGraph(api, 'R9')).toBeNull();
  });
});
