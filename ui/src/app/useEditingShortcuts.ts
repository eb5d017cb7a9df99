import { useEffect } from 'react';
import { shortcutFor, type ShortcutAction } from './shortcuts';

/** Whether a key press belongs to a text field (its own undo and typing come first). */
export function inTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** Runs the app's keyboard shortcuts (see `shortcuts.ts`) with `handlers`. */
export function useEditingShortcuts(handlers: Record<ShortcutAction, () => void>) {
  const { save, undo, redo, open, help } = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = shortcutFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        shiftKey: event.shiftKey,
        altKey: event.altKey,
        inTextField: inTextField(event.target),
      });
      if (action === null) return;
      event.preventDefault();
      ({ save, undo, redo, open, help })[action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save, undo, redo, open, help]);
}
