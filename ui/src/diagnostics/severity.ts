import type { Severity } from '../generated/Severity';

/** Severities from most to least severe. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** 0 for errors, 1 for warnings, 2 for infos: sorts the most severe first. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** The most severe of `severities`, or null when there are none. */
export function worstSeverity(severities: Iterable<Severity>): Severity | null {
  let worst: Severity | null = null;
  for (const s of severities) {
    if (worst === null || severityRank(s) < severityRank(worst)) worst = s;
  }
  return worst;
}

/** Singular and plural nouns for a severity ("1 error", "2 warnings"). */
export function severityNoun(severity: Severity, count: number): string {
  const nouns: Record<Severity, [string, string]> = {
    error: ['error', 'errors'],
    warning: ['warning', 'warnings'],
    info: ['info', 'infos'],
  };
  return nouns[severity][count === 1 ? 0 : 1];
}
