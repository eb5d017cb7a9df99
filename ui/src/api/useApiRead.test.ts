// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Api } from './Api';
import { ApiProvider } from './ApiContext';
import { type ApiRead, useApiRead } from './useApiRead';

// React checks this flag before letting `act` flush updates outside a test renderer.
Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

/** A read that is still open: the test settles it when it wants. */
type Pending = { request: { id: string }; signal: AbortSignal; resolve: (v: string) => void; reject: (e: unknown) => void };

let pending: Pending[] = [];
/** Stands for an API call: each call waits until the test answers it. */
const read = (_api: Api, request: { id: string }, signal: AbortSignal) =>
  new Promise<string>((resolve, reject) => pending.push({ request, signal, resolve, reject }));

type Shown = ApiRead<string> & { reload: () => void };
let root: Root;
let shown: Shown[];

function Probe({ id, refresh }: { id: string | null; refresh: unknown }) {
  shown.push(useApiRead(id === null ? null : { id }, read, refresh));
  return null;
}

async function render(id: string | null, refresh: unknown = null) {
  await act(async () => {
    root.render(createElement(ApiProvider, { api: {} as Api, children: createElement(Probe, { id, refresh }) }));
  });
}

const latest = () => shown[shown.length - 1]!;

async function answer(index: number, value: string) {
  await act(async () => pending[index]!.resolve(value));
}

beforeEach(() => {
  pending = [];
  shown = [];
  root = createRoot(document.createElement('div'));
});

afterEach(async () => {
  await act(async () => root.unmount());
});

describe('useApiRead', () => {
  it('is loading until the answer comes, then ready with it', async () => {
    await render('a');
    expect(latest()).toMatchObject({ state: 'loading', previous: null });
    expect(pending.map((p) => p.request)).toEqual([{ id: 'a' }]);
    await answer(0, 'A');
    expect(latest()).toMatchObject({ state: 'ready', value: 'A' });
  });

  it('drops the answer to an earlier request that arrives after the latest one', async () => {
    await render('a');
    await render('b');
    expect(pending[0]!.signal.aborted).toBe(true);
    await answer(1, 'B');
    await answer(0, 'A (late)');
    expect(latest()).toMatchObject({ state: 'ready', value: 'B' });
    expect(shown.some((s) => s.state === 'ready' && s.value === 'A (late)')).toBe(false);
  });

  it('keeps the previous value while the next request loads', async () => {
    await render('a');
    await answer(0, 'A');
    await render('b');
    expect(latest()).toMatchObject({ state: 'loading', previous: 'A' });
  });

  it('reads again on reload and when refresh changes, without re-rendering the old answer as current', async () => {
    await render('a', 1);
    await answer(0, 'A1');
    await act(async () => latest().reload());
    expect(pending).toHaveLength(2);
    expect(latest()).toMatchObject({ state: 'loading', previous: 'A1' });
    await answer(1, 'A2');
    expect(latest()).toMatchObject({ state: 'ready', value: 'A2' });
    await render('a', 2);
    expect(pending).toHaveLength(3);
    expect(latest()).toMatchObject({ state: 'loading', previous: 'A2' });
    await answer(2, 'A3');
    expect(latest()).toMatchObject({ state: 'ready', value: 'A3' });
  });

  it('reports a failure as an ApiError and keeps the last value for the next load', async () => {
    await render('a');
    await answer(0, 'A');
    await render('b');
    await act(async () => pending[1]!.reject({ code: 'not_found', message: 'no run b' }));
    expect(latest()).toMatchObject({ state: 'failed', error: { code: 'not_found', message: 'no run b' } });
    await act(async () => latest().reload());
    expect(latest()).toMatchObject({ state: 'loading', previous: 'A' });
    await act(async () => pending[2]!.reject(new Error('connection refused')));
    expect(latest()).toMatchObject({ state: 'failed', error: { code: 'io', message: 'connection refused' } });
  });

  it('reads nothing for a null request', async () => {
    await render(null);
    expect(pending).toHaveLength(0);
    expect(latest()).toMatchObject({ state: 'loading', previous: null });
  });
});
