import { useMemo } from 'react';
import { DiffFileSection } from './DiffFileSection';
import { parsePatch } from './parsePatch';
import './diff.css';

/**
 * A unified diff (a checkpoint diff, a stage's `diff.patch`) as one foldable section per
 * file with line numbers and added/removed colouring. Large files start folded.
 */
export function DiffView({ patch }: { patch: string }) {
  const parsed = useMemo(() => parsePatch(patch), [patch]);
  const { files, preamble } = parsed;
  const additions = files.reduce((sum, f) => sum + f.additions, 0);
  const deletions = files.reduce((sum, f) => sum + f.deletions, 0);
  if (files.length === 0 && preamble.every((line) => line.trim() === '')) {
    return (
      <p className="diff-view__empty" data-testid="diff-view">
        No changes.
      </p>
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
      {preamble.length > 0 ? <pre className="diff-view__preamble">{preamble.join('\n')}</pre> : null}
      {files.map((file, i) => (
        <DiffFileSection key={`${i}:${file.path}`} file={file} />
      ))}
    </div>
  );
}
