import type { OpenedWorkflow } from '../generated/OpenedWorkflow';
import { MessageText } from '../diagnostics/MessageText';
import { SeverityIcon } from '../diagnostics/SeverityIcon';

/** Shown instead of the canvas when the file held no graph the parser could recover. */
export function UnreadableWorkflow({ opened }: { opened: OpenedWorkflow }) {
  const firstError = opened.diagnostics.find((d) => d.severity === 'error') ?? null;
  return (
    <div className="canvas-message" role="alert" data-testid="unreadable-workflow">
      <div className="canvas-message__card is-error">
        <SeverityIcon severity="error" size={28} />
        <h2>No graph could be read from this file</h2>
        {firstError !== null ? (
          <p>
            {firstError.span !== null ? (
              <code>
                {firstError.span.line}:{firstError.span.column}
              </code>
            ) : null}{' '}
            <MessageText text={firstError.message} />
          </p>
        ) : (
          <p>The file does not contain a <code>digraph</code>.</p>
        )}
        <p className="muted">Fix the problems listed on the right and open the file again.</p>
      </div>
    </div>
  );
}
