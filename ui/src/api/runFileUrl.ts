import type { RunFileRequest } from '../generated/RunFileRequest';

/** `run/area/path` with each segment %-encoded (the path's `/` kept as separators). */
export function runFilePath(req: RunFileRequest): string {
  const path = req.path.split('/').map(encodeURIComponent).join('/');
  return `${encodeURIComponent(req.run_id)}/${req.area}/${path}`;
}

/** Over HTTP: `{base}/api/runs/{run}/{area}/{path}`. */
export function httpRunFileUrl(baseUrl: string, req: RunFileRequest): string {
  return `${baseUrl}/api/runs/${runFilePath(req)}`;
}

/**
 * In the desktop window: the `heddle-run` scheme, which WebView2 on Windows reaches as
 * `http://heddle-run.localhost/` and the other webviews as `heddle-run://localhost/`.
 */
export function tauriRunFileUrl(req: RunFileRequest, userAgent: string): string {
  const origin = /Windows/.test(userAgent) ? 'http://heddle-run.localhost' : 'heddle-run://localhost';
  return `${origin}/${runFilePath(req)}`;
}
