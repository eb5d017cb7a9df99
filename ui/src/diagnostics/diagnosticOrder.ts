import type { Diagnostic } from '../generated/Diagnostic';
import type { Severity } from '../generated/Severity';
import { SEVERITIES, severityRank } from './severity';

/** Whether a diagnostic has a real place in the source (lines count from 1). */
function hasPlace(d: Diagnostic): d is Diagnostic & { span: NonNullable<Diagnostic['span']> } {
  return d.span !== null && d.span.line >= 1;
}

/** Position for ordering: diagnostics without a place come after those with one. */
function positionKey(d: Diagnostic): [number, number] {
  return hasPlace(d) ? [d.span.line, d.span.column] : [Number.MAX_SAFE_INTEGER, 0];
}

/** Most severe first; within a severity by line, column, then rule id. Does not mutate. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => {
    const bySeverity = severityRank(a.severity) - severityRank(b.severity);
    if (bySeverity !== 0) return bySeverity;
    const [la, ca] = positionKey(a);
    const [lb, cb] = positionKey(b);
    if (la !== lb) return la - lb;
    if (ca !== cb) return ca - cb;
    return a.rule.localeCompare(b.rule);
  });
}

/** Diagnostics of one severity, sorted. */
export interface SeverityGroup {
  severity: Severity;
  diagnostics: Diagnostic[];
}

/** Non-empty groups, most severe first, each sorted by position. */
export function groupBySeverity(diagnostics: readonly Diagnostic[]): SeverityGroup[] {
  const sorted = sortDiagnostics(diagnostics);
  return SEVERITIES.map((severity) => ({
    severity,
    diagnostics: sorted.filter((d) => d.severity === severity),
  })).filter((g) => g.diagnostics.length > 0);
}

/** How many diagnostics there are of each severity. */
export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity] += 1;
  return counts;
}

/** `line:column` of a diagnostic, or null when it has no place in the source. */
export function formatLocation(d: Diagnostic): string | null {
  return hasPlace(d) ? `${d.span.line}:${d.span.column}` : null;
}
