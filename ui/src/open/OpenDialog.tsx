import { type ComponentProps } from 'react';
import { CloseIcon } from '../icons/appIcons';
import { OpenPanel } from './OpenPanel';
import { useEscapeKey } from '../app/useEscapeKey';

/** The open panel over the current workflow (browser only; the desktop app has a native dialog). */
export function OpenDialog({
  onClose,
  ...panel
}: ComponentProps<typeof OpenPanel> & { onClose: () => void }) {
  useEscapeKey(onClose);
  return (
    <div className="modal open-dialog" role="dialog" aria-modal="true" aria-label="Open a workflow">
      <div className="modal__backdrop" onClick={onClose} />
      <div className="modal__card open-dialog__card">
        <button type="button" className="icon-button open-dialog__close" onClick={onClose} aria-label="Close">
          <CloseIcon size={16} />
        </button>
        <OpenPanel {...panel} autoFocus />
      </div>
    </div>
  );
}
