import { SeverityIcon } from '../../diagnostics/SeverityIcon';
import { severityNoun } from '../../diagnostics/severity';
import type { AttachedDiagnostics } from '../flow/flowTypes';

/** A small severity marker with a count, for a node or an edge that has diagnostics. */
export function DiagnosticBadge({
  diagnostics,
  x,
  y,
}: {
  diagnostics: AttachedDiagnostics;
  x: number;
  y: number;
}) {
  const { worst, list } = diagnostics;
  if (worst === null) return null;
  const summary = list.map((d) => `${d.rule}: ${d.message}`).join('\n');
  return (
    <span
      className={`diagnostic-badge severity-${worst}`}
      style={{ left: x, top: y }}
      title={summary}
      aria-label={`${list.length} ${severityNoun(worst, list.length)} or less severe`}
    >
      <SeverityIcon severity={worst} size={12} />
      {list.length > 1 ? <span className="diagnostic-badge__count">{list.length}</span> : null}
    </span>
  );
}
