import { FileGraphIcon } from '../icons/appIcons';
import type { WorkspaceListing } from './useWorkspaceWorkflows';
import { relativeTime, splitEntryPath } from './workflowListing';
import { shownValue } from '../api/useApiRead';

/** The workspace's workflows; clicking one opens it. */
export function WorkflowList({
  dir,
  listing,
  onOpen,
}: {
  dir: string;
  listing: WorkspaceListing;
  onOpen: (path: string) => void;
}) {
  const now = Date.now();
  // The list read before stays up while it is read again.
  const entries = shownValue(listing);
  return (
    <section className="workflow-list" aria-label="Workflows in the workspace">
      <header className="workflow-list__header">
        <h2>Workspace</h2>
        <code className="workflow-list__dir" title={dir}>
          {dir}
        </code>
      </header>
      {listing.state === 'loading' && entries === null ? <p className="workflow-list__note">Looking for workflows…</p> : null}
      {listing.state === 'failed' ? (
        <p className="workflow-list__note is-error">{listing.error.message}</p>
      ) : null}
      {entries !== null && entries.length === 0 ? (
        <p className="workflow-list__note">No .dot or .fabro workflows in this folder yet.</p>
      ) : null}
      {entries !== null && entries.length > 0 ? (
        <ul className="workflow-list__items">
          {entries.map((entry) => {
            const { name, folder } = splitEntryPath(entry.relative_path);
            return (
              <li key={entry.path}>
                <button
                  type="button"
                  className="workflow-list__item"
                  onClick={() => onOpen(entry.path)}
                  title={entry.path}
                  data-path={entry.path}
                >
                  <FileGraphIcon size={18} className="workflow-list__icon" />
                  <span className="workflow-list__name">{name}</span>
                  {folder !== '' ? <span className="workflow-list__folder">{folder}</span> : null}
                  <span className="workflow-list__time">{relativeTime(entry.modified_ms, now)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
