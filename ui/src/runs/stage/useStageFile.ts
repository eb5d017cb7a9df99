import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { failureMessage, fetchFailure, isAbort } from '../fetchFailure';

/** A file of a stage folder: loading, missing (404), its text, or why it could not be read. */
export type StageFile =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'ready'; text: string }
  | { state: 'failed'; message: string };

/**
 * Reads `nodes/{stageFolder}/{name}` of a run through the run-file URL (the HTTP route or
 * the desktop's `heddle-run:` scheme). `version` reads it again when it changes.
 */
export function useStageFile(runId: string, stageFolder: string | null, name: string | null, version: unknown): StageFile {
  const api = useApi();
  const [file, setFile] = useState<StageFile>({ state: 'loading' });
  const shownPath = useRef<string | null>(null);
  useEffect(() => {
    if (stageFolder === null || name === null) {
      setFile({ state: 'missing' });
      return;
    }
    const abort = new AbortController();
    const settle = (next: StageFile) => {
      if (!abort.signal.aborted) setFile(next);
    };
    const path = `${stageFolder}/${name}`;
    // The old text stays while the same file is read again, never under another stage.
    setFile((before) => (before.state === 'ready' && shownPath.current === path ? before : { state: 'loading' }));
    shownPath.current = path;
    const url = api.runFileUrl({ run_id: runId, area: 'nodes', path });
    fetch(url, { credentials: 'same-origin', signal: abort.signal })
      .then(async (response) => {
        if (response.status === 404) settle({ state: 'missing' });
        else if (!response.ok) settle({ state: 'failed', message: await fetchFailure(response) });
        else settle({ state: 'ready', text: await response.text() });
      })
      .catch((reason: unknown) => {
        if (!isAbort(reason)) settle({ state: 'failed', message: failureMessage(reason) });
      });
    return () => abort.abort();
  }, [api, runId, stageFolder, name, version]);
  return file;
}

/** The stage folder name inside `nodes/` (`test`, `test-visit_2`) of a timeline `stage_dir`. */
export function stageFolderOf(stageDir: string): string {
  return stageDir.replace(/^nodes\//, '');
}
