import { useState } from 'react';
import { useValueCommit, type ValueEditorProps } from './useValueCommit';

/** A select for enum and boolean fields; a choice applies at once, leaving it cancels. */
export function ChoiceValueEditor(props: ValueEditorProps & { options: readonly string[] }) {
  const { field, value, options, onClose } = props;
  const [draft, setDraft] = useState(value);
  const { commit } = useValueCommit(props);
  return (
    <select
      autoFocus
      aria-label={field.key}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        commit(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
      onBlur={onClose}
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
