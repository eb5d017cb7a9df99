import type { RunStatus } from '../generated/RunStatus';

/** A duration as a person reads it: `850 ms`, `4.2 s`, `3 m 12 s`, `1 h 05 m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} m ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} m`;
}

/** When something started, relative to `now` (`just now`, `5 min ago`, then the date). */
export function formatStarted(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const ago = now - at;
  if (ago < 45_000) return 'just now';
  if (ago < 3_600_000) return `${Math.round(ago / 60_000)} min ago`;
  if (ago < 86_400_000) return `${Math.round(ago / 3_600_000)} h ago`;
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * What a run's LLM calls cost: `$0.45`, four decimals under a cent (`$0.0042`), `—` when no
 * stage had a known price (dry runs included: the simulated backend prices nothing).
 */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null || !Number.isFinite(costUsd) || costUsd < 0) return '—';
  if (costUsd > 0 && costUsd < 0.01) return `$${costUsd.toFixed(4)}`;
  return `$${costUsd.toFixed(2)}`;
}

/**
 * A run's cost beside the cost limit its latest start or resume ran under: `$0.38 of $2.00`;
 * the cost alone when it ran without one.
 */
export function formatCostOfLimit(costUsd: number | null, maxCostUsd: number | null): string {
  const cost = formatCost(costUsd);
  return maxCostUsd === null ? cost : `${cost} of ${formatCost(maxCostUsd)}`;
}

/** A run's token counts for a tooltip: `150,000 input + 12,000 output tokens`. */
export function formatTokens(input: number, output: number): string {
  return `${input.toLocaleString('en-US')} input + ${output.toLocaleString('en-US')} output tokens`;
}

/** The words shown for a run status. */
export const RUN_STATUS_LABEL: Record<RunStatus, string> = {
  running: 'Running',
  success: 'Succeeded',
  fail: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
};

/** Whether a run in this status can be resumed. */
export function canResume(status: RunStatus): boolean {
  return status === 'fail' || status === 'cancelled' || status === 'interrupted';
}
