import { useState } from 'react';
import { EditorFooter } from './EditorFooter';
import { editorKeys, useValueCommit, type ValueEditorProps } from './useValueCommit';

/** A one-line input (text, durations, numbers): Enter applies after the field's check. */
export function TextValueEditor(props: ValueEditorProps) {
  const { field, value, onClose } = props;
  const [draft, setDraft] = useState(value);
  const { problem, commit } = useValueCommit(props);
  const apply = () => commit(draft);
  return (
    <div className="attributes-table__editor">
      <input
        autoFocus
        aria-label={field.key}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={editorKeys({ multiline: false, onApply: apply, onCancel: onClose })}
      />
      <EditorFooter multiline={false} problem={problem} onApply={apply} />
    </div>
  );
}
