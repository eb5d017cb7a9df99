import type { FileChange } from '../../generated/FileChange';
import { DiffFileSection } from './DiffFileSection';
import './diff.css';

/**
 * A diff as Rust computed it (a checkpoint diff, a stage's `diff.patch`): one foldable
 * section per file with line numbers and added/removed colouring. Large files start folded.
 * `cut`: the patch was cut at its size limit, so files are missing at the end.
 */
export function DiffView({ files, cut = false }: { files: FileChange[]; cut?: boolean }) {
  const additions = files.reduce((sum, f) => sum + f.additions, 0);
  const deletions = files.reduce((sum, f) => sum + f.deletions, 0);
  const cutNote = cut ? (
    <p className="diff-view__cut" role="note">
      This diff was cut at its size limit; the checkpoint commits hold the rest.
    </p>
  ) : null;
  if (files.length === 0) {
    return (
      <div data-testid="diff-view">
        <p className="diff-view__empty">No changes.</p>
        {cutNote}
      </div>
    );
  }
  return (
    <div className="diff-view" data-testid="diff-view">
      <p className="diff-view__summary">
        {files.length} {files.length === 1 ? 'file' : 'files'} changed
        {additions + deletions > 0 ? (
          <>
            {' '}
            <span className="diff-count is-add">+{additions}</span> <span className="diff-count is-del">−{deletions}</span>
          </>
        ) : null}
      </p>
      {files.map((file, i) => (
        <DiffFileSection key={`${i}:${file.path}`} file={file} />
      ))}
      {cutNote}
    </div>
  );
}
