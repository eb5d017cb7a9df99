import { useMemo } from 'react';
import type { Diagnostic } from '../generated/Diagnostic';
import type { CanvasSelection } from '../workflow-view/flow/elementIds';
import { groupBySeverity } from './diagnosticOrder';
import { DiagnosticItem } from './DiagnosticItem';
import { diagnosticTarget } from './diagnosticTarget';
import { severityNoun } from './severity';
import './diagnostics.css';

function sameSelection(a: CanvasSelection, b: CanvasSelection): boolean {
  return a !== null && b !== null && a.type === b.type && a.id === b.id;
}

/** The side panel: diagnostics grouped by severity; clicking one selects what it names. */
export function DiagnosticsPanel({
  diagnostics,
  selection,
  isOnCanvas,
  onReveal,
}: {
  diagnostics: readonly Diagnostic[];
  selection: CanvasSelection;
  /** Whether an element is drawn (so its diagnostic can select it). */
  isOnCanvas: (selection: NonNullable<CanvasSelection>) => boolean;
  onReveal: (selection: NonNullable<CanvasSelection>) => void;
}) {
  const groups = useMemo(() => groupBySeverity(diagnostics), [diagnostics]);
  return (
    <aside className="diagnostics-panel" aria-label="Diagnostics">
      <header className="panel-header">
        <h2>Diagnostics</h2>
        <span className="panel-header__count">{diagnostics.length}</span>
      </header>
      {groups.length === 0 ? (
        <div className="diagnostics-panel__clean">
          <span className="diagnostics-panel__clean-mark" aria-hidden="true">
            ✓
          </span>
          <p>No problems found.</p>
          <p className="muted">The workflow parsed and passed every lint rule.</p>
        </div>
      ) : (
        <div className="diagnostics-panel__groups">
          {groups.map((group) => (
            <section key={group.severity} className="diagnostic-group">
              <h3 className={`diagnostic-group__title severity-${group.severity}`}>
                {group.diagnostics.length} {severityNoun(group.severity, group.diagnostics.length)}
              </h3>
              <ul className="diagnostic-list">
                {group.diagnostics.map((d, i) => {
                  const target = diagnosticTarget(d, isOnCanvas);
                  return (
                    <DiagnosticItem
                      key={`${d.rule}-${d.span?.start ?? 'x'}-${i}`}
                      diagnostic={d}
                      active={sameSelection(target, selection)}
                      onActivate={target === null ? null : () => onReveal(target)}
                    />
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
      )}
    </aside>
  );
}
