import { SHORTCUT_HELP } from './shortcuts';
import { useEscapeKey } from './useEscapeKey';

/** The list of keyboard shortcuts, in a dialog closed by Escape, a click outside or Close. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  useEscapeKey(onClose);
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        className="dialog shortcuts-help"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts-help"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Keyboard shortcuts</h2>
        <dl>
          {SHORTCUT_HELP.map(({ keys, does }) => (
            <div key={keys} className="shortcuts-help__row">
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{does}</dd>
            </div>
          ))}
        </dl>
        <button type="button" className="button" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
