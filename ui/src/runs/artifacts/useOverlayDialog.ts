import { useEffect, useRef, type RefObject } from 'react';

/** What each key does in a dialog, by `KeyboardEvent.key` (`Escape`, `ArrowLeft`, `+`). */
export type DialogKeys = Readonly<Record<string, () => void>>;

function isTextEntry(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement
  );
}

/**
 * A full-screen dialog's focus and keys: focuses `ref` when shown and gives focus back when
 * closed; the keys in `keys` are taken before the app's own shortcuts see them. Only Escape
 * works while a field (a select, a range) has focus, so the field keeps its arrow keys.
 */
export function useOverlayDialog(ref: RefObject<HTMLElement | null>, keys: DialogKeys) {
  const latest = useRef(keys);
  useEffect(() => {
    latest.current = keys;
  });

  useEffect(() => {
    const before = document.activeElement;
    ref.current?.focus();
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, [ref]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key !== 'Escape' && isTextEntry(event.target)) return;
      const action = latest.current[event.key];
      if (action === undefined) return;
      event.preventDefault();
      event.stopPropagation();
      action();
    };
    // Capture, so the dialog answers before anything listening on the page behind it.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
