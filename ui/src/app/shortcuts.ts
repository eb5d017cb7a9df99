/**
 * The app's keyboard shortcuts: one table, used both to dispatch key presses and to list
 * them in the shortcuts help, so the two never disagree.
 */

export type ShortcutAction = 'save' | 'undo' | 'redo' | 'open' | 'help';

/** The parts of a key press that matter here. */
export type KeyPress = {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** Whether the press happened in a text field (which keeps its own undo and typing). */
  inTextField: boolean;
};

/** What the shortcuts help lists: keys as shown, and what they do. */
export const SHORTCUT_HELP: readonly { keys: string; does: string }[] = [
  { keys: 'Ctrl+S', does: 'Save the workflow' },
  { keys: 'Ctrl+Z', does: 'Undo' },
  { keys: 'Ctrl+Shift+Z / Ctrl+Y', does: 'Redo' },
  { keys: 'Ctrl+O', does: 'Open a workflow' },
  { keys: 'Delete / Backspace', does: 'Delete the selected node or edge' },
  { keys: 'Escape', does: 'Clear the selection, or cancel an edit' },
  { keys: 'Enter', does: 'Apply a field (Ctrl+Enter in a multi-line field)' },
  { keys: '?', does: 'Show these shortcuts' },
];

/** The action a key press asks for, or null. Ctrl and Cmd are the same. */
export function shortcutFor(press: KeyPress): ShortcutAction | null {
  const command = (press.ctrlKey || press.metaKey) && !press.altKey;
  const key = press.key.toLowerCase();
  if (command && key === 's') return 'save';
  if (press.inTextField) return null;
  if (command && key === 'o') return 'open';
  if (command && key === 'z') return press.shiftKey ? 'redo' : 'undo';
  if (command && key === 'y') return 'redo';
  if (!command && !press.altKey && press.key === '?') return 'help';
  return null;
}
