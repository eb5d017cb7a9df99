import { useState, type FormEvent } from 'react';
import { ArrowRightIcon } from '../icons/appIcons';

/** In a browser there is no file dialog: the user types the workflow's path. */
export function PathField({
  onOpen,
  busy,
  initialValue = '',
  autoFocus = false,
}: {
  onOpen: (path: string) => void;
  busy: boolean;
  initialValue?: string;
  autoFocus?: boolean;
}) {
  const [value, setValue] = useState(initialValue);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const path = value.trim();
    if (path !== '') onOpen(path);
  };
  return (
    <form className="path-field" onSubmit={submit}>
      <label className="path-field__label" htmlFor="workflow-path">
        Path to a workflow file
      </label>
      <div className="path-field__row">
        <input
          id="workflow-path"
          className="path-field__input"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder="/path/to/workflow.dot"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoFocus={autoFocus}
        />
        <button type="submit" className="button is-primary" disabled={busy || value.trim() === ''}>
          Open
          <ArrowRightIcon size={14} />
        </button>
      </div>
    </form>
  );
}
