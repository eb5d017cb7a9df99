import { describe, expect, it } from 'vitest';
import { httpRunFileUrl, tauriRunFileUrl } from './runFileUrl';

describe('run file URLs', () => {
  const req = { run_id: '01J RUN', area: 'artifacts' as const, path: 'test/retry_0/shots/home #1.png' };

  it('encodes each segment and keeps the separators', () => {
    expect(httpRunFileUrl('', req)).toBe('/api/runs/01J%20RUN/artifacts/test/retry_0/shots/home%20%231.png');
  });

  it('uses the scheme the webview reaches custom protocols by', () => {
    expect(tauriRunFileUrl(req, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit')).toBe(
      'heddle-run://localhost/01J%20RUN/artifacts/test/retry_0/shots/home%20%231.png',
    );
    expect(tauriRunFileUrl({ ...req, area: 'nodes', path: 'plan/response.md' }, 'Mozilla/5.0 (Windows NT 10.0)')).toBe(
      'http://heddle-run.localhost/01J%20RUN/nodes/plan/response.md',
    );
  });
});
