import type { DiskWatch } from './useDiskWatch';

function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** Tells the person the open file changed or vanished on disk, with the choices they have. */
export function DiskChangeBanner({ watch }: { watch: DiskWatch }) {
  const { conflict } = watch;
  if (conflict === null) return null;
  if (conflict.kind === 'deleted') {
    return (
      <div className="banner is-warning disk-banner" role="alert" data-testid="disk-deleted">
        <strong>{fileName(conflict.path)} was deleted or moved on disk.</strong>
        <span>What you see is kept; saving writes the file again.</span>
      </div>
    );
  }
  return (
    <div className="banner is-warning disk-banner" role="alert" data-testid="disk-conflict">
      <strong>{fileName(conflict.path)} changed on disk, and you have unsaved edits.</strong>
      <span className="disk-banner__actions">
        <button type="button" className="button is-small" data-testid="disk-reload" onClick={watch.reloadFromDisk}>
          Reload from disk (discard my edits)
        </button>
        <button type="button" className="button is-small" data-testid="disk-keep" onClick={watch.keepMine}>
          Keep my edits (saving overwrites the file)
        </button>
      </span>
    </div>
  );
}
