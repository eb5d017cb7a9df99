import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/ApiContext';

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
    let live = true;
    const abort = new AbortController();
    const path = `${stageFolder}/${name}`;
    // The old text stays while the same file is read again, never under another stage.
    setFile((before) => (before.state === 'ready' && shownPath.current === path ? before : { state: 'loading' }));
    shownPath.current = path;
    const url = api.runFileUrl({ run_id: runId, area: 'nodes', path });
    fetch(url, { credentials: 'same-origin', signal: abort.signal })
      .then(async (response) => {
        if (!live) return;
        if (response.status === 404) setFile({ state: 'missing' });
        else if (!response.ok) setFile({ state: 'failed', message: `${response.status} ${response.statusText}: ${await response.text()}` });
        else {
          const text = await response.text();
          if (live) setFile({ state: 'ready', text });
        }
      })
      .catch((reason: unknown) => {
        if (live && !abort.signal.aborted) setFile({ state: 'failed', message: reason instanceof Error ? reason.message : String(reason) });
      });
    return () => {
      live = false;
      abort.abort();
    };
  }, [api, runId, stageFolder, name, version]);
  return file;
}

/** The stage folder name inside `nodes/` (`test`, `test-visit_2`) of a timeline `stage_dir`. */
export function stageFolderOf(stageDir: string): string {
  return stageDir.replace(/^nodes\//, '');
}
