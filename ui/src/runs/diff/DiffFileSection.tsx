import { useId, useState } from 'react';
import type { FileChange } from '../../generated/FileChange';
import { DiffHunkTable } from './DiffHunkTable';
import { FOLD_LINES, lineCount, SHOW_STEP, visibleHunks } from './visibleHunks';

function FileNotes({ file }: { file: FileChange }) {
  const notes: string[] = [];
  if (file.mode_change !== null) notes.push(`Mode changed from ${file.mode_change.from} to ${file.mode_change.to}.`);
  if (file.binary) notes.push('Binary file: its contents are not shown.');
  else if (file.too_large) notes.push('This file changed too much to show its lines here.');
  else if (file.hunks.length === 0 && file.status === 'renamed') notes.push('Moved without changes.');
  else if (file.hunks.length === 0 && file.mode_change === null) notes.push('No lines changed.');
  return (
    <>
      {notes.map((note) => (
        <p key={note} className="diff-file__note">
          {note}
        </p>
      ))}
    </>
  );
}

/**
 * One file of a diff: a header (status, path, +/- counts) that folds it, then its lines.
 * A file over `FOLD_LINES` lines starts folded behind "Show" and is revealed in steps.
 */
export function DiffFileSection({ file }: { file: FileChange }) {
  const lines = lineCount(file);
  const [open, setOpen] = useState(true);
  const [limit, setLimit] = useState(lines > FOLD_LINES ? 0 : Number.POSITIVE_INFINITY);
  const bodyId = useId();
  const hidden = Math.max(0, lines - limit);
  return (
    <section className="diff-file" data-testid="diff-file" data-path={file.path}>
      <button
        type="button"
        className="diff-file__header"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="diff-file__chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className={`diff-file__status is-${file.status}`}>{file.status}</span>
        <span className="diff-file__path" title={file.path}>
          {file.old_path !== null && file.old_path !== file.path ? (
            <>
              {file.old_path} <span aria-label={file.status === 'copied' ? 'copied to' : 'moved to'}>→</span> {file.path}
            </>
          ) : (
            file.path
          )}
        </span>
        {file.binary ? (
          <span className="diff-file__counts">binary</span>
        ) : (
          <span className="diff-file__counts" aria-label={`${file.additions} added, ${file.deletions} removed`}>
            <span className="diff-count is-add">+{file.additions}</span> <span className="diff-count is-del">−{file.deletions}</span>
          </span>
        )}
      </button>
      {open ? (
        <div id={bodyId} className="diff-file__body">
          <FileNotes file={file} />
          {limit === 0 ? (
            <p className="diff-file__folded">
              <span>This file's diff has {lines.toLocaleString()} lines.</span>
              <button type="button" className="button is-small" onClick={() => setLimit(SHOW_STEP)}>
                Show
              </button>
            </p>
          ) : file.hunks.length > 0 ? (
            <div className="diff-file__scroll">
              <DiffHunkTable hunks={visibleHunks(file.hunks, limit)} />
            </div>
          ) : null}
          {limit > 0 && hidden > 0 ? (
            <p className="diff-file__folded">
              <span>{hidden.toLocaleString()} more lines.</span>
              <button type="button" className="button is-small" onClick={() => setLimit((l) => l + SHOW_STEP)}>
                Show more
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
