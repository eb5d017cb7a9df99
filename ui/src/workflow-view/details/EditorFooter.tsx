import type { ReactNode } from 'react';
import { MessageText } from '../../diagnostics/MessageText';

/** The line under a value editor: how to apply and cancel, an Apply button, and why the
 * value was refused. */
export function EditorFooter({
  multiline,
  problem,
  onApply,
  children,
}: {
  multiline: boolean;
  problem: string | null;
  onApply: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      <span className="attributes-table__hint">
        <span>{multiline ? 'Ctrl+Enter to apply' : 'Enter to apply'} · Esc to cancel</span>
        {children}
        <button type="button" className="button is-small" onClick={onApply}>
          Apply
        </button>
      </span>
      {problem !== null ? (
        <span className="attributes-table__note is-invalid" role="alert" data-testid="value-refused">
          <MessageText text={problem} />
        </span>
      ) : null}
    </>
  );
}
