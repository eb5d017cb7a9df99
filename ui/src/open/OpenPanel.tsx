import { useRef, useState } from 'react';
import type { ApiError } from '../generated/ApiError';
import { FolderOpenIcon } from '../icons/appIcons';
import { NewWorkflowIcon } from './NewWorkflowIcon';
import { NewWorkflowForm } from './NewWorkflowForm';
import { PathField } from './PathField';
import type { WorkspaceListing } from './useWorkspaceWorkflows';
import { WorkflowList } from './WorkflowList';
import './open.css';
import { ErrorBanner } from '../app/ErrorBanner';

/**
 * Choosing a workflow: the workspace's workflows, plus a native "Open…" button in the
 * desktop app or a path field in a browser, and "New workflow…" to start one from a
 * template. Used as the empty state and as the open dialog.
 */
export function OpenPanel({
  workspaceDir,
  listing,
  hasFileDialog,
  pendingPath,
  failure,
  onOpenPath,
  onPickFile,
  onCreated,
  autoFocus = false,
}: {
  workspaceDir: string | null;
  listing: WorkspaceListing;
  hasFileDialog: boolean;
  pendingPath: string | null;
  failure: { path: string; error: ApiError } | null;
  onOpenPath: (path: string) => void;
  onPickFile: () => void;
  /** A workflow was created at `path`: open it. */
  onCreated: (path: string) => void;
  autoFocus?: boolean;
}) {
  const [creating, setCreating] = useState(false);
  const newButtonRef = useRef<HTMLButtonElement>(null);
  const stopCreating = () => {
    setCreating(false);
    newButtonRef.current?.focus();
  };
  const newButton = (
    <button
      ref={newButtonRef}
      type="button"
      className={creating ? 'button is-large is-active' : 'button is-large'}
      data-testid="new-workflow-button"
      aria-expanded={creating}
      aria-controls="new-workflow-form"
      onClick={() => (creating ? stopCreating() : setCreating(true))}
    >
      <NewWorkflowIcon size={16} />
      New workflow…
    </button>
  );
  return (
    <div className="open-panel">
      <div className="open-panel__intro">
        <h1>Open a workflow</h1>
        <p className="muted">
          Heddle shows a Graphviz <code>.dot</code> workflow (or Fabro&apos;s <code>.fabro</code>) as a
          graph, with every problem the checker finds listed beside it.
        </p>
      </div>
      {failure !== null ? (
        <ErrorBanner title={<>Could not open {failure.path}</>} message={failure.error.message} />
      ) : null}
      {pendingPath !== null ? (
        <p className="open-panel__pending" role="status">
          <span className="spinner" aria-hidden="true" /> Opening <code>{pendingPath}</code>…
        </p>
      ) : null}
      {hasFileDialog ? (
        <div className="open-panel__actions">
          <button type="button" className="button is-primary is-large" onClick={onPickFile}>
            <FolderOpenIcon size={16} />
            Open…
          </button>
          {newButton}
        </div>
      ) : (
        <>
          <PathField onOpen={onOpenPath} busy={pendingPath !== null} initialValue={failure?.path ?? ''} autoFocus={autoFocus} />
          <div className="open-panel__actions">{newButton}</div>
        </>
      )}
      {creating ? (
        <NewWorkflowForm workspaceDir={workspaceDir} onCreated={onCreated} onCancel={stopCreating} />
      ) : null}
      {workspaceDir !== null ? (
        <WorkflowList dir={workspaceDir} listing={listing} onOpen={onOpenPath} />
      ) : null}
    </div>
  );
}
