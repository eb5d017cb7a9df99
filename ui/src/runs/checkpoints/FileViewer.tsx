import { useState } from 'react';
import type { TreeFile } from '../../generated/TreeFile';
import { loadCheckpointFile } from './apiCalls';
import { formatSize } from './format';
import { useApiRead } from '../../api/useApiRead';
import { ErrorBanner } from '../../app/ErrorBanner';

/** Lines shown before "Show all" (long files render slowly). */
const FIRST_LINES = 5000;

/** Text with line numbers in a gutter (numbers kept out of a copied selection). */
function NumberedText({ text }: { text: string }) {
  const [showAll, setShowAll] = useState(false);
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const shown = showAll ? lines : lines.slice(0, FIRST_LINES);
  const numbers = shown.map((_, i) => i + 1).join('\n');
  return (
    <>
      <div className="file-viewer__text">
        <pre className="file-viewer__gutter" aria-hidden="true">
          {numbers}
        </pre>
        <pre className="file-viewer__code" data-testid="file-viewer-text">
          {shown.join('\n')}
        </pre>
      </div>
      {shown.length < lines.length ? (
        <p className="file-viewer__note">
          Showing the first {shown.length.toLocaleString()} of {lines.length.toLocaleString()} lines.{' '}
          <button type="button" className="button is-small" onClick={() => setShowAll(true)}>
            Show all
          </button>
        </p>
      ) : null}
    </>
  );
}

/** One file as it was at a checkpoint: text with line numbers, or a note for binary files. */
export function FileViewer({ runId, sha, file }: { runId: string; sha: string; file: TreeFile }) {
  const result = useApiRead({ run_id: runId, at: sha, path: file.path }, loadCheckpointFile);
  return (
    <div className="file-viewer" data-testid="file-viewer">
      <div className="file-viewer__header">
        <code className="file-viewer__path" title={file.path}>
          {file.path}
        </code>
        <span className="muted">
          {formatSize(file.size)}
          {file.kind === 'executable' ? ' · executable' : file.kind === 'link' ? ' · symbolic link' : ''}
        </span>
      </div>
      {result.state === 'loading' ? (
        <p className="file-viewer__note" role="status">
          <span className="spinner" aria-hidden="true" /> Reading the file…
        </p>
      ) : result.state === 'failed' ? (
        <ErrorBanner title={<>Could not read {file.path}</>} message={result.error.message} />
      ) : result.value.text === null ? (
        <p className="file-viewer__note" data-testid="file-viewer-binary">
          Binary file ({formatSize(result.value.size)}): its contents are not shown.
        </p>
      ) : file.kind === 'link' ? (
        <p className="file-viewer__note">
          Points to <code>{result.value.text}</code>
        </p>
      ) : result.value.text === '' ? (
        <p className="file-viewer__note">Empty file.</p>
      ) : (
        <NumberedText key={`${sha}:${file.path}`} text={result.value.text} />
      )}
    </div>
  );
}
