import type { LaunchInfo } from '../generated/LaunchInfo';

/**
 * The workflow to open at start-up: `?file=/abs/path.dot` in the page URL wins, then the
 * path the app was launched with, else none.
 */
export function startupFile(search: string, launch: LaunchInfo | null): string | null {
  const fromUrl = new URLSearchParams(search).get('file');
  if (fromUrl !== null && fromUrl.trim() !== '') return fromUrl.trim();
  const fromLaunch = launch?.initial_file ?? null;
  return fromLaunch !== null && fromLaunch.trim() !== '' ? fromLaunch : null;
}

/** The page URL with `?file=` set to `path` (so a reload reopens it), other parameters kept. */
export function urlWithFile(href: string, path: string | null): string {
  const url = new URL(href);
  if (path === null) url.searchParams.delete('file');
  else url.searchParams.set('file', path);
  return url.toString();
}
