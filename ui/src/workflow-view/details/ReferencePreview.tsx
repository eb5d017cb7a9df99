import { useId, useState } from 'react';
import { MessageText } from '../../diagnostics/MessageText';
import { MarkdownView } from '../../markdown/MarkdownView';
import { useReferencedFile } from './useReferencedFile';
import { useWorkflowPath } from './WorkflowPathContext';

function PreviewBody({ workflowPath, reference, delayMs }: { workflowPath: string; reference: string; delayMs: number }) {
  const state = useReferencedFile(workflowPath, reference, delayMs);
  if (state.status === 'loading') {
    return (
      <p className="reference-preview__status" role="status">
        <span className="spinner" aria-hidden="true" /> Reading <code>{reference}</code>…
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <p className="reference-preview__error" role="alert" data-testid="reference-error">
        <strong>{state.error.code === 'not_found' ? 'File not found' : 'Cannot preview this file'}</strong>
        <span>
          <MessageText text={state.error.message} />
        </span>
      </p>
    );
  }
  const { file } = state;
  return (
    <>
      <code className="reference-preview__path" title={file.path} data-testid="reference-path">
        {file.path}
      </code>
      <MarkdownView source={file.text} className="reference-preview__body" />
      {file.truncated ? (
        <p className="reference-preview__note" data-testid="reference-truncated">
          Truncated: only the start of the file is shown.
        </p>
      ) : null}
    </>
  );
}

/**
 * The Markdown file an `@path` value refers to, rendered, with its resolved path; an error
 * when it cannot be read. `delayMs` waits for typing to pause (0 for a committed value).
 * Renders nothing outside a workflow (no path to resolve against).
 */
export function ReferencePreview({
  reference,
  delayMs = 0,
  collapsible = false,
}: {
  reference: string;
  delayMs?: number;
  collapsible?: boolean;
}) {
  const workflowPath = useWorkflowPath();
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  if (workflowPath === null) return null;
  return (
    <div className="reference-preview" data-testid="reference-preview">
      {collapsible ? (
        <button
          type="button"
          className="reference-preview__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="reference-preview__chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {open ? 'Hide' : 'Show'} <code>{reference}</code>
        </button>
      ) : (
        <span className="reference-preview__title">
          Preview of <code>{reference}</code>
        </span>
      )}
      {open ? (
        <div id={bodyId} className="reference-preview__content">
          <PreviewBody workflowPath={workflowPath} reference={reference} delayMs={delayMs} />
        </div>
      ) : null}
    </div>
  );
}
