import { beforeEach, describe, expect, it, vi } from 'vitest';

const invoke = vi.fn();
const open = vi.fn();
/** Stands in for Tauri's Channel: the test calls `onmessage` as the backend would. */
class Channel<T> {
  static last: Channel<unknown> | null = null;
  onmessage: (value: T) => void = () => undefined;
  constructor() {
    Channel.last = this as Channel<unknown>;
  }
}
vi.mock('@tauri-apps/api/core', () => ({ invoke, Channel }));
vi.mock('@tauri-apps/plugin-dialog', () => ({ open }));
/** Stands in for Tauri's event listener: keeps the handlers so the test can emit. */
const listeners = new Map<string, (event: { payload: unknown }) => void>();
const unlisten = vi.fn();
const listen = vi.fn((name: string, handler: (event: { payload: unknown }) => void) => {
  listeners.set(name, handler);
  return Promise.resolve(unlisten);
});
vi.mock('@tauri-apps/api/event', () => ({ listen }));
const openUrl = vi.fn();
vi.mock('@tauri-apps/plugin-opener', () => ({ openUrl }));

const { createTauriApi } = await import('./tauriApi');
const { OPERATIONS, REQUEST_OPERATIONS } = await import('../generated/operations');

beforeEach(() => {
  invoke.mockReset();
  open.mockReset();
  listen.mockClear();
  openUrl.mockReset();
  unlisten.mockReset();
  listeners.clear();
});

describe('createTauriApi', () => {
  it('has a member for every operation of the table, and invokes each request operation by its name', async () => {
    invoke.mockResolvedValue(null);
    const api = createTauriApi();
    for (const operation of OPERATIONS) {
      if (operation.member !== null && operation.tauriCommand) {
        expect(typeof api[operation.member], operation.name).toBe('function');
      }
    }
    for (const operation of REQUEST_OPERATIONS) {
      const method = api[operation.member] as (req?: unknown) => Promise<unknown>;
      await method({ marker: operation.name });
    }
    expect(invoke.mock.calls).toEqual(
      REQUEST_OPERATIONS.map((op) => [op.name, op.takesRequest ? { req: { marker: op.name } } : undefined]),
    );
  });

  it('invokes the run commands with the request as `req`', async () => {
    invoke.mockResolvedValue(null);
    const api = createTauriApi();
    await api.workflowTrust({ workflow_path: '/w/a.dot', work_dir: null });
    await api.resumeRun({ run_id: 'R1', max_cost_usd: 5, max_tokens: null });
    await api.checkpointDiff({ run_id: 'R1', from: 'a', to: 'b' });
    await api.rollbackRun({ run_id: 'R1', to: 'a', force: true });
    await api.runArtifacts({ run_id: 'R1' });
    await api.junitReport({ run_id: 'R1', area: 'artifacts', path: 't/retry_0/junit.xml' });
    await api.runPatch({ run_id: 'R1', area: 'nodes', path: 't/diff.patch' });
    await api.runGraph({ run_id: 'R1' });
    await api.saveRunFile?.({ run_id: 'R1', area: 'artifacts', path: 'b/retry_0/home.png' });
    expect(invoke.mock.calls).toEqual([
      ['workflow_trust', { req: { workflow_path: '/w/a.dot', work_dir: null } }],
      ['resume_run', { req: { run_id: 'R1', max_cost_usd: 5, max_tokens: null } }],
      ['checkpoint_diff', { req: { run_id: 'R1', from: 'a', to: 'b' } }],
      ['rollback_run', { req: { run_id: 'R1', to: 'a', force: true } }],
      ['run_artifacts', { req: { run_id: 'R1' } }],
      ['junit_report', { req: { run_id: 'R1', area: 'artifacts', path: 't/retry_0/junit.xml' } }],
      ['run_patch', { req: { run_id: 'R1', area: 'nodes', path: 't/diff.patch' } }],
      ['run_graph', { req: { run_id: 'R1' } }],
      ['save_run_file', { req: { run_id: 'R1', area: 'artifacts', path: 'b/retry_0/home.png' } }],
    ]);
  });

  it('follows events through a channel and ends when the command resolves', async () => {
    let finish: (value: null) => void = () => undefined;
    invoke.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const seen: number[] = [];
    let ended = false;
    createTauriApi().followEvents(
      { run_id: 'R1', after_seq: 1 },
      { onEvent: (e) => seen.push(e.seq), onEnd: () => (ended = true) },
    );
    const channel = Channel.last;
    expect(invoke).toHaveBeenCalledWith('follow_events', { req: { run_id: 'R1', after_seq: 1 }, onEvent: channel });
    const event = (seq: number) => ({ id: 'e', ts: 't', run_id: 'R1', seq, event: 'warning', properties: { message: 'm' } });
    channel?.onmessage(event(1));
    channel?.onmessage(event(2));
    channel?.onmessage(event(2));
    channel?.onmessage(event(3));
    expect(seen).toEqual([2, 3]);
    finish(null);
    await Promise.resolve();
    await Promise.resolve();
    expect(ended).toBe(true);
  });

  it('invokes the snake_case commands with the request as `req`', async () => {
    invoke.mockResolvedValue([]);
    const api = createTauriApi();
    await api.launchInfo();
    await api.openWorkflow({ path: '/a.dot' });
    await api.checkWorkflow({ path: '/a.dot', source: 'digraph {}' });
    await api.listWorkflows({ dir: '/ws' });
    expect(invoke.mock.calls).toEqual([
      ['launch_info', undefined],
      ['open_workflow', { req: { path: '/a.dot' } }],
      ['check_workflow', { req: { path: '/a.dot', source: 'digraph {}' } }],
      ['list_workflows', { req: { dir: '/ws' } }],
    ]);
  });

  it('passes the command’s ApiError through and wraps other failures', async () => {
    const api = createTauriApi();
    invoke.mockRejectedValueOnce({ code: 'wrong_kind', message: 'not a .dot file' });
    await expect(api.openWorkflow({ path: '/a.txt' })).rejects.toEqual({
      code: 'wrong_kind',
      message: 'not a .dot file',
    });
    invoke.mockRejectedValueOnce('command open_workflow not found');
    await expect(api.openWorkflow({ path: '/a.dot' })).rejects.toEqual({
      code: 'io',
      message: 'command open_workflow not found',
    });
  });

  it('opens a native dialog filtered to workflow files (.dot, .fabro)', async () => {
    open.mockResolvedValueOnce('/ws/hello.dot').mockResolvedValueOnce(null);
    const api = createTauriApi();
    expect(api.hasFileDialog).toBe(true);
    await expect(api.pickWorkflowFile()).resolves.toBe('/ws/hello.dot');
    await expect(api.pickWorkflowFile()).resolves.toBeNull();
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({ multiple: false, filters: [{ name: 'Workflow', extensions: ['dot', 'fabro'] }] }),
    );
  });
});

describe('createTauriApi desktop integration', () => {
  it('opens web addresses through the opener plugin', async () => {
    openUrl.mockResolvedValue(undefined);
    await createTauriApi().openExternalUrl?.('https://example.com/a');
    expect(openUrl).toHaveBeenCalledWith('https://example.com/a');
    openUrl.mockRejectedValueOnce('Not allowed to open url file:///etc');
    await expect(createTauriApi().openExternalUrl?.('file:///etc')).rejects.toEqual({
      code: 'io',
      message: 'Not allowed to open url file:///etc',
    });
  });

  it('hands each workflow the shell asks to open to the handler, until unsubscribed', async () => {
    const opened: string[] = [];
    const stop = createTauriApi().onOpenRequest((path) => opened.push(path));
    expect(listen).toHaveBeenCalledWith('open-workflow', expect.any(Function));
    const emit = listeners.get('open-workflow');
    emit?.({ payload: '/work/flows/review.dot' });
    emit?.({ payload: 42 });
    stop();
    emit?.({ payload: '/work/flows/late.dot' });
    await Promise.resolve();
    expect(opened).toEqual(['/work/flows/review.dot']);
    expect(unlisten).toHaveBeenCalledTimes(1);
  });
});

describe('createTauriApi editor commands', () => {
  it('invokes the editor commands with the request as `req`', async () => {
    invoke.mockResolvedValue(null);
    const api = createTauriApi();
    await api.readLayout({ path: '/a.dot' });
    await api.saveLayout({ path: '/a.dot', text: '{}' });
    await api.readReference({ path: '/a.dot', reference: 'p.md' });
    await api.checkExpression({ kind: 'stylesheet', text: '*{}' });
    await api.listTemplates();
    await api.createWorkflow({ template: 'hello', path: '/b.dot' });
    expect(invoke.mock.calls).toEqual([
      ['read_layout', { req: { path: '/a.dot' } }],
      ['save_layout', { req: { path: '/a.dot', text: '{}' } }],
      ['read_reference', { req: { path: '/a.dot', reference: 'p.md' } }],
      ['check_expression', { req: { kind: 'stylesheet', text: '*{}' } }],
      ['list_templates', undefined],
      ['create_workflow', { req: { template: 'hello', path: '/b.dot' } }],
    ]);
  });

  it('watches through a channel and unwatches by the same id', async () => {
    invoke.mockReturnValue(new Promise(() => undefined));
    const changes: unknown[] = [];
    const stop = createTauriApi().watchWorkflow('/a.dot', { onChange: (c) => changes.push(c) });
    const channel = Channel.last;
    const [command, args] = invoke.mock.calls[0] as [string, { req: { path: string; watch_id: string } }];
    expect(command).toBe('watch_workflow');
    expect(args.req.path).toBe('/a.dot');
    channel?.onmessage({ path: '/a.dot', exists: true });
    expect(changes).toEqual([{ path: '/a.dot', exists: true }]);
    invoke.mockResolvedValue(null);
    stop();
    channel?.onmessage({ path: '/a.dot', exists: false });
    expect(changes).toHaveLength(1);
    expect(invoke).toHaveBeenLastCalledWith('unwatch_workflow', { req: args.req });
  });
});
