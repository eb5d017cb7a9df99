import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpApi } from './httpApi';
import { isTauri } from './selectApi';

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

  it('has no file dialog', async () => {
    const api = createHttpApi();
    expect(api.hasFileDialog).toBe(false);
    await expect(api.pickWorkflowFile()).resolves.toBeNull();
  });
});

describe('isTauri', () => {
  it('detects the Tauri 2 globals', () => {
    expect(isTauri({ __TAURI_INTERNALS__: {} })).toBe(true);
    expect(isTauri({})).toBe(false);
  });
});
