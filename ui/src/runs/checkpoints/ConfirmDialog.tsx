import { useId, type ReactNode } from 'react';
import { useEscapeKey } from '../../app/useEscapeKey';
import { CloseIcon } from '../../icons/appIcons';
import './confirm-dialog.css';

/** The dialog's main button: what it says and does. */
export interface ConfirmAction {
  label: string;
  onConfirm: () => void;
  disabled?: boolean;
  /** Marks a change that rewrites files (drawn as a warning). */
  danger?: boolean;
}

/**
 * A modal dialog that asks before changing something: a title, what will change, Cancel
 * and a confirm button. `confirm` null leaves just Close (to show a result). While `busy`
 * nothing can be pressed and Escape does nothing.
 */
export function ConfirmDialog({
  title,
  children,
  confirm,
  busy = false,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirm: ConfirmAction | null;
  busy?: boolean;
  onCancel: () => void;
}) {
  const titleId = useId();
  const cancel = () => {
    if (!busy) onCancel();
  };
  useEscapeKey(cancel);
  return (
    <div className="modal confirm-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <div className="modal__backdrop" onClick={cancel} />
      <div className="modal__card confirm-dialog__card">
        <button
          type="button"
          className="icon-button confirm-dialog__close"
          onClick={cancel}
          disabled={busy}
          aria-label="Close"
        >
          <CloseIcon size={16} />
        </button>
        <h2 id={titleId} className="confirm-dialog__title">
          {title}
        </h2>
        <div className="confirm-dialog__body">{children}</div>
        <div className="confirm-dialog__actions">
          {busy ? <span className="spinner" role="status" aria-label="Working" /> : null}
          <button type="button" className="button" onClick={cancel} disabled={busy} autoFocus>
            {confirm === null ? 'Close' : 'Cancel'}
          </button>
          {confirm !== null ? (
            <button
              type="button"
              className={confirm.danger === true ? 'button is-primary is-danger' : 'button is-primary'}
              onClick={confirm.onConfirm}
              disabled={busy || confirm.disabled === true}
            >
              {confirm.label}
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
