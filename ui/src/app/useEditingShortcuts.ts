import { useEffect } from 'react';
import type { WorkflowEditing } from './useWorkflowEditing';

/** Whether a key press belongs to a text field (its own undo and typing come first). */
function inTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** Ctrl/Cmd+S saves anywhere; Ctrl/Cmd+Z undoes and Ctrl/Cmd+Shift+Z or Ctrl+Y redoes outside text fields. */
export function useEditingShortcuts(editing: WorkflowEditing) {
  const { save, undo, redo } = editing;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 's') {
        event.preventDefault();
        void save();
      } else if (inTextField(event.target)) {
        return;
      } else if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        void undo();
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        event.preventDefault();
        void redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save, undo, redo]);
}
