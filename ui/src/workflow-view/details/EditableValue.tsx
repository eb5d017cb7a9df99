import { useState, type KeyboardEvent } from 'react';
import { validateFieldValue, type InspectorField } from '../../editing/fieldTypes';

/**
 * An attribute value that turns into an input on click: Enter (Ctrl+Enter in a multi-line
 * field) commits after the field's own check, Escape cancels. Enum and boolean fields are
 * selects and commit on change.
 */
export function EditableValue({
  field,
  value,
  children,
  onCommit,
}: {
  field: InspectorField;
  value: string;
  children: React.ReactNode;
  onCommit: (value: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const commit = (text: string) => {
    const checked = validateFieldValue(field, text);
    if (!checked.ok) {
      setProblem(checked.message);
      return;
    }
    setDraft(null);
    setProblem(null);
    if (checked.value !== value) onCommit(checked.value);
  };
  const cancel = () => {
    setDraft(null);
    setProblem(null);
  };

  if (draft === null) {
    return (
      <button
        type="button"
        className="attributes-table__edit"
        title={`Edit ${field.key}`}
        data-testid={`edit-attr-${field.key}`}
        onClick={() => setDraft(value)}
      >
        {children}
      </button>
    );
  }

  const { input } = field;
  if (input.input === 'enum' || input.input === 'boolean') {
    const options = input.input === 'enum' ? input.options : ['true', 'false'];
    return (
      <select
        autoFocus
        aria-label={field.key}
        value={draft}
        onChange={(e) => commit(e.target.value)}
        onBlur={cancel}
      >
        {options.includes(draft) ? null : <option value={draft}>{draft}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }

  const multiline = input.input === 'markdown' || input.input === 'stylesheet';
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      cancel();
    } else if (e.key === 'Enter' && (!multiline || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      commit(draft);
    }
  };
  return (
    <div className="attributes-table__editor">
      {multiline ? (
        <textarea
          autoFocus
          rows={6}
          aria-label={field.key}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
      ) : (
        <input
          autoFocus
          aria-label={field.key}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      <span className="attributes-table__hint">
        {multiline ? 'Ctrl+Enter to apply' : 'Enter to apply'} · Esc to cancel
        <button type="button" className="button is-small" onClick={() => commit(draft)}>
          Apply
        </button>
      </span>
      {problem !== null ? (
        <span className="attributes-table__note is-invalid" role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
