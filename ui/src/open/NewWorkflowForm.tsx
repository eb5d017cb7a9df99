import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Api } from '../api/Api';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import { useApiRead } from '../api/useApiRead';
import { MessageText } from '../diagnostics/MessageText';
import type { ApiError } from '../generated/ApiError';
import { defaultFileName, newWorkflowPath } from './newWorkflowPath';
import { TemplatePicker } from './TemplatePicker';
import './new-workflow.css';
import { ErrorBanner } from '../app/ErrorBanner';

/** The templates a new workflow can start from. */
const listTemplates = (api: Api) => api.listTemplates();

/**
 * "New workflow": a template, a file name (in the workspace folder, or a full path without
 * one), then Create. The created file is passed to `onCreated` to be opened. A refusal (the
 * file exists, say) is shown in the form with everything typed kept.
 */
export function NewWorkflowForm({
  workspaceDir,
  onCreated,
  onCancel,
}: {
  workspaceDir: string | null;
  onCreated: (path: string) => void;
  onCancel: () => void;
}) {
  const api = useApi();
  const listing = useApiRead({}, listTemplates);
  const [chosen, setChosen] = useState<string | null>(null);
  const [typedName, setTypedName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);

  const templates = listing.state === 'ready' ? listing.value : [];
  const template = templates.find((t) => t.name === chosen) ?? templates[0];
  const name = typedName ?? defaultFileName(template?.name ?? '');
  const target = newWorkflowPath(name, workspaceDir);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (template === undefined || !target.ok || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const created = await api.createWorkflow({ template: template.name, path: target.path });
      onCreated(created.path);
    } catch (reason) {
      setFailure(toApiError(reason));
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <form
      id="new-workflow-form"
      className="new-workflow"
      aria-label="New workflow"
      data-testid="new-workflow"
      onSubmit={(e) => void submit(e)}
      onKeyDown={onKeyDown}
    >
      <h2 className="new-workflow__title">New workflow</h2>
      {listing.state === 'loading' ? (
        <p className="new-workflow__hint" role="status">
          <span className="spinner" aria-hidden="true" /> Loading templates…
        </p>
      ) : null}
      {listing.state === 'failed' ? (
        <p className="banner is-error" role="alert">
          <strong>Could not list the templates</strong>
          <span>{listing.error.message}</span>
        </p>
      ) : null}
      {template !== undefined ? (
        <TemplatePicker templates={templates} chosen={template.name} onChoose={setChosen} />
      ) : null}

      <label className="new-workflow__label" htmlFor="new-workflow-name">
        {workspaceDir !== null ? 'File name' : 'Full path of the new file'}
      </label>
      <input
        id="new-workflow-name"
        className="path-field__input"
        data-testid="new-workflow-name"
        type="text"
        spellCheck={false}
        autoComplete="off"
        autoFocus
        value={name}
        placeholder={workspaceDir !== null ? 'my-workflow.dot' : '/path/to/my-workflow.dot'}
        aria-invalid={!target.ok}
        aria-describedby="new-workflow-target"
        onChange={(e) => {
          setTypedName(e.target.value);
          setFailure(null);
        }}
      />
      <p id="new-workflow-target" className={target.ok ? 'new-workflow__hint' : 'new-workflow__hint is-error'}>
        {target.ok ? (
          <>
            Creates <code data-testid="new-workflow-path">{target.path}</code>
            {template !== undefined && template.extra_files.length > 0
              ? ` and ${template.extra_files.length === 1 ? 'the file' : 'the files'} it refers to beside it`
              : null}
          </>
        ) : (
          <MessageText text={target.message} />
        )}
      </p>

      {failure !== null ? (
        <ErrorBanner title={failure.code === 'already_exists' ? 'A file is already there' : 'Could not create the workflow'} message={failure.message} testId="new-workflow-error" />
      ) : null}

      <div className="new-workflow__actions">
        <button
          type="submit"
          className="button is-primary"
          data-testid="new-workflow-create"
          disabled={busy || template === undefined || !target.ok}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          Create
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
