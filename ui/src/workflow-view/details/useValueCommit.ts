import { useState, type KeyboardEvent } from 'react';
import { validateFieldValue, type InspectorField } from '../../editing/fieldTypes';

/** What every value editor is given. */
export type ValueEditorProps = {
  field: InspectorField;
  /** The value as it is now. */
  value: string;
  /** Called with the checked, normalised value when it differs from `value`. */
  onCommit: (value: string) => void;
  /** Closes the editor. */
  onClose: () => void;
};

/**
 * Applying a typed value: the field's own check first (its message shown as `problem`), then
 * the editor closes and a changed value is passed on. `refuse` shows another reason not to.
 */
export function useValueCommit({ field, value, onCommit, onClose }: ValueEditorProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const commit = (text: string) => {
    const checked = validateFieldValue(field, text);
    if (!checked.ok) {
      setProblem(checked.message);
      return;
    }
    onClose();
    if (checked.value !== value) onCommit(checked.value);
  };
  return { problem, refuse: setProblem, commit };
}

/** Escape cancels; Enter (Ctrl/Cmd+Enter when the field takes several lines) applies. */
export function editorKeys({
  multiline,
  onApply,
  onCancel,
}: {
  multiline: boolean;
  onApply: () => void;
  onCancel: () => void;
}) {
  return (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onCancel();
    } else if (e.key === 'Enter' && (!multiline || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onApply();
    }
  };
}
