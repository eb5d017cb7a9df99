import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpApi } from './httpApi';
import { isTauri } from './selectApi';
import { OPERATIONS, REQUEST_OPERATIONS } from '../generated/operations';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createHttpApi', () => {
  it('has a member for every operation the server serves, and posts each request operation to its route', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, null));
    vi.stubGlobal('fetch', fetchMock);
    const api = createHttpApi('http://127.0.0.1:9');
    for (const operation of OPERATIONS) {
      if (operation.member !== null && operation.http !== null) {
        expect(typeof api[operation.member], operation.name).toBe('function');
      }
    }
    for (const operation of REQUEST_OPERATIONS) {
      const method = api[operation.member] as (req?: unknown) => Promise<unknown>;
      await method({ marker: operation.name });
    }
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([url, init]) => [url, init.method, init.body])).toEqual(
      REQUEST_OPERATIONS.map((op) => [
        `http://127.0.0.1:9/api/${op.name}`,
        'POST',
        JSON.stringify(op.takesRequest ? { marker: op.name } : {}),
      ]),
    );
  });

  it('posts each operation as JSON to /api/{operation}', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, []));
    vi.stubGlobal('fetch', fetchMock);
    const api = createHttpApi('http://127.0.0.1:9');
    await api.listWorkflows({ dir: '/ws' });
    expect(fetchMock).toHaveBeenCalledWith('http://127.0.0.1:9/api/list_workflows', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ dir: '/ws' }),
    });
  });

  it('sends an empty object for launch_info and returns the JSON result', async () => {
    const info = { initial_file: null, workspace_dir: '/ws' };
    const fetchMock = vi.fn(async () => jsonResponse(200, info));
    vi.stubGlobal('fetch', fetchMock);
    await expect(createHttpApi().launchInfo()).resolves.toEqual(info);
    expect(fetchMock).toHaveBeenCalledWith('/api/launch_info', expect.objectContaining({ body: '{}' }));
  });

  it('rejects with the ApiError body of a non-2xx answer', async () => {
    const error = { code: 'not_found', message: 'no such file: /x.dot' };
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(404, error)));
    await expect(createHttpApi().openWorkflow({ path: '/x.dot' })).rejects.toEqual(error);
  });

  it('turns network failures and non-JSON answers into io errors', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(createHttpApi().openWorkflow({ path: '/x.dot' })).rejects.toEqual({
      code: 'io',
      message: 'Failed to fetch',
    });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>', { status: 502 })));
    await expect(createHttpApi().openWorkflow({ path: '/x.dot' })).rejects.toMatchObject({ code: 'io' });
  });

  it('has no file dialog, and leaves downloads to the browser', async () => {
    const api = createHttpApi();
    expect(api.hasFileDialog).toBe(false);
    expect(api.saveRunFile).toBeNull();
    expect(api.openExternalUrl).toBeNull();
    await expect(api.pickWorkflowFile()).resolves.toBeNull();
  });
});

/** A stand-in for the browser's EventSource that tests drive by hand. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  readonly url: string;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, (message: MessageEvent<string>) => void>();
  constructor(url: string) {
    this.url = url;
    FakeEventSource.last = this;
  }
  addEventListener(name: string, listener: (message: MessageEvent<string>) => void): void {
    this.listeners.set(name, listener);
  }
  close(): void {
    this.closed = true;
  }
  message(data: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
  named(name: string, data: unknown): void {
    this.listeners.get(name)?.(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
}

function runEvent(seq: number, event = 'stage.started') {
  return { id: `e${seq}`, ts: '2026-11-22T00:00:00Z', run_id: 'R1', seq, event, properties: {} };
}

describe('createHttpApi run operations', () => {
  it('posts each run operation to its route', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, null));
    vi.stubGlobal('fetch', fetchMock);
    const api = createHttpApi('');
    await api.listRuns({ filter: { status: ['running'], workflow: null, labels: {}, since: null, until: null, parent_run_id: null, include_children: false }, page: { limit: 20, after: null } });
    await api.getRun({ run_id: 'R1' });
    await api.editWorkflow({ path: '/w/a.dot', source: 'digraph {}', edits: [] });
    await api.saveWorkflow({ path: '/w/a.dot', source: 'digraph {}', expected_disk: null });
    await api.runTimeline({ run_id: 'R1' });
    await api.recentWorkflows({ limit: 5 });
    await api.workflowTrust({ workflow_path: '/w/a.dot', work_dir: null });
    await api.startRun({ workflow_path: '/w/a.dot', goal: null, labels: {}, inputs: { repo: 'heddle' }, dry_run: true, work_dir: null, checkpoints: null, trust: false, trust_digest: null, max_cost_usd: 2.5, max_tokens: null });
    await api.resumeRun({ run_id: 'R1', max_cost_usd: 5, max_tokens: 1000 });
    await api.forkRun({ run_id: 'R1', from: 'plan' });
    await api.cancelRun({ run_id: 'R1' });
    await api.pendingGates({ run_id: 'R1' });
    await api.answerGate({ run_id: 'R1', question_id: 'q', answer: 'Y', freeform: false });
    await api.runCheckpoints({ run_id: 'R1' });
    await api.checkpointFiles({ run_id: 'R1', at: 'plan' });
    await api.checkpointFile({ run_id: 'R1', at: 'plan', path: 'a.txt' });
    await api.checkpointState({ run_id: 'R1', at: 'plan' });
    await api.checkpointDiff({ run_id: 'R1', from: 'plan', to: null });
    await api.rollbackRun({ run_id: 'R1', to: 'plan', force: false });
    await api.runArtifacts({ run_id: 'R1' });
    await api.junitReport({ run_id: 'R1', area: 'artifacts', path: 't/retry_0/junit.xml' });
    await api.runPatch({ run_id: 'R1', area: 'nodes', path: 't/diff.patch' });
    await api.runGraph({ run_id: 'R1' });
    const urls = fetchMock.mock.calls.map((call: unknown[]) => call[0]);
    expect(urls).toEqual([
      '/api/list_runs',
      '/api/get_run',
      '/api/edit_workflow',
      '/api/save_workflow',
      '/api/run_timeline',
      '/api/recent_workflows',
      '/api/workflow_trust',
      '/api/start_run',
      '/api/resume_run',
      '/api/fork_run',
      '/api/cancel_run',
      '/api/pending_gates',
      '/api/answer_gate',
      '/api/run_checkpoints',
      '/api/checkpoint_files',
      '/api/checkpoint_file',
      '/api/checkpoint_state',
      '/api/checkpoint_diff',
      '/api/rollback_run',
      '/api/run_artifacts',
      '/api/junit_report',
      '/api/run_patch',
      '/api/run_graph',
    ]);
    const start = fetchMock.mock.calls.find((call: unknown[]) => call[0] === '/api/start_run') as unknown as [string, RequestInit];
    expect(JSON.parse(String(start[1].body)).inputs).toEqual({ repo: 'heddle' });
    expect(JSON.parse(String(start[1].body)).max_cost_usd).toBe(2.5);
    const resume = fetchMock.mock.calls.find((call: unknown[]) => call[0] === '/api/resume_run') as unknown as [string, RequestInit];
    expect(JSON.parse(String(resume[1].body))).toEqual({ run_id: 'R1', max_cost_usd: 5, max_tokens: 1000 });
  });

  it('follows events over SSE once each, in order, until the end event', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const seen: number[] = [];
    let ended = false;
    createHttpApi('http://h').followEvents(
      { run_id: 'R 1', after_seq: 2 },
      { onEvent: (e) => seen.push(e.seq), onEnd: () => (ended = true) },
    );
    const source = FakeEventSource.last;
    expect(source?.url).toBe('http://h/api/events?run=R+1&after=2');
    source?.message(runEvent(2));
    source?.message(runEvent(3));
    source?.message(runEvent(4));
    // A reconnect may repeat what was already delivered; it is dropped.
    source?.message(runEvent(4));
    source?.message({ not: 'an event' });
    source?.message(runEvent(5, 'run.completed'));
    expect(seen).toEqual([3, 4, 5]);
    expect(ended).toBe(false);
    source?.named('end', { last_seq: 5 });
    expect(ended).toBe(true);
    expect(source?.closed).toBe(true);
  });

  it('reports a failed stream as an ApiError and can be stopped', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const errors: unknown[] = [];
    const stop = createHttpApi().followEvents(
      { run_id: 'R1', after_seq: 0 },
      { onEvent: () => undefined, onError: (e) => errors.push(e) },
    );
    FakeEventSource.last?.named('failed', { code: 'storage', message: 'line 3 is not JSON' });
    expect(errors).toEqual([{ code: 'storage', message: 'line 3 is not JSON' }]);
    stop();
    expect(FakeEventSource.last?.closed).toBe(true);
  });
});

describe('isTauri', () => {
  it('detects the Tauri 2 globals', () => {
    expect(isTauri({ __TAURI_INTERNALS__: {} })).toBe(true);
    expect(isTauri({})).toBe(false);
  });
});

describe('createHttpApi editor operations', () => {
  it('posts each editor operation to its route', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, null));
    vi.stubGlobal('fetch', fetchMock);
    const api = createHttpApi('');
    await api.readLayout({ path: '/w/a.dot' });
    await api.saveLayout({ path: '/w/a.dot', text: '{}' });
    await api.readReference({ path: '/w/a.dot', reference: 'p.md' });
    await api.checkExpression({ kind: 'condition', text: 'outcome=success' });
    await api.listTemplates();
    await api.createWorkflow({ template: 'blank', path: '/w/new.dot' });
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map((call) => call[0])).toEqual([
      '/api/read_layout',
      '/api/save_layout',
      '/api/read_reference',
      '/api/check_expression',
      '/api/list_templates',
      '/api/create_workflow',
    ]);
    expect(calls[3]?.[1].body).toBe(JSON.stringify({ kind: 'condition', text: 'outcome=success' }));
  });

  it('watches a workflow over SSE until unsubscribed', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const changes: unknown[] = [];
    let ready = false;
    const stop = createHttpApi('').watchWorkflow('/w/a b.dot', {
      onChange: (change) => changes.push(change),
      onReady: () => (ready = true),
    });
    const source = FakeEventSource.last;
    expect(source?.url).toBe('/api/watch_workflow?path=%2Fw%2Fa+b.dot');
    source?.named('ready', {});
    expect(ready).toBe(true);
    source?.named('changed', { path: '/w/a b.dot', exists: true });
    expect(changes).toEqual([{ path: '/w/a b.dot', exists: true }]);
    stop();
    expect(source?.closed).toBe(true);
  });
});
