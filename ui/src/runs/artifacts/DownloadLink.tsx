import { useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { toApiError } from '../../api/apiError';
import type { ListedArtifact } from '../../generated/ListedArtifact';
import { fileName } from './artifactGroups';
import { useArtifactRun } from './ArtifactRunContext';

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; path: string } | { state: 'failed'; message: string };

/**
 * "Download": in a browser a link that saves the artifact under its own file name; in the
 * desktop window a button that saves a copy into the Downloads folder and says where.
 */
export function DownloadLink({ url, artifact }: { url: string; artifact: ListedArtifact }) {
  const save = useApi().saveRunFile;
  const runId = useArtifactRun();
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });
  const name = fileName(artifact.path);
  if (save === null) {
    return (
      <a className="button is-small" href={url} download={name} aria-label={`Download ${name}`}>
        Download
      </a>
    );
  }
  // In the desktop a link to the file would only take the whole window there.
  if (runId === null) return null;
  const onSave = () => {
    setSaving({ state: 'saving' });
    save({ run_id: runId, area: 'artifacts', path: artifact.path }).then(
      (saved) => setSaving({ state: 'saved', path: saved.path }),
      (error: unknown) => setSaving({ state: 'failed', message: toApiError(error).message }),
    );
  };
  return (
    <>
      <button
        type="button"
        className="button is-small"
        onClick={onSave}
        disabled={saving.state === 'saving'}
        aria-label={`Download ${name}`}
        title="Save a copy in your Downloads folder"
      >
        {saving.state === 'saving' ? 'Saving…' : 'Download'}
      </button>
      {saving.state === 'saved' ? (
        <span className="download-note" role="status" title={saving.path} data-testid="download-saved" data-path={saving.path}>
          Saved as {saving.path.split(/[\\/]/).pop()}
        </span>
      ) : saving.state === 'failed' ? (
        <span className="download-note is-error" role="alert">
          Not saved: {saving.message}
        </span>
      ) : null}
    </>
  );
}
