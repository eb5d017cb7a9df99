import type { Api } from '../../api/Api';
import type { RunFileRequest } from '../../generated/RunFileRequest';
import { useApiRead } from '../../api/useApiRead';
import { DiffView } from './DiffView';

const loadRunPatch = (api: Api, req: RunFileRequest) => api.runPatch(req);

/**
 * A patch the run wrote (a stage's `diff.patch`), read as files and hunks by the API.
 * `version` reads it again when it changes; `empty` is what to say when there is no patch.
 */
export function RunPatchView({ runId, path, version, empty }: { runId: string; path: string; version: unknown; empty: string }) {
  const result = useApiRead({ run_id: runId, area: 'nodes', path } satisfies RunFileRequest, loadRunPatch, version);
  if (result.state === 'loading') {
    if (result.previous !== null) return <DiffView files={result.previous.files} cut={result.previous.cut} />;
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Reading {path.split('/').pop()}…
      </p>
    );
  }
  if (result.state === 'failed') {
    if (result.error.code === 'not_found') return <p className="muted stage-file__empty">{empty}</p>;
    return (
      <div className="banner is-error" role="alert">
        <strong>Could not read the diff</strong> <span>{result.error.message}</span>
      </div>
    );
  }
  return <DiffView files={result.value.files} cut={result.value.cut} />;
}
