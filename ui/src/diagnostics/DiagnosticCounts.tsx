import type { Diagnostic } from '../generated/Diagnostic';
import { countBySeverity } from './diagnosticOrder';
import { SEVERITIES, severityNoun } from './severity';
import { SeverityIcon } from './SeverityIcon';

/** Counts per severity for the top bar; severities with none are shown dimmed. */
export function DiagnosticCounts({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  const counts = countBySeverity(diagnostics);
  return (
    <div className="diagnostic-counts" aria-label="Diagnostic counts">
      {SEVERITIES.map((severity) => (
        <span
          key={severity}
          className={`diagnostic-count severity-${severity}${counts[severity] === 0 ? ' is-zero' : ''}`}
          title={`${counts[severity]} ${severityNoun(severity, counts[severity])}`}
          data-severity={severity}
        >
          <SeverityIcon severity={severity} size={14} />
          <span className="diagnostic-count__number">{counts[severity]}</span>
        </span>
      ))}
    </div>
  );
}
