import { describe, expect, it, vi } from 'vitest';
import type { RunRecord } from '../generated/RunRecord';
import type { Timeline } from '../generated/Timeline';
import { type OpeningApi, prefetchRunOpening, readRunOpening, takeRunOpening } from './runOpeningRead';

/** An API whose record and timeline name the run they were asked for. */
function fakeApi() {
  const getRun = vi.fn((req: { run_id: string }) => Promise.resolve({ id: req.run_id } as unknown as RunRecord));
  const runTimeline = vi.fn((req: { run_id: string }) => Promise.resolve({ run_id: req.run_id, stages: [] } as unknown as Timeline));
  const api: OpeningApi = { getRun, runTimeline };
  return { api, getRun, runTimeline };
}

describe('readRunOpening', () => {
  it('asks for the record and the timeline at once', async () => {
    const { api, getRun, runTimeline } = fakeApi();
    const read = readRunOpening(api, 'R1');
    expect(getRun).toHaveBeenCalledWith({ run_id: 'R1' });
    expect(runTimeline).toHaveBeenCalledWith({ run_id: 'R1' });
    await expect(read).resolves.toEqual([{ id: 'R1' }, { run_id: 'R1', stages: [] }]);
  });
});

describe('prefetchRunOpening', () => {
  it('starts the reads once and hands them over once', async () => {
    const { api, getRun, runTimeline } = fakeApi();
    prefetchRunOpening(api, 'R1');
    prefetchRunOpening(api, 'R1');
    expect(getRun).toHaveBeenCalledTimes(1);
    expect(runTimeline).toHaveBeenCalledTimes(1);
    const read = takeRunOpening(api, 'R1');
    await expect(read).resolves.toEqual([{ id: 'R1' }, { run_id: 'R1', stages: [] }]);
    // Taken: a later load of the run reads afresh.
    expect(takeRunOpening(api, 'R1')).toBeNull();
  });

  it('keeps reads apart by run and by API', () => {
    const first = fakeApi();
    const second = fakeApi();
    prefetchRunOpening(first.api, 'R1');
    expect(takeRunOpening(first.api, 'R2')).toBeNull();
    expect(takeRunOpening(second.api, 'R1')).toBeNull();
    expect(takeRunOpening(first.api, 'R1')).not.toBeNull();
  });

  it('hands a failed read to whoever takes it', async () => {
    const { api, getRun } = fakeApi();
    getRun.mockRejectedValueOnce({ code: 'not_found', message: 'no run R9' });
    prefetchRunOpening(api, 'R9');
    await expect(takeRunOpening(api, 'R9')).rejects.toEqual({ code: 'not_found', message: 'no run R9' });
  });
});
