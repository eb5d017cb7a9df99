import type { Diagnostic } from '../generated/Diagnostic';
import { formatLocation } from './diagnosticOrder';
import { MessageText } from './MessageText';
import { SeverityIcon } from './SeverityIcon';

/** One diagnostic: icon, rule, location, message and hint. Clickable when it names an element. */
export function DiagnosticItem({
  diagnostic,
  active,
  onActivate,
}: {
  diagnostic: Diagnostic;
  active: boolean;
  /** Present when the diagnostic names something on the canvas. */
  onActivate: (() => void) | null;
}) {
  const location = formatLocation(diagnostic);
  const where = [diagnostic.file, location].filter((part) => part !== null).join(':');
  const subject = diagnostic.edge
    ? `${diagnostic.edge.from} → ${diagnostic.edge.to}`
    : diagnostic.node;
  const body = (
    <>
      <span className="diagnostic-item__icon">
        <SeverityIcon severity={diagnostic.severity} size={15} />
      </span>
      <span className="diagnostic-item__body">
        <span className="diagnostic-item__head">
          <code className="diagnostic-item__rule">{diagnostic.rule}</code>
          {subject ? <span className="diagnostic-item__subject">{subject}</span> : null}
          {where !== '' ? <span className="diagnostic-item__location">{where}</span> : null}
        </span>
        <span className="diagnostic-item__message">
          <MessageText text={diagnostic.message} />
        </span>
        {diagnostic.hint ? (
          <span className="diagnostic-item__hint">
            <MessageText text={diagnostic.hint} />
          </span>
        ) : null}
      </span>
    </>
  );
  const className = `diagnostic-item severity-${diagnostic.severity}${active ? ' is-active' : ''}`;
  return (
    <li className="diagnostic-list__entry">
      {onActivate === null ? (
        <div className={className} data-rule={diagnostic.rule}>
          {body}
        </div>
      ) : (
        <button type="button" className={`${className} is-interactive`} data-rule={diagnostic.rule} onClick={onActivate}>
          {body}
        </button>
      )}
    </li>
  );
}
