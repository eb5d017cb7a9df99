import { DiagnosticCounts } from '../diagnostics/DiagnosticCounts';
import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { FolderOpenIcon, HeddleLogo } from '../icons/appIcons';
import type { WorkflowEditing } from './useWorkflowEditing';

/** Splits a path into its folder (with trailing separator) and file name. */
function splitPath(path: string): { folder: string; file: string } {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return { folder: path.slice(0, cut + 1), file: path.slice(cut + 1) };
}

/** App name, the Open button, the open file's path and its diagnostic counts. */
export function TopBar({
  opened,
  pendingPath,
  onOpen,
  editing,
  themeToggle,
  navigation,
}: {
  opened: OpenedWorkflow | null;
  pendingPath: string | null;
  onOpen: () => void;
  editing: WorkflowEditing;
  themeToggle: React.ReactNode;
  navigation: React.ReactNode;
}) {
  const path = opened === null ? null : splitPath(opened.path);
  return (
    <header className="top-bar">
      <div className="top-bar__brand">
        <HeddleLogo />
        <span className="top-bar__name">Heddle</span>
      </div>
      <button type="button" className="button" onClick={onOpen}>
        <FolderOpenIcon size={15} />
        Open…
      </button>
      {navigation}
      <div className="top-bar__file" title={opened?.path}>
        {path !== null ? (
          <span className="top-bar__path">
            <span className="top-bar__folder">{path.folder}</span>
            <span className="top-bar__filename" data-testid="open-file-name">
              {path.file}
            </span>
            {editing.dirty ? (
              <span className="top-bar__dirty" data-testid="dirty-marker" title="Unsaved changes">
                ●
              </span>
            ) : null}
          </span>
        ) : (
          <span className="top-bar__folder">No workflow open</span>
        )}
        {pendingPath !== null ? <span className="spinner" role="status" aria-label="Opening" /> : null}
      </div>
      {opened !== null ? (
        <div className="top-bar__edit">
          <button
            type="button"
            className="button is-small"
            onClick={() => void editing.undo()}
            disabled={!editing.canUndo || editing.busy}
            title="Undo (Ctrl+Z)"
          >
            Undo
          </button>
          <button
            type="button"
            className="button is-small"
            onClick={() => void editing.redo()}
            disabled={!editing.canRedo || editing.busy}
            title="Redo (Ctrl+Shift+Z)"
          >
            Redo
          </button>
          <button
            type="button"
            className="button is-small"
            data-testid="save-button"
            onClick={() => void editing.save()}
            disabled={!editing.dirty || editing.busy}
            title="Save (Ctrl+S)"
          >
            Save
          </button>
        </div>
      ) : null}
      {opened !== null ? <DiagnosticCounts diagnostics={opened.diagnostics} /> : null}
      {themeToggle}
    </header>
  );
}
