import { beforeEach, describe, expect, it, vi } from 'vitest';

const invoke = vi.fn();
const open = vi.fn();
vi.mock('@tauri-apps/api/core', () => ({ invoke }));
vi.mock('@tauri-apps/plugin-dialog', () => ({ open }));

const { createTauriApi } = await import('./tauriApi');

beforeEach(() => {
  invoke.mockReset();
  open.mockReset();
});

describe('createTauriApi', () => {
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

  it('opens a native dialog filtered to .dot files', async () => {
    open.mockResolvedValueOnce('/ws/hello.dot').mockResolvedValueOnce(null);
    const api = createTauriApi();
    expect(api.hasFileDialog).toBe(true);
    await expect(api.pickWorkflowFile()).resolves.toBe('/ws/hello.dot');
    await expect(api.pickWorkflowFile()).resolves.toBeNull();
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({ multiple: false, filters: [{ name: 'Workflow', extensions: ['dot'] }] }),
    );
  });
});
