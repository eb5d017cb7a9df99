import type { Api } from '../../api/Api';
import { useApiRead } from '../../api/useApiRead';
import type { RunFileRequest } from '../../generated/RunFileRequest';
import { fetchFailure } from '../fetchFailure';

/** A file of a stage folder: loading, missing (404), its text, or why it could not be read. */
export type StageFile =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'ready'; text: string }
  | { state: 'failed'; message: string };

/** A run file's text (null when there is none), with the path it was read from. */
async function readRunFile(api: Api, request: RunFileRequest, signal: AbortSignal): Promise<{ path: string; text: string | null }> {
  const response = await fetch(api.runFileUrl(request), { credentials: 'same-origin', signal });
  if (response.status === 404) return { path: request.path, text: null };
  if (!response.ok) throw new Error(await fetchFailure(response));
  return { path: request.path, text: await response.text() };
}

/**
 * Reads `nodes/{stageFolder}/{name}` of a run through the run-file URL (the HTTP route or
 * the desktop's `heddle-run:` scheme). `version` reads it again when it changes.
 */
export function useStageFile(runId: string, stageFolder: string | null, name: string | null, version: unknown): StageFile {
  const path = stageFolder === null || name === null ? null : `${stageFolder}/${name}`;
  const read = useApiRead(path === null ? null : ({ run_id: runId, area: 'nodes', path } satisfies RunFileRequest), readRunFile, version);
  if (path === null) return { state: 'missing' };
  if (read.state === 'failed') return { state: 'failed', message: read.error.message };
  // The old text stays while the same file is read again, never under another stage.
  const file = read.state === 'ready' ? read.value : read.previous?.path === path ? read.previous : null;
  if (file === null) return { state: 'loading' };
  return file.text === null ? { state: 'missing' } : { state: 'ready', text: file.text };
}

/** The stage folder name inside `nodes/` (`test`, `test-visit_2`) of a timeline `stage_dir`. */
export function stageFolderOf(stageDir: string): string {
  return stageDir.replace(/^nodes\//, '');
}
